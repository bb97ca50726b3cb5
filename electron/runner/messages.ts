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

export type {
  Calibration,
  GuardViolation,
  Phase,
  RunJob,
  RunnerHost,
  RunnerProgress,
  RunOptions,
  VariantJob,
  VariantResult,
  VariantTiming,
} from '../engine/profile/runner-host.js';
export { variantLabel } from '../engine/profile/runner-host.js';

export const RUNNER_PROTOCOL_VERSION = 1;

export type HostToRunner = { type: 'job'; protocol: number; jobId: number; job: RunJob } | { type: 'cancel'; jobId: number };

export type RunnerToHost =
  | { type: 'ready'; protocol: number; pid: number }
  | { type: 'phase'; jobId: number; variant: string; phase: Phase }
  | { type: 'progress'; jobId: number; variant: string; done: number; total: number }
  | { type: 'calibration'; jobId: number; calibration: Calibration }
  | { type: 'variant-done'; jobId: number; result: VariantResult }
  | { type: 'done'; jobId: number }
  | { type: 'failed'; jobId: number; variant: string | null; phase: Phase | null; message: string; details: string[] };
