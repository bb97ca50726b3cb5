/**
 * Compact builders for hand-made SDFG models, so that analysis tests state exactly the graph they mean
 * (node ids are positions in the state; block ids positions in the region; paths are filled in by `file`).
 */
import type {
  AccessNode,
  ConditionalBlockModel,
  ControlFlowBlock,
  DataDescriptor,
  DataflowNode,
  DType,
  InterstateEdge,
  JumpBlock,
  LoopBlock,
  MapEntryNode,
  MapExitNode,
  MemletEdge,
  NestedSdfgNode,
  RegionBlock,
  Sdfg,
  SdfgFile,
  StateBlock,
  TaskletNode,
} from '../../electron/engine/model/sdfg.js';

const DTYPES: Record<string, number> = { int8: 1, int32: 4, int64: 8, float32: 4, float64: 8, bool: 1 };

export interface DescOptions {
  dtype?: string;
  transient?: boolean;
  storage?: string;
  lifetime?: string;
  type?: string;
  totalSize?: string;
  members?: DataDescriptor[];
}

export function desc(name: string, shape: string[], o: DescOptions = {}): DataDescriptor {
  const dtypeName = o.dtype ?? 'float64';
  const dtype: DType = { kind: 'scalar', name: dtypeName, bytes: DTYPES[dtypeName] ?? 8 };
  const type = o.type ?? 'Array';
  return {
    name,
    type,
    arrayLike: type !== 'Scalar' && type !== 'Stream' && type !== 'Structure',
    dtype,
    shape,
    strides: shape.map(() => '1'),
    totalSize: o.totalSize ?? (shape.length ? shape.map((s) => `(${s})`).join('*') : '1'),
    offset: shape.map(() => '0'),
    transient: o.transient ?? true,
    storage: o.storage ?? 'Default',
    lifetime: o.lifetime ?? 'Scope',
    pool: false,
    mayAlias: false,
    alignment: 0,
    startOffset: 0,
    bufferSize: null,
    members: o.members ?? null,
    jsonPath: '',
  };
}

export const scalar = (name: string, o: DescOptions = {}): DataDescriptor => desc(name, ['1'], { ...o, type: 'Scalar', totalSize: '1' });

type NodeSpec = Omit<DataflowNode, 'id' | 'jsonPath'>;

const base = { inConnectors: {}, outConnectors: {} };

export function access(data: string, scope: number | null = null): NodeSpec {
  return { ...base, kind: 'access', label: data, data, setzero: false, scopeEntry: scope } as Omit<AccessNode, 'id' | 'jsonPath'>;
}

export function mapEntry(
  label: string,
  params: string[],
  ranges: Array<[string, string]>,
  schedule = 'Default',
  scope: number | null = null,
): NodeSpec {
  return {
    ...base,
    kind: 'map_entry',
    label,
    scopeEntry: scope,
    exitId: null,
    map: {
      label,
      params,
      range: ranges.map(([start, end]) => ({ start, end, step: '1', tile: '1' })),
      schedule,
      unroll: false,
      collapse: 1,
      ompNumThreads: 0,
      gpuBlockSize: null,
    },
  } as Omit<MapEntryNode, 'id' | 'jsonPath'>;
}

export function mapExit(entry: number, scope: number): NodeSpec {
  return { ...base, kind: 'map_exit', label: 'exit', scopeEntry: scope, entryId: entry } as Omit<MapExitNode, 'id' | 'jsonPath'>;
}

export function nested(inner: Sdfg, symbolMapping: Record<string, string> = {}, scope: number | null = null): NodeSpec {
  return {
    ...base,
    kind: 'nested_sdfg',
    label: inner.name,
    scopeEntry: scope,
    sdfg: inner,
    extSdfgPath: null,
    symbolMapping,
    schedule: 'Default',
  } as Omit<NestedSdfgNode, 'id' | 'jsonPath'>;
}

export function tasklet(label: string, code = '', scope: number | null = null): NodeSpec {
  return {
    ...base,
    kind: 'tasklet',
    label,
    scopeEntry: scope,
    code: { code, language: 'Python' },
    codeGlobal: null,
    codeInit: null,
    codeExit: null,
    sideEffects: null,
  } as Omit<TaskletNode, 'id' | 'jsonPath'>;
}

export type EdgeSpec = Omit<MemletEdge, 'index' | 'jsonPath'>;

export interface MemletOptions {
  srcConnector?: string;
  dstConnector?: string;
  wcr?: string;
  dynamic?: boolean;
  /** Subset of the other end (copies). */
  other?: string[];
}

/** A memlet edge; `subset` is one `start:end` (inclusive end) or `index` string per dimension, null = whole. */
export function memlet(src: number, dst: number, data: string | null, subset: string[] | null, o: MemletOptions = {}): EdgeSpec {
  const range = (dims: string[]) => ({
    kind: 'range' as const,
    dims: dims.map((d) => {
      const [start, end] = d.includes(':') ? d.split(':') : [d, d];
      return { start: start!, end: end!, step: '1', tile: '1' };
    }),
  });
  return {
    src,
    dst,
    srcConnector: o.srcConnector ?? null,
    dstConnector: o.dstConnector ?? null,
    memlet: {
      data,
      subset: subset ? range(subset) : null,
      otherSubset: o.other ? range(o.other) : null,
      wcr: o.wcr ?? null,
      wcrNonatomic: false,
      volume: '1',
      dynamic: o.dynamic ?? false,
      isDataSrc: null,
      allowOob: false,
    },
  };
}

