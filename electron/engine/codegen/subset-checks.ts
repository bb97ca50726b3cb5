/**
 * The subset check's rules for single elements (subset.ts walks the file and calls them): dynamic map inputs,
 * tasklet connectors, memlet ranks, stack sizes, sizes over root symbols and at init time, allocation points and
 * nested SDFG connectors; whether symbolic and Python code parses, and the runtime names C++ code must not use;
 * and the hints every rule shares.
 */
import type {
  DataDescriptor,
  DataflowNode,
  Grammar,
  MapEntryNode,
  MemletEdge,
  NestedSdfgNode,
  Sdfg,
  SdfgFile,
  StateBlock,
  Subset,
} from '../model/sdfg.js';
import type { AccessSite } from '../analysis/accesses.js';
import { DefaultResolution } from '../analysis/defaults.js';
import { allocationSpan } from '../analysis/span.js';
import { effectiveStorage, isStackStorage } from '../analysis/storage.js';
import { definedSymbols } from '../analysis/symbols.js';
import {
  exprHeight,
  freeSymbols,
  MAX_EXPRESSION_DEPTH,
  parsePython,
  parsePythonLambda,
  parsePythonStatements,
  parseSym,
  substitute,
  SymbolicSyntaxError,
  type Expr,
} from '../symbolic/index.js';
import { dynamicInputConnectors } from '../model/queries.js';
import { statesOf } from './graph.js';
import { ctypeOf, dtypeLabel } from './names.js';

/** The hints the rules share, so that one situation always gets the same advice. */
export const HINT = {
  validate: 'check the SDFG with DaCe validate()',
  python: 'rewrite it in the supported Python subset (see docs/codegen.md)',
  expandOnnx: "expand the ONNX nodes with a pure implementation in DaCe (e.g. ONNX's 'pure' expansions) before saving",
  simplify: 'simplify the expression in DaCe',
  embed: 'save the SDFG with its nested SDFGs embedded',
  cpuVersion: 'profile a CPU version of the program (sdfg without apply_gpu_transformations())',
  daceRejects: 'fix the SDFG in DaCe first: its sdfg.validate() refuses it too',
} as const;

/**
 * The message of a finding that DaCe's own validation (dace/sdfg/validation.py, the validate methods of its
 * nodes and memlets) refuses as well: the file is invalid, not merely outside this generator's subset.
 * `dace` is DaCe's error text, `ours` what it means here.
 */
export function daceRejects(dace: string, ours: string): string {
  return `DaCe rejects this SDFG: ${dace} (${ours})`;
}

export type AddFn = (jsonPath: string, element: string, message: string, hint: string) => void;

/**
 * DaCe's validate_state rule "Memlet leading to/from nonexistent connector", for tasklets: the emitter binds
 * an edge's connector under its own name, so a connector the tasklet does not declare would take the write
 * (or give the read) of a name its code never uses, and the container would silently keep its old value.
 */
/**
 * Dynamic map range inputs (DaCe's dynamic_map_inputs) are read before the map as one scalar each: every such
 * connector needs exactly one memlet, naming one element of an existing container of a scalar C type.
 */
export function checkDynamicInputs(s: Sdfg, b: StateBlock, n: MapEntryNode, element: string, add: AddFn): void {
  for (const conn of dynamicInputConnectors(n)) {
    const edges = b.edges.filter((e) => e.dst === n.id && e.dstConnector === conn);
    const what = `dynamic map range input '${conn}'`;
    if (edges.length !== 1) {
      add(n.jsonPath, element, `${what} has ${edges.length} incoming memlets (DaCe needs exactly one)`, HINT.validate);
      continue;
    }
    const e = edges[0]!;
    const desc = e.memlet.data === null ? undefined : s.arrays.get(e.memlet.data);
    // A missing container is reported with the memlet's other rules.
    if (e.memlet.data === null) add(e.jsonPath, element, `${what} is fed by an empty memlet`, HINT.validate);
    if (!desc) continue;
    const t = n.inConnectors[conn] ?? desc.dtype;
    if (!ctypeOf(t)) add(e.jsonPath, element, `${what} has type ${dtypeLabel(t)}, which is not supported`, 'use an integer scalar');
    const single =
      e.memlet.subset === null
        ? desc.type === 'Scalar' || desc.shape.every((x) => x.trim() === '1')
        : e.memlet.subset.kind === 'indices' ||
          (e.memlet.subset.kind === 'range' &&
            e.memlet.subset.dims.every((d) => d.start.replace(/\s+/g, '') === d.end.replace(/\s+/g, '') && d.tile.trim() === '1'));
    if (!single) add(e.jsonPath, element, `${what} reads more than one element of '${desc.name}'`, 'feed the connector one element');
  }
}

