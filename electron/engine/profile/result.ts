/**
 * The `transient-lab/profile@1` result document (docs/profile-schema.md): plain schema types and the schema's
 * name, nothing else. Plain JSON: no bigint, no Map. Hosts and the renderer's contract import this file alone.
 */
import type { Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import type { JsonInteger } from '../json.js';
import type { NumberColumns } from './columns.js';

export const PROFILE_SCHEMA = 'transient-lab/profile@1';

export type LayoutChoice = Layout | 'both';

/** Symbol values: numbers, or decimal strings beyond 2^53 (engine/json.ts). */
export type { JsonInteger };

/** One value per kept timed call, column by column (columns.ts PER_CALL_COLUMNS, in that order): every call,
 * or the evenly spaced subsample that `ModeResult.sampling` describes. */
type PerCallColumns = NumberColumns;

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
  /** Exact means over every timed call (added in @1, additive: older results lack them; readers then take the
   * means of the per-call columns, which held every call). */
  freesPerCall?: number;
  allocNsPerCall?: number;
  freeNsPerCall?: number;
  allocBytesPerCall?: number;
}

/** Present when a mode timed more calls than the result keeps rows for (docs/profile-schema.md, "Sampling"). */
interface CallSampling {
  /** Timed calls measured, every process together: what `summary` and `deviceMedianNs` cover. */
  calls: number;
  /** Rows kept of each process: of its n = settings.calls timed calls, those at indices floor(i·n / k),
   * i = 0 … k − 1; the per-call columns hold k × processes rows, process after process. */
  keptPerProcess: number;
}

/** One instrumented allocation or free of the sampled call. */
export interface AllocationEvent {
  /** Transient id, `<sdfg index>:<name>` as in the analysis (`transient-lab/analysis@1`). */
  transient: string;
  kind: 'alloc' | 'free';
  /** From the start of the call to the start of the allocation or free. */
  startNs: number;
  /** Time inside the allocator (operator new[] / delete[]; on a GPU, host time around cudaMalloc(Async) /
   * cudaFree(Async)). */
  durationNs: number;
  bytes: number;
  /** A device allocation or free (GPU runs; additive, absent for host memory). */
  device?: true;
}

/** One timed call of a mode with its allocation events in the order they were recorded. */
export interface SampledCall {
  /** Index into `calls.totalNs` (and the other per-call arrays) of this call; with `sampling`, its index among
   * all timed calls (process p's call j is p·settings.calls + j), which the kept rows may not include. */
  call: number;
  /** That call's time (equal to `calls.totalNs[call]`). */
  totalNs: number;
  /** The event buffer overflowed in this call: `events` are its first events only. */
  overflowed: boolean;
  events: AllocationEvent[];
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
  /** Untimed calls before the timed ones in each timing process: the warm-up, plus the calls it took until the
   * page faults per call settled (docs/profile.md). Absent in results written before it was recorded. */
  warmupCalls?: number[];
  calls: PerCallColumns;
  /** Absent when `calls` holds every timed call; else which calls it holds (additive). */
  sampling?: CallSampling;
  /** The per-call event buffer overflowed: alloc/free times and counts are lower bounds. */
  eventsOverflowed: boolean;
  /** The runner's own cost per timed call beyond the C++-timed call (timestamps, getrusage, event sums and
   * copies, the progress store): (wall time of the native timed loop − Σ totalNs) / calls. */
  runnerOverheadNsPerCall: number;
  summary: CallSummary;
  /** The timed call nearest the median of all timed calls of this mode (docs/profile-schema.md says how it is
   * picked); null when no call was timed. Warm-up and verification calls are never sampled. */
  sampledCall: SampledCall | null;
  workspaceBytes: Record<string, number>;
  /** Bytes the mode allocates in init and holds until exit: transients moved there (PERSISTENT) and those the
   * file already makes Persistent, as the program's analysis sizes them. Absent in older results, and when a
   * size is not known. Additive field of profile@1. */
  initBytes?: number;
  /** The label of the first mode of this run whose build is the same library (the same generated code, flags and
   * runtime): the two time the same program, so a difference between them is not their modes'. Absent when no
   * earlier mode shares it. Additive field of profile@1. */
  sameCodeAs?: string;
  /** sha256 (hex) of every array argument's C-order bytes after the first verification call. */
  outputChecksums: Record<string, string>;
  /** GPU runs only (docs/profile-schema.md, "GPU additions"). `calls.totalNs` is then host time with the device
   * synchronised before the clock stops; `calls.allocNs`/`freeNs` host time around the allocation API calls. */
  gpu?: GpuModeResult; /** false: allocations inside the library were not measured (a DaCe-built library records no events), so the
   * allocation columns and `summary.allocsPerCall`/`allocShare` are not measurements. Absent: measured. Additive. */
  allocationsMeasured?: false;
  /** With `allocationsMeasured: false`: why they were not measured (a DaCe build that could not be interposed). */
  allocationsUnmeasured?: string;
  /** Allocation figures measured by interposition (`--interpose`, and every DaCe build): what the hooks saw
   * (docs/interpose.md). Additive. */
  interposition?: InterpositionFacts;
  /** The mode ran a library DaCe built (`profile FOLDER…`, docs/dace-folders.md). Additive. */
  daceFolder?: DaceFolderSource;
}

/** Where a DaCe-built mode came from, and how its mode was read (never from the folder's name). */
interface DaceFolderSource {
  path: string;
  /** sha256 (hex) of the folder's program.sdfgz / program.sdfg. */
  sdfgSha256: string;
  /** What made it this mode: the SDFG's lifetimes and storages, the External functions its build exports. */
  modeReason: string;
  /** "built by DaCe <version>, <date>, <build type>, flags …" from the build's CMakeCache, or null. */
  builtBy: string | null;
}

