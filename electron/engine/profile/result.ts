/**
 * The `transient-lab/profile@1` result document (docs/profile-schema.md): plain schema types and the schema's
 * name, nothing else. Plain JSON: no bigint, no Map. Hosts and the renderer's contract import this file alone.
 */
import type { Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';

export const PROFILE_SCHEMA = 'transient-lab/profile@1';

export type LayoutChoice = Layout | 'both';

/** Symbol values: numbers, or decimal strings beyond 2^53. */
export type JsonInteger = number | string;

/** One value per timed call, column by column (also what the runner sends back). */
export interface PerCallColumns {
  totalNs: number[];
  allocNs: number[];
  freeNs: number[];
  allocs: number[];
  frees: number[];
  allocBytes: number[];
  minorFaults: number[];
}

/** Per-call statistics of one mode's timed calls (engine/profile/stats.ts computes them). */
export interface CallSummary {
  medianNs: number;
  p10Ns: number;
  p90Ns: number;
  meanNs: number;
  allocsPerCall: number;
  /** Share of call time spent inside instrumented allocations and frees (0…1). */
  allocShare: number;
  minorFaultsPerCall: number;
}

export interface ModeResult {
  mode: Mode;
  /** EXTERNAL: the workspace layout timed; null for the other modes. */
  layout: Layout | null;
  /** `SCOPED`, `EXTERNAL (packed)`, … */
  label: string;
  /** `flags`: every flag the compiler got for this mode's library (additive, see docs/profile-schema.md). */
  build: { ms: number; cached: boolean; flags: string[] };
  initNs: number;
  exitNs: number;
  firstCallNs: number;
  calls: PerCallColumns;
  /** The per-call event buffer overflowed: alloc/free times and counts are lower bounds. */
  eventsOverflowed: boolean;
  /** The runner's own cost per timed call beyond the C++-timed call (JS → addon transition, argument
   * marshalling, stats collection): (wall time of the batches − Σ totalNs) / calls. */
  runnerOverheadNsPerCall: number;
  summary: CallSummary;
  workspaceBytes: Record<string, number>;
  /** sha256 (hex) of every array argument's C-order bytes after the first verification call. */
  outputChecksums: Record<string, string>;
  /** GPU runs only (docs/profile-schema.md, "GPU additions"). `calls.totalNs` is then host time with the device
   * synchronised before the clock stops; `calls.allocNs`/`freeNs` host time around the allocation API calls. */
  gpu?: GpuModeResult;
}

/** The stream-ordered pool's attributes, read after the mode's timed calls (cudaMemPoolGetAttribute). */
export interface PoolAttributes {
  /** cudaMemPoolAttrReservedMemHigh / UsedMemHigh, bytes. */
  reservedHighBytes: number;
  usedHighBytes: number;
  /** cudaMemPoolAttrReleaseThreshold as a decimal string (UINT64_MAX does not fit a double). */
  releaseThreshold: string;
}

export interface GpuModeResult {
  /** Device time of each timed call from CUDA events around it (same order as `calls.totalNs`). */
  deviceNs: number[];
  deviceMedianNs: number;
  /** Null for modes that do not allocate from the pool. */
  pool: PoolAttributes | null;
}

/** The device a GPU run used (the addon's `cudaDevices()` entry, plus versions). */
export interface ProfileDevice {
  index: number;
  name: string;
  totalMemoryBytes: number;
  computeCapability: string;
  multiprocessors: number;
  memoryPools: boolean;
  /** 1000·major + 10·minor. */
  runtimeVersion: number;
  driverVersion: number;
}

export type VerificationDetailKind = 'divergence' | 'uninitialised-read' | 'guard-overflow' | 'note';

export interface VerificationDetail {
  kind: VerificationDetailKind;
  /** Mode label the detail is about. */
  mode: string;
  message: string;
  /** divergence: the mode compared against. */
  reference?: string;
  array?: string;
  /** divergence / uninitialised-read: first differing element, multi-dimensional. */
  index?: number[];
  /** [reference value, this mode's value] or [verification call 1, call 2]. */
  values?: [string, string];
  /** uninitialised-read: transients that may be read before written; guard-overflow: the slot. */
  transients?: string[];
}

export interface ProfileResult {
  schema: typeof PROFILE_SCHEMA;
  program: { name: string; file: string; hash: string };
  machine: { cpu: string; cores: number; compiler: string; os: string; node: string };
  settings: {
    modes: Mode[];
    layout: LayoutChoice;
    /** Timed calls per process. */
    calls: number;
    warmup: number;
    /** Fresh runner processes per mode; the per-call arrays hold calls × processes entries. */
    processes: number;
    symbols: Record<string, JsonInteger>;
    seed: JsonInteger;
    inputs: Record<string, string>;
    /** Optimisation and target flags every mode was compiled with: DaCe's defaults unless the caller chose
     * others (`--cxxflags`). Additive field of profile@1. */
    cxxflags: string[];
  };
  modes: ModeResult[];
  verification: {
    /** All modes produced the same outputs (bitwise, or within `tolerance`). */
    identical: boolean;
    /** Relative tolerance used when the program's float order is nondeterministic. */
    tolerance?: number;
    /** No divergence, no uninitialised read, no workspace overflow. */
    ok: boolean;
    details: VerificationDetail[];
  };
  notes: string[];
  warnings: string[];
  /** GPU runs only: the device the modes ran on. */
  device?: ProfileDevice;
}
