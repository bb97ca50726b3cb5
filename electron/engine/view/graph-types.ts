/**
 * Graph view models (owned by the graph work: engine/view/graph*.ts + renderer/src/graph/; docs/graph.md):
 * regions, control-flow blocks, dataflow nodes, edges and search hits, one region at a time. Plain JSON only,
 * like every view model (view/types.ts re-exports these, so importers keep one path).
 */

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
