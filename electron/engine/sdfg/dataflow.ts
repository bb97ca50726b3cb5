/** Dataflow inside one SDFGState: nodes (sdfg-format.md §8) and memlet edges (§9). */
import type {
  Connectors,
  DataflowNode,
  MapInfo,
  Memlet,
  MemletEdge,
  NestedSdfgNode,
  RangeDim,
  Sdfg,
  StateBlock,
  Sym,
} from '../model/sdfg.js';
import type { ParseContext } from './context.js';
import { describeValue, readDType } from './dtype.js';
import {
  SCHEDULE_TYPES,
  listField,
  readBool,
  readCode,
  readEnum,
  readIndex,
  readInt,
  readRangeDims,
  readString,
  readSubset,
  readSym,
  readSymOr,
} from './fields.js';
import { isPlainObject, keyPath, quoteText, type JsonObject } from './json.js';

/** G0 files wrote library nodes with their class name as node type and no classpath (§8.6). */
const LEGACY_LIBRARY_TYPES: ReadonlySet<string> = new Set([
  'Reduce',
  'MatMul',
  'Dot',
  'Gemm',
  'Gemv',
  'Ger',
  'Axpy',
  'Einsum',
  'Transpose',
  'TensorTranspose',
  'CSRMM',
  'CSRMV',
  'FFT',
  'IFFT',
  'Getrf',
  'Getrs',
  'Getri',
  'Potrf',
  'Cholesky',
  'Solve',
  'Inv',
]);

/** A nested SDFG found in a state, to be normalised after the state (pre-order over SDFGs and regions). */
export interface PendingNestedSdfg {
  raw: unknown;
  path: string;
  node: NestedSdfgNode;
}

const EMPTY_ATTRIBUTES: JsonObject = Object.freeze({});

export function readState(
  raw: JsonObject,
  path: string,
  id: number | null,
  sdfg: Sdfg,
  ctx: ParseContext,
  pending: PendingNestedSdfg[],
): StateBlock {
  const nodesRaw = listField(raw, 'nodes', path, ctx);
  const edgesRaw = listField(raw, 'edges', path, ctx);
  const count = nodesRaw.length;
  const nodes = new Array<DataflowNode>(count);
  for (let i = 0; i < count; i++) nodes[i] = readNode(nodesRaw[i], `${path}.nodes[${i}]`, i, count, sdfg, ctx, pending);
  pairScopeNodes(nodes);
  const edges = new Array<MemletEdge>(edgesRaw.length);
  for (let i = 0; i < edgesRaw.length; i++) edges[i] = readMemletEdge(edgesRaw[i], `${path}.edges[${i}]`, i, count, ctx);
  ctx.counts.states++;
  ctx.counts.nodes += count;
  ctx.counts.edges += edges.length;
  return { kind: 'state', id, label: readString(raw['label'], ''), jsonPath: path, nodes, edges };
}

