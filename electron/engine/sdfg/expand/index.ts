/**
 * Library-node expansion, run on the parsed model before analysis and code generation (as DaCe runs
 * `expand_library_nodes()` before its code generator), so that lifetimes, layouts and every memory mode see
 * what the expansion creates. Each supported node becomes a NestedSDFG node with the same id, whose SDFG is
 * built as DaCe's pure expansion builds it; every element created carries the library node's JSON path.
 * Nodes no expansion handles stay library nodes (and the generator's subset refuses them by name).
 *
 * The file as parsed is never changed: the expanded model is a copy, made once per (file, implementation
 * choice) and only when some node can be expanded (what the graph view draws stays the file's own). Each node
 * is expanded by the implementation `--library-impl` picks for it (impl.ts): `pure` loops, or `blas` calls
 * (blas-call.ts); a node with no blas implementation runs pure unless an override names it.
 */
import type { Grammar, LibraryNode, MemletEdge, NestedSdfgNode, Sdfg, SdfgFile, StateBlock } from '../../model/sdfg.js';
import { blocksOf, statesOf } from '../../model/queries.js';
import { normaliseSdfg } from '../normalise.js';
import { dotStates, gemmStates, gemvStates, matMulStates } from './blas.js';
import { fftStates } from './fft.js';
import { copyStates, fillStates } from './fill.js';
import { dotBlas, gemmBlas, gemvBlas, matMulBlas, potrfBlas, potrfPure } from './blas-call.js';
import { sdfgJson, type ArraySpec } from './graph-json.js';
import { implFor, libraryImplText, PURE, type LibraryImpl, type LibraryImplChoice } from './impl.js';
import { operandOf, symbolsOf, type Expander, type Expansion, type ExpansionIo, type ExternalLibrary } from './operand.js';
import { reduceStates } from './reduce.js';
import { csrmvStates } from './sparse.js';
import { transposeStates } from './transpose.js';

interface Registered {
  expand: Expander;
  /** The `blas` implementation, where DaCe has one (OpenBLAS/LAPACKE). */
  blas?: (node: LibraryNode, io: ExpansionIo, grammar: Grammar) => Expansion | string;
  /** One output and this many inputs (0 or 1), whatever their connectors: the SDFG calls them `_in` and
   * `_out`. Without it, the SDFG's containers are named after the node's connectors. */
  single?: { inputs: 0 | 1 };
  /** DaCe has no pure expansion: only `blas` builds it. */
  blasOnly?: true;
}

const ONE_TO_ONE = { inputs: 1 } as const;

const EXPANDERS: Record<string, Registered> = {
  Reduce: { expand: (n, io, sym, site) => reduceStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym, site), single: ONE_TO_ONE },
  Transpose: { expand: (n, io, sym) => transposeStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym), single: ONE_TO_ONE },
  MatMul: { expand: matMulStates, blas: matMulBlas },
  Gemm: { expand: gemmStates, blas: gemmBlas },
  Gemv: { expand: gemvStates, blas: gemvBlas },
  Dot: { expand: dotStates, blas: dotBlas },
  Potrf: { expand: potrfPure, blas: potrfBlas, blasOnly: true },
  MemsetLibraryNode: { expand: (n, io, sym, site) => fillStates(n, io.outs.get('_out')!, sym, site), single: { inputs: 0 } },
  FillLibraryNode: { expand: (n, io, sym, site) => fillStates(n, io.outs.get('_out')!, sym, site), single: { inputs: 0 } },
  MemoryMovementNode: {
    expand: (n, io, sym, site) => copyStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym, site),
    single: ONE_TO_ONE,
  },
  FFT: {
    expand: (n, io, sym, site) => fftStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym, site.grammar, false),
    single: ONE_TO_ONE,
  },
  IFFT: {
    expand: (n, io, sym, site) => fftStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym, site.grammar, true),
    single: ONE_TO_ONE,
  },
  CSRMV: { expand: csrmvStates },
  CopyLibraryNode: { expand: (n, io, sym, site) => copyStates(n, io.ins.get('_in')!, io.outs.get('_out')!, sym, site), single: ONE_TO_ONE },
};

/** Which implementation expanded one library node, for results and reports. */
export interface LibraryExpansion {
  label: string;
  className: string;
  jsonPath: string;
  implementation: LibraryImpl;
  /** The library its code calls (null: loops). */
  library: ExternalLibrary | null;
}

/** The library classes that have an expansion, for messages. */
export const EXPANDED_CLASSES: readonly string[] = Object.keys(EXPANDERS);
const BLAS_CLASSES = Object.keys(EXPANDERS).filter((k) => EXPANDERS[k]!.blas);

