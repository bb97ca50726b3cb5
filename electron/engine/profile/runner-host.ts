/**
 * What the profiler needs from a process host, and the job it hands over: run one job in a fresh, supervised
 * runner process and return each variant's measurements. The engine defines this interface; electron/runner
 * implements it (NodeRunnerHost with child_process.fork; the Electron shell will pass a utilityProcess host).
 * The engine never imports a concrete host: the CLI, the server and the tests inject one.
 *
 * These types cross the process boundary with structured-clone serialisation, so bigints and typed arrays
 * travel as they are.
 */
import type { Mode } from '../analysis/types.js';
import type { ExternalStorage, Layout, ProgramArg } from '../codegen/types.js';
import type { DaceCallSpec } from '../dace/types.js';
import { TlabError } from '../errors.js';
import type { ColumnSums, TypedColumns } from './columns.js';
import type { InterpositionFacts } from './result.js';
import type { SampledCall } from './result.js';

/** One compiled variant (mode + layout) to load and measure. */
export interface VariantJob {
  /** `SCOPED`, `EXTERNAL (packed)`, … (used in messages). */
  label: string;
  mode: Mode;
  /** null for modes without a workspace layout. */
  layout: Layout | null;
  libPath: string;
  /** Init symbol values in `__tlab_init` order. */
  initSymbols: bigint[];
  args: ProgramArg[];
  transientIds: string[];
  externals: ExternalStorage[];
  /** A GPU program (CUDA, docs/gpu.md): array arguments and GPU workspaces live in device memory and calls go
   * through `__tlab_gpu_timed_program`. Absent or false: the CPU path, unchanged. */
  gpu?: boolean;
  /** Every symbol's value as the program was specialised for it (decimal strings), for messages: an argument
   * overrun names them. Absent: the messages name none. */
  symbols?: Record<string, string>;
  /** A DaCe-built library (docs/dace-folders.md): called through libffi with these signatures of its build, not
   * through `__tlab_*` trampolines. Absent: a library Transient Lab generated. */
  dace?: DaceCallSpec;
}

export interface RunJob {
  variants: VariantJob[];
  /** Argument bytes by name (arrays: whole allocation; scalars/symbols: one value). Every call of every
   * variant starts verification from a fresh copy. */
  inputs: Record<string, Uint8Array>;
  /** Timed calls (after warmup); 0 = verification only (no first call, warm-up or timed calls). */
  calls: number;
  warmup: number;
  /** After the warm-up, at most this many more untimed calls until three calls in a row fault (almost) no pages:
   * glibc has then settled on where the program's blocks go, in the runner as in a C program (docs/native.md,
   * "Matching a bare C driver"). 0 = exactly `warmup` calls. */
  settle: number;
  /** Poison bytes of the two verification calls (they must differ) and the guard byte. */
  poison: [number, number];
  guardByte: number;
  /** Guard bytes around every slot of the verification workspace layout (≥ 64). */
  guardBytes: number;
  /** Skip the verification calls (benchmarks that only time). */
  skipVerification?: boolean;
  /** Before the variants, measure the addon's own costs with this many iterations (benchmarks). */
  calibrate?: number;
  /** Per-call rows each timing process keeps for the result (samples.ts `keptPerProcess`: evenly spaced calls
   * beyond it); times and sums always cover every call. Absent: MAX_KEPT_CALLS. */
  keepCalls?: number;
  /** Allocation figures by interposition (docs/interpose.md): the runner hooks each library's allocation calls
   * and reports what the hooks timed instead of what the runtime header recorded. Absent or false: the header's. */
  interpose?: boolean;
}

/** The addon's fixed costs, measured in the runner (the addon is never loaded elsewhere). */
export interface Calibration {
  /** One instrumentation event (two timestamps and a record). */
  eventCostNs: number;
  /** Calling an empty C function through the path `run` uses. */
  callOverheadNs: number;
  /** Jobs with `interpose`: what an allocation hook adds per intercepted call (docs/interpose.md). */
  interposeHookNs?: number;
}

/** `arguments`: GPU programs only, copying the inputs (and verification's guarded workspaces) to the device. */
export type Phase = 'load' | 'init' | 'workspace' | 'verify-1' | 'verify-2' | 'arguments' | 'first-call' | 'warmup' | 'calls' | 'exit';

export interface GuardViolation {
  storage: string;
  /** Transient id of the slot whose guard was overwritten (the slot before the guard, or the first slot). */
  slot: string;
  /** Which guard: after the slot (overflow) or before the first slot (underflow). */
  where: 'after' | 'before';
  /** First modified guard byte, relative to the guard's start. */
  byteOffset: number;
}

