/**
 * The supported subset, discovered by code: a structural scan of every element, then a dry run of the emitter
 * (which rejects code and expressions it cannot translate). Nothing here knows about particular files.
 */
import type { DataDescriptor, Grammar, NestedSdfgNode, Sdfg, SdfgFile, StateBlock, Subset } from '../model/sdfg.js';
import { parsePython, parsePythonLambda, parsePythonStatements, parseSym, SymbolicSyntaxError } from '../symbolic/index.js';
import type { UnsupportedFinding } from './types.js';
import { UnsupportedElement } from './errors.js';
import { blocksOf, statesOf } from './graph.js';
import { ctypeOf, dtypeLabel } from './names.js';

const SUPPORTED_STORAGE = new Set(['Default', 'CPU_Heap', 'Register']);
const SUPPORTED_SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore', 'Unrolled']);
/** Identifiers in C++ tasklets that need DaCe's runtime headers, which generated code does not include. */
const DACE_RUNTIME_TOKENS = /\b(dace::|DACE_|__state\b|__dace_|cuda[A-Z]|hip[A-Z]|MPI_|#include|omp_)/;

export function structuralFindings(file: SdfgFile): UnsupportedFinding[] {
  const findings: UnsupportedFinding[] = [];
  const add = (jsonPath: string, element: string, message: string, hint: string) => findings.push({ jsonPath, element, message, hint });

  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(file.root.name)) {
    add(file.root.jsonPath, `SDFG '${file.root.name}'`, 'the SDFG name is not a C identifier', 'rename the SDFG');
  }
  if (file.dumpError) {
    // DaCe writes the graph with a top-level `error` when validation fails: the file is known to be invalid,
    // and code generated from it would inherit whatever DaCe found wrong (e.g. a nested SDFG argument with
    // no descriptor, which would be passed nowhere). Refuse it with DaCe's own explanation.
    add('$.error', `SDFG ${file.root.name}`, `DaCe rejected this SDFG: ${file.dumpError.message}`, 'fix it in DaCe first (this file is the dump of an SDFG that failed validation)');
  }
  for (const s of file.sdfgs) scanSdfg(s, file, add);
  return findings;
}

function accessedNames(s: Sdfg): Set<string> {
  const names = new Set<string>();
  for (const st of statesOf(s)) {
    for (const n of st.nodes) if (n.kind === 'access') names.add(n.data);
    for (const e of st.edges) if (e.memlet.data) names.add(e.memlet.data);
  }
  return names;
}

function checkSym(src: string, grammar: Grammar, jsonPath: string, element: string, add: AddFn): void {
  try {
    parseSym(src, grammar);
  } catch (err) {
    add(jsonPath, element, `cannot parse '${src}': ${(err as Error).message}`, 'simplify the expression in DaCe');
  }
}

function checkSubset(subset: Subset | null, grammar: Grammar, jsonPath: string, add: AddFn): void {
  if (!subset) return;
  if (subset.kind === 'union') {
    add(jsonPath, 'memlet subset', 'subset unions are not supported', 'split the memlet in DaCe');
    return;
  }
  if (subset.kind === 'indices') {
    subset.indices.forEach((i) => checkSym(i, grammar, jsonPath, 'memlet index', add));
    return;
  }
  for (const d of subset.dims) {
    if (d.tile.trim() !== '1') add(jsonPath, 'memlet subset', `tiled ranges (tile ${d.tile}) are not supported`, 'remove tiling from the memlet');
    [d.start, d.end, d.step].forEach((x) => checkSym(x, grammar, jsonPath, 'memlet range', add));
  }
}

type AddFn = (jsonPath: string, element: string, message: string, hint: string) => void;

function checkDescriptor(d: DataDescriptor, grammar: Grammar, add: AddFn): void {
  const element = `${d.transient ? 'transient' : 'argument'} ${d.type} '${d.name}'`;
  if (d.name.includes('.')) {
    add(d.jsonPath, element, 'structure members are not supported', 'flatten the structure in DaCe');
    return;
  }
  if (d.type !== 'Array' && d.type !== 'Scalar') {
    const what = /View|Reference/.test(d.type) ? 'views and references' : d.type === 'Stream' ? 'streams' : /Structure|Container/.test(d.type) ? 'structures and container arrays' : `${d.type} descriptors`;
    add(d.jsonPath, element, `${what} are not supported`, 'remove them in DaCe first (e.g. sdfg.simplify(), or allocate a plain Array)');
    return;
  }
  if (!SUPPORTED_STORAGE.has(d.storage)) {
    const gpu = d.storage.startsWith('GPU');
    add(
      d.jsonPath,
      element,
      `storage ${d.storage} is not supported${gpu ? ' (the GPU generator comes later)' : ''}`,
      gpu ? 'profile a CPU version of the program (sdfg without apply_gpu_transformations())' : 'use CPU_Heap or Default storage',
    );
  }
  if (!ctypeOf(d.dtype)) {
    add(d.jsonPath, element, `dtype ${dtypeLabel(d.dtype)} is not supported`, 'use bool, (u)int8-64, float32/64 or complex64/128');
  }
  [...d.shape, ...d.strides, ...d.offset, d.totalSize].forEach((x) => checkSym(x, grammar, d.jsonPath, element, add));
}

