/**
 * The wire protocol between a runner host (Node child_process or Electron utilityProcess) and the runner child
 * (runner-entry.ts). The job and result types are the engine's (engine/profile/runner-host.ts); this file only
 * adds the envelopes. Messages travel with structured-clone ("advanced") serialisation, so bigints and typed
 * arrays cross as they are.
 *
 * The child reports each risky step (`phase`) BEFORE doing it: when a generated program kills the process
 * (SIGSEGV, SIGABRT…) the host knows which mode and which step did it.
 */
import type { Calibration, Phase, RunJob, VariantResult } from '../engine/profile/runner-host.js';

export type { GuardViolation, Phase, RunJob, VariantJob, VariantGpuTiming, VariantResult } from '../engine/profile/runner-host.js';
export { variantLabel } from '../engine/profile/runner-host.js';

export const RUNNER_PROTOCOL_VERSION = 3;

/** Where a job's input bytes are: one file, each input at its offset (written by the host, job-files.ts). */
export interface InputsFile {
  path: string;
  entries: Array<{ name: string; offset: number; bytes: number }>;
}

export type HostToRunner =
  /**
   * The job without its input bytes (`job.inputs` is {}): the child reads them from `inputsFile` straight into
   * buffers it keeps. Sending them in a message would make Node allocate and later free blocks of their size
   * in the child, which raises glibc's mmap threshold (measured: 30.6 MB instead of 128 KiB for a 2 × 16 MB
   * chain job) or, in small chunks, leaves megabytes of free holes in the main arena that the program's
   * allocations would then reuse. `progressFile`: the page the timed-call loop publishes progress in.
   */
  | { type: 'job'; protocol: number; jobId: number; job: RunJob; inputsFile: InputsFile | null; progressFile: string | null }
  | { type: 'cancel'; jobId: number };

export type RunnerToHost =
  | { type: 'ready'; protocol: number; pid: number }
  | { type: 'phase'; jobId: number; variant: string; phase: Phase }
  | { type: 'progress'; jobId: number; variant: string; done: number; total: number }
  | { type: 'calibration'; jobId: number; calibration: Calibration }
  | { type: 'variant-done'; jobId: number; result: VariantResult }
  | { type: 'done'; jobId: number }
  | { type: 'failed'; jobId: number; variant: string | null; phase: Phase | null; message: string; details: string[] };

/** The host that starts a runner puts its pid in this variable, so the runner can end with it (runner-entry.ts). */
export const RUNNER_PARENT_ENV = 'TLAB_RUNNER_PARENT';