/**
 * A process's timed calls (or, pooled, every process's in process order), in memory bounded at any number of
 * calls (samples.ts): typed arrays, never JS arrays of numbers.
 */
export interface VariantTiming {
  /** Timed calls measured. */
  calls: number;
  /** Every timed call's time, in call order: the quantiles are exact over all calls. */
  totalNs: Float64Array;
  /** Each column's exact sum over every timed call. */
  sums: ColumnSums;
  /** The per-call rows the result keeps: every call, or `keptPerProcess` evenly spaced calls of each process
   * (samples.ts `keptIndex`), in process order. */
  kept: TypedColumns;
  /** Rows kept of each timing process (= its calls when nothing was left out; 0 when nothing was timed). */
  keptPerProcess: number;
  /** Median minor page faults per call of each timing process, in process order. */
  faultMedians: number[];
  /** The event buffer overflowed in some call: alloc/free times are lower bounds. */
  overflowed: boolean;
  /** Wall time of the native loop around all timed calls: minus Σ totalNs, it is the runner's own per-call
   * cost (timestamps, getrusage, event sums and copies, progress). */
  batchWallNs: number;
  /** Untimed calls each process made before its timed calls (warm-up plus settling), in process order. */
  warmupCalls: number[];
}

/** GPU programs: what the runner measured on the device, per process (docs/gpu.md, "The runner on a GPU"). */
export interface VariantGpuTiming {
  /** CUDA-event time on the stream of every timed call, in the order of `timing.totalNs` (exact median). */
  deviceNs: Float64Array;
  /** The rows of `timing.kept`: device time, host time until `__tlab_program` returned, host time until the
   * device was done. */
  kept: { deviceNs: Float64Array; hostReturnNs: Float64Array; hostSyncNs: Float64Array };
  /** The default pool after the timed calls (high-water marks reset right before them); null when the library
   * pools nothing (`__tlab_gpu_pooled` 0) or no call was timed. */
  pool: { reservedHighBytes: number; usedHighBytes: number; releaseThreshold: bigint } | null;
}

export interface VariantResult {
  label: string;
  initNs: number;
  exitNs: number;
  firstCallNs: number;
  /** Workspace bytes per storage as the library reports them (EXTERNAL), else {}. */
  workspaceBytes: Record<string, bigint>;
  /** Output bytes of every array argument after verification call 1 / call 2 (null when skipped). */
  outputs: Record<string, Uint8Array> | null;
  outputsSecond: Record<string, Uint8Array> | null;
  /** Transients that got poisoned memory in the verification calls (candidates for uninitialised reads). */
  poisonedTransients: string[];
  guardViolations: GuardViolation[];
  timing: VariantTiming;
  /** The timed call of this process nearest its median, with its allocation events (`call` indexes this
   * process's timed calls); null when none could be kept. */
  sampledCall: SampledCall | null;
  /** GPU programs only. */
  gpu?: VariantGpuTiming;
  /** Jobs with `interpose`, and DaCe builds (interposed by default): what the hooks saw (the allocation columns of
   * `timing` are theirs). */
  interposition?: InterpositionFacts;
  /** false: the library records no allocation events (a DaCe build), so the allocation columns are not
   * measurements. Absent: measured. */
  allocationsMeasured?: false;
  /** With `allocationsMeasured: false`: why (a DaCe build whose allocation calls could not be interposed). */
  allocationsUnmeasured?: string;
}

export interface RunnerProgress {
  variant: string;
  phase: Phase;
  /** Set during `calls`. */
  done?: number;
  total?: number;
}

export interface RunOptions {
  onProgress?: (p: RunnerProgress) => void;
  /** Whole-job limit; the child is killed when it passes. 0 or absent = none. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Runs one job in a fresh, supervised runner process. A host runs one job at a time. Every way the child can
 * end badly becomes a TlabError('run') naming the variant and the phase announced last; a cancellation
 * (cancel(), an aborted signal, SIGINT) rejects with RunCancelled.
 */
export interface RunnerHost {
  run(job: RunJob, opts?: RunOptions): Promise<VariantResult[]>;
  /** Kills the running job's child, if any; its promise rejects with RunCancelled. */
  cancel(): void;
}

/** Thrown when a job is cancelled (SIGINT, cancel(), an aborted signal); hosts exit with 130. */
export class RunCancelled extends TlabError {
  constructor(where: string) {
    super('run', `cancelled${where ? ` ${where}` : ''}`);
    this.name = 'RunCancelled';
  }
}

export function throwIfCancelled(signal: AbortSignal | undefined, where = 'before the run started'): void {
  if (signal?.aborted) throw new RunCancelled(where);
}

export function variantLabel(mode: Mode, layout: Layout | null): string {
  return layout && mode === 'EXTERNAL' ? `${mode} (${layout})` : mode;
}
