/**
 * View models: what the renderer draws, built by the engine on demand (engine/view/*.ts) and carried by the
 * contract (electron/ipc/contract.ts). Plain JSON only: no bigint (`JsonInteger` = number, or a decimal string
 * past 2^53), no Map. The renderer never sees the SDFG JSON itself.
 *
 * Ownership while the renderer is being built: graph types by the graph work, analysis types by the
 * memory-views work. Change them together with their builders and the renderer modules that read them.
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
// Graph (owned by the graph work: engine/view/graph*.ts + renderer/src/graph/; docs/graph.md)
// ---------------------------------------------------------------------------------------------------------

/**
 * Identifies an expandable element: the JSON path of the element in the file (`$` = the root SDFG; a state
 * `$.nodes[3]`; a loop; a conditional block; a branch body `$.nodes[3].branches[0][1]`; a map or consume scope
 * = its entry node `$.nodes[2].nodes[5]`; a nested SDFG = its NestedSDFG node). Stable for a given file; the
 * analysis' `allocation.state` and step paths are the same strings.
 */
export type RegionId = string;

/** What a region's content is. */
export type GraphRegionKind =
  /** Control flow: blocks and interstate edges (the root, nested SDFGs, regions, loops, branch bodies). */
  | 'cfg'
  /** The branches of a conditional block, side by side, no edges. */
  | 'conditional'
  /** The top level of a state's dataflow. */
  | 'state'
  /** The inside of a map/consume scope. Edges whose `src` is the region id leave the entry node's
   * out-connectors; edges whose `dst` is the region id enter the exit node's in-connectors. */
  | 'scope';