export function checkTaskletConnectors(byId: ReadonlyMap<number, DataflowNode>, e: MemletEdge, add: AddFn): void {
  const src = byId.get(e.src);
  const dst = byId.get(e.dst);
  if (src?.kind === 'tasklet' && e.srcConnector !== null && !Object.prototype.hasOwnProperty.call(src.outConnectors, e.srcConnector)) {
    add(
      e.jsonPath,
      'memlet',
      `the memlet leaves tasklet '${src.label}' from connector '${e.srcConnector}', which is not one of its output connectors`,
      HINT.validate,
    );
  }
  if (dst?.kind === 'tasklet' && e.dstConnector !== null && !Object.prototype.hasOwnProperty.call(dst.inConnectors, e.dstConnector)) {
    add(
      e.jsonPath,
      'memlet',
      `the memlet enters tasklet '${dst.label}' at connector '${e.dstConnector}', which is not one of its input connectors`,
      HINT.validate,
    );
  }
}

function subsetRank(subset: Subset | null): number | null {
  if (!subset) return null;
  return subset.kind === 'indices' ? subset.indices.length : subset.kind === 'range' ? subset.dims.length : null;
}

/**
 * DaCe's validate_state rule "Memlet subset does not match node dimension": a subset addresses every
 * dimension of its container, and a copy's other_subset every dimension of the container at the other end.
 * The emitter indexes the descriptor's strides with the subset's dimensions.
 */
export function checkSubsetRanks(s: Sdfg, byId: ReadonlyMap<number, DataflowNode>, e: MemletEdge, add: AddFn): void {
  const data = e.memlet.data;
  if (data === null) return;
  const rank = (name: string) => s.arrays.get(name)?.shape.length ?? null;
  const check = (subset: Subset | null, container: string, what: string) => {
    const have = subsetRank(subset);
    const want = rank(container);
    if (have !== null && want !== null && have !== want) {
      const ours = `the ${what} has ${have} dimension(s) but '${container}' has ${want}`;
      // validate_state checks the rank unless the memlet allows out-of-bounds accesses.
      if (e.memlet.allowOob) add(e.jsonPath, 'memlet', ours, HINT.validate);
      else
        add(
          e.jsonPath,
          'memlet',
          daceRejects(`Memlet ${what} does not match node dimension (expected ${want}, got ${have})`, ours),
          HINT.daceRejects,
        );
    }
  };
  check(e.memlet.subset, data, 'subset');
  const src = byId.get(e.src);
  const dst = byId.get(e.dst);
  if (e.memlet.otherSubset && src?.kind === 'access' && dst?.kind === 'access') {
    // copyEnds' rule for which end the memlet's data is.
    const dataIsSrc = e.memlet.isDataSrc ?? data === src.data;
    const other = data === src.data && (dataIsSrc || data !== dst.data) ? dst.data : src.data;
    check(e.memlet.otherSubset, other, 'other_subset');
  }
}

/**
 * A transient the analysis keeps on the stack (storage Register or GPU_Shared as it resolves them: a Register
 * array of symbolic size outside a kernel goes to the heap) is a C array, whose size C++ and CUDA need when
 * the program is compiled. DaCe's code would not compile either.
 */
export function checkStackSize(s: Sdfg, d: DataDescriptor, grammar: Grammar, defaults: DefaultResolution, add: AddFn): void {
  let names: Set<string>;
  try {
    names = freeSymbols(parseSym(d.totalSize, grammar));
  } catch {
    return; // reported by checkDescriptor
  }
  if (names.size === 0) return;
  const sites: AccessSite[] = [];
  for (const st of statesOf(s)) for (const n of st.nodes) if (n.kind === 'access' && n.data === d.name) sites.push({ state: st, node: n });
  const storage = effectiveStorage(d, s, d.name, sites, null, defaults);
  if (!isStackStorage(storage)) return;
  const where = storage === d.storage ? `storage ${storage}` : `storage ${d.storage}, which is ${storage} where it is used`;
  add(
    d.jsonPath,
    `transient ${d.type} '${d.name}'`,
    `a stack array (${where}) needs a size known at compile time, but its size (${d.totalSize}) depends on ${[...names].sort().join(', ')}`,
    'give it a constant size, or a heap storage (GPU_Global in kernels, CPU_Heap on the host)',
  );
}

