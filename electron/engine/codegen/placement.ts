/**
 * Where each transient lives in one generated program: the memory plan. The analysis decides eligibility and
 * allocation sites; the requested mode picks, per transient, one `Placement`. The plan is the only thing that
 * differs between modes, so every mode shares the same control flow, dataflow and memlet code.
 */
import type { TransientInfo } from '../analysis/types.js';
import type { DataDescriptor, Grammar, Sdfg, SdfgFile } from '../model/sdfg.js';
import { isAliasType } from '../analysis/aliases.js';
import { MAX_STACK_ARRAY_BYTES } from '../analysis/storage.js';
import { parseSym } from '../symbolic/index.js';
import { sizeValue } from './expr.js';
import type { GenerateOptions } from './types.js';

/** Where SCOPED mode allocates a transient (mirrors analysis AllocationSite for heap data). */
export type SiteKey =
  | { kind: 'sdfg' }
  | { kind: 'state'; stateJsonPath: string }
  | { kind: 'scope'; stateJsonPath: string; mapEntryId: number }
  /** Before block `firstJsonPath` runs, until block `lastJsonPath` ends (null: the end of region `regionJsonPath`). */
  | { kind: 'blocks'; regionJsonPath: string; firstJsonPath: string; lastJsonPath: string | null };

export type Placement =
  /** Allocated and freed at the site, on every execution of the site. */
  | { kind: 'heap'; storage: string; site: SiteKey }
  /** Allocated in init, freed in exit, pointer in the state struct. */
  | { kind: 'persistent'; storage: string; site: SiteKey }
  /** A workspace slot installed by the set functions. */
  | { kind: 'external'; storage: string; site: SiteKey }
  /** A local C++ array (Register storage). */
  | { kind: 'stack' }
  /** A name in `constants_prop`: a file-scope constexpr array holding the values stored in the file. */
  | { kind: 'constant' }
  /** Nothing is allocated: never accessed, or a view or reference (it owns no bytes). */
  | { kind: 'none' };

export interface MemoryPlan {
  placement(sdfg: Sdfg, name: string): Placement;
  /** Index into GeneratedProgram.transientIds (the tlab_alloc event tag). */
  transientIndex(sdfg: Sdfg, name: string): number;
  /** Concrete value of a root symbol, or null when unknown (dry runs). */
  symbolValue(name: string): bigint | null;
}

export interface ExternalSlotPlan {
  sdfg: Sdfg;
  name: string;
  storage: string;
  /** Byte offset for the packed layout; null = DaCe's back-to-back layout computed from the symbols. */
  packedOffset: bigint | null;
}

/** Whether `name` is a transient of `s` that `constants_prop` defines: compile-time data, never allocated. */
export function isConstantContainer(s: Sdfg, name: string): boolean {
  return s.constants.has(name) && s.arrays.get(name)?.transient === true;
}

/** Register data DaCe keeps on the stack: a Scalar, or a constant size of at most max_stack_array_size. */
function stackable(d: DataDescriptor, grammar: Grammar): boolean {
  if (d.type === 'Scalar') return true;
  if (d.storage !== 'Register' || d.type === 'Stream') return false;
  try {
    return sizeValue(parseSym(d.totalSize, grammar), () => null) * BigInt(d.dtype.bytes ?? 8) <= MAX_STACK_ARRAY_BYTES;
  } catch {
    return false;
  }
}

function siteOf(info: TransientInfo | null): SiteKey {
  const a = info?.allocation;
  if (a?.kind === 'state') return { kind: 'state', stateJsonPath: a.stateJsonPath };
  if (a?.kind === 'scope') return { kind: 'scope', stateJsonPath: a.stateJsonPath, mapEntryId: a.mapEntryId };
  if (a?.kind === 'blocks')
    return { kind: 'blocks', regionJsonPath: a.regionJsonPath, firstJsonPath: a.firstJsonPath, lastJsonPath: a.lastJsonPath };
  return { kind: 'sdfg' };
}

function normalStorage(storage: string): string {
  return storage === 'Default' ? 'CPU_Heap' : storage;
}

/** How one transient is materialised in the requested mode (the analysis decides eligibility and sites). */
export function placeTransient(
  s: Sdfg,
  d: DataDescriptor,
  info: TransientInfo | null,
  opts: GenerateOptions,
  accessed: boolean,
): Placement {
  if (!accessed) return { kind: 'none' };
  // A view or reference aliases another container: never a heap, init, workspace or stack buffer, whatever
  // lifetime the file writes (views.ts binds their pointers).
  if (isAliasType(d.type)) return { kind: 'none' };
  if (isConstantContainer(s, d.name)) return { kind: 'constant' };
  const site = siteOf(info);
  const storage = normalStorage(info?.effectiveStorage ?? d.storage);
  if (info?.allocation.kind === 'external' || d.lifetime === 'External') return { kind: 'external', storage, site };
  if (info?.allocation.kind === 'init' || d.lifetime === 'Persistent') return { kind: 'persistent', storage, site };
  if (opts.mode === 'PERSISTENT' && info?.eligible.PERSISTENT) return { kind: 'persistent', storage, site };
  if (opts.mode === 'EXTERNAL' && info?.eligible.EXTERNAL) return { kind: 'external', storage, site };
  // The analysis decides what lives on the stack (Scalars, Register data of constant size up to DaCe's
  // max_stack_array_size); everything else goes through the allocator at its site, as DaCe's heap fallback.
  // A stream's queues are heap memory whatever its storage (streams.ts), at its site in every mode.
  if (d.type === 'Stream') return { kind: 'heap', storage, site };
  if (info ? info.allocation.kind === 'none' : d.type === 'Scalar') return { kind: 'stack' };
  return { kind: 'heap', storage, site };
}

/** The plan of the subset check's emission: every transient on the heap at SDFG level, symbols all 1. */
export function dryRunPlan(file: SdfgFile): MemoryPlan {
  return {
    placement: (s, name) => {
      const d = s.arrays.get(name)!;
      if (isAliasType(d.type)) return { kind: 'none' };
      if (isConstantContainer(s, name)) return { kind: 'constant' };
      if (stackable(d, file.grammar)) return { kind: 'stack' };
      return { kind: 'heap', storage: normalStorage(d.storage), site: { kind: 'sdfg' } };
    },
    transientIndex: () => 0,
    symbolValue: (name) => (file.root.symbols.has(name) ? 1n : null),
  };
}
