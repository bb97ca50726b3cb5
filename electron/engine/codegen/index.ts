/**
 * The code generator: one C++17 translation unit per (SDFG, mode, layout, symbol values), exporting DaCe's
 * ABI plus the `__tlab_*` trampolines (docs/runtime-abi.md). See docs/codegen.md for the subset and how each
 * memory mode maps to code.
 */
import type { Analysis, TransientInfo } from '../analysis/types.js';
import { TlabError } from '../errors.js';
import { usedRootSymbols } from '../model/queries.js';
import type { DataDescriptor, DataflowNode, Sdfg, SdfgFile } from '../model/sdfg.js';
import { parseSym } from '../symbolic/index.js';
import { lineOrigins } from './out.js';
import { dryRunPlan, placeTransient, type ExternalSlotPlan, type MemoryPlan, type Placement } from './placement.js';
import { ProgramEmitter } from './program.js';
import { statesOf } from './graph.js';
import { byCodeUnit, ctypeOf, dtypeLabel } from './names.js';
import { sizeValue } from './expr.js';
import type { ExternalStorage, GeneratedProgram, GenerateOptions, ProgramArg, UnsupportedFinding } from './types.js';
import { structuralFindings } from './subset.js';
import { expandLibraryNodes, externalLibraries, onlyBlasExpands } from '../sdfg/expand/index.js';
import { PURE, type LibraryImplChoice } from '../sdfg/expand/impl.js';
import { isStructureType, structLeaves, withStructures } from './structs.js';
import { leavesCopiedIntoSymbols } from './init-args.js';
import { vectorArg } from './vectors.js';
import { cudaBackend, dryRunCudaBackend } from './cuda/index.js';
import type { Target } from '../analysis/types.js';
import { integerConstants } from '../analysis/symbols.js';
import type { ProfileCheck } from '../view/types.js';

export type { GeneratedProgram, GenerateOptions, UnsupportedFinding } from './types.js';

/**
 * Every reason the SDFG is outside the supported subset of `target`'s generator (empty = generation will
 * succeed for any mode): the structural rules (subset.ts), then what one emission with a default memory plan
 * cannot translate. The default is the CPU generator, the one every host can also run; GPU programs are
 * checked with `target` 'gpu' (the CUDA backend, codegen/cuda).
 */
export function findUnsupported(parsed: SdfgFile, target: Target = 'cpu', libraryImpl: LibraryImplChoice = PURE): UnsupportedFinding[] {
  const file = withStructures(expandLibraryNodes(parsed, libraryImpl));
  const findings = structuralFindings(file, target);
  if (findings.length) return findings;
  const { arrays, scalars } = rootArguments(file.root);
  const plan = dryRunPlan(file);
  const backend = target === 'gpu' ? dryRunCudaBackend(file, plan) : null;
  return new ProgramEmitter(file, plan, [], new Map(), backend).emit(usedRootSymbols(file), arrays, scalars).findings;
}

/** `findUnsupported` as the `profile` verdict of `analyze` and the window: yes, or the first finding. */
export function profileCheck(file: SdfgFile, target: Target, libraryImpl: LibraryImplChoice = PURE): ProfileCheck {
  const findings = findUnsupported(file, target, libraryImpl);
  const f = findings[0];
  if (!f) return { ok: true };
  const check: ProfileCheck = {
    ok: false,
    element: f.element,
    message: f.message,
    hint: f.hint,
    jsonPath: f.jsonPath,
    findings: findings.length,
  };
  // A node that only blas expands (Potrf): say what blas would give, so a form that offers blas can enable Run.
  if (libraryImpl.default === 'pure' && Object.keys(libraryImpl.nodes).length === 0 && onlyBlasExpands(file, f.jsonPath))
    return { ...check, withBlas: profileCheck(file, target, { default: 'blas', nodes: {} }) };
  return check;
}

/**
 * The symbols a build of `parsed` needs a value for: DaCe's symbol arguments (after the library expansions a
 * build makes), less the file's own integer constants. `generateProgram` refuses while one of them has none.
 */
export function buildSymbolNames(parsed: SdfgFile, libraryImpl: LibraryImplChoice = PURE): string[] {
  const file = withStructures(expandLibraryNodes(parsed, libraryImpl));
  const constants = integerConstants(file.root);
  return usedRootSymbols(file).filter((s) => !constants.has(s));
}

