/**
 * What `profile workload.json` hands a runner child, and what comes back (docs/workload.md, "Profiling"). One
 * child verifies every mode against SCOPED, step by step; then fresh children time one mode each. The engine
 * defines the job and the host interface; electron/runner implements them (workload-entry.ts, workload-host.ts).
 * These types cross the process boundary with structured clone: bigints and typed arrays travel as they are.
 */
import type { Mode } from '../analysis/types.js';
import type { ExternalStorage, Layout, ProgramArg } from '../codegen/types.js';
import type { DaceCallSpec } from '../dace/types.js';
import type { PositionCheck, WorkspaceOverrun } from './result.js';

/** One program of the workload at one set of symbol values, built for one mode: its own library and handle. */
export interface WorkloadInstanceJob {
  /** `hdiff`, or `hdiff@I=256` for a call with other symbol values (docs/workload.md). */
  id: string;
  program: string;
  libPath: string;
  /** Init symbol values in `__tlab_init` order. */
  initSymbols: bigint[];
  args: ProgramArg[];
  externals: ExternalStorage[];
  /** Argument name → shared array name, for array and scalar arguments. */
  binding: Record<string, string>;
  /** Symbol argument values of this instance's calls, as they are passed (one element of the argument's C type). */
  symbolArgs: Record<string, Uint8Array>;
  nondeterministicFloat: boolean;
  /** A DaCe-built library (docs/workload.md, "DaCe build folders as programs"): loaded with loadDace and called
   * through libffi by these signatures, its allocations interposed; its External storages are `dace.storages`. */
  dace?: DaceCallSpec;
}

export interface WorkloadModeJob {
  label: string;
  mode: Mode;
  layout: Layout | null;
  /** The same instances, in the same order, in every mode of a job. */
  instances: WorkloadInstanceJob[];
}

export interface WorkloadJob {
  kind: 'verify' | 'time';
  /** verify: the reference (SCOPED) first, then every mode checked against it; time: exactly one. */
  modes: WorkloadModeJob[];
  /** One step: the instance (index into `instances`) each position calls. */
  sequence: Array<{ program: string; instance: number }>;
  /** Shared array name → bytes (the largest any call binds to it). */
  arrays: Record<string, number>;
  /** Shared array name → its initial bytes (at most `arrays[name]`). */
  inputs: Record<string, Uint8Array>;
  /** verify: verification steps; time: timed steps after `warmupSteps`. */
  steps: number;
  warmupSteps: number;
  /** Poison patterns (the two differ) and the guard byte. */
  poison: [number, number];
  guardByte: number;
  /** verify: also run one step as gt4py does (each program's workspace configured at its first call only). */
  overrunCheck: boolean;
  /** verify: return every shared array of every mode after the verification steps (`--save-outputs`). */
  keepOutputs: boolean;
  /** time: after the steps, measure the sequence loop around empty functions over this many steps (bench). */
  calibrateSteps?: number;
}

/** What the verification child found. */
export interface WorkloadVerifyResult {
  /** label → every call of every step checked against the reference (the reference itself not listed). */
  checks: Record<string, PositionCheck[]>;
  /** label → storage → the shared workspace the runner allocated (EXTERNAL modes). */
  workspace: Record<string, Record<string, number>>;
  /** label → instance id → bytes allocated in init (PERSISTENT's transients). */
  initBytes: Record<string, Record<string, number>>;
  /** label → the most bytes live at once inside any call (from its allocation events; a DaCe-built program's are
   * the hooks'). */
  callPeakBytes: Record<string, number>;
  /** label → instance id → storage → bytes of that program's own External workspace need (the library's size
   * function), for EXTERNAL modes. */
  instanceWorkspace: Record<string, Record<string, Record<string, number>>>;
  /** label → why allocations of DaCe-built programs are not measured in that mode (interposition failed). */
  allocationsUnmeasured: Record<string, string>;
  /** The shared workspace's trailing guard was written in a mode (a program wrote past its end). */
  guardHits: Array<{ label: string; storage: string; program: string; position: number; step: number }>;
  overruns: WorkspaceOverrun[];
  /** label → shared array → bytes after the verification steps (keepOutputs only). */
  outputs: Record<string, Record<string, Uint8Array>> | null;
}

/** What a timing child measured (one mode). Call columns are step-major over the timed steps. */
export interface WorkloadTiming {
  label: string;
  positions: number;
  steps: number;
  stepNs: Float64Array;
  stepFaults: Float64Array;
  callNs: Float64Array;
  allocs: Uint32Array;
  frees: Uint32Array;
  allocFreeNs: Float64Array;
  allocBytes: Float64Array;
  loopWallNs: number;
  overflowed: boolean;
  /** Peak resident set over the steps minus the resident set before the first (bytes; null where unknown). */
  rssDeltaBytes: number | null;
  workspace: Record<string, number>;
  /** Set when a DaCe-built program's allocations could not be interposed: the allocation columns are not measured. */
  allocationsUnmeasured?: string;
  /** With `calibrateSteps`: the loop's cost per call around empty functions (measureSequenceOverheadNs). */
  emptyOverheadNsPerCall?: number;
}

/** Where a workload child is: the host names the program and position when the child dies there. */
export interface WorkloadPlace {
  label: string;
  phase: 'load' | 'init' | 'workspace' | 'verify' | 'overrun-check' | 'steps' | 'exit';
  program?: string;
  position?: number;
  step?: number;
}

export interface WorkloadRunnerHost {
  verify(job: WorkloadJob, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<WorkloadVerifyResult>;
  time(job: WorkloadJob, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<WorkloadTiming>;
}
