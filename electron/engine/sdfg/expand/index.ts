/**
 * Library-node expansion, run on the parsed model before analysis and code generation (as DaCe runs
 * `expand_library_nodes()` before its code generator), so that lifetimes, layouts and every memory mode see
 * what the expansion creates. Each supported node becomes a NestedSDFG node with the same id, whose SDFG is
 * built as DaCe's pure expansion builds it; every element created carries the library node's JSON path.
 * Nodes no expansion handles stay library nodes (and the generator's subset refuses them by name).
 *
 * The file as parsed is never changed: the expanded model is a copy, made once per file and only when some
 * node can be expanded (what the graph view draws stays the file's own).
 */
import type { Grammar, LibraryNode, MemletEdge, NestedSdfgNode, Sdfg, SdfgFile, StateBlock } from '../../model/sdfg.js';
import { blocksOf, statesOf } from '../../model/queries.js';
import { normaliseSdfg } from '../normalise.js';
import { sdfgJson, type ArraySpec, type StateJson } from './graph-json.js';
import { operandOf, symbolsOf, type Operand } from './operand.js';
import { reduceStates } from './reduce.js';
import { transposeStates } from './transpose.js';

type Expander = (node: LibraryNode, inp: Operand, out: Operand, sym: (name: string) => string) => StateJson[] | string;

const EXPANDERS: Record<string, Expander> = { Reduce: reduceStates, Transpose: transposeStates };

const expandedFiles = new WeakMap<SdfgFile, SdfgFile>();

/** The file with every library node that has an expansion expanded (the file itself when there is none). */
export function expandLibraryNodes(file: SdfgFile): SdfgFile {
  const known = expandedFiles.get(file);
  if (known) return known;
  const result = anyExpandable(file) ? expandCopy(file) : file;
  expandedFiles.set(file, result);
  expandedFiles.set(result, result);
  return result;
}

/** Why a library node was left unexpanded (null when it has no expansion at all). */
export function expansionProblem(file: SdfgFile, node: LibraryNode): string | null {
  return problems.get(file)?.get(node.jsonPath) ?? null;
}

const problems = new WeakMap<SdfgFile, Map<string, string>>();

function anyExpandable(file: SdfgFile): boolean {
  for (const s of file.sdfgs)
    for (const st of statesOf(s)) for (const n of st.nodes) if (n.kind === 'library' && n.className in EXPANDERS) return true;
  return false;
}

function expandCopy(original: SdfgFile): SdfgFile {
  const file = structuredClone(original);
  const why = new Map<string, string>();
  let nextCfgId = 0;
  for (const s of file.sdfgs) for (const b of blocksOf(s)) if ('cfgId' in b) nextCfgId = Math.max(nextCfgId, b.cfgId + 1);
  for (const sdfg of [...file.sdfgs]) {
    for (const state of statesOf(sdfg)) {
      for (const node of state.nodes) {
        if (node.kind !== 'library') continue;
        const expander = EXPANDERS[node.className];
        if (!expander) continue;
        const built = expandNode(file, sdfg, state, node, expander, nextCfgId);
        if (typeof built === 'string') why.set(node.jsonPath, built);
        else nextCfgId = built;
      }
    }
  }
  problems.set(file, why);
  problems.set(original, why);
  return file;
}

/** Replaces `node` by a NestedSDFG node; returns the next free cfg id, or why it cannot be expanded. */
function expandNode(
  file: SdfgFile,
  sdfg: Sdfg,
  state: StateBlock,
  node: LibraryNode,
  expander: Expander,
  cfgBase: number,
): number | string {
  const ins = state.edges.filter((e) => e.dst === node.id);
  const outs = state.edges.filter((e) => e.src === node.id);
  if (ins.length !== 1 || outs.length !== 1) return `it has ${ins.length} input and ${outs.length} output memlets (one of each expected)`;
  const inp = operandOf(sdfg, ins[0]!, file.grammar);
  if (typeof inp === 'string') return `its input: ${inp}`;
  const out = operandOf(sdfg, outs[0]!, file.grammar);
  if (typeof out === 'string') return `its output: ${out}`;
  const sym = symbolName(file.grammar);
  const states = expander(node, inp, out, sym);
  if (typeof states === 'string') return states;
  let symbols: string[];
  try {
    symbols = symbolsOf([inp, out], file.grammar);
  } catch {
    return 'a size of its memlets does not parse';
  }
  const arrays: Record<string, ArraySpec> = {
    _in: { dtype: inp.dtype, shape: inp.shape, strides: inp.strides },
    _out: { dtype: out.dtype, shape: out.shape, strides: out.strides },
  };
  const declared = Object.fromEntries(symbols.map((n) => [n, typeName(sdfg, n)]));
  const json = sdfgJson(node.className.toLowerCase(), arrays, declared, states);
  const inner = normaliseSdfg(json, file.path, 0, false).root;
  const nested: NestedSdfgNode = {
    id: node.id,
    label: node.label,
    scopeEntry: node.scopeEntry,
    inConnectors: { _in: null },
    outConnectors: { _out: null },
    jsonPath: node.jsonPath,
    kind: 'nested_sdfg',
    sdfg: inner,
    extSdfgPath: null,
    symbolMapping: Object.fromEntries(symbols.map((n) => [n, sym(n)])),
    schedule: node.schedule,
  };
  retarget(ins[0]!, outs[0]!);
  state.nodes[node.id] = nested;
  return attach(file, inner, { sdfg, state, node: nested }, cfgBase);
}

function retarget(inEdge: MemletEdge, outEdge: MemletEdge): void {
  inEdge.dstConnector = '_in';
  outEdge.srcConnector = '_out';
}

/** Symbols as the file's grammar writes them (`$name` in the typed grammar). */
function symbolName(grammar: Grammar): (name: string) => string {
  return grammar === 'typed' ? (n) => `$${n}` : (n) => n;
}

function typeName(sdfg: Sdfg, name: string): string {
  for (let s: Sdfg | null = sdfg; s; s = s.parent?.sdfg ?? null) {
    const t = s.symbols.get(name);
    if (t) return t.kind === 'scalar' ? t.name : 'int64';
  }
  return 'int64';
}

/** Numbers the new SDFG after every existing one (indices of the file's SDFGs stay as they are), points
 * every element at the library node and links it to its caller. */
function attach(file: SdfgFile, inner: Sdfg, parent: NonNullable<Sdfg['parent']>, cfgBase: number): number {
  let next = cfgBase;
  for (const b of blocksOf(inner)) if ('cfgId' in b) b.cfgId = next++;
  inner.cfgId = inner.body.cfgId;
  inner.sdfgIndex = file.sdfgs.length;
  inner.parent = parent;
  setJsonPaths(inner, parent.node.jsonPath);
  file.sdfgs.push(inner);
  file.stats.sdfgs += 1;
  return next;
}

function setJsonPaths(inner: Sdfg, path: string): void {
  inner.jsonPath = path;
  for (const d of inner.arrays.values()) d.jsonPath = path;
  for (const b of blocksOf(inner)) {
    b.jsonPath = path;
    if (b.kind === 'region' || b.kind === 'loop') for (const e of b.edges) e.jsonPath = path;
    if (b.kind !== 'state') continue;
    for (const n of b.nodes) n.jsonPath = path;
    for (const e of b.edges) e.jsonPath = path;
  }
}
