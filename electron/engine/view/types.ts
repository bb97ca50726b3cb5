/**
 * View models: what the renderer draws, built by the engine on demand (engine/view/*.ts) and carried by the
 * contract (electron/ipc/contract.ts). Plain JSON only: no bigint (`JsonInteger` = number, or a decimal string
 * past 2^53), no Map. The renderer never sees the SDFG JSON itself.
 *
 * This file holds the document and analysis view models; the graph's are in graph-types.ts. Change them
 * together with their builders and the renderer modules that read them.
 */
import type {
  AliasInfo,
  Analysis,
  DaceStorageLayout,
  Mode,
  ModePlan,
  PackedStorageLayout,
  Step,
  TransientInfo,
} from '../analysis/types.js';
import type { JsonInteger, Jsonified } from '../json.js';
import type { WorkloadDocSummary } from './workload-types.js';
import type { SdfgSummary } from '../model/sdfgs.js';

/** One SDFG of the file (root and nested), pre-order: index 0 is the root. Also `analysis@1`'s `sdfgs[]`. */
export type { SdfgSummary };
export type * from './graph-types.js';

export interface DocInfo {
  /** Session-scoped handle of the opened file. */
  doc: string;
  /** File name for display. */
  name: string;
  /** Path as opened, or null for an upload. */
  path: string | null;
  fileBytes: number;
  jsonBytes: number;
  compressed: boolean;
  generation: string;
  daceVersion: string | null;
  stats: { sdfgs: number; states: number; nodes: number; edges: number; transients: number };
  sdfgs: SdfgSummary[];
  /** Free symbols of the root SDFG (what the symbols panel edits), in a stable order. */
  symbols: Array<{ name: string; dtype: string }>;
  target: 'cpu' | 'gpu';
  targetReason: string;
  /** Non-fatal parser findings, each with its JSON path. */
  warnings: Array<{ jsonPath: string; message: string }>;
  /** Milliseconds the host spent reading + parsing (for the status bar and the bench). */
  parseMs: number;
  /** A first look at a big file (docs/contract.md, "Opening big files"): the root SDFG was read, its nested
   * SDFGs not yet. `stats`, `sdfgs`, `target` and `warnings` are the root's; only the root region can be drawn.
   * `docInfo` answers the complete DocInfo once the whole file is read. Absent on complete DocInfos. */
  preview?: true;
  /** sha256 (hex) of the file's bytes as read: what a profile of this file records as `program.hash`, so that the
   * window can offer a file's earlier results again. Set by the service on complete DocInfos (a preview has none
   * yet: it would cost the first frame a pass over the bytes). Absent from hosts that do not compute it. */
  sha256?: string;
  /** Present when the file is a workload (`transient-lab/workload@1`, docs/workload.md): the window shows the
   * Workload view (`workloadView`, `advise`) instead of a graph; the SDFG fields above are empty. (Additive.) */
  workload?: WorkloadDocSummary;
  /** Present when the document was opened from a DaCe build folder (docs/dace-folders.md): the folder, and how
   * the build says it was built ("built by DaCe 2.0.0, 2026-12-07, Release, g++, flags …"). (Additive.) */
  daceBuild?: { folder: string; builtBy: string };
}

// ---------------------------------------------------------------------------------------------------------
// Analysis (owned by the memory-views work: engine/view/analysis.ts + renderer/charts/)
// ---------------------------------------------------------------------------------------------------------

export const ANALYSIS_VIEW_SCHEMA = 'transient-lab/analysis-view@1';

/** The four memory modes, in the order every view lists them (analysis/types.ts MODES). */
export type ViewMode = Mode;

/** SCOPED allocation site of a transient, exactly as `analysis@1` writes it (`transients[].allocation`). */
export type AllocationJson =
  | { kind: 'sdfg'; sdfg: number }
  | { kind: 'state'; sdfg: number; state: string }
  | { kind: 'scope'; sdfg: number; state: string; mapEntry: number }
  /** Before block `first` of region `region`, freed after block `last` (null: the region's end); a size over symbols the SDFG assigns. */
  | { kind: 'blocks'; sdfg: number; region: string; first: string; last: string | null }
  | { kind: 'init' }
  | { kind: 'external' }
  | { kind: 'none'; why: string };

/** One `analysis@1` transient (docs/analysis-schema.md); `transientJson(view.table, i)` rebuilds it: the
 * engine's TransientInfo as JSON, with its allocation site as written above and its alias flattened. */
export type TransientJson = Omit<Jsonified<TransientInfo>, 'sdfgName' | 'alias' | 'allocation' | 'block'> & {
  allocation: AllocationJson;
  /** Views and references only: the aliased container's id or argument name, null when set at run time. */
  viewOf?: string | null;
  /** Only when `viewOf` is null: why it is not known statically. */
  viewOfReason?: string;
};

/** What a view or reference aliases (`analysis@1`'s `viewOf`, and `viewOfReason` when that is null). */
export type AliasJson = Jsonified<AliasInfo>;

