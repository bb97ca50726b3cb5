/**
 * The supported subset: every rule about WHAT an SDFG element is (its kind, storage, schedule, dtype, the
 * shape of its memlets and boundaries, whether its code and symbolic fields parse) lives here, once: this file
 * walks the file and checks descriptors, control flow and memlets; the nodes of a state are subset-nodes.ts's,
 * single-element rules subset-checks.ts's. The
 * emitter assumes these rules hold and adds only what translation itself finds (a name that is not defined,
 * a copy between subsets of different shapes, a function with no C++ equivalent), each as a finding at the
 * element it was translating. Nothing here knows about particular files.
 */
import type { ControlFlowBlock, DataDescriptor, Grammar, RegionBlock, Sdfg, SdfgFile, StateBlock, Subset } from '../model/sdfg.js';

import { DefaultResolution } from '../analysis/defaults.js';

import { parseSym } from '../symbolic/index.js';
import { codeBlocksOf } from './code-blocks.js';
import { daceRuntimeFinding } from './dace-runtime.js';
import { argumentsReadBy } from './init-args.js';
import { constantLiterals } from './constants.js';

import { statesOf } from './graph.js';
import { ctypeOf, dtypeLabel } from './names.js';
import { isConstantContainer } from './placement.js';
import type { UnsupportedFinding } from './types.js';
import { MAX_NESTING } from '../sdfg/nesting.js';
import { aliasFindings, isArrayAlias } from './views.js';
import { isStructureType, memberProblem } from './structs.js';
import { checkStreamDescriptor, checkStreamEdges } from './stream-rules.js';
import { vectorFindings } from './vectors.js';
import {
  HINT,
  DACE_RUNTIME_TOKENS,
  EXTERNAL_LIBRARY_TOKENS,
  daceRejects,
  type AddFn,
  checkCode,
  checkSym,
  checkTaskletConnectors,
  checkSubsetRanks,
  checkStackSize,
  checkRootSizeDepth,
  checkInitTimeSize,
  checkAllocationPoint,
} from './subset-checks.js';
import { checkNode } from './subset-nodes.js';

export { HINT } from './subset-checks.js';

/** Storages of the CPU generator (CPU_ThreadLocal: one copy per OpenMP thread, thread-local.ts; CPU_Pinned: host
 * memory, page-locked only by the CUDA backend, as DaCe's cuda.py owns it). */
const SUPPORTED_STORAGE: ReadonlySet<string> = new Set(['Default', 'CPU_Heap', 'Register', 'CPU_ThreadLocal', 'CPU_Pinned']);
/** What the CUDA generator (codegen/cuda) adds for GPU programs. */
const GPU_STORAGE: ReadonlySet<string> = new Set(['GPU_Global', 'GPU_Shared']);
/** Region block types emitted as plain labelled blocks. */
const SUPPORTED_REGIONS: ReadonlySet<string> = new Set([
  'SDFG',
  'ControlFlowRegion',
  'NamedRegion',
  'FunctionCallRegion',
  'UnstructuredControlFlow',
]);

/** Every structural finding of the file (empty: the emitter may run). */
export function structuralFindings(file: SdfgFile, target: 'cpu' | 'gpu' = 'cpu'): UnsupportedFinding[] {
  const findings: UnsupportedFinding[] = [];
  const gpu = target === 'gpu';
  const add: AddFn = (jsonPath, element, message, hint) => findings.push({ jsonPath, element, message, hint });

  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(file.root.name)) {
    add(file.root.jsonPath, `SDFG '${file.root.name}'`, 'the SDFG name is not a C identifier', 'rename the SDFG');
  }
  if (file.dumpError) {
    // DaCe writes the graph with a top-level `error` when validation fails: the file is known to be invalid,
    // and code generated from it would inherit whatever DaCe found wrong (e.g. a nested SDFG argument with
    // no descriptor, which would be passed nowhere). Refuse it with DaCe's own explanation.
    add(
      '$.error',
      `SDFG ${file.root.name}`,
      `DaCe rejected this SDFG: ${file.dumpError.message}`,
      'fix it in DaCe first (this file is the dump of an SDFG that failed validation)',
    );
  }
  const defaults = new DefaultResolution();
  for (const s of file.sdfgs) scanSdfg(s, file, add, gpu, defaults);
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