const expandedFiles = new WeakMap<SdfgFile, Map<string, SdfgFile>>();
const results = new WeakSet<SdfgFile>();
const expansions = new WeakMap<SdfgFile, LibraryExpansion[]>();
/** The SDFGs expansions built (codegen/restrict-args.ts gives their arguments DaCe's `__restrict__`). */
const expansionSdfgs = new WeakSet<Sdfg>();

/** Whether `sdfg` is the SDFG of an expanded library node. */
export function isExpansionSdfg(sdfg: Sdfg): boolean {
  return expansionSdfgs.has(sdfg);
}

/** The file with every library node that has an expansion expanded (the file itself when there is none),
 * each by the implementation `choice` picks. An expanded file is returned as it is. */
export function expandLibraryNodes(file: SdfgFile, choice: LibraryImplChoice = PURE): SdfgFile {
  if (results.has(file)) return file;
  const key = libraryImplText(choice);
  let byChoice = expandedFiles.get(file);
  if (!byChoice) expandedFiles.set(file, (byChoice = new Map<string, SdfgFile>()));
  const known = byChoice.get(key);
  if (known) return known;
  const result = anyExpandable(file) ? expandCopy(file, choice) : file;
  byChoice.set(key, result);
  results.add(result);
  return result;
}

/** The library nodes an expanded file's expansion replaced, with the implementation of each. */
export function libraryExpansions(file: SdfgFile): LibraryExpansion[] {
  return expansions.get(file) ?? [];
}

/** The libraries the expanded file's code calls (headers to include, libraries to link). */
export function externalLibraries(file: SdfgFile): ExternalLibrary[] {
  return [...new Set(libraryExpansions(file).flatMap((e) => (e.library ? [e.library] : [])))].sort();
}

/** Why a library node was left unexpanded (null when it has no expansion at all). */
export function expansionProblem(file: SdfgFile, node: LibraryNode): string | null {
  return problems.get(file)?.get(node.jsonPath) ?? notExpandable(node);
}

/** Whether the library node at `jsonPath` is one that only `--library-impl blas` expands (Potrf). */
export function onlyBlasExpands(file: SdfgFile, jsonPath: string): boolean {
  for (const s of file.sdfgs)
    for (const st of statesOf(s))
      for (const n of st.nodes) if (n.kind === 'library' && n.jsonPath === jsonPath) return EXPANDERS[n.className]?.blasOnly === true;
  return false;
}

/** Nodes DaCe itself has no pure expansion for: what it would need instead. */
function notExpandable(node: LibraryNode): string | null {
  if (node.classpath.startsWith('dace.libraries.lapack.'))
    return `DaCe expands ${node.className} only to LAPACK (MKL, OpenBLAS) or cuSOLVER calls, with no pure expansion: not done here`;
  if (node.classpath.startsWith('dace.libraries.mpi.'))
    return `MPI library nodes (${node.className}) need an MPI runtime and several processes: not supported`;
  return null;
}

const problems = new WeakMap<SdfgFile, Map<string, string>>();

function anyExpandable(file: SdfgFile): boolean {
  for (const s of file.sdfgs)
    for (const st of statesOf(s)) for (const n of st.nodes) if (n.kind === 'library' && n.className in EXPANDERS) return true;
  return false;
}