/** A size of `s` written over root symbols (through the symbol mappings of its nested SDFG nodes, as abi.ts's
 * rootSizeExpr does), or the first name no mapping defines; null when some text does not parse (reported elsewhere). */
function rootSizeOf(file: SdfgFile, s: Sdfg, src: string): { expr: Expr } | { unmapped: string } | null {
  let e: Expr;
  try {
    e = parseSym(src, file.grammar);
  } catch {
    return null;
  }
  if (!s.parent) return { expr: e };
  const outer = new Map<string, Expr>();
  for (const name of freeSymbols(e)) {
    const m = s.parent.node.symbolMapping[name];
    if (m === undefined) return { unmapped: name };
    const r = rootSizeOf(file, s.parent.sdfg, m);
    if (r === null || 'unmapped' in r) return r;
    outer.set(name, r.expr);
  }
  return { expr: substitute(e, outer) };
}

/**
 * Sizes of nested transients are computed over the program's symbols where they are hoisted (init, the
 * workspace functions): each mapping is within the parser's depth limit, but a chain of them stacks up.
 */
export function checkRootSizeDepth(file: SdfgFile, s: Sdfg, d: DataDescriptor, add: AddFn): void {
  if (!s.parent) return;
  const root = rootSizeOf(file, s, d.totalSize);
  if (root === null || 'unmapped' in root || exprHeight(root.expr) <= MAX_EXPRESSION_DEPTH) return;
  add(
    d.jsonPath,
    `transient ${d.type} '${d.name}'`,
    `its size (${d.totalSize}), written over the program's symbols through the symbol mappings, is nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`,
    HINT.simplify,
  );
}

/**
 * Persistent and External transients are allocated or sized by init and the workspace functions, before the
 * program runs (abi.ts): their size can use only root symbols the program does not assign itself.
 */
export function checkInitTimeSize(file: SdfgFile, s: Sdfg, d: DataDescriptor, add: AddFn): void {
  const element = `transient ${d.type} '${d.name}'`;
  const hint = 'use lifetime Scope, or size it with symbols the program does not assign';
  const root = rootSizeOf(file, s, d.totalSize);
  if (root === null) return;
  if ('unmapped' in root) {
    add(
      d.jsonPath,
      element,
      `lifetime ${d.lifetime}: its size (${d.totalSize}) uses '${root.unmapped}', which the nested SDFG does not map from the outer SDFG, so it has no value when the program starts`,
      hint,
    );
    return;
  }
  const assigned = definedSymbols(file.root);
  const late = [...freeSymbols(root.expr)].filter((n) => assigned.has(n)).sort();
  if (late.length) {
    const uses = late.map((n) => `'${n}'`).join(', ');
    add(
      d.jsonPath,
      element,
      `lifetime ${d.lifetime}: sized before the program runs, but its size uses ${uses}, which the program assigns itself (interstate assignment, loop or map): no value there`,
      hint,
    );
  }
}

/**
 * A transient sized by symbols its SDFG assigns is allocated where they have their value (analysis/span.ts);
 * when no single point fits, DaCe's code would size it wrongly, and so would ours: refuse it.
 */
export function checkAllocationPoint(s: Sdfg, d: DataDescriptor, grammar: Grammar, add: AddFn): void {
  let names: Set<string>;
  try {
    names = freeSymbols(parseSym(d.totalSize, grammar));
  } catch {
    return; // reported by checkDescriptor
  }
  const span = allocationSpan(s, d.name, names);
  if (span && 'problem' in span) {
    add(
      d.jsonPath,
      `transient ${d.type} '${d.name}'`,
      `no single allocation point: ${span.problem}`,
      'give the buffer a size that is known where it is first used (e.g. one transient per branch, or the largest size as a free symbol)',
    );
  }
}

/**
 * DaCe's NestedSDFG.validate rules on the boundary: every connector names a non-transient inner descriptor,
 * and every non-transient inner descriptor has a connector with a memlet. A descriptor without one would
 * have no outer memory to point at, so the generated call could only pass a null pointer.
 */