/** `lambda`: a WCR function, the only place where a lambda is accepted. */
function checkCode(src: string, kind: 'expression' | 'statements' | 'lambda', jsonPath: string, element: string, add: AddFn): void {
  try {
    if (kind === 'statements') parsePythonStatements(src);
    else if (kind === 'lambda') parsePythonLambda(src);
    else parsePython(src);
  } catch (err) {
    if (err instanceof SymbolicSyntaxError) add(jsonPath, element, `cannot translate '${src.trim().slice(0, 80)}': ${err.message}`, 'rewrite it in the supported Python subset (see docs/codegen.md)');
    else throw err;
  }
}

function scanSdfg(s: Sdfg, file: SdfgFile, add: AddFn): void {
  for (const [target, block] of [...Object.entries(s.globalCode), ...Object.entries(s.initCode), ...Object.entries(s.exitCode)]) {
    if (block.code.trim()) add(s.jsonPath, `SDFG ${s.name} code for '${target}'`, 'global/init/exit code blocks are not supported', 'move the code into tasklets');
  }
  const accessed = accessedNames(s);
  for (const [name, d] of s.arrays) {
    if (d.transient && !accessed.has(name)) continue;
    checkDescriptor(d, file.grammar, add);
  }
  if (s === file.root) {
    for (const [name, t] of s.symbols) {
      if (!ctypeOf(t)) add(s.jsonPath, `symbol ${name}`, `symbol type ${dtypeLabel(t)} is not supported`, 'declare the symbol as an integer');
    }
  }
  for (const b of blocksOf(s)) {
    if (b.kind === 'region' || b.kind === 'loop') {
      for (const e of b.edges) {
        checkCode(e.condition, 'expression', e.jsonPath, 'interstate condition', add);
        for (const [k, v] of e.assignments) checkCode(v, 'expression', e.jsonPath, `interstate assignment ${k}`, add);
      }
    }
    if (b.kind === 'loop') {
      if (b.condition) checkCode(b.condition, 'expression', b.jsonPath, `loop ${b.label}`, add);
      for (const st of [b.init, b.update]) if (st) checkCode(st, 'statements', b.jsonPath, `loop ${b.label}`, add);
    }
    if (b.kind === 'conditional') for (const br of b.branches) if (br.condition) checkCode(br.condition, 'expression', b.jsonPath, `conditional ${b.label}`, add);
    if (b.kind === 'region' && !['SDFG', 'ControlFlowRegion', 'NamedRegion', 'FunctionCallRegion', 'UnstructuredControlFlow'].includes(b.type)) {
      add(b.jsonPath, `${b.type} '${b.label}'`, `control-flow block type ${b.type} is not supported`, 'convert it to states in DaCe');
    }
    if (b.kind !== 'state') continue;
    for (const n of b.nodes) {
      switch (n.kind) {
        case 'library':
          add(n.jsonPath, `library node ${n.className} '${n.label}' in state ${b.label}`, 'library nodes are not supported', 'expand library nodes in DaCe first (sdfg.expand_library_nodes())');
          break;
        case 'consume_entry':
        case 'consume_exit':
          add(n.jsonPath, `consume scope '${n.label}' in state ${b.label}`, 'consume scopes are not supported', 'rewrite the consume scope as a map');
          break;
        case 'unknown':
          add(n.jsonPath, `${n.type} node '${n.label}' in state ${b.label}`, `node type ${n.type} is not supported`, 'replace the node with tasklets and maps');
          break;
        case 'nested_sdfg':
          if (!n.sdfg) add(n.jsonPath, `nested SDFG '${n.label}'`, 'the nested SDFG is not embedded in the file', 'save the SDFG with its nested SDFGs embedded');
          else checkNestedConnectors(n, n.sdfg, b, add);
          for (const v of Object.values(n.symbolMapping)) checkSym(v, file.grammar, n.jsonPath, `nested SDFG '${n.label}' symbol mapping`, add);
          if (n.schedule.startsWith('GPU') || n.schedule.startsWith('FPGA')) {
            add(n.jsonPath, `nested SDFG '${n.label}'`, `schedule ${n.schedule} is not supported`, 'profile a CPU version of the program');
          }
          break;
        case 'map_entry': {
          const m = n.map;
          const element = `map '${m.label}' in state ${b.label}`;
          if (!SUPPORTED_SCHEDULES.has(m.schedule)) {
            add(n.jsonPath, element, `map schedule ${m.schedule} is not supported${m.schedule.startsWith('GPU') ? ' (the GPU generator comes later)' : ''}`, 'use a Sequential, Default or CPU_Multicore schedule');
          }
          const dynamic = Object.keys(n.inConnectors).filter((c) => !c.startsWith('IN_'));
          if (dynamic.length) add(n.jsonPath, element, `dynamic map ranges (input connector ${dynamic.join(', ')}) are not supported`, 'make the map range depend on symbols only');
          if (n.exitId === null) add(n.jsonPath, element, 'the map has no exit node', 'check the SDFG with DaCe validate()');
          m.range.forEach((r) => [r.start, r.end, r.step].forEach((x) => checkSym(x, file.grammar, n.jsonPath, element, add)));
          if (m.range.length !== m.params.length) add(n.jsonPath, element, 'map range and parameters differ in length', 'check the SDFG with DaCe validate()');
          break;
        }
        case 'tasklet': {
          const element = `tasklet '${n.label}' in state ${b.label}`;
          const lang = n.code.language;
          if (lang === 'Python') checkCode(n.code.code, 'statements', n.jsonPath, element, add);
          else if (lang === 'CPP') {
            const m = DACE_RUNTIME_TOKENS.exec(n.code.code);
            if (m) add(n.jsonPath, element, `the C++ code uses DaCe runtime API ('${m[1]}')`, 'rewrite the tasklet without DaCe runtime calls');
          } else add(n.jsonPath, element, `${lang} tasklets are not supported`, 'write the tasklet in Python or C++');
          for (const extra of [n.codeGlobal, n.codeInit, n.codeExit]) {
            if (extra && extra.code.trim()) add(n.jsonPath, element, 'tasklet global/init/exit code is not supported', 'move the code into the tasklet body');
          }
          for (const [c, t] of [...Object.entries(n.inConnectors), ...Object.entries(n.outConnectors)]) {
            if (t && !ctypeOf(t)) add(n.jsonPath, element, `connector ${c} has type ${dtypeLabel(t)}, which is not supported`, 'use scalar connector types');
          }
          break;
        }
        case 'access':
          if (s.constants.has(n.data) && b.edges.some((e) => e.dst === n.id && e.memlet.data !== null)) {
            // Constants are compile-time data (constexpr in DaCe's code): a write cannot compile there either.
            add(n.jsonPath, `access node '${n.data}'`, `'${n.data}' is a constant (constants_prop) but is written here`, 'remove the write or the constant in DaCe');
          } else if (n.data.includes('.')) add(n.jsonPath, `access node '${n.data}'`, 'structure member access is not supported', 'flatten the structure in DaCe');
          else if (!s.arrays.has(n.data)) add(n.jsonPath, `access node '${n.data}'`, `no descriptor named '${n.data}'`, 'check the SDFG with DaCe validate()');
          break;
        default:
          break;
      }
    }
    for (const e of b.edges) {
      if (e.memlet.data && !s.arrays.has(e.memlet.data)) {
        add(e.jsonPath, 'memlet', `memlet refers to unknown container '${e.memlet.data}'`, 'check the SDFG with DaCe validate()');
        continue;
      }
      checkSubset(e.memlet.subset, file.grammar, e.jsonPath, add);
      checkSubset(e.memlet.otherSubset, file.grammar, e.jsonPath, add);
      if (e.memlet.wcr) checkCode(e.memlet.wcr, 'lambda', e.jsonPath, 'WCR', add);
    }
  }
}