/** Names shown with a `needsValues` verdict; the count says how many more there are. */
const NEEDS_SHOWN = 8;

/**
 * A `yes` verdict that also says which symbols still need a value before a build can succeed (`has`: whether the
 * analysis has a value, given or defaulted). A `no` verdict is returned as it is: its finding comes first.
 */
export function withSymbolNeeds(check: ProfileCheck, needed: readonly string[], has: (name: string) => boolean): ProfileCheck {
  if (!check.ok) return check;
  const missing = needed.filter((s) => !has(s));
  if (missing.length === 0) return { ok: true };
  return { ok: true, needsValues: { count: missing.length, names: missing.slice(0, NEEDS_SHOWN) } };
}

function unsupportedError(file: SdfgFile, findings: UnsupportedFinding[]): TlabError {
  const f = findings[0]!;
  const more = findings.length > 1 ? [`(${findings.length - 1} more finding(s); run the analysis to list them)`] : [];
  return new TlabError('unsupported', `${f.element}: ${f.message}`, { file: file.path, jsonPath: f.jsonPath, details: [f.hint, ...more] });
}

/**
 * One C++ translation unit for the requested mode and layout. Runs the structural rules and ONE emission,
 * which also reports what it cannot translate; no separate check is needed before calling it.
 */
export function generateProgram(parsed: SdfgFile, analysis: Analysis, opts: GenerateOptions): GeneratedProgram {
  const file = withStructures(expandLibraryNodes(parsed, analysis.libraryImpl));
  const structural = structuralFindings(file, analysis.target);
  if (structural.length) throw unsupportedError(file, structural);
  const root = file.root;
  const values = new Map<string, bigint>();
  for (const [k, v] of analysis.symbols) values.set(k, v.value);
  // The file's constants win over symbol values, as in the analysis (analysis/symbols.ts).
  for (const [k, v] of integerConstants(root)) values.set(k, v);
  const argSymbols = usedRootSymbols(file);
  for (const s of argSymbols) {
    if (!values.has(s)) {
      throw new TlabError('input', `symbol ${s} has no value: pass --symbols ${s}=… or --default-symbol …`, {
        file: file.path,
        jsonPath: `${root.jsonPath}.attributes.symbols`,
      });
    }
  }
  const transients = new Map<string, TransientInfo>(analysis.transients.map((t) => [t.id, t]));
  const transientIds = analysis.transients.map((t) => t.id);
  const indexOf = new Map(transientIds.map((id, i) => [id, i]));
  const accessed = new Map<Sdfg, Set<string>>();
  const isAccessed = (s: Sdfg, name: string) => {
    let set = accessed.get(s);
    if (!set) {
      set = new Set();
      for (const st of statesOf(s)) {
        for (const n of st.nodes) if (n.kind === 'access') set.add(n.data);
        for (const e of st.edges) if (e.memlet.data) set.add(e.memlet.data);
      }
      accessed.set(s, set);
    }
    return set.has(name);
  };

  const placements = new Map<string, Placement>();
  const placementOf = (s: Sdfg, name: string): Placement => {
    const id = `${s.sdfgIndex}:${name}`;
    let p = placements.get(id);
    if (!p) {
      p = placeTransient(s, s.arrays.get(name)!, transients.get(id) ?? null, opts, isAccessed(s, name));
      placements.set(id, p);
    }
    return p;
  };
  const plan: MemoryPlan = {
    placement: placementOf,
    transientIndex: (s, name) => indexOf.get(`${s.sdfgIndex}:${name}`) ?? -1,
    symbolValue: (name) => values.get(name) ?? null,
  };

  // Workspace slots in arrays_recursive order (the SDFG list is pre-order, each SDFG in insertion order).
  const slotsByStorage = new Map<string, ExternalSlotPlan[]>();
  for (const s of file.sdfgs) {
    for (const [name, d] of s.arrays) {
      if (!d.transient) continue;
      const p = placementOf(s, name);
      if (p.kind !== 'external') continue;
      const list = slotsByStorage.get(p.storage) ?? [];
      list.push({ sdfg: s, name, storage: p.storage, packedOffset: null });
      slotsByStorage.set(p.storage, list);
    }
  }
  const packedTotals = new Map<string, bigint>();
  const warnings: string[] = [];
  if (opts.layout === 'packed') {
    for (const [storage, slots] of slotsByStorage) {
      const packed = analysis.layouts.packed[storage];
      if (!packed) {
        throw new TlabError('input', `the packed layout of ${storage} is unknown (sizes are symbolic): give every symbol a value`, {
          file: file.path,
        });
      }
      const offsets = slots.map((slot) => packed.offsets.get(`${slot.sdfg.sdfgIndex}:${slot.name}`));
      if (offsets.every((o) => o !== undefined)) {
        slots.forEach((slot, i) => (slot.packedOffset = offsets[i]!));
        packedTotals.set(storage, packed.bytes);
      } else {
        // The analysis did not pack every slot of this storage: the whole storage keeps DaCe's back-to-back
        // layout, which is correct but not what was asked for. Say so, and record it per storage.
        const missing = slots.filter((_, i) => offsets[i] === undefined).map((slot) => `${slot.sdfg.sdfgIndex}:${slot.name}`);
        warnings.push(
          `EXTERNAL (packed): the ${storage} workspace uses DaCe's back-to-back layout instead: the packed layout has no offset for ${missing.length} of its ${slots.length} slot(s) (${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ', …' : ''})`,
        );
      }
    }
  }
  const slots = [...slotsByStorage.values()].flat();

  const { arrays, scalars } = rootArguments(root);
  const backend = analysis.target === 'gpu' ? cudaBackend(file, analysis, opts, placementOf) : null;
  const emitter = new ProgramEmitter(file, plan, slots, packedTotals, backend);
  const result = emitter.emit(argSymbols, arrays, scalars);
  if (result.findings.length) throw unsupportedError(file, result.findings);

  const env = (name: string): bigint | null => values.get(name) ?? null;
  const evaluate = (src: string, jsonPath: string, what: string): bigint => {
    try {
      return sizeValue(parseSym(src, file.grammar), env);
    } catch (err) {
      throw new TlabError('input', `${what}: cannot evaluate '${src}': ${(err as Error).message}`, {
        file: file.path,
        jsonPath,
        details: ['pass --symbols NAME=… for every symbol'],
      });
    }
  };
  const rootEval = (s: Sdfg, src: string, jsonPath: string, what: string): bigint => {
    try {
      return sizeValue(emitter.rootSizeExpr(s, src), env);
    } catch (err) {
      throw new TlabError('input', `${what}: cannot evaluate '${src}': ${(err as Error).message}`, { file: file.path, jsonPath });
    }
  };

  const usage = rootUsage(root);
  const copiedIntoSymbols = leavesCopiedIntoSymbols(file, backend !== null);
  const args: ProgramArg[] = [];
  const arrayArg = (name: string, d: DataDescriptor, written: boolean, read: boolean): ProgramArg =>
    d.dtype.kind === 'vector'
      ? vectorArg(plainArrayArg(name, d, written, read), d.dtype, ctypeOf(d.dtype.base)!)
      : plainArrayArg(name, d, written, read);
  const plainArrayArg = (name: string, d: DataDescriptor, written: boolean, read: boolean): ProgramArg => ({
    name,
    kind: 'array',
    dtype: dtypeLabel(d.dtype),
    ctype: ctypeOf(d.dtype)!,
    elementBytes: d.dtype.bytes ?? 0,
    shape: d.shape.map((x) => evaluate(x, d.jsonPath, `shape of ${name}`)),
    totalElements: evaluate(d.totalSize, d.jsonPath, `total size of ${name}`),
    strides: d.strides.map((x) => evaluate(x, d.jsonPath, `strides of ${name}`)),
    written,
    read,
  });
  for (const name of arrays) {
    const d = root.arrays.get(name)!;
    if (!isStructureType(d.type)) {
      const arg = arrayArg(name, d, usage.written.has(name), usage.read.has(name));
      const host = backend !== null && !d.storage.startsWith('GPU_') && !backend.kernelArguments.has(name);
      args.push(host ? { ...arg, hostMemory: true } : arg);
      continue;
    }
    // A structure is passed as its leaves (structs.ts); a leaf is used when it or a structure around it is.
    const used = (set: Set<string>, path: string) => [...set].some((u) => path === u || path.startsWith(`${u}.`));
    const count = (x: DataDescriptor) => Number(evaluate(x.totalSize, x.jsonPath, `size of container array ${x.name}`));
    for (const leaf of structLeaves(name, d, count)) {
      const arg = arrayArg(leaf.path, leaf.desc, used(usage.written, leaf.path), used(usage.read, leaf.path));
      const symbol = copiedIntoSymbols.get(leaf.path);
      args.push(symbol !== undefined && leaf.desc.type === 'Scalar' ? { ...arg, fromSymbol: symbol } : arg);
    }
  }
  for (const name of [...scalars, ...argSymbols].sort(byCodeUnit)) {
    if (scalars.includes(name)) {
      const d = root.arrays.get(name)!;
      args.push({
        name,
        kind: 'scalar',
        dtype: dtypeLabel(d.dtype),
        ctype: ctypeOf(d.dtype)!,
        elementBytes: d.dtype.bytes ?? 0,
        shape: [],
        totalElements: 1n,
        strides: [],
        written: false,
        read: true,
      });
    } else {
      const t = root.symbols.get(name);
      const dtype = t && t.kind === 'scalar' ? t.name : 'int32';
      const ctype = ctypeOf(t ?? null) ?? 'int';
      args.push({
        name,
        kind: 'symbol',
        dtype,
        ctype,
        elementBytes: t?.bytes ?? 4,
        shape: [],
        totalElements: 1n,
        strides: [],
        written: false,
        read: true,
      });
    }
  }

  const externals: ExternalStorage[] = [];
  for (const [storage, list] of [...slotsByStorage].sort((a, b) => byCodeUnit(a[0], b[0]))) {
    let offset = 0n;
    const out = list.map((slot) => {
      const d = slot.sdfg.arrays.get(slot.name)!;
      const bytes = rootEval(slot.sdfg, d.totalSize, d.jsonPath, `size of ${slot.name}`) * BigInt(d.dtype.bytes ?? 0);
      const at = slot.packedOffset ?? offset;
      offset += bytes;
      return { id: `${slot.sdfg.sdfgIndex}:${slot.name}`, bytes, offset: at };
    });
    externals.push({
      storage,
      layout: packedTotals.has(storage) ? 'packed' : 'dace',
      bytes: packedTotals.get(storage) ?? offset,
      slots: out,
    });
  }

  const symbols: Record<string, bigint> = {};
  for (const s of [...argSymbols, ...result.constantSymbols]) symbols[s] = values.get(s)!;

  return {
    name: root.name,
    mode: opts.mode,
    layout: opts.layout,
    source: result.source,
    args,
    initSymbols: [...argSymbols],
    symbols,
    transientIds,
    externals,
    usesOpenMP: result.usesOpenMP,
    libraries: externalLibraries(file),
    nondeterministicFloat: result.nondeterministicFloat,
    stackTransients: result.stackTransients,
    warnings,
    lineOrigins: lineOrigins(result.source),
    ...(backend
      ? {
          gpu: {
            language: 'cuda' as const,
            pooled: backend.opts.pooled,
            poolReleaseThreshold: backend.opts.releaseThreshold,
            kernels: backend.kernels,
          },
        }
      : {}),
  };
}

