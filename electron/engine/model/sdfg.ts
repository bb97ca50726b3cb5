/**
 * The normalised, typed model of an SDFG file (every format generation folds into this one shape).
 *
 * Design rules:
 * - Every element keeps `jsonPath` (e.g. `$.nodes[2].nodes[5].attributes.data`) so that errors and the UI
 *   can point into the original file.
 * - Symbolic expressions (shapes, ranges, symbol mappings) stay as *source strings* (`Sym`). They are parsed
 *   lazily by `engine/symbolic` with the grammar recorded once per file in `SdfgFile.grammar`. This keeps
 *   parsing of 100+ MB files cheap: most expressions are never needed.
 * - Python code (conditions, assignments, loop statements, tasklet code) stays as source text (`Code`).
 * - Enumerations are open strings: unknown values are kept verbatim and never fatal.
 * - Omitted-default properties are filled in (see sdfg-format.md §2.2).
 */

/** A symbolic expression in the file's own grammar (legacy SymPy or typed `$` grammar). */
export type Sym = string;

/** Which grammar the symbolic fields of a file use (sdfg-format.md §10.3). */
export type Grammar = 'legacy' | 'typed';

export interface CodeBlock {
  code: string;
  /** `Python`, `CPP`, `OpenCL`, `SystemVerilog`, `MLIR` or whatever the file says (open set). */
  language: string;
}

/** Data types (sdfg-format.md §2.7). `bytes` is null where the size is unknown (opaque, callback…). */
export type DType =
  | { kind: 'scalar'; name: string; bytes: number }
  | { kind: 'pointer'; base: DType | null; bytes: 8 }
  | { kind: 'vector'; base: DType; elements: Sym; bytes: number | null }
  | { kind: 'struct'; name: string; fields: Array<[string, DType]>; bytes: number | null }
  | { kind: 'opaque'; ctype: string; bytes: null }
  | { kind: 'unknown'; raw: unknown; bytes: null };

/** One dimension of a Range: `end` is INCLUSIVE (sdfg-format.md §10.1). SymExpr {main, approx} objects are
 * normalised to the string `SymExpr(main, approx)`. */
export interface RangeDim {
  start: Sym;
  end: Sym;
  step: Sym;
  tile: Sym;
}

export type Subset =
  | { kind: 'range'; dims: RangeDim[] }
  /** Legacy `Indices`: one element per dimension. */
  | { kind: 'indices'; indices: Sym[] }
  /** Tolerated `SubsetUnion` written by other tools. */
  | { kind: 'union'; subsets: Subset[] };

// ---------------------------------------------------------------------------------------------------------
// Data descriptors
// ---------------------------------------------------------------------------------------------------------

/** Descriptor class, normalised: View→ArrayView, Reference→ArrayReference, StructArray→ContainerArray.
 * Unknown classes are kept verbatim (an `ArraySubclass` with strides is treated as Array-like by consumers
 * via `arrayLike`). */
type DescriptorType = string;