function checkSubset(subset: Subset | null, grammar: Grammar, jsonPath: string, add: AddFn, wcr: boolean): void {
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
    // A tile with step 1 covers start … end + tile - 1 (core.subsetOf); other steps interleave tiles and gaps.
    if (d.tile.trim() !== '1' && d.step.replace(/\s+/g, '') !== '1')
      add(
        jsonPath,
        'memlet subset',
        `tiled ranges with a step other than 1 (tile ${d.tile}, step ${d.step}) are not supported`,
        'remove tiling from the memlet',
      );
    else if (d.tile.trim() !== '1' && wcr)
      add(
        jsonPath,
        'memlet subset',
        `a tiled range (tile ${d.tile}) with write-conflict resolution is not supported`,
        'remove tiling from the memlet',
      );
    [d.start, d.end, d.step].forEach((x) => checkSym(x, grammar, jsonPath, 'memlet range', add));
  }
}

/**
 * A structure argument, or a view of one (structs.ts): its members must be laid out as C struct members.
 * A transient structure would need an allocation of its own, which is not generated.
 */
function structureFindings(d: DataDescriptor, element: string, grammar: Grammar, add: AddFn, gpuTarget: boolean): void {
  if (!d.type.endsWith('View') && d.transient) {
    add(d.jsonPath, element, 'transient structures are not supported (only arguments and views of them)', 'make the structure an argument');
    return;
  }
  if (d.type === 'StructureReference') {
    add(d.jsonPath, element, 'structure references are not supported', 'use a StructureView');
    return;
  }
  const check = (m: DataDescriptor): void => {
    const problem = memberProblem(m);
    if (problem) add(m.jsonPath, element, problem, 'flatten the member in DaCe');
    else if (m.type === 'Structure') walk(m);
    else if (m.type === 'ContainerArray') check(m.stype!);
    else checkDescriptor({ ...m, transient: false }, grammar, add, gpuTarget);
  };
  const walk = (x: DataDescriptor): void => (x.members ?? []).forEach(check);
  if (d.type === 'ContainerView') check({ ...d, type: 'ContainerArray' });
  else walk(d);
}

function checkDescriptor(d: DataDescriptor, grammar: Grammar, add: AddFn, gpuTarget: boolean): void {
  const element = `${d.transient ? 'transient' : 'argument'} ${d.type} '${d.name}'`;
  if (d.name.includes('.')) {
    add(d.jsonPath, element, 'structure members are not supported', 'flatten the structure in DaCe');
    return;
  }
  if (isStructureType(d.type) || (d.type === 'ContainerView' && d.transient)) {
    structureFindings(d, element, grammar, add, gpuTarget);
    return;
  }
  if (d.type === 'Stream') {
    checkStreamDescriptor(d, element, add, gpuTarget);
    [...d.shape, d.totalSize, d.bufferSize ?? '0'].forEach((x) => checkSym(x, grammar, d.jsonPath, element, add));
    return;
  }
  if (isArrayAlias(d.type)) {
    // A pointer into another container (views.ts); DaCe's programs declare them transient.
    if (!d.transient)
      add(d.jsonPath, element, `a non-transient ${d.type} is not supported`, 'make the view transient, or pass a plain Array');
  } else if (d.type !== 'Array' && d.type !== 'Scalar') {
    const what = /Structure|Container/.test(d.type) ? 'structures and container arrays' : `${d.type} descriptors`;
    add(d.jsonPath, element, `${what} are not supported`, 'remove them in DaCe first (e.g. sdfg.simplify(), or allocate a plain Array)');
    return;
  }
  if (!SUPPORTED_STORAGE.has(d.storage) && !(gpuTarget && GPU_STORAGE.has(d.storage))) {
    const gpu = d.storage.startsWith('GPU');
    const why = !gpu ? '' : gpuTarget ? ' by the CUDA generator' : ' by the CPU generator (GPU programs are generated with target gpu)';
    add(
      d.jsonPath,
      element,
      `storage ${d.storage} is not supported${why}`,
      !gpu ? 'use CPU_Heap or Default storage' : gpuTarget ? 'use GPU_Global, GPU_Shared or Register storage' : HINT.cpuVersion,
    );
  }
  if (d.storage === 'CPU_ThreadLocal' && d.lifetime === 'External')
    add(
      d.jsonPath,
      element,
      'a CPU_ThreadLocal transient cannot be External (one copy per thread, not one workspace slot)',
      'use lifetime Scope or Persistent',
    );
  if (!ctypeOf(d.dtype)) {
    add(d.jsonPath, element, `dtype ${dtypeLabel(d.dtype)} is not supported`, 'use bool, (u)int8-64, float32/64 or complex64/128');
  } else vectorFindings(d, element, gpuTarget, add);
  [...d.shape, ...d.strides, ...d.offset, d.totalSize].forEach((x) => checkSym(x, grammar, d.jsonPath, element, add));
}