function expandCopy(original: SdfgFile, choice: LibraryImplChoice): SdfgFile {
  let file: SdfgFile;
  try {
    file = structuredClone(original);
  } catch (err) {
    // structuredClone recurses: a file whose parsed expressions form a chain thousands deep (a long flat sum)
    // exhausts the stack. Its library nodes stay unexpanded, and the subset check says why.
    if (!(err instanceof RangeError)) throw err;
    const why = new Map<string, string>();
    for (const s of original.sdfgs)
      for (const st of statesOf(s))
        for (const n of st.nodes)
          if (n.kind === 'library' && n.className in EXPANDERS)
            why.set(n.jsonPath, 'the file is nested too deeply to copy for its expansion');
    problems.set(original, why);
    return original;
  }
  const why = new Map<string, string>();
  const done: LibraryExpansion[] = [];
  let nextCfgId = 0;
  for (const s of file.sdfgs) for (const b of blocksOf(s)) if ('cfgId' in b) nextCfgId = Math.max(nextCfgId, b.cfgId + 1);
  for (const sdfg of [...file.sdfgs]) {
    for (const state of statesOf(sdfg)) {
      for (const node of state.nodes) {
        if (node.kind !== 'library') continue;
        const expander = EXPANDERS[node.className];
        if (!expander) continue;
        const impl = implFor(choice, node.label);
        // `blas` as the default means "where there is one"; an override that names the node means it.
        const runs: LibraryImpl = impl === 'blas' && !expander.blas && !Object.hasOwn(choice.nodes, node.label) ? 'pure' : impl;
        const built = expandNode(file, sdfg, state, node, expander, runs, nextCfgId);
        if (typeof built === 'string') why.set(node.jsonPath, built);
        else {
          nextCfgId = built.next;
          const { label, className, jsonPath } = node;
          done.push({ label, className, jsonPath, implementation: runs, library: built.library });
        }
      }
    }
  }
  expansions.set(file, done);
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
  expander: Registered,
  impl: LibraryImpl,
  cfgBase: number,
): { next: number; library: ExternalLibrary | null } | string {
  const inEdges = state.edges.filter((e) => e.dst === node.id && e.memlet.data !== null);
  const outEdges = state.edges.filter((e) => e.src === node.id && e.memlet.data !== null);
  const io = operands(file, sdfg, inEdges, outEdges, expander.single);
  if (typeof io === 'string') return io;
  const sym = symbolName(file.grammar);
  let built: Expansion | string;
  if (impl === 'pure') built = expander.expand(node, io, sym, { inKernel: inKernel(sdfg, state, node), grammar: file.grammar });
  else if (expander.blas) built = expander.blas(node, io, file.grammar);
  else built = `${node.className} has no blas implementation (${BLAS_CLASSES.join(', ')} do): use --library-impl ${node.label}=pure`;
  if (typeof built === 'string') return built;
  let symbols: string[];
  try {
    symbols = symbolsOf([...io.ins.values(), ...io.outs.values()], file.grammar);
  } catch {
    return 'a size of its memlets does not parse';
  }
  const arrays: Record<string, ArraySpec> = {};
  for (const [name, op] of [...io.ins, ...io.outs]) arrays[name] = { dtype: op.dtype, shape: op.shape, strides: op.strides };
  for (const [name, t] of Object.entries(built.transients ?? {})) arrays[name] = { ...t, transient: true };
  const declared = Object.fromEntries(symbols.map((n) => [n, typeName(sdfg, n)]));
  const json = sdfgJson(node.className.toLowerCase(), arrays, declared, built.states);
  let inner: Sdfg;
  try {
    inner = normaliseSdfg(json, file.path, 0, false).root;
  } catch (error) {
    // A size or index of the node's memlets that the parser rejects inside the expansion.
    return `its expansion does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
  for (const d of inner.arrays.values()) if (d.transient) d.expandedFrom = node.label;
  const nested: NestedSdfgNode = {
    id: node.id,
    label: node.label,
    scopeEntry: node.scopeEntry,
    inConnectors: Object.fromEntries([...io.ins.keys()].map((k) => [k, null])),
    outConnectors: Object.fromEntries([...io.outs.keys()].map((k) => [k, null])),
    jsonPath: node.jsonPath,
    kind: 'nested_sdfg',
    sdfg: inner,
    extSdfgPath: null,
    symbolMapping: Object.fromEntries(symbols.map((n) => [n, sym(n)])),
    schedule: node.schedule,
  };
  if (expander.single) {
    if (inEdges[0]) inEdges[0].dstConnector = '_in';
    outEdges[0]!.srcConnector = '_out';
  }
  state.nodes[node.id] = nested;
  return { next: attach(file, inner, { sdfg, state, node: nested }, cfgBase), library: built.library ?? null };
}

/** The node's operands by connector (`_in`/`_out` for single-operand nodes, whatever their connectors). */
function operands(
  file: SdfgFile,
  sdfg: Sdfg,
  inEdges: MemletEdge[],
  outEdges: MemletEdge[],
  single: Registered['single'],
): ExpansionIo | string {
  if (single && (inEdges.length !== single.inputs || outEdges.length !== 1))
    return `it has ${inEdges.length} input and ${outEdges.length} output memlets (${single.inputs ? 'one of each' : 'one output and no input'} expected)`;
  const io: ExpansionIo = { ins: new Map(), outs: new Map() };
  for (const [edges, into, side] of [
    [inEdges, io.ins, 'input'],
    [outEdges, io.outs, 'output'],
  ] as const) {
    for (const e of edges) {
      const conn = single ? (side === 'input' ? '_in' : '_out') : side === 'input' ? e.dstConnector : e.srcConnector;
      if (conn === null || into.has(conn) || io.ins.has(conn)) return `its ${side} memlets do not have distinct connectors`;
      const op = operandOf(sdfg, e, file.grammar);
      if (typeof op === 'string') return `its ${side} ${conn}: ${op}`;
      into.set(conn, op);
    }
  }
  return io;
}

function inKernel(sdfg: Sdfg, state: StateBlock, node: { scopeEntry: number | null }): boolean {
  for (let scope = node.scopeEntry; scope !== null;) {
    const entry = state.nodes[scope];
    if (!entry) break;
    if (entry.kind === 'map_entry' && entry.map.schedule.startsWith('GPU')) return true;
    scope = entry.scopeEntry;
  }
  return sdfg.parent ? inKernel(sdfg.parent.sdfg, sdfg.parent.state, sdfg.parent.node) : false;
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
  expansionSdfgs.add(inner);
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
