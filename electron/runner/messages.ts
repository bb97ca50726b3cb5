/**
 * The protocol between a runner host (Node child_process or Electron utilityProcess) and the runner child
 * (runner-entry.ts). Messages travel with structured-clone ("advanced") serialisation, so bigints and typed
 * arrays cross as they are.
 *
 * The child reports each risky step (`phase`) BEFORE doing it: when a generated program kills the process
 * (SIGSEGV, SIGABRT…) the host knows which mode and which step did it.
 */
import type { ExternalStorage, Layout, ProgramArg } from '../engine/codegen/types.js';
import type { Mode } from '../engine/analysis/types.js';
import type { PerCallColumns } from '../engine/profile/result.js';

export const RUNNER_PROTOCOL_VERSION = 1;

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
}

export interface RunJob {
  variants: VariantJob[];
  /** Argument bytes by name (arrays: whole allocation; scalars/symbols: one value). Every call of every
   * variant starts verification from a fresh copy. */
  inputs: Record<string, Uint8Array>;
  /** Timed calls (after warmup). */
  calls: number;
  warmup: number;
  /** Calls per `run()` batch: progress is reported between batches. */
  chunk: number;
  /** Poison bytes of the two verification calls (they must differ) and the guard byte. */
  poison: [number, number];
  guardByte: number;
  /** Guard bytes around every slot of the verification workspace layout (≥ 64). */
  guardBytes: number;
  /** Skip the verification calls (benchmarks that only time). */
  skipVerification?: boolean;
  /** Before the variants, measure the addon's own costs with this many iterations (benchmarks). */
  calibrate?: number;
}

/** The addon's fixed costs, measured in the runner (the addon is never loaded elsewhere). */
export interface Calibration {
  /** One instrumentation event (two timestamps and a record). */
  eventCostNs: number;
  /** Calling an empty C function through the path `run` uses. */
  callOverheadNs: number;
}

export type Phase = 'load' | 'init' | 'workspace' | 'verify-1' | 'verify-2' | 'first-call' | 'warmup' | 'calls' | 'exit';

export interface GuardViolation {
  storage: string;
  /** Transient id of the slot whose guard was overwritten (the slot before the guard, or the first slot). */
  slot: string;
  /** Which guard: after the slot (overflow) or before the first slot (underflow). */
  where: 'after' | 'before';
  /** First modified guard byte, relative to the guard's start. */
  byteOffset: number;
}

export interface VariantTiming extends PerCallColumns {
  /** The event buffer overflowed in some call: alloc/free times are lower bounds. */
  overflowed: boolean;
  /** Wall time of the timed batches as seen from JavaScript, around `run()`: minus Σ totalNs, it is the
   * runner's own per-call cost (argument marshalling, stats collection). */
  batchWallNs: number;
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
}

export type HostToRunner = { type: 'job'; protocol: number; jobId: number; job: RunJob } | { type: 'cancel'; jobId: number };

export type RunnerToHost =
  | { type: 'ready'; protocol: number; pid: number }
  | { type: 'phase'; jobId: number; variant: string; phase: Phase }
  | { type: 'progress'; jobId: number; variant: string; done: number; total: number }
  | { type: 'calibration'; jobId: number; calibration: Calibration }
  | { type: 'variant-done'; jobId: number; result: VariantResult }
  | { type: 'done'; jobId: number }
  | { type: 'failed'; jobId: number; variant: string | null; phase: Phase | null; message: string; details: string[] };

export function variantLabel(mode: Mode, layout: Layout | null): string {
  return layout && mode === 'EXTERNAL' ? `${mode} (${layout})` : mode;
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
  /** Whole-job limit; the child is killed when it passes. 0 = none. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * What the profiler needs from a process host: run one job in a fresh, supervised runner process. The CLI and
 * tests use NodeRunnerHost (child_process.fork); the Electron shell will pass a utilityProcess host.
 */
export interface RunnerHost {
  run(job: RunJob, opts?: RunOptions): Promise<VariantResult[]>;
  cancel(): void;
}