function readNode(
  raw: unknown,
  path: string,
  index: number,
  count: number,
  sdfg: Sdfg,
  ctx: ParseContext,
  pending: PendingNestedSdfg[],
): DataflowNode {
  if (!isPlainObject(raw)) ctx.fail(path, `expected a dataflow node object, found ${describeValue(raw)}`);
  const type = raw['type'];
  if (type === undefined) ctx.fail(path, 'the node has no "type" (AccessNode, Tasklet, MapEntry, …)');
  if (typeof type !== 'string') ctx.fail(`${path}.type`, `node "type" must be a string, found ${describeValue(type)}`);
  const attrsRaw = raw['attributes'];
  if (attrsRaw !== undefined && attrsRaw !== null && !isPlainObject(attrsRaw)) {
    ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrsRaw)}`);
  }
  const attrs: JsonObject = attrsRaw ?? EMPTY_ATTRIBUTES;
  const attrsPath = `${path}.attributes`;
  const storedId = raw['id'];
  if (storedId !== undefined && storedId !== null) {
    const id =
      typeof storedId === 'number' ? storedId : typeof storedId === 'string' && /^\s*-?\d+\s*$/.test(storedId) ? Number(storedId) : null;
    if (id === null) ctx.fail(`${path}.id`, `a node "id" must be an integer, found ${describeValue(storedId)}`);
    if (id !== index)
      ctx.warn(
        `${path}.id`,
        `node id ${describeValue(storedId)} differs from its position ${index} in the state; edges refer to positions`,
      );
  }
  const scopeRaw = raw['scope_entry'];
  const scopeEntry =
    scopeRaw === undefined || scopeRaw === null ? null : readIndex(scopeRaw, count, `${path}.scope_entry`, ctx, 'scope_entry');
  const base = {
    id: index,
    label: readString(raw['label'], readString(attrs['label'], '')),
    scopeEntry,
    inConnectors: readConnectors(attrs['in_connectors'], `${attrsPath}.in_connectors`, ctx),
    outConnectors: readConnectors(attrs['out_connectors'], `${attrsPath}.out_connectors`, ctx),
    jsonPath: path,
  };

  switch (type) {
    case 'AccessNode': {
      const data = attrs['data'] ?? raw['data'];
      if (typeof data !== 'string')
        ctx.fail(`${attrsPath}.data`, `an AccessNode needs the name of its data container, found ${describeValue(data)}`);
      const dot = data.indexOf('.');
      const container = dot < 0 ? data : data.slice(0, dot);
      if (!sdfg.arrays.has(container)) {
        ctx.warn(
          `${attrsPath}.data`,
          `AccessNode refers to ${quoteText(data)}, which is not a data descriptor of SDFG ${quoteText(sdfg.name)}`,
        );
      }
      return { ...base, kind: 'access', data, setzero: readBool(attrs['setzero'], false) };
    }
    case 'Tasklet':
    case 'RTLTasklet':
      return {
        ...base,
        kind: 'tasklet',
        code: readCode(attrs['code'], `${attrsPath}.code`, ctx) ?? { code: '', language: 'Python' },
        codeGlobal: readCode(attrs['code_global'], `${attrsPath}.code_global`, ctx),
        codeInit: readCode(attrs['code_init'], `${attrsPath}.code_init`, ctx),
        codeExit: readCode(attrs['code_exit'], `${attrsPath}.code_exit`, ctx),
        sideEffects: typeof attrs['side_effects'] === 'boolean' ? attrs['side_effects'] : null,
      };
    case 'MapEntry':
      return { ...base, kind: 'map_entry', map: readMap(attrs, base.label, attrsPath, ctx), exitId: readScopeExit(raw, path, count, ctx) };
    case 'MapExit':
      return { ...base, kind: 'map_exit', entryId: scopeEntry };
    case 'ConsumeEntry':
      return {
        ...base,
        kind: 'consume_entry',
        peIndex: readString(attrs['pe_index'], ''),
        numPes: readSymOr(attrs['num_pes'], '1', `${attrsPath}.num_pes`, ctx),
        schedule: readEnum(attrs['schedule'], 'Default', SCHEDULE_TYPES, 'schedule type', `${attrsPath}.schedule`, ctx),
        condition: readCode(attrs['condition'], `${attrsPath}.condition`, ctx)?.code.trim() || null,
        chunksize: readInt(attrs['chunksize'], 1),
        exitId: readScopeExit(raw, path, count, ctx),
      };
    case 'ConsumeExit':
      return { ...base, kind: 'consume_exit', entryId: scopeEntry };
    case 'NestedSDFG':
      return readNestedSdfgNode(base, attrs, attrsPath, ctx, pending);
    case 'LibraryNode': {
      const classpath = typeof raw['classpath'] === 'string' ? raw['classpath'] : null;
      if (classpath === null) ctx.warn(path, 'library node without "classpath": its class is unknown');
      return readLibraryNode(base, classpath ?? 'LibraryNode', attrs, attrsPath, ctx);
    }
    default:
      if (LEGACY_LIBRARY_TYPES.has(type)) return readLibraryNode(base, type, attrs, attrsPath, ctx);
      ctx.warnOnce(`node:${type}`, path, `unknown node type ${quoteText(type)} (kept as an opaque node with its connectors)`);
      return { ...base, kind: 'unknown', type, attributes: attrs === EMPTY_ATTRIBUTES ? {} : attrs };
  }
}

type NodeBaseFields = Omit<NestedSdfgNode, 'kind' | 'sdfg' | 'extSdfgPath' | 'symbolMapping' | 'schedule'>;

function readNestedSdfgNode(
  base: NodeBaseFields,
  attrs: JsonObject,
  attrsPath: string,
  ctx: ParseContext,
  pending: PendingNestedSdfg[],
): NestedSdfgNode {
  // No prototype: a symbol named `constructor` or `toString` must not find Object.prototype's members.
  const mapping: Record<string, Sym> = Object.create(null) as Record<string, Sym>;
  const mappingRaw = attrs['symbol_mapping'];
  if (mappingRaw !== undefined && mappingRaw !== null) {
    if (!isPlainObject(mappingRaw))
      ctx.fail(`${attrsPath}.symbol_mapping`, `"symbol_mapping" must be an object, found ${describeValue(mappingRaw)}`);
    for (const key of Object.keys(mappingRaw)) {
      setOwn(mapping, key, readSym(mappingRaw[key], keyPath(`${attrsPath}.symbol_mapping`, key), ctx));
    }
  }
  const extPath = typeof attrs['ext_sdfg_path'] === 'string' && attrs['ext_sdfg_path'] !== '' ? attrs['ext_sdfg_path'] : null;
  const node: NestedSdfgNode = {
    ...base,
    kind: 'nested_sdfg',
    sdfg: null,
    extSdfgPath: extPath,
    symbolMapping: mapping,
    schedule: readEnum(attrs['schedule'], 'Default', SCHEDULE_TYPES, 'schedule type', `${attrsPath}.schedule`, ctx),
  };
  const inner = attrs['sdfg'];
  if (ctx.deferred !== null && inner === ctx.deferred) {
    node.deferred = true;
  } else if (inner === undefined || inner === null) {
    if (extPath === null) ctx.warn(base.jsonPath, 'nested SDFG node has neither an embedded "sdfg" nor an "ext_sdfg_path"');
  } else if (isPlainObject(inner) || typeof inner === 'string') {
    pending.push({ raw: inner, path: `${attrsPath}.sdfg`, node });
  } else {
    ctx.fail(`${attrsPath}.sdfg`, `a nested SDFG must be an SDFG object or its JSON text, found ${describeValue(inner)}`);
  }
  return node;
}

function readLibraryNode(base: NodeBaseFields, classpath: string, attrs: JsonObject, attrsPath: string, ctx: ParseContext): DataflowNode {
  const implementation = attrs['implementation'];
  return {
    ...base,
    kind: 'library',
    classpath,
    className: classpath.slice(classpath.lastIndexOf('.') + 1),
    implementation: typeof implementation === 'string' ? implementation : null,
    schedule: readEnum(attrs['schedule'], 'Default', SCHEDULE_TYPES, 'schedule type', `${attrsPath}.schedule`, ctx),
    attributes: attrs === EMPTY_ATTRIBUTES ? {} : attrs,
  };
}

function readMap(attrs: JsonObject, nodeLabel: string, attrsPath: string, ctx: ParseContext): MapInfo {
  const paramsRaw = attrs['params'];
  let params: string[] = [];
  if (paramsRaw !== undefined && paramsRaw !== null) {
    if (!Array.isArray(paramsRaw) || paramsRaw.some((p) => typeof p !== 'string')) {
      ctx.fail(`${attrsPath}.params`, `map "params" must be a list of names, found ${describeValue(paramsRaw)}`);
    }
    params = paramsRaw as string[];
  }
  let range: RangeDim[] = [];
  const rangeRaw = attrs['range'];
  if (isPlainObject(rangeRaw) && (rangeRaw['type'] === 'Range' || 'ranges' in rangeRaw)) {
    range = readRangeDims(rangeRaw, `${attrsPath}.range`, ctx);
  } else if (rangeRaw !== undefined && rangeRaw !== null) {
    const subset = readSubset(rangeRaw, `${attrsPath}.range`, ctx);
    if (subset?.kind === 'range') range = subset.dims;
    else if (subset?.kind === 'indices') range = subset.indices.map((i) => ({ start: i, end: i, step: '1', tile: '1' }));
  }
  if (range.length !== params.length) {
    ctx.warn(`${attrsPath}.range`, `the map has ${params.length} parameters but ${range.length} range dimensions`);
  }
  const blockSize = attrs['gpu_block_size'];
  const labelRaw = attrs['label'];
  const bracket = nodeLabel.indexOf('[');
  return {
    label: typeof labelRaw === 'string' ? labelRaw : bracket >= 0 ? nodeLabel.slice(0, bracket) : nodeLabel,
    params,
    range,
    schedule: readEnum(attrs['schedule'], 'Default', SCHEDULE_TYPES, 'schedule type', `${attrsPath}.schedule`, ctx),
    unroll: readBool(attrs['unroll'], false),
    collapse: readInt(attrs['collapse'], 1),
    ompNumThreads: readInt(attrs['omp_num_threads'], 0),
    gpuBlockSize: Array.isArray(blockSize) ? blockSize.map((v) => readInt(v, 0)) : null,
  };
}

/** The exit id an entry node names: `scope_exit` (string id), or the G0 `scope_exits` list. */
function readScopeExit(raw: JsonObject, path: string, count: number, ctx: ParseContext): number | null {
  const exit = raw['scope_exit'];
  if (exit !== undefined && exit !== null) return readIndex(exit, count, `${path}.scope_exit`, ctx, 'scope_exit');
  const exits = raw['scope_exits'];
  if (Array.isArray(exits) && exits.length > 0 && exits[0] !== null) {
    return readIndex(exits[0], count, `${path}.scope_exits[0]`, ctx, 'scope_exits entry');
  }
  return null;
}

/** Completes entry↔exit links from whichever side the file recorded (§12.7: exits find entries via scope_entry). */
function pairScopeNodes(nodes: DataflowNode[]): void {
  for (const node of nodes) {
    if ((node.kind === 'map_exit' || node.kind === 'consume_exit') && node.entryId !== null) {
      const entry = nodes[node.entryId];
      if (entry && (entry.kind === 'map_entry' || entry.kind === 'consume_entry') && entry.exitId === null) entry.exitId = node.id;
    }
  }
  for (const node of nodes) {
    if ((node.kind === 'map_entry' || node.kind === 'consume_entry') && node.exitId !== null) {
      const exit = nodes[node.exitId];
      if (exit && (exit.kind === 'map_exit' || exit.kind === 'consume_exit') && exit.entryId === null) exit.entryId = node.id;
    }
  }
}

/** Connector dicts (name → dtype or null); G0 wrote plain name lists. */
function readConnectors(raw: unknown, path: string, ctx: ParseContext): Connectors {
  // No prototype: a connector named `toString` must not find Object.prototype's member on lookup.
  const connectors: Connectors = Object.create(null) as Connectors;
  if (raw === undefined || raw === null) return connectors;
  if (Array.isArray(raw)) {
    ctx.sawListConnectors = true;
    for (let i = 0; i < raw.length; i++) {
      const name: unknown = raw[i];
      if (typeof name !== 'string') ctx.fail(`${path}[${i}]`, `a connector name must be a string, found ${describeValue(name)}`);
      setOwn(connectors, name, null);
    }
    return connectors;
  }
  if (!isPlainObject(raw)) ctx.fail(path, `connectors must be an object (name → type) or a list of names, found ${describeValue(raw)}`);
  for (const name of Object.keys(raw)) {
    const dtype = raw[name];
    setOwn(connectors, name, dtype === null ? null : readDType(dtype, keyPath(path, name), ctx));
  }
  return connectors;
}

/** Defines an own property even for names such as `__proto__` (connector names come from user programs). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function readMemletEdge(raw: unknown, path: string, index: number, nodeCount: number, ctx: ParseContext): MemletEdge {
  if (!isPlainObject(raw)) ctx.fail(path, `expected a memlet edge object, found ${describeValue(raw)}`);
  const src = readIndex(raw['src'], nodeCount, `${path}.src`, ctx, 'memlet edge source node');
  const dst = readIndex(raw['dst'], nodeCount, `${path}.dst`, ctx, 'memlet edge destination node');
  const attrs = raw['attributes'];
  if (attrs !== undefined && attrs !== null && !isPlainObject(attrs)) {
    ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrs)}`);
  }
  const memletRaw = attrs ? attrs['data'] : undefined;
  return {
    index,
    src,
    dst,
    srcConnector: typeof raw['src_connector'] === 'string' ? raw['src_connector'] : null,
    dstConnector: typeof raw['dst_connector'] === 'string' ? raw['dst_connector'] : null,
    memlet: readMemlet(memletRaw, `${path}.attributes.data`, ctx),
    jsonPath: path,
  };
}

