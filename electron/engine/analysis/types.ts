/**
 * Result types of the transient analysis. `toAnalysisJson` (analysis/json.ts) turns an `Analysis` into the
 * versioned `transient-lab/analysis@1` document; internally every byte count is an exact `bigint`
 * (sizes past 2^53 happen on real climate models).
 */
import type { SdfgFile } from '../model/sdfg.js';
import type { BlockRule } from './eligibility.js';
import type { LibraryExpansion } from '../sdfg/expand/index.js';
import type { LibraryImplChoice } from '../sdfg/expand/impl.js';

export const MODES = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const;
export type Mode = (typeof MODES)[number];
export type Target = 'cpu' | 'gpu';

/**
 * `refined`: every rule of docs/liveness.md — live sets per program point on the flow graph (§3.7), several
 * intervals per transient where a value is dead between uses. `interval`: the rules of issue 6 — one interval
 * per transient, grown over the loops around it except write-first loops and callers' loops (§3.1–§3.5).
 * `baseline`: the rules before issue 6 (an AccessNode always counts over its whole state span; only
 * LoopRegions whose body starts with the overwrite are write-first). The bench measures all three.
 */
export type LivenessRules = 'refined' | 'interval' | 'baseline';

export interface AnalysisOptions {
  /** Symbol values given by the user (`--symbols N=64`). */
  symbols: Map<string, bigint>;
  /** Value for every symbol the user did not give (`--default-symbol V`); null = leave symbolic. */
  defaultSymbol: bigint | null;
  /** Override of the detected target. */
  target: Target | null;
  /** Which live-range rules to apply (docs/liveness.md); default `refined`. The others exist for comparison. */
  liveness?: LivenessRules;
  /** Which implementation expands each library node (`--library-impl`); default pure everywhere. */
  libraryImpl?: LibraryImplChoice;
}

/** One numbered step of the linearised program: a state execution point, in program order. */
export interface Step {
  index: number;
  /** Human label: `sdfgName/stateLabel`, with loop/branch context, e.g. `main/for_i/body_state`. */
  label: string;
  sdfg: number;
  jsonPath: string;
}

/** Where and how often a transient is allocated when it is NOT made persistent/external. */
export type AllocationSite =
  /** Allocated at the start of an SDFG invocation (lifetime SDFG/Global, or Scope used in several states). */
  | { kind: 'sdfg'; sdfg: number }
  /** Allocated at the start of one state, freed at its end. */
  | { kind: 'state'; sdfg: number; stateJsonPath: string }
  /** Allocated inside a map scope: once per iteration of the enclosing map(s). */
  | { kind: 'scope'; sdfg: number; stateJsonPath: string; mapEntryId: number }
  /**
   * Allocated right before block `firstJsonPath` of region `regionJsonPath` runs and freed right after block
   * `lastJsonPath` (null: at the end of the region): a transient whose size uses symbols its SDFG assigns,
   * allocated where they have their value (DaCe: from the first to the last state that uses it).
   */
  | { kind: 'blocks'; sdfg: number; regionJsonPath: string; firstJsonPath: string; lastJsonPath: string | null }
  /** Allocated in init, freed in exit (lifetime Persistent in the file). */
  | { kind: 'init' }
  /** Provided by the caller's workspace (lifetime External in the file). */
  | { kind: 'external' }
  /** Nothing is allocated: views, references, stack (Register/GPU_Shared) data, never-accessed data. */
  | { kind: 'none'; why: string };