/** The stream-ordered pool's attributes, read after the mode's timed calls (cudaMemPoolGetAttribute). */
interface PoolAttributes {
  /** cudaMemPoolAttrReservedMemHigh / UsedMemHigh, bytes. */
  reservedHighBytes: number;
  usedHighBytes: number;
  /** cudaMemPoolAttrReleaseThreshold as a decimal string (UINT64_MAX does not fit a double). */
  releaseThreshold: string;
}

export interface GpuModeResult {
  /** Device time of each kept timed call from CUDA events around it (same rows as `calls.totalNs`). */
  deviceNs: number[];
  /** Median over every timed call. */
  deviceMedianNs: number;
  /** Host time of each timed call until `__tlab_program` returned (API calls and launches, async alloc/free
   * enqueued), and until the device was done (additive). */
  hostReturnNs?: number[];
  hostSyncNs?: number[];
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

type VerificationDetailKind = 'divergence' | 'uninitialised-read' | 'guard-overflow' | 'note';

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

export interface LibraryNodeResult {
  label: string;
  /** `MatMul`, `Gemm`, `Reduce`, … */
  className: string;
  jsonPath: string;
  implementation: 'pure' | 'blas';
  /** The library its code calls (`OpenBLAS`, `LAPACKE`); null for pure loops. */
  library: string | null;
}

/** One argument generated index-safe (`ProfileResult.indexInputs`). */
export interface IndexInput {
  argument: string;
  /** Inclusive bounds of the generated values (after the loop start/end half split). */
  min: number;
  max: number;
  /** Why: `indexes A dim 0`, with `(loop start: its lowest value)` / `(loop end: its highest value)` where that applies. */
  reason: string;
}

export interface ProfileResult {
  schema: typeof PROFILE_SCHEMA;
  /** When the result was assembled (ISO 8601, UTC). Additive field of profile@1: older results lack it. */
  createdAt?: string;
  program: { name: string; file: string; hash: string };
  machine: {
    cpu: string;
    cores: number;
    compiler: string;
    os: string;
    node: string;
    /** Share of all cores other processes kept busy just before timing (0…1; machine.ts). Additive field of
     * profile@1: absent in older results and where /proc/stat cannot be read. */
    othersBusy?: number;
  };
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
    /** GPU runs only: the default pool's release threshold init sets when a transient is pooled, a decimal
     * string (DaCe's UINT64_MAX unless `--pool-release-threshold`). Additive. */
    poolReleaseThreshold?: string;
    /** `--library-impl` as given (`blas`, `blas,gemm=pure`); absent: pure everywhere. Additive. */
    libraryImpl?: string;
    /** Symbols that --default-symbol would have set, set instead to what the program's own reads need
     * (profile/derive-symbols.ts); `symbols` holds them too. Absent without one. Additive. */
    derivedSymbols?: Record<string, JsonInteger>;
  };
  /** Each library node and the expansion that ran in its place, in every mode (the per-call times include
   * it). Absent when the program has no expanded library node. Additive field of profile@1. */
  libraryNodes?: LibraryNodeResult[];
  /** Integer arguments generated inside the range their use as indices allows (profile/index-inputs.ts).
   * Absent when none. Additive field of profile@1. */
  indexInputs?: IndexInput[];
  modes: ModeResult[];
  verification: {
    /** All modes produced the same outputs (bitwise, or within `tolerance`). */
    identical: boolean;
    /** Relative tolerance used when the float order is nondeterministic (parallel reductions) or the compiler flags let each mode round differently. */
    tolerance?: number;
    /** No divergence, no uninitialised read, no workspace overflow. */
    ok: boolean;
    /** The cross-mode comparison had nothing to compare (no written array argument, one mode only, or no
     * outputs from the reference): `identical` is then true without meaning anything, and a `note` detail
     * says why. */
    vacuous: boolean;
    /** The written array arguments (the program's outputs) compared across modes; [] when vacuous. */
    compared: string[];
    details: VerificationDetail[];
  };
  notes: string[];
  warnings: string[];
  /** GPU runs only: the device the modes ran on (for `cuda-host`, a record that names the host emulation). */
  device?: ProfileDevice;
  /** GPU runs only: `cuda` on a CUDA device, `cuda-host` emulated on the host CPU (`--gpu host`): every time of
   * such a run is a host time of the emulation, never a device time. Additive. */
  backend?: 'cuda' | 'cuda-host';
  /** Present when outputs were saved (`--save-outputs`): where they are. `fallbackReason` non-null means the
   * requested folder could not be written and `dir` is a fallback folder (a warning says so too). */
  savedOutputs?: { requested: string; dir: string; fallbackReason: string | null };
}

/** What interposition saw for one variant (one runner process, or several pooled; docs/interpose.md). */
export interface InterpositionFacts {
  /** Imported allocation functions whose GOT slots were hooked (the addon's InterposeReport.patched). */
  patched: string[];
  /** Imported allocation functions left alone, with the reason. */
  skipped: string[];
  /** Allocations and frees intercepted inside the program call windows of the timed calls. */
  interceptedCalls: number;
  /** Intercepted calls outside any program call window (init, exit) in the whole process. */
  outsideWindowCalls: number;
  /** Allocations the program is known to make per call — from our runtime header's events for generated code,
   * from the SDFG for a DaCe build — or null when nothing says. */
  expectedAllocationsPerCall: number | null;
  /** Calls in which both the hooks and the library's runtime header timed the allocations (the verification
   * calls of generated code), with each side's allocation + free time summed over them: the header's timestamps
   * bracket the hook, so the two differ by the hooks' own cost. Absent when no such call was made. */
  sameCall?: { calls: number; headerNs: number; hookNs: number };
}