export type ModePlanJson = Jsonified<ModePlan>;

/** The `transient-lab/analysis@1` document (docs/analysis-schema.md), typed: the engine's Analysis as
 * analysis/json.ts writes it (`toAnalysisJson` returns this type). */
export interface AnalysisDoc {
  schema: 'transient-lab/analysis@1';
  sdfg: {
    name: string;
    daceVersion: string | null;
    sdfgs: number;
    states: number;
    nodes: number;
    edges: number;
    file: string;
    generation: string;
    grammar: string;
  };
  sdfgs: SdfgSummary[];
  target: Analysis['target'];
  targetReason: string;
  symbols: Jsonified<Analysis['symbols']>;
  unresolvedSymbols: string[];
  steps: Array<Pick<Step, 'index' | 'label'>>;
  transients: TransientJson[];
  modes: Record<ViewMode, ModePlanJson>;
  layouts: {
    /** DaCe's layout: the offsets in declaration order (`order` is the order of the record's keys). */
    dace: Record<string, Omit<Jsonified<DaceStorageLayout>, 'order'>>;
    packed: Record<string, Jsonified<PackedStorageLayout> | null>;
  };
  peakLiveBytes: Jsonified<Analysis['peakLiveBytes']>;
  warnings: string[];
  /** Each expanded library node and the implementation that replaced it (`--library-impl`); additive. */
  libraryNodes?: Analysis['libraryExpansions'];
  /** Whether the code generator can build the program for `target` (absent where the writer did not check). */
  profile?: ProfileCheck;
}

/**
 * Whether a program can be profiled: the code generator's verdict for the analysis' target. When it cannot, the
 * first of its findings (codegen `findUnsupported`) and how many there are in all.
 */
export type ProfileCheck =
  | {
      ok: true;
      /** The symbols a build needs that have no value yet (DaCe's symbol arguments): how many, and the first few.
       * Absent when every one has a value, or where the writer did not check. */
      needsValues?: { count: number; names: string[] };
    }
  | {
      ok: false;
      element: string;
      message: string;
      hint: string;
      jsonPath: string;
      findings: number;
      /** Only where the refusal is for want of a blas implementation (Potrf): the verdict with `--library-impl blas`,
       * so the window can enable Run once the form chooses blas. */
      withBlas?: ProfileCheck;
    };

/**
 * What each memory mode does with a transient; the colour of its lifetime bar (the mode colour that takes
 * it furthest). Indices into `FATES`.
 * - `external`: moves into the caller's workspace in EXTERNAL (and to init in PERSISTENT);
 * - `persistent`: moves to init in PERSISTENT, still allocated on every call in EXTERNAL;
 * - `scoped`: allocated on every call in every mode (the reason says why);
 * - `init`: already Persistent in the file (allocated once, in every mode);
 * - `workspace`: already External in the file (in the caller's workspace, in every mode);
 * - `none`: holds no memory of its own (stack, constant, never accessed: `allocation.why`);
 * - `alias`: a view or reference: another container's bytes (`table.alias` says whose), never summed.
 * (`alias` came last so that the indices of the others did not move.)
 */
export const FATES = ['external', 'persistent', 'scoped', 'init', 'workspace', 'none', 'alias'] as const;
export type Fate = (typeof FATES)[number];

/**
 * Every transient of the analysis, column by column (30k transients cost a few MB instead of the 20 MB
 * of `analysis@1`'s array of objects). Row `i` of every column is `analysis@1`'s `transients[i]`.
 * Repeated strings are dictionary-coded: `type[i]` indexes `dict.type`, and so on; -1 means null.
 */
export interface TransientTable {
  count: number;
  id: string[];
  sdfg: number[];
  name: string[];
  type: number[];
  dtype: number[];
  shape: string[][];
  storage: number[];
  effectiveStorage: number[];
  lifetime: number[];
  /** Exact bytes (number, or decimal string past 2^53); null when symbolic. */
  bytes: Array<JsonInteger | null>;
  bytesExpr: string[];
  /** Bit 1: PERSISTENT-eligible; bit 2: EXTERNAL-eligible. */
  eligible: number[];
  /** Index into `dict.reason`, -1 when eligible for both. */
  reason: number[];
  /** Live range over steps (inclusive); both -1 when never accessed. */
  first: number[];
  last: number[];
  /**
   * The live set when it has holes (docs/liveness.md §3.7): [first₀, last₀, first₁, last₁, …] inside
   * first…last; null when it is first…last itself (or there is none).
   */
  holes: Array<number[] | null>;
  /** Index into `dict.allocation`. */
  allocation: number[];
  executionsPerCall: Array<JsonInteger | null>;
  /** JSON path of the descriptor: '' for the usual `<sdfgs[sdfg].jsonPath>.attributes._arrays.<name>`; a
   * leading `~` stands for `sdfgs[sdfg].jsonPath` (nested paths are long); `transientJson` expands both. */
  jsonPath: string[];
  /** Index into `FATES`. */
  fate: number[];
  /** Views and references: index into `dict.alias` (what they alias); -1 for every container that owns its bytes. */
  alias: number[];
  /** Transients a library expansion created: index into `dict.expandedFrom` (the library node's label); -1 for the others. */
  expandedFrom: number[];
  /** Members of a structure: index into `dict.insideStructure` (the structure's path); -1 for the others. */
  insideStructure: number[];
  dict: {
    type: string[];
    dtype: string[];
    storage: string[];
    lifetime: string[];
    reason: string[];
    allocation: AllocationJson[];
    alias: AliasJson[];
    expandedFrom: string[];
    insideStructure: string[];
  };
}

