/**
 * The `transient-lab/workload-result@1` document (docs/workload.md, "Result"): what `profile workload.json`
 * measured. Plain schema types only (no bigint, no Map), so hosts, the renderer's contract and the report import
 * this file alone. The names `footprint`, `perProgram`, `perStep`, `perCallByProgram` and `verification` are fixed
 * by issue 23: tools and reports rely on them.
 */
import type { Mode } from '../analysis/types.js';
import type { Layout } from '../codegen/types.js';
import type { JsonInteger } from '../json.js';

export const WORKLOAD_RESULT_SCHEMA = 'transient-lab/workload-result@1';

/** A timed variant of the workload: a mode, and for EXTERNAL the layout (`EXTERNAL (packed)`, …). */
export interface WorkloadVariant {
  mode: Mode;
  /** EXTERNAL: the layout each program's slots use inside the shared workspace; null otherwise. */
  layout: Layout | null;
  /** The key used in `perStep`, `perCallByProgram`, `footprint` and `verification`: `SCOPED`, `EXTERNAL (packed)`, … */
  label: string;
}

/** Time and allocation figures of a step (the whole sequence once) or of one program's calls. */
export interface StepSummary {
  /** Samples behind the figures: timed steps (perStep) or timed calls of the program (perCallByProgram). */
  samples: number;
  medianNs: number;
  p10Ns: number;
  p90Ns: number;
  /** Instrumented allocations (and frees) per step or per call. */
  allocs: number;
  frees: number;
  /** Time inside instrumented allocations plus frees, per step or per call. */
  allocFreeNs: number;
  allocBytes: number;
  /** Set when a DaCe-built program's allocations could not be interposed: the allocation figures are not
   * measured (shown as n/m), and this says why. */
  allocationsUnmeasured?: string;
}

/** Bytes per storage (`CPU_Heap`, `GPU_Global`, …). */
export type BytesPerStorage = Record<string, number>;

export interface WorkloadProgramEntry {
  /** The workload's key for the program. */
  key: string;
  /** The SDFG file (absolute), or the `prebuilt` folder. */
  source: string;
  /** SDFG name `n` of `__program_<n>`. */
  sdfgName: string;
  /** Positions (0-based, within one step) at which the sequence calls it. */
  positions: number[];
  /** EXTERNAL: the workspace the program needs per storage at its largest call, in the timed layout. */
  workspace: BytesPerStorage;
  /** PERSISTENT: bytes the program holds from init to exit, per storage. */
  persistent: BytesPerStorage;
}

/** Verification of one call in the sequence against SCOPED, in one variant. */
export interface PositionCheck {
  /** Step (0-based) and position within the step. */
  step: number;
  position: number;
  program: string;
  ok: boolean;
  /** Arguments (shared array names) that differed, with the first differing element; empty when ok. */
  mismatches: Array<{ array: string; argument: string; firstIndex: number; expected: string; actual: string }>;
  /** EXTERNAL: the program read workspace bytes another program left behind (shown by poisoning between programs). */
  staleWorkspace?: boolean;
}

/** EXTERNAL as gt4py runs it: the workspace configured at a program's first call only (docs/workload.md, "Symbols
 * that change"). A later, larger call overruns it; guard bytes after the workspace catch it. */
export interface WorkspaceOverrun {
  variant: string;
  program: string;
  position: number;
  storage: string;
  /** Bytes the call needed, and bytes configured at the program's first call. */
  neededBytes: number;
  configuredBytes: number;
  /** The guard bytes after the workspace were found written. */
  guardWritten: boolean;
}

export interface WorkloadResult {
  schema: typeof WORKLOAD_RESULT_SCHEMA;
  /** The workload file (absolute) and its `name`. */
  workload: string;
  name: string;
  createdAt: string;
  /** Machine and tool description, as in profile@1's `machine`. */
  machine: Record<string, string | number | null>;
  settings: {
    steps: number;
    warmupSteps: number;
    timedSteps: number;
    processes: number;
    target: 'cpu' | 'gpu';
  };
  /** One step's sequence: program key and the symbol values of that call. */
  sequence: Array<{ program: string; symbols: Record<string, JsonInteger> }>;
  programs: WorkloadProgramEntry[];
  variants: WorkloadVariant[];
  /** footprint[label][storage]: bytes held for transients across the whole workload in that variant. EXTERNAL: the
   * shared workspace (maximum over programs); PERSISTENT: the sum over programs; POOL: the high-water mark (on CPU,
   * the peak RSS delta); SCOPED: the largest peak of live bytes of any call. */
  footprint: Record<string, BytesPerStorage>;
  /** perProgram[key].workspace / .persistent, as issue 23 names them (also in `programs`). */
  perProgram: Record<string, { workspace: BytesPerStorage; persistent: BytesPerStorage }>;
  perStep: Record<string, StepSummary>;
  perCallByProgram: Record<string, Record<string, StepSummary>>;
  /** verification[label]: every call at every position of every verification step, checked against SCOPED. */
  verification: Record<string, PositionCheck[]>;
  overruns: WorkspaceOverrun[];
  /** The noise-aware verdict line, as `profile` prints it. */
  verdict: string;
  /** Findings a user must read (a program that depends on stale workspace bytes, a noisy run, …). */
  findings: string[];
}