export interface TransientInfo {
  /** Unique across nested SDFGs: `<sdfgIndex>:<name>` (root names are `0:name`). */
  id: string;
  sdfg: number;
  sdfgName: string;
  name: string;
  /** Descriptor class (`Array`, `Scalar`, `ArrayView`, …). */
  type: string;
  /** dtype name (`float64`, `pointer<float32>`, `struct vec3d`, …). */
  dtype: string;
  shape: string[];
  /** Storage as written in the file. */
  storage: string;
  /** Storage after resolving `Default` (gt4py: Default Arrays count as CPU_Heap). */
  effectiveStorage: string;
  lifetime: string;
  /** Footprint `total_size × bytes(dtype)`; null when it depends on unknown symbols. */
  bytes: bigint | null;
  /** The same footprint as an expression (always available). */
  bytesExpr: string;
  eligible: { PERSISTENT: boolean; EXTERNAL: boolean };
  /** Why the transient is not eligible for PERSISTENT and/or EXTERNAL (null when eligible for both). */
  reason: string | null;
  /** The rule behind `reason` as data (analysis/eligibility.ts), null when eligible for both. */
  block: BlockRule | null;
  /** Conservative live range over `Analysis.steps` (inclusive): the hull of `liveSegments`; null when never accessed. */
  live: { first: number; last: number } | null;
  /**
   * The steps where the transient may hold a value that is still read, as sorted disjoint inclusive
   * intervals inside `live` (several where it is dead between uses, e.g. inside a loop); null when `live` is.
   */
  liveSegments: Array<{ first: number; last: number }> | null;
  /** Allocation site in SCOPED mode. */
  allocation: AllocationSite;
  /** How many times the allocation site runs per program call; null when unknown (data-dependent loops). */
  executionsPerCall: bigint | null;
  jsonPath: string;
  /**
   * Views and references (and members of one): they own no bytes and are never summed. What they alias:
   * `viewOf` is the aliased container's id (`<sdfg>:<name>` for a transient, the bare name for an argument of
   * its SDFG), null when not known statically (`reason` says why). Null for every other transient.
   */
  alias: AliasInfo | null;
  /** A transient a library node's expansion created (sdfg/expand): that node's label. */
  expandedFrom?: string;
  /** A member of a structure (`p_diag.vt`, a view's member): the structure's path (`p_diag`). */
  insideStructure?: string;
}

export interface AliasInfo {
  viewOf: string | null;
  reason: string | null;
}

export interface ModePlan {
  perCall: { allocs: bigint | null; frees: bigint | null; bytes: bigint | null };
  init: { allocs: number; bytes: bigint | null };
  /** Workspace bytes per storage for EXTERNAL (packed layout); `{}` for other modes. */
  workspace: Record<string, bigint | null>;
  /** Ids of transients that still allocate on every call in this mode. */
  stillAllocating: string[];
  /** Pooled allocations per call (POOL on GPU). */
  pooled: number;
  notes: string[];
}

export interface DaceStorageLayout {
  /** `__dace_get_external_memory_size_<S>` result; null when symbolic. */
  bytes: bigint | null;
  /** The same size as an expression over the symbols. */
  bytesExpr: string;
  /** Offsets in declaration (arrays_recursive) order; a number, or an expression when symbolic. */
  offsets: Map<string, bigint | string>;
  order: string[];
}

export interface PackedStorageLayout {
  bytes: bigint;
  alignment: number;
  offsets: Map<string, bigint>;
  /** Peak live bytes of the placed transients: no layout can be smaller. */
  lowerBound: bigint;
  /** Sum of the aligned sizes: the packed total never exceeds it. */
  alignedSum: bigint;
}

export interface Analysis {
  file: SdfgFile;
  target: Target;
  targetReason: string;
  /** Symbols that got a value, and where from. */
  symbols: Map<string, { value: bigint; source: 'user' | 'default' }>;
  /** Free symbols that remained unknown (sizes stay symbolic). */
  unresolvedSymbols: string[];
  steps: Step[];
  transients: TransientInfo[];
  modes: Record<Mode, ModePlan>;
  layouts: {
    dace: Record<string, DaceStorageLayout>;
    /** null per storage when sizes are symbolic (packing needs numbers). */
    packed: Record<string, PackedStorageLayout | null>;
  };
  peakLiveBytes: Record<string, bigint | null>;
  warnings: string[];
  /** The implementation choice `file` was expanded with; code generated from this analysis uses it too. */
  libraryImpl: LibraryImplChoice;
  /** Each expanded library node and the implementation that replaced it. */
  libraryExpansions: LibraryExpansion[];
}