/**
 * Bytes a mode holds at each step of one call, for one storage (effective storage). Every curve counts the
 * transients that hold memory (SCOPED allocation site `sdfg`, `state`, `scope`, `init` or `external`),
 * one instance each, and:
 * - SCOPED: a per-call transient over its live range (an allocator that frees at last use: DaCe's own
 *   allocation sites may hold it a little longer); file-Persistent and file-External ones for the whole call;
 * - POOL: the same bytes as SCOPED (the stream-ordered pool hands blocks out and takes them back as the
 *   program runs; on GPU it also keeps its high-water mark reserved between calls, not drawn here);
 * - PERSISTENT: PERSISTENT-eligible transients for the whole call (allocated at init), the rest as SCOPED;
 * - EXTERNAL: the packed workspace (its total, for the whole call) plus the transients that still allocate
 *   per call over their live ranges, plus file-Persistent ones.
 * A transient with no live range that still holds memory counts over the whole call (as `peakLiveBytes`).
 */
export interface MemoryCurve {
  mode: ViewMode;
  /** One value per step (`analysis.steps`), exact. */
  bytes: JsonInteger[];
  /** The highest value and the first step that reaches it. */
  peak: { bytes: JsonInteger; step: number };
  /** Held for the whole call (init and workspace): the curve never drops below it. */
  baseline: JsonInteger;
}

export interface StorageMemory {
  storage: string;
  /** Rows (transient indices) that hold memory in this storage, in any mode. */
  rows: number;
  /** One curve per mode, in `ViewMode` order; null when a size is symbolic (`symbolic` says which). */
  curves: MemoryCurve[] | null;
  /** When `curves` is null: how many sizes are unknown and an example expression (`8*N`). */
  symbolic: { count: number; example: string } | null;
}

/** Columnar rectangles of one workspace layout: transient `row[i]` at `offset[i]` … `+ size[i]` bytes over
 * steps `first[i]`…`last[i]` — one rectangle per interval of its live set (a row may repeat), the whole call
 * when it has no live range. */
export interface WorkspaceRects {
  row: number[];
  offset: JsonInteger[];
  size: JsonInteger[];
  first: number[];
  last: number[];
}

export interface StorageWorkspace {
  storage: string;
  /** DaCe's layout: back to back, unaligned, in declaration order. `rects` null when symbolic. */
  dace: { bytes: JsonInteger | null; bytesExpr: string; rects: WorkspaceRects | null };
  /** Our lifetime-packed layout; null when a size is symbolic. */
  packed: {
    bytes: JsonInteger;
    alignment: number;
    /** Peak live bytes of the set: no layout can be smaller. */
    lowerBound: JsonInteger;
    /** Σ sizes rounded up to the alignment: the packed layout never exceeds it. */
    alignedSum: JsonInteger;
    rects: WorkspaceRects;
  } | null;
  /** dace − packed, and that as a fraction of dace; null when either is symbolic. */
  savings: { bytes: JsonInteger; fraction: number } | null;
}

export interface AnalysisView {
  schema: typeof ANALYSIS_VIEW_SCHEMA;
  /** The `analysis@1` document without `transients` (see `table`) and `sdfgs` (below); `analysisDocument(view)`
   * rebuilds it whole. */
  analysis: Omit<AnalysisDoc, 'transients' | 'sdfgs'>;
  /** `analysis@1`'s `sdfgs[]`: every SDFG of the file, pre-order (index 0 = root), e.g. the table's SDFG names. */
  sdfgs: SdfgSummary[];
  table: TransientTable;
  /** Rows in timeline order: memory-holding transients first, by first step, last step, then id. */
  order: number[];
  /** Memory-over-steps curves per storage holding memory (sorted by storage name). */
  memory: StorageMemory[];
  /** Workspace layouts per storage of the EXTERNAL set (sorted by storage name). */
  workspace: StorageWorkspace[];
  totals: {
    transients: number;
    /** Transients that hold memory in SCOPED mode (heap sites, init, external). */
    holdingMemory: number;
    eligible: { PERSISTENT: number; EXTERNAL: number };
    /** Transient count per fate (`FATES` order). */
    fates: number[];
  };
}