export function state(label: string, nodes: NodeSpec[] = [], edges: EdgeSpec[] = []): StateBlock {
  return {
    kind: 'state',
    id: null,
    label,
    jsonPath: '',
    nodes: nodes.map((n, id) => ({ ...n, id, jsonPath: '' }) as DataflowNode),
    edges: edges.map((e, index) => ({ ...e, index, jsonPath: '' })),
  };
}

export function edge(src: number, dst: number, condition = '1', assignments: Array<[string, string]> = []): InterstateEdge {
  return { index: 0, src, dst, condition, assignments, jsonPath: '' };
}

/** A region whose blocks run in sequence unless `edges` says otherwise. */
export function region(label: string, blocks: ControlFlowBlock[], edges?: InterstateEdge[]): RegionBlock {
  return {
    kind: 'region',
    type: 'ControlFlowRegion',
    id: null,
    label,
    jsonPath: '',
    cfgId: 0,
    blocks,
    edges: edges ?? blocks.slice(1).map((_, i) => edge(i, i + 1)),
    start: blocks.length ? 0 : null,
  };
}

export function loop(
  label: string,
  v: string,
  init: string | null,
  condition: string | null,
  update: string | null,
  blocks: ControlFlowBlock[],
  inverted = false,
): LoopBlock {
  const r = region(label, blocks);
  return { ...r, kind: 'loop', loopVariable: v, init, condition, update, inverted, updateBeforeCondition: false };
}

export function cond(label: string, branches: Array<[string | null, ControlFlowBlock[]]>): ConditionalBlockModel {
  return {
    kind: 'conditional',
    id: null,
    label,
    jsonPath: '',
    cfgId: 0,
    branches: branches.map(([condition, blocks], i) => ({ condition, body: region(`${label}_b${i}`, blocks) })),
  };
}

export const jump = (kind: JumpBlock['kind']): JumpBlock => ({ kind, id: null, label: kind, jsonPath: '' });

export function sdfg(
  name: string,
  arrays: DataDescriptor[],
  blocks: ControlFlowBlock[],
  o: { edges?: InterstateEdge[]; symbols?: string[]; start?: number } = {},
): Sdfg {
  const body = region(name, blocks, o.edges);
  body.type = 'SDFG';
  if (o.start !== undefined) body.start = o.start;
  return {
    name,
    sdfgIndex: 0,
    cfgId: 0,
    arrays: new Map(arrays.map((d) => [d.name, d])),
    symbols: new Map((o.symbols ?? []).map((s) => [s, { kind: 'scalar', name: 'int32', bytes: 4 }])),
    constants: new Map(),
    argNames: [],
    globalCode: {},
    initCode: {},
    exitCode: {},
    body,
    parent: null,
    jsonPath: '$',
  };
}

/** Finishes a model: pre-order SDFG indices, parent links, ids and JSON paths, stats. */
export function file(root: Sdfg, o: { grammar?: 'legacy' | 'typed'; path?: string } = {}): SdfgFile {
  const sdfgs: Sdfg[] = [];
  let states = 0;
  let nodes = 0;
  const visitSdfg = (s: Sdfg, path: string): void => {
    s.sdfgIndex = sdfgs.length;
    s.jsonPath = path;
    sdfgs.push(s);
    for (const d of s.arrays.values()) d.jsonPath = `${path}.attributes._arrays.${d.name}`;
    visitBlocks(s, s.body.blocks, path);
  };
  const visitBlocks = (s: Sdfg, blocks: ControlFlowBlock[], path: string): void => {
    blocks.forEach((b, i) => {
      b.id = i;
      b.jsonPath = `${path}.nodes[${i}]`;
      if (b.kind === 'state') {
        states++;
        b.nodes.forEach((n, j) => {
          nodes++;
          n.jsonPath = `${b.jsonPath}.nodes[${j}]`;
          if (n.kind === 'nested_sdfg' && n.sdfg) {
            n.sdfg.parent = { sdfg: s, state: b, node: n };
            visitSdfg(n.sdfg, `${n.jsonPath}.attributes.sdfg`);
          }
        });
      } else if (b.kind === 'region' || b.kind === 'loop') visitBlocks(s, b.blocks, b.jsonPath);
      else if (b.kind === 'conditional') b.branches.forEach((br, k) => visitBlocks(s, br.body.blocks, `${b.jsonPath}.branches[${k}]`));
    });
  };
  visitSdfg(root, '$');
  const transients = sdfgs.reduce((a, s) => a + [...s.arrays.values()].filter((d) => d.transient).length, 0);
  return {
    path: o.path ?? 'model.sdfg',
    compressed: false,
    jsonBytes: 0,
    daceVersion: '1.0.0',
    generation: 'G3',
    grammar: o.grammar ?? 'legacy',
    root,
    sdfgs,
    sourceFiles: [],
    dumpError: null,
    stats: { sdfgs: sdfgs.length, states, nodes, edges: 0, transients },
    warnings: [],
  };
}