/**
 * DaCe's NestedSDFG.validate rules on the boundary: every connector names a non-transient inner descriptor,
 * and every non-transient inner descriptor has a connector with a memlet. A descriptor without one would
 * have no outer memory to point at, so the generated call could only pass a null pointer.
 */
function checkNestedConnectors(n: NestedSdfgNode, inner: Sdfg, state: StateBlock, add: AddFn): void {
  const element = `nested SDFG '${n.label}'`;
  const connectors = new Set([...Object.keys(n.inConnectors), ...Object.keys(n.outConnectors)]);
  for (const c of [...connectors].sort()) {
    const d = inner.arrays.get(c);
    if (!d) add(n.jsonPath, element, `connector '${c}' has no data descriptor in the nested SDFG`, 'check the SDFG with DaCe validate()');
    else if (d.transient) add(n.jsonPath, element, `connector '${c}' names a transient of the nested SDFG`, 'check the SDFG with DaCe validate()');
  }
  const bound = new Set<string>();
  for (const e of state.edges) {
    if (e.memlet.data === null) continue;
    if (e.dst === n.id && e.dstConnector) bound.add(e.dstConnector);
    if (e.src === n.id && e.srcConnector) bound.add(e.srcConnector);
  }
  for (const [name, d] of inner.arrays) {
    if (d.transient) continue;
    if (!bound.has(name)) add(n.jsonPath, element, `argument '${name}' of the nested SDFG has no connector with a memlet in the outer state`, 'check the SDFG with DaCe validate()');
  }
}

export function findingFromElement(err: UnsupportedElement): UnsupportedFinding {
  return { jsonPath: err.jsonPath, element: err.element, message: err.message, hint: err.hint };
}