export function checkNestedConnectors(n: NestedSdfgNode, inner: Sdfg, state: StateBlock, add: AddFn): void {
  const element = `nested SDFG '${n.label}'`;
  const connectors = new Set([...Object.keys(n.inConnectors), ...Object.keys(n.outConnectors)]);
  for (const c of [...connectors].sort()) {
    const d = inner.arrays.get(c);
    if (!d)
      add(
        n.jsonPath,
        element,
        daceRejects(
          `Node validation failed: Connector "${c}" was given but is not a registered data descriptor in the nested SDFG`,
          `connector '${c}' has no data descriptor in the nested SDFG`,
        ),
        HINT.daceRejects,
      );
    else if (d.transient)
      add(
        n.jsonPath,
        element,
        daceRejects(
          `Node validation failed: "${c}" is a connector but its corresponding array is transient`,
          `connector '${c}' names a transient of the nested SDFG`,
        ),
        HINT.daceRejects,
      );
  }
  const bound = new Set<string>();
  for (const e of state.edges) {
    if (e.memlet.data === null) continue;
    if (e.dst === n.id && e.dstConnector) bound.add(e.dstConnector);
    if (e.src === n.id && e.srcConnector) bound.add(e.srcConnector);
  }
  for (const [name, d] of inner.arrays) {
    if (d.transient) continue;
    if (!connectors.has(name))
      add(
        n.jsonPath,
        element,
        daceRejects(
          `Node validation failed: Data descriptor "${name}" not found in nested SDFG connectors`,
          `argument '${name}' of the nested SDFG has no connector`,
        ),
        HINT.daceRejects,
      );
    else if (!bound.has(name))
      add(n.jsonPath, element, `argument '${name}' of the nested SDFG has no connector with a memlet in the outer state`, HINT.validate);
  }
}

/** Identifiers in C++ tasklets that need DaCe's runtime headers, which generated code does not include
 * (`pipe.` is the `cuda::pipeline` object DaCe's asynchronous-copy code declares in a kernel). */
export const DACE_RUNTIME_TOKENS = /\b(dace::|DACE_|__state\b|__dace_|cuda[A-Z]|cuda::|hip[A-Z]|MPI_|#include|omp_|__syncthreads|pipe\.)/;
/** Libraries a DaCe environment links (dace-onnx's ONNX Runtime): its code blocks and tasklets call them without
 * an include, so generated code cannot compile them. */
export const EXTERNAL_LIBRARY_TOKENS = /\b(Ort[A-Z]\w*|__ort_\w*)/;
/** DaCe's GPU stream synchronisation as tasklets written for its runtime spell it (DaCe-Fortran's `_stream0_sync`):
 * on the legacy default stream, which is the stream generated code uses; the CUDA runtime header defines these
 * names (transient_cuda_runtime.h). */
export const DACE_GPU_SYNC =
  /\bDACE_GPU_CHECK\(\s*(?:gpu|cuda)(?:StreamSynchronize\(\s*(?:nullptr|NULL|0)\s*\)|DeviceSynchronize\(\s*\))\s*\)/g;

export function checkSym(src: string, grammar: Grammar, jsonPath: string, element: string, add: AddFn): void {
  try {
    parseSym(src, grammar);
  } catch (err) {
    const text = src.length > 80 ? `${src.slice(0, 80)}…` : src;
    add(jsonPath, element, `cannot parse '${text}': ${(err as Error).message}`, HINT.simplify);
  }
}

/** `lambda`: a WCR function, the only place where a lambda is accepted (with exactly two parameters). */
export function checkCode(src: string, kind: 'expression' | 'statements' | 'lambda', jsonPath: string, element: string, add: AddFn): void {
  try {
    if (kind === 'statements') parsePythonStatements(src);
    else if (kind === 'lambda') {
      const lambda = parsePythonLambda(src);
      if (lambda.params.length !== 2)
        add(
          jsonPath,
          element,
          `write-conflict resolution '${src}' is not a two-argument lambda`,
          'use a lambda such as (lambda a, b: a + b)',
        );
    } else parsePython(src);
  } catch (err) {
    if (err instanceof SymbolicSyntaxError)
      add(jsonPath, element, `cannot translate '${src.trim().slice(0, 80)}': ${err.message}`, HINT.python);
    else throw err;
  }
}