export interface GraphRegion {
  id: RegionId;
  kind: GraphRegionKind;
  /** Index of the SDFG the content belongs to (`DocInfo.sdfgs`). */
  sdfg: number;
  label: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/**
 * What a collapsed element holds, counted over its whole subtree (nested SDFGs included). Byte sizes depend on
 * symbol values, so they are not here: the renderer sums `AnalysisView` bytes over `transients` (the ids the
 * analysis uses), which also follows every symbol edit without asking the engine again.
 */
export interface GraphSummary {
  states: number;
  /** Dataflow nodes (access nodes, tasklets, map entries and exits, …). */
  nodes: number;
  maps: number;
  tasklets: number;
  loops: number;
  /** Nested SDFGs. */
  sdfgs: number;
  /** Transients accessed inside (access nodes), deduplicated, as `<sdfgIndex>:<name>`. */
  transients: string[];
  /** Only in a preview: the element holds nested SDFGs not read yet, so every count is a lower bound. */
  partial?: true;
}

type GraphNodeKind = GraphNode['kind'];

interface GraphNodeBase {
  /** Unique within the doc: the element's JSON path. */
  id: string;
  label: string;
  /** Set on every element with content (not on empty states or regions): the region `graph({region})` returns
   * for it (today always equal to `id`). Every such element arrives collapsed; the renderer decides what to
   * expand. */
  expand: RegionId | null;
  /** Present exactly when `expand` is set. */
  summary: GraphSummary | null;
}

/** Control-flow blocks (content of 'cfg' and 'conditional' regions). */
interface StateNodeView extends GraphNodeBase {
  kind: 'state';
  /** The start block of its region. */
  start: boolean;
}
interface RegionNodeView extends GraphNodeBase {
  kind: 'region';
  /** `ControlFlowRegion`, `NamedRegion`, `FunctionCallRegion`, `UnstructuredControlFlow`, … as in the file. */
  regionType: string;
  start: boolean;
}
interface LoopNodeView extends GraphNodeBase {
  kind: 'loop';
  start: boolean;
  /** "" for a while loop without a variable. */
  variable: string;
  init: string | null;
  condition: string | null;
  update: string | null;
  /** do-while: the condition is checked after the body. */
  inverted: boolean;
}
interface ConditionalNodeView extends GraphNodeBase {
  kind: 'conditional';
  start: boolean;
  /** Branch conditions in order; null = else. */
  conditions: Array<string | null>;
}
interface BranchNodeView extends GraphNodeBase {
  kind: 'branch';
  /** null = else. */
  condition: string | null;
}
interface JumpNodeView extends GraphNodeBase {
  kind: 'break' | 'continue' | 'return';
  start: boolean;
}

/** Dataflow nodes (content of 'state' and 'scope' regions). Connector names are in file order. */
interface DataflowNodeBase extends GraphNodeBase {
  inConnectors: string[];
  outConnectors: string[];
}
interface AccessNodeView extends DataflowNodeBase {
  kind: 'access';
  /** Container name (possibly a dotted structure member). */
  data: string;
  /** `<sdfgIndex>:<name>` when the container is a transient (the analysis id), else null. */
  transient: string | null;
  /** StorageType as in the file (`Default`, `CPU_Heap`, `GPU_Global`, …); null if the container is undeclared. */
  storage: string | null;
  /** Descriptor class (`Array`, `Scalar`, `ArrayView`, …), dtype name and shape, for the label and tooltip. */
  descriptor: { type: string; dtype: string; shape: string[] } | null;
}
interface TaskletNodeView extends DataflowNodeBase {
  kind: 'tasklet';
  language: string;
  /** The first lines of the code, each cut to a readable width. */
  code: string;
  /** Lines of the full code (more than `code` shows when larger). */
  codeLines: number;
}
interface ScopeNodeView extends DataflowNodeBase {
  kind: 'map' | 'consume';
  /** Iteration variables with their ranges in Python slice notation (`i = 0:N`), or the consume PE index. */
  params: string[];
  schedule: string;
  /** The entry node's out-connectors and the exit node's in-connectors: the inner side of the scope, where the
   * scope region's boundary edges attach (`inConnectors` are the entry's, `outConnectors` the exit's). */
  entryOut: string[];
  exitIn: string[];
  /** JSON path of the exit node (edges leaving the scope in the file start there), or null if unpaired. */
  exitId: string | null;
}
interface NestedSdfgNodeView extends DataflowNodeBase {
  kind: 'nested_sdfg';
  /** Index of the embedded SDFG, or null when it is only referenced by `ext_sdfg_path` or not read yet. */
  sdfg: number | null;
  /** Inner symbol = outer expression. */
  symbolMapping: string[];
  /** Only in a preview: the body is in the file but not read yet (no `expand` until it is). */
  deferred?: true;
}
interface LibraryNodeView extends DataflowNodeBase {
  kind: 'library';
  className: string;
  implementation: string | null;
}
interface UnknownNodeView extends DataflowNodeBase {
  kind: 'unknown';
  /** The node type as written in the file. */
  type: string;
}

export type GraphNode =
  | StateNodeView
  | RegionNodeView
  | LoopNodeView
  | ConditionalNodeView
  | BranchNodeView
  | JumpNodeView
  | AccessNodeView
  | TaskletNodeView
  | ScopeNodeView
  | NestedSdfgNodeView
  | LibraryNodeView
  | UnknownNodeView;

interface InterstateEdgeView {
  kind: 'interstate';
  /** The edge's JSON path. */
  id: string;
  src: string;
  dst: string;
  /** Condition then assignments on one line (`i < N; i = i + 1`), "" when unconditional with none. */
  label: string;
  /** null when unconditional. */
  condition: string | null;
  assignments: Array<[string, string]>;
}

export interface MemletEdgeView {
  kind: 'memlet';
  /** The edge's JSON path (a scope's edge is redirected to the scope node, keeping its id). */
  id: string;
  src: string;
  dst: string;
  srcConnector: string | null;
  dstConnector: string | null;
  /** `A[i, 0:N]`, with ` (dyn)` and `(CR: sum)` marks; "" for an empty memlet. */
  label: string;
  data: string | null;
  /** Elements moved (expression), with `dynamic` meaning "at most". */
  volume: string;
  dynamic: boolean;
  /** Short WCR name (`sum`, `min`, `max`, `product`) or the lambda; null without WCR. */
  wcr: string | null;
  /** The analysis id when `data` is a transient. */
  transient: string | null;
}

export type GraphEdge = InterstateEdgeView | MemletEdgeView;

/** `search` finds text (case-insensitive) in labels, container names, code, conditions and assignments; a query
 * starting with `$` is an element id and finds exactly that element, with the path to open to show it. */
export interface SearchHit {
  /** The element's id (a node or edge id as `graph` returns it). */
  id: string;
  /** Regions to expand, outermost first, to make it visible (the root `$` is always open and not listed). */
  path: RegionId[];
  label: string;
  kind: GraphNodeKind | 'interstate' | 'memlet';
  /** What matched: the label, a container name, code, a condition or assignment, or (for a query that is an
   * element id, e.g. a state's JSON path from the analysis) the id itself. */
  field: 'label' | 'data' | 'code' | 'condition' | 'id';
  /** The matching line, cut around the match. */
  snippet: string;
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
  | { ok: true }
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
