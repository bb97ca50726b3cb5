/**
 * View models of issue 23's pictures: the Workload view (a sequence of program calls and the memory each mode
 * holds over it) and the advisor panel. Plain JSON (`JsonInteger` bytes: a number, or a decimal string past 2^53;
 * null where a size is symbolic), so they cross the contract and feed the charts and the report unchanged.
 */
import type { Mode, Target } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import type { JsonInteger } from '../json.js';
import type { StepSummary } from '../workload/result.js';

/** What DocInfo says of a workload file. */
export interface WorkloadDocSummary {
  name: string;
  /** Program keys and their SDFG files' names, in the file's order. */
  programs: Array<{ key: string; file: string }>;
  /** One step's calls: program keys in order. */
  sequence: string[];
  steps: number;
}

/** Bytes per storage (`CPU_Heap`, `GPU_Global`, …); null: the size depends on symbols without a value. */
export type BytesByStorage = Record<string, JsonInteger | null>;

export interface WorkloadProgramView {
  key: string;
  /** The SDFG file's name (no folder), or the prebuilt folder's. */
  file: string;
  /** Positions in one step's sequence at which it is called. */
  positions: number[];
  /** EXTERNAL: the workspace the program needs, at its largest call. */
  workspace: BytesByStorage;
  /** PERSISTENT: what the program holds from init to exit, at its largest call. */
  persistent: BytesByStorage;
  /** Measured time per call of this program, per variant label (a workload-result@1's `perCallByProgram`). */
  measured: Record<string, StepSummary> | null;
}

export interface WorkloadCallView {
  position: number;
  program: string;
  /** The symbol values this call runs with (decimal strings). */
  symbols: Record<string, string>;
  /** EXTERNAL: this call's use of the shared workspace. */
  workspace: BytesByStorage;
  /** SCOPED's peak of live bytes during the call (null map entries: symbolic; `{}` when unknown). */
  peak: BytesByStorage;
}

/** What each mode holds over the timeline, for one storage (what the chart draws; the report's table too). */
export interface StorageTimeline {
  storage: string;
  /** PERSISTENT: every program's block, held the whole step, stacked; `total` is their sum. */
  persistent: { blocks: Array<{ program: string; bytes: JsonInteger | null }>; total: JsonInteger | null };
  /** EXTERNAL: one band of `band` bytes shared by every call (the largest need); `use[i]` is call i's need. */
  external: { band: JsonInteger | null; use: Array<JsonInteger | null>; sizedBy: string | null };
  /** POOL: the pool's reserve after each call (the running maximum of the calls' peaks); `measured`: the
   * high-water mark a profile measured, or null. */
  pool: { highWater: Array<JsonInteger | null>; peak: JsonInteger | null; measured: number | null };
}

export interface WorkloadMeasured {
  variants: string[];
  /** footprint[label][storage], as measured. */
  footprint: Record<string, Record<string, number>>;
  perStep: Record<string, StepSummary>;
  verdict: string;
  findings: string[];
  /** Calls checked against SCOPED per variant: how many, and how many failed. */
  verification: Record<string, { checked: number; failed: number }>;
  overruns: Array<{ variant: string; program: string; position: number; storage: string; neededBytes: number; configuredBytes: number }>;
  timedSteps: number;
  processes: number;
}

export interface WorkloadView {
  kind: 'sdfg' | 'workload';
  name: string;
  path: string;
  target: Target;
  layout: Layout;
  /** 'static' when the figures come from the analysis only; 'measured' when a workload result backs them. */
  basis: 'static' | 'measured';
  steps: number;
  programs: WorkloadProgramView[];
  calls: WorkloadCallView[];
  /** Bytes each mode holds for transients across the workload, per storage (the analysis' figures). */
  footprint: Record<Mode, BytesByStorage>;
  /** Storages, the one with the largest EXTERNAL workspace first. */
  storages: string[];
  timelines: StorageTimeline[];
  measured: WorkloadMeasured | null;
  /** Sentences that qualify the figures (per-call needs taken from the programs' largest calls, …). */
  notes: string[];
}

interface AdviceRecommendationView {
  storage: string;
  mode: Mode;
  workspaceBytes: JsonInteger | null;
  layout: Layout | null;
  alignment: number | null;
  reasons: string[];
}

interface AdviceBlockerView {
  program: string;
  /** Analysis id `<sdfg>:<name>` and the name alone. */
  id: string;
  name: string;
  storage: string;
  bytes: JsonInteger | null;
  bytesExpr: string;
  reason: string;
  change: string;
  jsonPath: string;
}

export interface AdviceSweepView {
  symbol: string;
  values: JsonInteger[];
  storages: Array<{
    storage: string;
    packed: { bytes: Array<JsonInteger | null>; closedForm: string | null };
    dace: { bytes: Array<JsonInteger | null>; closedForm: string | null };
  }>;
}

export interface AdviceView {
  subject: { kind: 'sdfg' | 'workload'; name: string; programs: number; calls: number };
  target: Target;
  layout: Layout;
  basis: 'static' | 'measured';
  /** One sentence on what backs the recommendation ("No timing backs this: …"). */
  basisNote: string;
  /** The storage the recommendation leads with (the largest workspace), first. */
  recommendations: AdviceRecommendationView[];
  footprint: Record<Mode, BytesByStorage>;
  /** Allocations per call (an SDFG) or per step (a workload), per mode; null: data-dependent. */
  allocations: Record<Mode, JsonInteger | null>;
  allocationUnit: 'call' | 'step';
  hazards: Array<{ storage: string; program: string; position: number; configuredBytes: JsonInteger; neededBytes: JsonInteger }>;
  /** Largest first; at most `BLOCKER_LIMIT` rows, `blockersLeft` more. */
  blockers: AdviceBlockerView[];
  blockersLeft: number;
  /** Bytes the blockers would move, per storage (null: some are symbolic). */
  blockedBytes: BytesByStorage;
  sweep: AdviceSweepView | null;
}
