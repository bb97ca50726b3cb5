/**
 * The memory figures of each call, and of the whole subject per mode and storage:
 *   EXTERNAL   one workspace per storage shared by every call: the largest need of any call;
 *   PERSISTENT every program holds its own transients at once: the sum over programs (each at its largest call);
 *   SCOPED     allocated and freed inside each call: the largest peak of live bytes of any call;
 *   POOL       on CPU it is SCOPED; on GPU the pool keeps at least that peak reserved (profile measures it).
 */
import { MODES, type Analysis, type Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';

export type PerStorage = Record<string, bigint | null>;

export interface CallFigures {
  position: number;
  program: string;
  symbols: Record<string, bigint>;
  /** EXTERNAL's workspace per storage, in each layout (null: symbolic). */
  workspace: Record<Layout, PerStorage>;
  /** Slot alignment of the packed layout per storage. */
  alignment: Record<string, number>;
  /** Bytes PERSISTENT holds from init to exit, per storage. */
  persistent: PerStorage;
  /** SCOPED's peak of live bytes, per storage. */
  peak: PerStorage;
  allocsPerCall: Record<Mode, bigint | null>;
}

const holdsBytes = (a: Analysis['transients'][number]): boolean => a.alias === null && a.allocation.kind !== 'none';

export function callFigures(position: number, program: string, a: Analysis): CallFigures {
  const packed: PerStorage = {};
  const dace: PerStorage = {};
  const alignment: Record<string, number> = {};
  for (const [s, l] of Object.entries(a.layouts.dace)) dace[s] = l.bytes;
  for (const [s, l] of Object.entries(a.layouts.packed)) {
    packed[s] = l ? l.bytes : null;
    if (l) alignment[s] = l.alignment;
  }
  const persistent: PerStorage = {};
  for (const t of a.transients) {
    if (!holdsBytes(t) || !(t.eligible.PERSISTENT || t.allocation.kind === 'init')) continue;
    const prev = persistent[t.effectiveStorage];
    persistent[t.effectiveStorage] = prev === null || t.bytes === null ? null : (prev ?? 0n) + t.bytes;
  }
  const allocsPerCall = Object.fromEntries(MODES.map((m) => [m, a.modes[m].perCall.allocs])) as Record<Mode, bigint | null>;
  const symbols = Object.fromEntries([...a.symbols].map(([k, v]) => [k, v.value]));
  return { position, program, symbols, workspace: { packed, dace }, alignment, persistent, peak: { ...a.peakLiveBytes }, allocsPerCall };
}

/** A storage's entry, 0 where the row lacks it; null (symbolic) stays null. */
export const entry = (r: PerStorage, storage: string): bigint | null => {
  const v = r[storage];
  return v === undefined ? 0n : v;
};

const storagesOf = (rows: PerStorage[]): string[] => [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();

/** Largest value per storage (null when any is symbolic); a storage a call lacks counts as 0 there. */
export function maxPerStorage(rows: PerStorage[]): PerStorage {
  const out: PerStorage = {};
  for (const s of storagesOf(rows)) {
    let acc: bigint | null = 0n;
    for (const r of rows) {
      const v = entry(r, s);
      acc = acc === null || v === null ? null : v > acc ? v : acc;
    }
    out[s] = acc;
  }
  return out;
}

function sumPerStorage(rows: PerStorage[]): PerStorage {
  const out: PerStorage = {};
  for (const s of storagesOf(rows)) {
    let acc: bigint | null = 0n;
    for (const r of rows) {
      const v = entry(r, s);
      acc = acc === null || v === null ? null : acc + v;
    }
    out[s] = acc;
  }
  return out;
}

/** Bytes each mode holds for transients across the subject, per storage (see the module comment). */
export function footprints(calls: CallFigures[], layout: Layout): Record<Mode, PerStorage> {
  const byProgram = new Map<string, CallFigures[]>();
  for (const c of calls) byProgram.set(c.program, [...(byProgram.get(c.program) ?? []), c]);
  const persistent = sumPerStorage([...byProgram.values()].map((cs) => maxPerStorage(cs.map((c) => c.persistent))));
  const peak = maxPerStorage(calls.map((c) => c.peak));
  return { SCOPED: peak, PERSISTENT: persistent, POOL: peak, EXTERNAL: maxPerStorage(calls.map((c) => c.workspace[layout])) };
}