/**
 * How deep regions, loops and branches may nest in one SDFG, and nested SDFGs in each other. The emitter
 * recurses through control flow (several frames a level); the corpus nests a few levels deep. The parser
 * already refuses deeper files (sdfg/nesting.ts); this check keeps the generator safe on models built otherwise.
 */
export const MAX_CONTROL_DEPTH = MAX_NESTING;

/**
 * Blocks of one region tree, with whether a LoopRegion encloses them (for break/continue). `depth`: how many
 * regions enclose the block (the SDFG's body is 0); a region deeper than MAX_CONTROL_DEPTH is reported once
 * and its body not visited.
 */
function walkBlocks(
  region: RegionBlock | ControlFlowBlock,
  inLoop: boolean,
  depth: number,
  add: AddFn,
  visit: (b: ControlFlowBlock, inLoop: boolean) => void,
): void {
  if (depth > MAX_CONTROL_DEPTH && (region.kind === 'region' || region.kind === 'loop' || region.kind === 'conditional')) {
    add(
      region.jsonPath,
      `${region.kind} ${region.label}`,
      `control flow nested deeper than the limit of ${MAX_CONTROL_DEPTH} levels (regions, loops and branches inside each other)`,
      'flatten the control flow in DaCe',
    );
    return;
  }
  visit(region, inLoop);
  if (region.kind === 'region' || region.kind === 'loop')
    for (const b of region.blocks) walkBlocks(b, inLoop || region.kind === 'loop', depth + 1, add, visit);
  else if (region.kind === 'conditional') for (const br of region.branches) walkBlocks(br.body, inLoop, depth + 1, add, visit);
}

function nestingLevel(s: Sdfg): number {
  let level = 0;
  for (let p = s.parent; p; p = p.sdfg.parent) level++;
  return level;
}