function rootArguments(root: Sdfg): { arrays: string[]; scalars: string[] } {
  const arrays: string[] = [];
  const scalars: string[] = [];
  for (const [name, d] of root.arrays) {
    if (d.transient || name.startsWith('__dace')) continue;
    if (d.type === 'Scalar') scalars.push(name);
    else arrays.push(name);
  }
  return { arrays: arrays.sort(byCodeUnit), scalars: scalars.sort(byCodeUnit) };
}

/**
 * Which root containers the program writes (access nodes with incoming data) and reads; for a structure, the
 * member path its memlet names (`P.w`), so that only the members it writes count as outputs.
 */
function rootUsage(root: Sdfg): { written: Set<string>; read: Set<string> } {
  const written = new Set<string>();
  const read = new Set<string>();
  const touched = (node: DataflowNode | undefined, data: string) =>
    node?.kind !== 'access' ? null : data.startsWith(`${node.data}.`) ? data : node.data;
  for (const st of statesOf(root)) {
    const byId = new Map(st.nodes.map((n) => [n.id, n]));
    for (const e of st.edges) {
      if (e.memlet.data === null) continue;
      const w = touched(byId.get(e.dst), e.memlet.data);
      const r = touched(byId.get(e.src), e.memlet.data);
      if (w !== null) written.add(w);
      if (r !== null) read.add(r);
    }
  }
  return { written, read };
}
