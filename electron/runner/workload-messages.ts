/**
 * The wire protocol between the workload host (workload-host.ts) and its child (workload-entry.ts). The job and
 * result types are the engine's (engine/workload/runner-host.ts). The child says where it is (`at`) before each
 * risky step of the verification; during the timed steps the progress page names the call instead (JavaScript
 * is blocked then), so a crash is reported with the program and its position.
 */
import type { WorkloadJob, WorkloadPlace, WorkloadTiming, WorkloadVerifyResult } from '../engine/workload/runner-host.js';
import type { InputsFile } from './messages.js';

export const WORKLOAD_PROTOCOL_VERSION = 1;

export type HostToWorkloadRunner = {
  type: 'job';
  protocol: number;
  job: WorkloadJob;
  inputsFile: InputsFile;
  progressFile: string;
};

export type WorkloadRunnerToHost =
  | { type: 'ready'; protocol: number }
  | { type: 'at'; place: WorkloadPlace }
  | { type: 'verified'; result: WorkloadVerifyResult }
  | { type: 'timed'; result: WorkloadTiming }
  | { type: 'failed'; message: string };