function readMemlet(raw: unknown, path: string, ctx: ParseContext): Memlet {
  if (raw === undefined || raw === null) return emptyMemlet();
  if (!isPlainObject(raw)) ctx.fail(path, `expected a Memlet object, found ${describeValue(raw)}`);
  const inner = raw['attributes'];
  const attrs = isPlainObject(inner) ? inner : raw;
  const attrsPath = isPlainObject(inner) ? `${path}.attributes` : path;
  const data = attrs['data'];
  if (data !== undefined && data !== null && typeof data !== 'string') {
    ctx.fail(`${attrsPath}.data`, `memlet "data" must be a container name or null, found ${describeValue(data)}`);
  }
  let volume: Sym;
  let dynamic = readBool(attrs['dynamic'], false);
  const volumeRaw = attrs['volume'];
  if (volumeRaw !== undefined && volumeRaw !== null) volume = readSym(volumeRaw, `${attrsPath}.volume`, ctx);
  else {
    // G0 only had num_accesses, with -1 meaning "dynamic, unknown count".
    const accesses = attrs['num_accesses'];
    if (accesses === -1 || accesses === '-1') {
      volume = '0';
      dynamic = true;
    } else volume = readSymOr(accesses, '0', `${attrsPath}.num_accesses`, ctx);
  }
  const wcr = attrs['wcr'];
  return {
    data: typeof data === 'string' ? data : null,
    subset: readSubset(attrs['subset'], `${attrsPath}.subset`, ctx),
    otherSubset: readSubset(attrs['other_subset'], `${attrsPath}.other_subset`, ctx),
    wcr: typeof wcr === 'string' ? wcr : isPlainObject(wcr) ? (readCode(wcr, `${attrsPath}.wcr`, ctx)?.code ?? null) : null,
    wcrNonatomic: readBool(attrs['wcr_nonatomic'], false),
    volume,
    dynamic,
    isDataSrc: typeof attrs['is_data_src'] === 'boolean' ? attrs['is_data_src'] : null,
    allowOob: readBool(attrs['allow_oob'], false),
  };
}

function emptyMemlet(): Memlet {
  return {
    data: null,
    subset: null,
    otherSubset: null,
    wcr: null,
    wcrNonatomic: false,
    volume: '0',
    dynamic: false,
    isDataSrc: null,
    allowOob: false,
  };
}