function scanSdfg(s: Sdfg, file: SdfgFile, add: AddFn, gpu: boolean, defaults: DefaultResolution): void {
  for (const kind of ['global', 'init', 'exit'] as const) {
    for (const use of codeBlocksOf(s, kind, gpu)) {
      const element = `SDFG ${s.name} ${kind} code for '${use.target}'`;
      if (use.block.language !== 'CPP')
        add(use.jsonPath, element, `${use.block.language} code blocks are not supported`, 'write the block in C++');
      // Global code may include headers (it sits at file scope); DaCe's runtime and its state fields are not there.
      const m = DACE_RUNTIME_TOKENS.exec(kind === 'global' ? use.block.code.replace(/^\s*#include\b.*$/gm, '') : use.block.code);
      if (m) {
        const f = daceRuntimeFinding(`the ${kind} code`, use.block.code, m[1]!);
        add(use.jsonPath, element, f.message, f.hint);
      }
      // Init gets the program's arguments when its code reads one (init-args.ts); exit, in DaCe, only the state.
      const arg = kind === 'exit' ? argumentsReadBy(file.root, use.block.code)[0] : undefined;
      if (arg)
        add(
          use.jsonPath,
          element,
          `the exit code reads argument '${arg}', which __dace_exit does not receive (DaCe's exit takes the state only)`,
          'read the value in the init code or in the program instead',
        );
      const lib = EXTERNAL_LIBRARY_TOKENS.exec(use.block.code);
      if (lib)
        add(
          use.jsonPath,
          element,
          `the ${kind} code calls ONNX Runtime ('${lib[1]}'), which generated code does not link`,
          HINT.expandOnnx,
        );
    }
  }
  const accessed = accessedNames(s);
  for (const [name, d] of s.arrays) {
    if (d.transient && !accessed.has(name)) continue;
    checkDescriptor(d, file.grammar, add, gpu);
    if (isConstantContainer(s, name) && ctypeOf(d.dtype)) {
      const c = constantLiterals(s, d, (src) => parseSym(src, file.grammar));
      if ('problem' in c) add(d.jsonPath, `constant '${name}'`, c.problem, c.hint);
    }
    if (d.transient && d.type === 'Array' && !isConstantContainer(s, name)) {
      checkAllocationPoint(s, d, file.grammar, add);
      checkStackSize(s, d, file.grammar, defaults, add);
      checkRootSizeDepth(file, s, d, add);
    }
    if (d.transient && (d.lifetime === 'Persistent' || d.lifetime === 'External') && !isConstantContainer(s, name) && !isArrayAlias(d.type))
      checkInitTimeSize(file, s, d, add);
  }
  if (s === file.root) {
    for (const [name, t] of s.symbols) {
      if (!ctypeOf(t))
        add(s.jsonPath, `symbol ${name}`, `symbol type ${dtypeLabel(t)} is not supported`, 'declare the symbol as an integer');
    }
  }
  if (nestingLevel(s) > MAX_CONTROL_DEPTH) {
    // Reported at the outermost SDFG over the limit only.
    if (nestingLevel(s) === MAX_CONTROL_DEPTH + 1)
      add(
        s.jsonPath,
        `nested SDFG ${s.name}`,
        `nested SDFGs nested deeper than the limit of ${MAX_CONTROL_DEPTH} levels`,
        'inline the nested SDFGs in DaCe (e.g. sdfg.simplify())',
      );
    return;
  }
  walkBlocks(s.body, false, 0, add, (b, inLoop) => {
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
    if (b.kind === 'conditional')
      for (const br of b.branches) if (br.condition) checkCode(br.condition, 'expression', b.jsonPath, `conditional ${b.label}`, add);
    if (b.kind === 'region' && !SUPPORTED_REGIONS.has(b.type)) {
      add(b.jsonPath, `${b.type} '${b.label}'`, `control-flow block type ${b.type} is not supported`, 'convert it to states in DaCe');
    }
    if ((b.kind === 'break' || b.kind === 'continue') && !inLoop)
      add(b.jsonPath, `${b.kind} block ${b.label}`, `${b.kind} outside a loop`, HINT.validate);
    if (b.kind === 'state') scanState(s, b, file, add, gpu);
  });
}

function scanState(s: Sdfg, b: StateBlock, file: SdfgFile, add: AddFn, gpu: boolean): void {
  checkStreamEdges(s, b, add);
  for (const n of b.nodes) checkNode(s, b, n, file, add, gpu);
  aliasFindings(s, b, add);
  const byId = new Map(b.nodes.map((n) => [n.id, n]));
  for (const e of b.edges) {
    if (e.memlet.data !== null && !s.arrays.has(e.memlet.data)) {
      add(
        e.jsonPath,
        'memlet',
        daceRejects(
          `Edge validation failed: Array "${e.memlet.data}" not found in SDFG`,
          `memlet refers to unknown container '${e.memlet.data}'`,
        ),
        HINT.daceRejects,
      );
      continue;
    }
    checkSubset(e.memlet.subset, file.grammar, e.jsonPath, add, e.memlet.wcr !== null);
    checkSubset(e.memlet.otherSubset, file.grammar, e.jsonPath, add, e.memlet.wcr !== null);
    checkSubsetRanks(s, byId, e, add);
    checkTaskletConnectors(byId, e, add);
    if (e.memlet.wcr) checkCode(e.memlet.wcr, 'lambda', e.jsonPath, 'WCR', add);
  }
}
