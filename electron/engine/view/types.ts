/**
 * View models: what the renderer draws, built by the engine on demand (engine/view/*.ts) and carried by the
 * contract (electron/ipc/contract.ts). Plain JSON only: no bigint (`JsonInt` = number, or a decimal string
 * past 2^53), no Map. The renderer never sees the SDFG JSON itself.
 *
 * Ownership while the renderer is being built: graph types by the graph work, analysis types by the
 * memory-views work. Change them together with their builders and the renderer modules that read them.
 */
import type { JsonInt } from '../analysis/json.js';
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
}

// ---------------------------------------------------------------------------------------------------------
// Graph (owned by the graph work: engine/view/graph.ts + renderer/graph/)
// ---------------------------------------------------------------------------------------------------------

/** Identifies an expandable element: the JSON path of an SDFG, control-flow region, loop, conditional
 * branch, state, or nested SDFG node. Stable for a given file. */
export type RegionId = string;

export interface GraphRegion {
  id: RegionId;
  /** Laid-out content of this region: its blocks (control flow) or its dataflow nodes (a state). */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphNode {
  /** Unique within the doc (a JSON path). */
  id: string;
  kind: string;
  label: string;
  /** When set, this node has content that `graph({region: expand})` returns; drawn collapsed until then. */
  expand: RegionId | null;
}

export interface GraphEdge {
  id: string;
  src: string;
  dst: string;
  label: string;
}

export interface SearchHit {
  /** The element's id (JSON path). */
  id: string;
  /** Regions to expand, outermost first, to make it visible. */
  path: RegionId[];
  label: string;
  kind: string;
}

// ---------------------------------------------------------------------------------------------------------
// Analysis (owned by the memory-views work: engine/view/analysis.ts + renderer/charts/)
// ---------------------------------------------------------------------------------------------------------

export const ANALYSIS_VIEW_SCHEMA = 'transient-lab/analysis-view@1';

/** The four memory modes, in the order every view lists them. */
export type ViewMode = 'SCOPED' | 'PERSISTENT' | 'POOL' | 'EXTERNAL';

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

/** One `analysis@1` transient (docs/analysis-schema.md); `transientJson(view.table, i)` rebuilds it. */
export interface TransientJson {
  id: string;
  sdfg: number;
  name: string;
  type: string;
  dtype: string;
  shape: string[];
  storage: string;
  effectiveStorage: string;
  lifetime: string;
  bytes: JsonInt | null;
  bytesExpr: string;
  eligible: { PERSISTENT: boolean; EXTERNAL: boolean };
  reason: string | null;
  live: { first: number; last: number } | null;
  allocation: AllocationJson;
  executionsPerCall: JsonInt | null;
  jsonPath: string;
}

export interface ModePlanJson {
  perCall: { allocs: JsonInt | null; frees: JsonInt | null; bytes: JsonInt | null };
  init: { allocs: number; bytes: JsonInt | null };
  workspace: Record<string, JsonInt | null>;
  stillAllocating: string[];
  pooled: number;
  notes: string[];
}

/** The `transient-lab/analysis@1` document (docs/analysis-schema.md), typed. */
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
  target: 'cpu' | 'gpu';
  targetReason: string;
  symbols: Record<string, { value: JsonInt; source: 'user' | 'default' }>;
  unresolvedSymbols: string[];
  steps: Array<{ index: number; label: string }>;
  transients: TransientJson[];
  modes: Record<ViewMode, ModePlanJson>;
  layouts: {
    dace: Record<string, { bytes: JsonInt | null; bytesExpr: string; offsets: Record<string, JsonInt | string> }>;
    packed: Record<
      string,
      { bytes: JsonInt; alignment: number; offsets: Record<string, JsonInt>; lowerBound: JsonInt; alignedSum: JsonInt } | null
    >;
  };
  peakLiveBytes: Record<string, JsonInt | null>;
  warnings: string[];
}

/**
 * What each memory mode does with a transient; the colour of its lifetime bar (the mode colour that takes
 * it furthest). Indices into `FATES`.
 * - `external`: moves into the caller's workspace in EXTERNAL (and to init in PERSISTENT);
 * - `persistent`: moves to init in PERSISTENT, still allocated on every call in EXTERNAL;
 * - `scoped`: allocated on every call in every mode (the reason says why);
 * - `init`: already Persistent in the file (allocated once, in every mode);
 * - `workspace`: already External in the file (in the caller's workspace, in every mode);
 * - `none`: holds no memory of its own (stack, view, constant, never accessed: `allocation.why`).
 */
export const FATES = ['external', 'persistent', 'scoped', 'init', 'workspace', 'none'] as const;
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
  bytes: Array<JsonInt | null>;
  bytesExpr: string[];
  /** Bit 1: PERSISTENT-eligible; bit 2: EXTERNAL-eligible. */
  eligible: number[];
  /** Index into `dict.reason`, -1 when eligible for both. */
  reason: number[];
  /** Live range over steps (inclusive); both -1 when never accessed. */
  first: number[];
  last: number[];
  /** Index into `dict.allocation`. */
  allocation: number[];
  executionsPerCall: Array<JsonInt | null>;
  /** JSON path of the descriptor: '' for the usual `<sdfgs[sdfg].jsonPath>.attributes._arrays.<name>`; a
   * leading `~` stands for `sdfgs[sdfg].jsonPath` (nested paths are long); `transientJson` expands both. */
  jsonPath: string[];
  /** Index into `FATES`. */
  fate: number[];
  dict: {
    type: string[];
    dtype: string[];
    storage: string[];
    lifetime: string[];
    reason: string[];
    allocation: AllocationJson[];
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
  bytes: JsonInt[];
  /** The highest value and the first step that reaches it. */
  peak: { bytes: JsonInt; step: number };
  /** Held for the whole call (init and workspace): the curve never drops below it. */
  baseline: JsonInt;
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
 * steps `first[i]`…`last[i]` (the whole call when it has no live range). */
export interface WorkspaceRects {
  row: number[];
  offset: JsonInt[];
  size: JsonInt[];
  first: number[];
  last: number[];
}

export interface StorageWorkspace {
  storage: string;
  /** DaCe's layout: back to back, unaligned, in declaration order. `rects` null when symbolic. */
  dace: { bytes: JsonInt | null; bytesExpr: string; rects: WorkspaceRects | null };
  /** Our lifetime-packed layout; null when a size is symbolic. */
  packed: {
    bytes: JsonInt;
    alignment: number;
    /** Peak live bytes of the set: no layout can be smaller. */
    lowerBound: JsonInt;
    /** Σ sizes rounded up to the alignment: the packed layout never exceeds it. */
    alignedSum: JsonInt;
    rects: WorkspaceRects;
  } | null;
  /** dace − packed, and that as a fraction of dace; null when either is symbolic. */
  savings: { bytes: JsonInt; fraction: number } | null;
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