export interface DataDescriptor {
  name: string;
  /** Normalised class name (`Array`, `Scalar`, `ArrayView`, `ArrayReference`, `Stream`, `Structure`,
   * `ContainerArray`, … or an unknown class name verbatim). */
  type: DescriptorType;
  /** True for Array and Array-like classes (have strides/total_size). */
  arrayLike: boolean;
  dtype: DType;
  /** Shape; a Scalar is `["1"]`. */
  shape: Sym[];
  /** Strides in elements; C-contiguous strides are filled in when omitted/empty. */
  strides: Sym[];
  /** Elements allocated; product of the shape when omitted/0. */
  totalSize: Sym;
  offset: Sym[];
  transient: boolean;
  /** StorageType name, open set (`Default`, `CPU_Heap`, `GPU_Global`, `Register`, …). */
  storage: string;
  /** AllocationLifetime name, open set (`Scope`, `State`, `SDFG`, `Global`, `Persistent`, `External`). */
  lifetime: string;
  pool: boolean;
  mayAlias: boolean;
  /** Bytes, 0 = default. */
  alignment: number;
  /** Elements of pre-padding. */
  startOffset: number;
  /** Stream only. */
  bufferSize: Sym | null;
  /** Structure members (ordered), if any. */
  members: DataDescriptor[] | null;
  /** Container arrays (`ContainerArray`, `ContainerView`): the element descriptor (DaCe's `stype`). */
  stype?: DataDescriptor;
  jsonPath: string;
  /** Set on transients a library expansion created (sdfg/expand): the label of the library node. */
  expandedFrom?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Dataflow (inside states)
// ---------------------------------------------------------------------------------------------------------

/** Connector name → connector dtype (null = infer). G0 lists are normalised to this form. */
export type Connectors = Record<string, DType | null>;

interface NodeBase {
  /** Index in the state's `nodes`. */
  id: number;
  label: string;
  /** Id of the innermost enclosing scope entry node, or null at the state's top level. */
  scopeEntry: number | null;
  inConnectors: Connectors;
  outConnectors: Connectors;
  jsonPath: string;
}

export interface AccessNode extends NodeBase {
  kind: 'access';
  data: string;
  setzero: boolean;
}

export interface TaskletNode extends NodeBase {
  kind: 'tasklet';
  code: CodeBlock;
  codeGlobal: CodeBlock | null;
  codeInit: CodeBlock | null;
  codeExit: CodeBlock | null;
  sideEffects: boolean | null;
}

export interface MapInfo {
  label: string;
  params: string[];
  range: RangeDim[];
  /** ScheduleType name (open set). */
  schedule: string;
  unroll: boolean;
  collapse: number;
  ompNumThreads: number;
  gpuBlockSize: number[] | null;
}

export interface MapEntryNode extends NodeBase {
  kind: 'map_entry';
  map: MapInfo;
  /** Id of the matching exit node, or null when the file does not say. */
  exitId: number | null;
}

export interface MapExitNode extends NodeBase {
  kind: 'map_exit';
  /** Id of the matching entry node. */
  entryId: number | null;
}

export interface ConsumeEntryNode extends NodeBase {
  kind: 'consume_entry';
  peIndex: string;
  numPes: Sym;
  schedule: string;
  /** The quiescence condition's code (null: consume until the stream is empty) and elements per body run. */
  condition: string | null;
  chunksize: number;
  exitId: number | null;
}

interface ConsumeExitNode extends NodeBase {
  kind: 'consume_exit';
  entryId: number | null;
}

export interface NestedSdfgNode extends NodeBase {
  kind: 'nested_sdfg';
  /** The embedded SDFG, or null when it is only referenced by `ext_sdfg_path`. */
  sdfg: Sdfg | null;
  extSdfgPath: string | null;
  /** Inner symbol name → outer expression. */
  symbolMapping: Record<string, Sym>;
  schedule: string;
  /** Only in a preview (SdfgFile.preview): the body exists in the file but was not read yet. */
  deferred?: true;
}

export interface LibraryNode extends NodeBase {
  kind: 'library';
  /** Full class path (e.g. `dace.libraries.blas.nodes.matmul.MatMul`); G0 node type name if no classpath. */
  classpath: string;
  /** Last component of the class path. */
  className: string;
  implementation: string | null;
  schedule: string;
  /** All attributes as in the file, for display. */
  attributes: Record<string, unknown>;
}

/** A node type this parser does not know: kept with its connectors so that the graph still renders. */
interface UnknownNode extends NodeBase {
  kind: 'unknown';
  type: string;
  attributes: Record<string, unknown>;
}

export type DataflowNode =
  AccessNode | TaskletNode | MapEntryNode | MapExitNode | ConsumeEntryNode | ConsumeExitNode | NestedSdfgNode | LibraryNode | UnknownNode;

export interface Memlet {
  /** Container name, or null for an empty (ordering-only) memlet. */
  data: string | null;
  /** Null = the whole container. */
  subset: Subset | null;
  otherSubset: Subset | null;
  /** Python lambda source, e.g. `(lambda a, b: (a + b))`, or null. */
  wcr: string | null;
  wcrNonatomic: boolean;
  volume: Sym;
  dynamic: boolean;
  /** Whether `data` is at the source end of the memlet path; null when the file does not say (old files). */
  isDataSrc: boolean | null;
  allowOob: boolean;
}

export interface MemletEdge {
  /** Index in the state's `edges`. */
  index: number;
  src: number;
  dst: number;
  srcConnector: string | null;
  dstConnector: string | null;
  memlet: Memlet;
  jsonPath: string;
}

// ---------------------------------------------------------------------------------------------------------
// Control flow
// ---------------------------------------------------------------------------------------------------------

export interface InterstateEdge {
  index: number;
  /** Index into the parent region's `blocks`. */
  src: number;
  dst: number;
  /** Python boolean expression; `"1"` when unconditional. */
  condition: string;
  /** Symbol → Python expression, in file order. */
  assignments: Array<[string, string]>;
  jsonPath: string;
}

interface BlockBase {
  /** Index in the parent region's `blocks` (null for a ConditionalBlock branch body). */
  id: number | null;
  label: string;
  jsonPath: string;
}

export interface StateBlock extends BlockBase {
  kind: 'state';
  nodes: DataflowNode[];
  edges: MemletEdge[];
}

/** Anything with a body graph: the SDFG itself, ControlFlowRegion, NamedRegion, FunctionCallRegion,
 * UnstructuredControlFlow, branch bodies, and unknown region-like block types. */
export interface RegionBlock extends BlockBase {
  kind: 'region';
  /** Block type as in the file (`ControlFlowRegion`, `NamedRegion`, `FunctionCallRegion`, `SDFG`, …). */
  type: string;
  cfgId: number;
  blocks: ControlFlowBlock[];
  edges: InterstateEdge[];
  /** Index of the start block (computed, see sdfg-format.md §6.1), or null when the region is empty. */
  start: number | null;
}

export interface LoopBlock extends Omit<RegionBlock, 'kind' | 'type'> {
  kind: 'loop';
  /** May be "" (while loop without a variable). */
  loopVariable: string;
  /** Python statement, e.g. `i = 0`, or null. */
  init: string | null;
  /** Python expression, e.g. `(i < N)`; null = always true. */
  condition: string | null;
  /** Python statement, e.g. `i = (i + 1)`, or null. */
  update: string | null;
  /** do-while: condition checked after the body. */
  inverted: boolean;
  updateBeforeCondition: boolean;
}

export interface ConditionalBranch {
  /** Python expression; null = else. */
  condition: string | null;
  body: RegionBlock;
}

export interface ConditionalBlockModel extends BlockBase {
  kind: 'conditional';
  cfgId: number;
  branches: ConditionalBranch[];
}

export interface JumpBlock extends BlockBase {
  kind: 'break' | 'continue' | 'return';
}

export type ControlFlowBlock = StateBlock | RegionBlock | LoopBlock | ConditionalBlockModel | JumpBlock;

// ---------------------------------------------------------------------------------------------------------
// SDFG and file
// ---------------------------------------------------------------------------------------------------------

export interface Sdfg {
  name: string;
  /** Index of this SDFG in `SdfgFile.sdfgs` (pre-order; the root is 0). */
  sdfgIndex: number;
  /** cfg_list_id as recomputed by the parser (pre-order over all regions, root 0). */
  cfgId: number;
  /** Descriptors in file (insertion) order. */
  arrays: Map<string, DataDescriptor>;
  /** Declared symbols: name → dtype. */
  symbols: Map<string, DType>;
  /** Names in `constants_prop`. */
  constants: Map<string, { descriptor: DataDescriptor | null; value: unknown }>;
  argNames: string[];
  globalCode: Record<string, CodeBlock>;
  initCode: Record<string, CodeBlock>;
  exitCode: Record<string, CodeBlock>;
  /** The top-level control-flow graph of this SDFG (type `SDFG`). */
  body: RegionBlock;
  /** The NestedSDFG node that embeds this SDFG, with where it sits; null for the root. */
  parent: { sdfg: Sdfg; state: StateBlock; node: NestedSdfgNode } | null;
  jsonPath: string;
}

export type FormatGeneration = 'G0' | 'G1' | 'G2' | 'G3' | 'G4' | 'G5';

export interface SdfgFile {
  /** Path as given by the caller. */
  path: string;
  compressed: boolean;
  /** Size of the JSON text in bytes (after decompression). */
  jsonBytes: number;
  daceVersion: string | null;
  /** Best guess of the writer generation (a hint for display; features are detected from content). */
  generation: FormatGeneration;
  grammar: Grammar;
  root: Sdfg;
  /** Root and every nested SDFG, pre-order. */
  sdfgs: Sdfg[];
  sourceFiles: string[];
  /** The top-level `error` object of failure dumps (`invalid.sdfgz`), if any. */
  dumpError: { message: string; raw: unknown } | null;
  stats: { sdfgs: number; states: number; nodes: number; edges: number; transients: number };
  /** Non-fatal oddities found while parsing (stale start block, unknown enum, …), each with its JSON path. */
  warnings: ParseWarning[];
  /** A first look (sdfg/preview.ts): the root only, nested SDFG bodies deferred; stats, sdfgs and warnings are
   * the root's. Only the first drawing may use it. */
  preview?: true;
}

export interface ParseWarning {
  jsonPath: string;
  message: string;
}
