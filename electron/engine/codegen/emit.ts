/**
 * The C++ emitter. One `ProgramEmitter` turns one SDFG file plus a memory plan into one translation unit.
 * The plan (where each transient lives) is the only thing that differs between modes, so every mode shares
 * the same control flow, dataflow and memlet code: POOL on CPU is byte-identical to SCOPED by construction.
 *
 * Containers are always reached through a `T *` (Scalars included), so one linear-index routine serves every
 * access. Every element starts with a `// @ <jsonPath>` marker; `lineOrigins` is derived from those markers.
 */
import type {
  AccessNode,
  ControlFlowBlock,
  DataDescriptor,
  DataflowNode,
  InterstateEdge,
  LoopBlock,
  MapEntryNode,
  Memlet,
  MemletEdge,
  NestedSdfgNode,
  RangeDim,
  Sdfg,
  SdfgFile,
  StateBlock,
  Subset,
  TaskletNode,
} from '../model/sdfg.js';
import {
  CPP_SYMBOLIC_HELPERS,
  freeSymbols,
  parsePython,
  parsePythonLambda,
  parsePythonStatements,
  parseSym,
  substitute,
  type Expr,
  type Stmt,
} from '../symbolic/index.js';
import { UnsupportedElement } from './errors.js';
import { cppOf, ExprError, isTranslationError, sizeValue, statementNames, type NameResolver } from './expr.js';
import { containingScope, scopeOrder, stateGraph, statesOf, blocksOf, type StateGraph } from './graph.js';
import { byCodeUnit, cppIdent, ctypeOf, innerSymbolCtype, isIntegerCtype } from './names.js';

/** Where SCOPED mode allocates a transient (mirrors analysis AllocationSite for heap data). */
export type SiteKey =
  | { kind: 'sdfg' }
  | { kind: 'state'; stateJsonPath: string }
  | { kind: 'scope'; stateJsonPath: string; mapEntryId: number };

export type Placement =
  /** tlab_alloc/tlab_free at the site, on every execution of the site. */
  | { kind: 'heap'; site: SiteKey }
  /** tlab_alloc in init, tlab_free in exit, pointer in the state struct. */
  | { kind: 'persistent'; site: SiteKey }
  /** A workspace slot installed by the set functions. */
  | { kind: 'external'; storage: string; site: SiteKey }
  /** A local C++ array (Register storage). */
  | { kind: 'stack' }
  /** A name in `constants_prop`: a file-scope constexpr array holding the values stored in the file. */
  | { kind: 'constant' }
  /** Never accessed: nothing at all. */
  | { kind: 'none' };

export interface MemoryPlan {
  placement(sdfg: Sdfg, name: string): Placement;
  /** Index into GeneratedProgram.transientIds (the tlab_alloc event tag). */
  transientIndex(sdfg: Sdfg, name: string): number;
  /** Concrete value of a root symbol, or null when unknown (dry runs). */
  symbolValue(name: string): bigint | null;
}

export interface ExternalSlotPlan {
  sdfg: Sdfg;
  name: string;
  storage: string;
  /** Byte offset for the packed layout; null = DaCe's back-to-back layout computed from the symbols. */
  packedOffset: bigint | null;
}

export interface EmitResult {
  source: string;
  argSymbols: string[];
  usesOpenMP: boolean;
  nondeterministicFloat: boolean;
  /** Root symbols the code needed that are not arguments (specialised as constants). */
  constantSymbols: string[];
  /** Transient ids (`<sdfg>:<name>`) declared on the stack, which `tlab_poison_stack` poisons in verification. */
  stackTransients: string[];
}

const ZERO: Expr = { k: 'int', v: 0n };
const ONE: Expr = { k: 'int', v: 1n };

function isTrueCondition(code: string): boolean {
  const c = code.trim();
  return c === '' || c === '1' || c === 'True' || c === '(1)' || c === 'true';
}

/**
 * toCpp parenthesises only what its own precedence needs, so expression text spliced next to an operator
 * here is grouped unless it is a plain name, number or call.
 */
function grouped(cpp: string): string {
  return /^-?[A-Za-z0-9_.]+$/.test(cpp) || /^[A-Za-z_][A-Za-z0-9_:]*\([^()]*\)$/.test(cpp) ? cpp : `(${cpp})`;
}

function sameSym(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

class Out {
  lines: string[] = [];
  private depth = 0;
  line(text: string): void {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
  }
  raw(text: string): void {
    for (const l of text.split('\n')) this.lines.push(l);
  }
  open(text: string): void {
    this.line(`${text} {`);
    this.depth++;
  }
  openBrace(): void {
    this.line('{');
    this.depth++;
  }
  reopen(text: string): void {
    this.depth--;
    this.line(text);
    this.depth++;
  }
  close(text = '}'): void {
    this.depth--;
    this.line(text);
  }
  mark(jsonPath: string): void {
    this.line(`// @ ${jsonPath}`);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

/** Names visible at one point of the generated code. */
interface Env {
  names: Map<string, string>;
  /** Inside a CPU_Multicore map: WCR writes need atomics. */
  parallel: boolean;
}

interface LoopLabels {
  brk: string;
  cont: string;
}

/** Per generated function (root program or one nested SDFG). */
interface FnCtx {
  sdfg: Sdfg;
  /** Container name → C++ pointer variable. */
  containers: Map<string, string>;
  exitLabel: string;
  /** Root only: symbols that are not arguments but were needed (emitted as constants). */
  constantsUsed: Set<string>;
  isRoot: boolean;
}

interface SubsetPoint {
  dims: Array<{ start: Expr; end: Expr; step: Expr; startText: string; endText: string }>;
}

export class ProgramEmitter {
  private readonly out = new Out();
  private labelCounter = 0;
  private usesOpenMP = false;
  private nondeterministicFloat = false;
  private readonly nestedIds = new Map<Sdfg, number>();
  private readonly name: string;
  private argSymbols: string[] = [];
  private readonly rootConstants = new Set<string>();
  private readonly stackTransients = new Set<string>();

  constructor(
    private readonly file: SdfgFile,
    private readonly plan: MemoryPlan,
    private readonly slots: ExternalSlotPlan[],
    private readonly packedTotals: Map<string, bigint>,
  ) {
    this.name = file.root.name;
  }

  // -------------------------------------------------------------------------------------------------------
  // Expressions
  // -------------------------------------------------------------------------------------------------------

  private fail(jsonPath: string, element: string, message: string, hint: string): never {
    throw new UnsupportedElement(jsonPath, element, message, hint);
  }

  private guard<T>(jsonPath: string, element: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isTranslationError(err)) {
        this.fail(jsonPath, element, err.message, 'rewrite this expression in the supported Python subset (see docs/codegen.md)');
      }
      throw err;
    }
  }

  /** Resolver for symbolic fields and interstate code: symbols, map parameters, container reads. */
  private baseResolver(ctx: FnCtx, env: Env): NameResolver {
    return {
      read: (name) => {
        const local = env.names.get(name);
        if (local) return local;
        const ptr = ctx.containers.get(name);
        if (ptr) {
          const desc = ctx.sdfg.arrays.get(name)!;
          if (desc.type === 'Scalar' || desc.shape.every((s) => s.trim() === '1')) return `${ptr}[0]`;
          throw new ExprError(`array '${name}' is used as a value`);
        }
        const constant = ctx.sdfg.constants.get(name);
        if (constant && (typeof constant.value === 'number' || typeof constant.value === 'boolean')) {
          // Parenthesised: toCpp treats what a resolver returns as an operand that needs no parentheses.
          return constant.value === true ? 'true' : constant.value === false ? 'false' : constant.value < 0 ? `(${constant.value})` : String(constant.value);
        }
        if (ctx.isRoot) {
          const value = this.plan.symbolValue(name);
          if (value !== null || ctx.sdfg.symbols.has(name)) {
            ctx.constantsUsed.add(name);
            return cppIdent(name);
          }
        }
        throw new ExprError(`name '${name}' is not defined here`);
      },
      index: (name, indices) => {
        const ptr = ctx.containers.get(name);
        if (!ptr) throw new ExprError(`'${name}' is not a data container`);
        const desc = ctx.sdfg.arrays.get(name)!;
        return `${ptr}[${this.linear(ctx, env, desc, indices)}]`;
      },
    };
  }

  /** A symbolic field of this file, in the file's grammar (parseSym memoises the trees). */
  private symExpr(src: string): Expr {
    return parseSym(src, this.file.grammar);
  }

  private sym(ctx: FnCtx, env: Env, src: string): string {
    return cppOf(this.symExpr(src), this.baseResolver(ctx, env), 'symbolic');
  }

  private code(ctx: FnCtx, env: Env, e: Expr): string {
    return cppOf(e, this.baseResolver(ctx, env), 'python');
  }

  /** Σ (index_d + offset_d) · stride_d, in 64-bit arithmetic. */
  private linear(ctx: FnCtx, env: Env, desc: DataDescriptor, indexCpp: string[]): string {
    if (indexCpp.length !== desc.strides.length) {
      throw new ExprError(`'${desc.name}' has ${desc.strides.length} dimension(s), indexed with ${indexCpp.length}`);
    }
    const terms: string[] = [];
    indexCpp.forEach((idx, d) => {
      const off = desc.offset[d] ?? '0';
      const base = off.trim() === '0' ? idx : `${idx} + ${grouped(this.sym(ctx, env, off))}`;
      const stride = desc.strides[d]!;
      if (base === '0') return;
      terms.push(stride.trim() === '1' ? `int64_t(${base})` : `int64_t(${base}) * ${grouped(this.sym(ctx, env, stride))}`);
    });
    return terms.length ? terms.join(' + ') : '0';
  }

  private subsetOf(desc: DataDescriptor, subset: Subset | null, jsonPath: string): SubsetPoint {
    if (subset === null) {
      return {
        dims: desc.shape.map((s) => ({
          start: ZERO,
          end: { k: 'bin', op: '-', a: this.symExpr(s), b: ONE },
          step: ONE,
          startText: '0',
          endText: `(${s}) - 1`,
        })),
      };
    }
    if (subset.kind === 'indices') {
      return {
        dims: subset.indices.map((i) => ({ start: this.symExpr(i), end: this.symExpr(i), step: ONE, startText: i, endText: i })),
      };
    }
    if (subset.kind === 'union') this.fail(jsonPath, 'subset union', 'subset unions are not supported', 'simplify the memlet in DaCe');
    return {
      dims: subset.dims.map((d: RangeDim) => {
        if (d.tile.trim() !== '1') this.fail(jsonPath, 'tiled range', `tiled ranges (tile ${d.tile}) are not supported`, 'remove tiling from the memlet');
        return { start: this.symExpr(d.start), end: this.symExpr(d.end), step: this.symExpr(d.step), startText: d.start, endText: d.end };
      }),
    };
  }

  private isSingleElement(desc: DataDescriptor, subset: Subset | null): boolean {
    if (subset === null) return desc.type === 'Scalar' || desc.shape.every((s) => s.trim() === '1');
    if (subset.kind === 'indices') return true;
    if (subset.kind === 'range') return subset.dims.every((d) => sameSym(d.start, d.end));
    return false;
  }

  private startIndex(ctx: FnCtx, env: Env, desc: DataDescriptor, subset: Subset | null, jsonPath: string): string {
    const point = this.subsetOf(desc, subset, jsonPath);
    const r = this.baseResolver(ctx, env);
    return this.linear(ctx, env, desc, point.dims.map((d) => cppOf(d.start, r, 'symbolic')));
  }

  private containerPtr(ctx: FnCtx, name: string, jsonPath: string): { ptr: string; desc: DataDescriptor } {
    const desc = ctx.sdfg.arrays.get(name);
    const ptr = ctx.containers.get(name);
    if (!desc || !ptr) this.fail(jsonPath, `container '${name}'`, `memlet refers to '${name}', which is not a supported container of SDFG ${ctx.sdfg.name}`, 'check the SDFG with DaCe validate()');
    return { ptr, desc };
  }

  // -------------------------------------------------------------------------------------------------------
  // Program
  // -------------------------------------------------------------------------------------------------------

  emit(argSymbols: string[], argArrays: string[], argScalars: string[]): EmitResult {
    const root = this.file.root;
    this.argSymbols = argSymbols;
    const nested = this.file.sdfgs.filter((s) => s !== root);
    nested.forEach((s, i) => this.nestedIds.set(s, i + 1));

    const o = this.out;
    o.line(`// Generated by Transient Lab from ${this.file.path.split('/').pop() ?? this.file.path}`);
    o.line('// Lines `// @ <jsonPath>` name the SDFG element that produced the code below them.');
    o.line('#include "transient_runtime.h"');
    o.line('#include <cmath>');
    o.line('#include <complex>');
    o.line('#include <cstdint>');
    o.line('#include <cstring>');
    o.line('#include <memory>');
    o.line('#include <type_traits>');
    o.raw(CPP_SYMBOLIC_HELPERS);
    o.line('');

    // State struct: one pointer per persistent or workspace transient.
    o.open(`struct ${this.name}_state_t`);
    for (const s of this.file.sdfgs) {
      for (const [name, desc] of s.arrays) {
        if (!desc.transient) continue;
        const p = this.plan.placement(s, name);
        if (p.kind === 'persistent' || p.kind === 'external') o.line(`${ctypeOf(desc.dtype)} *${this.fieldName(s, name)} = nullptr;`);
        if (p.kind === 'persistent') o.line(`size_t ${this.fieldName(s, name)}_bytes = 0;`);
      }
    }
    o.line('int __tlab_unused = 0;');
    o.close('};');
    o.line('');
    this.emitConstants();

    // Nested SDFG functions, declared first so that any nesting order works.
    for (const s of nested) o.line(`${this.nestedSignature(s)};`);
    o.line('');
    for (const s of nested) this.emitNestedFunction(s);

    this.emitRootFunction(argArrays, argScalars);
    this.emitInitExit();
    this.emitExternalFunctions();
    this.emitTrampolines(argArrays, argScalars);

    const source = o.text() + '\n';
    return {
      source,
      argSymbols,
      usesOpenMP: this.usesOpenMP,
      nondeterministicFloat: this.nondeterministicFloat,
      constantSymbols: [...this.rootConstants].sort(byCodeUnit),
      stackTransients: [...this.stackTransients].sort(byCodeUnit),
    };
  }

  private constantName(s: Sdfg, name: string): string {
    return `__tlab_const_${s.sdfgIndex}_${cppIdent(name)}`;
  }

  /**
   * Constants (`constants_prop`) that are also data containers, as DaCe emits them: constexpr arrays with the
   * values stored in the file, in C order. They are never allocated, so no mode can see them uninitialised.
   */
  private emitConstants(): void {
    const o = this.out;
    for (const s of this.file.sdfgs) {
      for (const [name, desc] of s.arrays) {
        if (!desc.transient || this.plan.placement(s, name).kind !== 'constant') continue;
        const element = `constant '${name}'`;
        const ctype = ctypeOf(desc.dtype)!;
        const values = constantElements(s.constants.get(name)!.value);
        if (!values) this.fail(desc.jsonPath, element, 'the constant has no numeric value in constants_prop', 'store the constant with its value in DaCe');
        let elements: bigint;
        try {
          elements = desc.shape.reduce((n, d) => n * sizeValue(this.symExpr(d), () => null), 1n);
        } catch {
          this.fail(desc.jsonPath, element, 'the shape of a constant must not depend on symbols', 'give the constant a fixed shape in DaCe');
        }
        if (BigInt(values.length) !== elements) {
          this.fail(desc.jsonPath, element, `constants_prop holds ${values.length} value(s) for a shape of ${elements} element(s)`, 'check the SDFG with DaCe validate()');
        }
        const literals = values.map((v) => constantLiteral(v, ctype));
        if (literals.some((l) => l === null)) {
          this.fail(desc.jsonPath, element, `a value of the constant cannot be written as ${ctype}`, 'use a real or integer constant');
        }
        o.mark(desc.jsonPath);
        o.line(`static constexpr ${ctype} ${this.constantName(s, name)}[${values.length}] = {${literals.join(', ')}};`);
      }
    }
    o.line('');
  }

  /** Whether a nested SDFG runs inside a CPU_Multicore map of an enclosing SDFG: its WCR writes then race. */
  private calledInParallel(s: Sdfg): boolean {
    for (let cur: Sdfg = s; cur.parent; cur = cur.parent.sdfg) {
      const g = stateGraph(cur.parent.state);
      let scope = containingScope(g, cur.parent.node);
      for (let guard = 0; scope !== null && guard < 10_000; guard++) {
        const entry = g.byId.get(scope);
        if (!entry) break;
        if (entry.kind === 'map_entry' && entry.map.schedule === 'CPU_Multicore') return true;
        scope = containingScope(g, entry);
      }
    }
    return false;
  }

  private fieldName(s: Sdfg, name: string): string {
    return `__${s.sdfgIndex}_${cppIdent(name)}`;
  }

  private symbolCtype(s: Sdfg, name: string): string {
    return innerSymbolCtype(s.symbols.get(name));
  }

  private abiSymbolCtype(name: string): string {
    return ctypeOf(this.file.root.symbols.get(name) ?? null) ?? 'int';
  }

  private nestedSignature(s: Sdfg): string {
    const params = [`${this.name}_state_t *__state`];
    for (const [name, desc] of s.arrays) if (!desc.transient) params.push(`${ctypeOf(desc.dtype)} *${cppIdent(name)}`);
    const node = s.parent!.node;
    for (const sym of Object.keys(node.symbolMapping).sort(byCodeUnit)) params.push(`${this.symbolCtype(s, sym)} ${cppIdent(sym)}`);
    return `static void __tlab_nsdfg_${this.nestedIds.get(s)}(${params.join(', ')})`;
  }

  /** Symbols assigned inside an SDFG's own control flow: interstate assignments and loop statements. */
  private localSymbols(s: Sdfg): string[] {
    const names = new Set<string>();
    for (const b of blocksOf(s)) {
      if (b.kind === 'region' || b.kind === 'loop') for (const e of b.edges) for (const [k] of e.assignments) names.add(k);
      if (b.kind === 'loop') {
        if (b.loopVariable) names.add(b.loopVariable);
        for (const st of [b.init, b.update]) {
          if (!st) continue;
          const parsed = this.guard(b.jsonPath, `loop ${b.label}`, () => parsePythonStatements(st));
          statementNames(parsed, new Set(), names);
        }
      }
    }
    return [...names];
  }

  private functionPrologue(ctx: FnCtx, env: Env, locals: string[]): void {
    const s = ctx.sdfg;
    const o = this.out;
    for (const l of locals) {
      const c = cppIdent(l);
      env.names.set(l, c);
      o.line(`${this.symbolCtype(s, l)} ${c} = 0;`);
    }
    for (const [name, desc] of s.arrays) {
      if (!desc.transient) continue;
      const p = this.plan.placement(s, name);
      const ctype = ctypeOf(desc.dtype)!;
      const v = cppIdent(name);
      if (p.kind === 'persistent' || p.kind === 'external') {
        o.line(`${ctype} *${v} = __state->${this.fieldName(s, name)};`);
        ctx.containers.set(name, v);
      } else if (p.kind === 'constant') {
        // Every access goes through a plain `T *`; findUnsupported refuses writes to constants, so the
        // const_cast never leads to a store into read-only memory.
        o.line(`${ctype} *${v} = const_cast<${ctype} *>(${this.constantName(s, name)});`);
        ctx.containers.set(name, v);
      } else if (p.kind === 'heap' || p.kind === 'stack') {
        ctx.containers.set(name, v);
        if (p.kind === 'heap') o.line(`${ctype} *${v} = nullptr;`);
      }
    }
    // Stack data that several scopes share is declared once at function level.
    for (const [name, desc] of s.arrays) {
      if (!desc.transient || this.plan.placement(s, name).kind !== 'stack') continue;
      if (this.stackScope(s, name) === null) this.declareStack(ctx, env, desc);
    }
    this.emitSiteAllocations(ctx, env, (site) => site.kind === 'sdfg');
  }

  private functionEpilogue(ctx: FnCtx, env: Env): void {
    this.out.line(`${ctx.exitLabel}: ;`);
    this.emitSiteFrees(ctx, env, (site) => site.kind === 'sdfg');
  }

  private emitRootFunction(argArrays: string[], argScalars: string[]): void {
    const root = this.file.root;
    const o = this.out;
    const ctx: FnCtx = { sdfg: root, containers: new Map(), exitLabel: '__tlab_exit_0', constantsUsed: this.rootConstants, isRoot: true };
    const env: Env = { names: new Map(), parallel: false };
    const params = [`${this.name}_state_t *__state`];
    for (const a of argArrays) {
      const desc = root.arrays.get(a)!;
      params.push(`${ctypeOf(desc.dtype)} *__restrict__ ${cppIdent(a)}`);
      ctx.containers.set(a, cppIdent(a));
    }
    const scalarOrSymbol = [...argScalars, ...this.argSymbols].sort(byCodeUnit);
    for (const n of scalarOrSymbol) {
      if (argScalars.includes(n)) {
        params.push(`${ctypeOf(root.arrays.get(n)!.dtype)} __arg_${cppIdent(n)}`);
      } else {
        params.push(`${this.symbolCtype(root, n)} ${cppIdent(n)}`);
        env.names.set(n, cppIdent(n));
      }
    }
    // Body first (it records which non-argument symbols it needed), then the function around it.
    const bodyOut = new Out();
    const saved = this.out.lines;
    this.out.lines = bodyOut.lines;
    for (const n of argScalars) {
      o.line(`${ctypeOf(root.arrays.get(n)!.dtype)} *${cppIdent(n)} = &__arg_${cppIdent(n)};`);
      ctx.containers.set(n, cppIdent(n));
    }
    this.functionPrologue(ctx, env, this.localSymbols(root));
    this.emitRegionBlock(ctx, env, root.body, null);
    this.functionEpilogue(ctx, env);
    this.out.lines = saved;

    o.mark(root.jsonPath);
    o.open(`static void __program_${this.name}_internal(${params.join(', ')})`);
    for (const c of [...ctx.constantsUsed].sort(byCodeUnit)) {
      const v = this.plan.symbolValue(c);
      if (v === null) throw new UnsupportedElement(root.jsonPath, `symbol ${c}`, `symbol ${c} has no value`, `pass --symbols ${c}=…`);
      o.line(`const ${this.symbolCtype(root, c)} ${cppIdent(c)} = ${v}LL;  // specialised: not an argument in DaCe's ABI`);
    }
    for (const l of bodyOut.lines) o.line(l);
    o.close();
    o.line('');
    const abiParams = [`${this.name}_state_t *__state`];
    const forward = ['__state'];
    for (const a of argArrays) {
      abiParams.push(`${ctypeOf(root.arrays.get(a)!.dtype)} *__restrict__ ${cppIdent(a)}`);
      forward.push(cppIdent(a));
    }
    for (const n of scalarOrSymbol) {
      const ctype = argScalars.includes(n) ? ctypeOf(root.arrays.get(n)!.dtype)! : this.abiSymbolCtype(n);
      abiParams.push(`${ctype} ${cppIdent(n)}`);
      forward.push(cppIdent(n));
    }
    o.open(`extern "C" void __program_${this.name}(${abiParams.join(', ')})`);
    o.line(`__program_${this.name}_internal(${forward.join(', ')});`);
    o.close();
    o.line('');
  }

  private emitNestedFunction(s: Sdfg): void {
    const o = this.out;
    const id = this.nestedIds.get(s)!;
    const ctx: FnCtx = { sdfg: s, containers: new Map(), exitLabel: `__tlab_exit_${id}`, constantsUsed: new Set(), isRoot: false };
    // One function serves every call site; a call from inside a parallel map makes its WCR writes concurrent.
    const env: Env = { names: new Map(), parallel: this.calledInParallel(s) };
    for (const [name, desc] of s.arrays) if (!desc.transient) ctx.containers.set(name, cppIdent(name));
    for (const sym of Object.keys(s.parent!.node.symbolMapping)) env.names.set(sym, cppIdent(sym));
    o.mark(s.jsonPath);
    o.open(this.nestedSignature(s));
    this.functionPrologue(ctx, env, this.localSymbols(s).filter((l) => !(l in s.parent!.node.symbolMapping)));
    this.emitRegionBlock(ctx, env, s.body, null);
    this.functionEpilogue(ctx, env);
    o.close();
    o.line('');
  }

  // -------------------------------------------------------------------------------------------------------
  // Memory
  // -------------------------------------------------------------------------------------------------------

  private bytesExpr(ctx: FnCtx, env: Env, desc: DataDescriptor): string {
    return `size_t(${this.sym(ctx, env, desc.totalSize)}) * sizeof(${ctypeOf(desc.dtype)})`;
  }

  private transientsAt(ctx: FnCtx, want: (s: SiteKey) => boolean): Array<{ name: string; desc: DataDescriptor; placement: Placement }> {
    const out: Array<{ name: string; desc: DataDescriptor; placement: Placement }> = [];
    for (const [name, desc] of ctx.sdfg.arrays) {
      if (!desc.transient) continue;
      const p = this.plan.placement(ctx.sdfg, name);
      if ((p.kind === 'heap' || p.kind === 'persistent' || p.kind === 'external') && want(p.site)) {
        out.push({ name, desc, placement: p });
      }
    }
    return out;
  }

  private setzero(ctx: FnCtx, name: string): boolean {
    return this.setzeroAnywhere(ctx.sdfg, name);
  }

  private setzeroAnywhere(s: Sdfg, name: string): boolean {
    for (const st of statesOf(s)) for (const n of st.nodes) if (n.kind === 'access' && n.data === name && n.setzero) return true;
    return false;
  }

  private emitSiteAllocations(ctx: FnCtx, env: Env, want: (s: SiteKey) => boolean): void {
    for (const { name, desc, placement } of this.transientsAt(ctx, want)) {
      const v = ctx.containers.get(name)!;
      const ctype = ctypeOf(desc.dtype)!;
      if (placement.kind === 'heap') {
        const align = desc.alignment > 0 ? desc.alignment : 64;
        this.out.mark(desc.jsonPath);
        this.out.line(
          `${v} = static_cast<${ctype} *>(tlab_alloc(${this.bytesExpr(ctx, env, desc)}, ${align}, ${this.plan.transientIndex(ctx.sdfg, name)}))${desc.startOffset ? ` + ${desc.startOffset}` : ''};`,
        );
      }
      if (this.setzero(ctx, name)) this.out.line(`std::memset(${v}${desc.startOffset && placement.kind === 'heap' ? ` - ${desc.startOffset}` : ''}, 0, ${this.bytesExpr(ctx, env, desc)});`);
    }
  }

  private emitSiteFrees(ctx: FnCtx, env: Env, want: (s: SiteKey) => boolean): void {
    for (const { name, desc, placement } of this.transientsAt(ctx, want).reverse()) {
      if (placement.kind !== 'heap') continue;
      const v = ctx.containers.get(name)!;
      const align = desc.alignment > 0 ? desc.alignment : 64;
      this.out.line(
        `tlab_free(${v}${desc.startOffset ? ` - ${desc.startOffset}` : ''}, ${this.bytesExpr(ctx, env, desc)}, ${align}, ${this.plan.transientIndex(ctx.sdfg, name)});`,
      );
    }
  }

  /** The map entry whose body declares a stack transient, or null for function level. */
  private stackScope(s: Sdfg, name: string): { state: StateBlock; entry: number } | null {
    let found: { state: StateBlock; entry: number } | null = null;
    for (const st of statesOf(s)) {
      for (const n of st.nodes) {
        if (n.kind !== 'access' || n.data !== name) continue;
        if (n.scopeEntry === null) return null;
        if (found && (found.state !== st || found.entry !== n.scopeEntry)) return null;
        found = { state: st, entry: n.scopeEntry };
      }
    }
    return found;
  }

  private declareStack(ctx: FnCtx, env: Env, desc: DataDescriptor): void {
    const ctype = ctypeOf(desc.dtype)!;
    let size: string;
    try {
      size = String(sizeValue(this.symExpr(desc.totalSize), (n) => (ctx.isRoot ? this.plan.symbolValue(n) : null)));
    } catch {
      size = this.sym(ctx, env, desc.totalSize);
    }
    const v = cppIdent(desc.name);
    const bytes = `size_t(${size}) * sizeof(${ctype})`;
    // Left uninitialised and poisoned like heap memory, so verification sees a read before a write here too
    // (a zeroing `= {}` would give both verification calls the same zeros and hide it).
    if (/^\d+$/.test(size)) this.out.line(`${ctype} ${v}_stack[${size}]; ${ctype} *${v} = ${v}_stack;`);
    // DaCe moves symbolic-size Register data to the heap; RAII keeps it freed at the end of its block.
    else this.out.line(`std::unique_ptr<${ctype}[]> ${v}_own(new ${ctype}[size_t(${size})]); ${ctype} *${v} = ${v}_own.get();`);
    this.out.line(`tlab_poison_stack(${v}, ${bytes});`);
    if (this.setzero(ctx, desc.name)) this.out.line(`std::memset(${v}, 0, ${bytes});`);
    this.stackTransients.add(`${ctx.sdfg.sdfgIndex}:${desc.name}`);
  }

  // -------------------------------------------------------------------------------------------------------
  // Control flow
  // -------------------------------------------------------------------------------------------------------

  private emitBlock(ctx: FnCtx, env: Env, b: ControlFlowBlock, loop: LoopLabels | null): void {
    switch (b.kind) {
      case 'state':
        this.emitState(ctx, env, b);
        return;
      case 'region':
        this.emitRegionBlock(ctx, env, b, loop);
        return;
      case 'loop':
        this.emitLoop(ctx, env, b);
        return;
      case 'conditional': {
        this.out.mark(b.jsonPath);
        b.branches.forEach((br, i) => {
          const cond = br.condition === null ? null : this.guard(b.jsonPath, `conditional ${b.label}`, () => this.code(ctx, env, parsePython(br.condition!)));
          const head = i === 0 ? `if (${cond ?? 'true'})` : cond === null ? '} else' : `} else if (${cond})`;
          if (i === 0) this.out.open(head);
          else this.out.reopen(`${head} {`);
          this.emitRegionBlock(ctx, env, br.body, loop);
        });
        if (b.branches.length) this.out.close();
        return;
      }
      case 'break':
      case 'continue':
        if (!loop) this.fail(b.jsonPath, `${b.kind} block ${b.label}`, `${b.kind} outside a loop`, 'check the SDFG with DaCe validate()');
        this.out.mark(b.jsonPath);
        this.out.line(`goto ${b.kind === 'break' ? loop.brk : loop.cont};`);
        return;
      case 'return':
        this.out.mark(b.jsonPath);
        this.out.line(`goto ${ctx.exitLabel};`);
        return;
    }
  }

  /** Any CFG, as labelled blocks with `goto` (correct for arbitrary state machines). */
  private emitRegionBlock(
    ctx: FnCtx,
    env: Env,
    region: { blocks: ControlFlowBlock[]; edges: InterstateEdge[]; start: number | null; jsonPath: string; label: string },
    loop: LoopLabels | null,
  ): void {
    if (region.start === null || region.blocks.length === 0) return;
    const uid = this.labelCounter++;
    const label = (i: number) => `__tlab_r${uid}_b${i}`;
    const endLabel = `__tlab_r${uid}_end`;
    // Reachable blocks in breadth-first order from the start block: the usual straight line falls through.
    const order: number[] = [];
    const seen = new Set<number>([region.start]);
    const queue = [region.start];
    while (queue.length) {
      const b = queue.shift()!;
      order.push(b);
      for (const e of region.edges) if (e.src === b && !seen.has(e.dst)) { seen.add(e.dst); queue.push(e.dst); }
    }
    const targets = new Set<number>();
    const o = this.out;
    o.openBrace();
    const body: Array<() => void> = [];
    order.forEach((b, pos) => {
      const next = order[pos + 1];
      body.push(() => {
        if (targets.has(b)) o.line(`${label(b)}:;`);
        o.openBrace();
        this.emitBlock(ctx, env, region.blocks[b]!, loop);
        o.close();
        const outs = region.edges.filter((e) => e.src === b);
        let unconditional = false;
        for (const e of outs) {
          o.mark(e.jsonPath);
          const assigns = e.assignments.map(([k, v]) =>
            this.guard(e.jsonPath, `interstate assignment ${k}`, () => {
              const target = env.names.get(k);
              if (!target) throw new ExprError(`assignment to '${k}', which is not a symbol of this SDFG`);
              return `${target} = ${this.code(ctx, env, parsePython(v))};`;
            }),
          );
          const jump = e.dst === next ? null : `goto ${label(e.dst)};`;
          if (isTrueCondition(e.condition)) {
            for (const a of assigns) o.line(a);
            if (jump) o.line(jump);
            unconditional = true;
            break;
          }
          const cond = this.guard(e.jsonPath, 'interstate condition', () => this.code(ctx, env, parsePython(e.condition)));
          o.open(`if (${cond})`);
          for (const a of assigns) o.line(a);
          o.line(`goto ${label(e.dst)};`);
          o.close();
        }
        if (!unconditional && next !== undefined) o.line(`goto ${endLabel};`);
      });
      for (const e of region.edges) if (e.src === b && (e.dst !== next || !isTrueCondition(e.condition))) targets.add(e.dst);
    });
    // Targets must be known before labels are printed: edges are scanned above, blocks are emitted now.
    for (const b of order) for (const e of region.edges) if (e.src === b) {
      const pos = order.indexOf(b);
      if (e.dst !== order[pos + 1] || !isTrueCondition(e.condition)) targets.add(e.dst);
    }
    for (const f of body) f();
    o.line(`${endLabel}:;`);
    o.close();
  }

  private emitLoop(ctx: FnCtx, env: Env, b: LoopBlock): void {
    const o = this.out;
    const uid = this.labelCounter++;
    const labels: LoopLabels = { brk: `__tlab_l${uid}_break`, cont: `__tlab_l${uid}_continue` };
    const element = `loop ${b.label}`;
    const stmts = (src: string | null) => (src ? this.guard(b.jsonPath, element, () => this.statements(ctx, env, parsePythonStatements(src))) : []);
    const cond = b.condition ? this.guard(b.jsonPath, element, () => this.code(ctx, env, parsePython(b.condition!))) : 'true';
    o.mark(b.jsonPath);
    o.openBrace();
    for (const s of stmts(b.init)) o.line(s);
    o.open('for (;;)');
    if (!b.inverted) o.line(`if (!(${cond})) break;`);
    this.emitRegionBlock(ctx, env, { ...b, label: b.label }, labels);
    o.line(`${labels.cont}:;`);
    if (b.inverted && b.updateBeforeCondition) {
      for (const s of stmts(b.update)) o.line(s);
      o.line(`if (!(${cond})) break;`);
    } else if (b.inverted) {
      o.line(`if (!(${cond})) break;`);
      for (const s of stmts(b.update)) o.line(s);
    } else for (const s of stmts(b.update)) o.line(s);
    o.close();
    o.line(`${labels.brk}:;`);
    o.close();
  }

  /** Interstate-style statements (loop init/update): assignments to symbols only. */
  private statements(ctx: FnCtx, env: Env, stmts: readonly Stmt[]): string[] {
    const lines: string[] = [];
    for (const s of stmts) {
      if (s.k === 'assign') {
        const value = this.code(ctx, env, s.value);
        for (const t of s.targets) {
          if (t.k !== 'sym' || !env.names.has(t.name)) throw new ExprError('loop statements may only assign symbols');
          lines.push(`${env.names.get(t.name)} = ${value};`);
        }
      } else if (s.k === 'augassign') {
        if (s.target.k !== 'sym' || !env.names.has(s.target.name)) throw new ExprError('loop statements may only assign symbols');
        const t = env.names.get(s.target.name)!;
        lines.push(`${t} = ${this.code(ctx, env, { k: 'bin', op: s.op, a: s.target, b: s.value })};`);
      } else if (s.k === 'pass') continue;
      else throw new ExprError('unsupported loop statement');
    }
    return lines;
  }

  // -------------------------------------------------------------------------------------------------------
  // Dataflow
  // -------------------------------------------------------------------------------------------------------

  private emitState(ctx: FnCtx, env: Env, state: StateBlock): void {
    const o = this.out;
    o.mark(state.jsonPath);
    const want = (s: SiteKey) => s.kind === 'state' && s.stateJsonPath === state.jsonPath;
    this.emitSiteAllocations(ctx, env, want);
    const g = stateGraph(state);
    this.emitScope(ctx, env, g, null);
    this.emitSiteFrees(ctx, env, want);
  }

  private emitScope(ctx: FnCtx, env: Env, g: StateGraph, scope: number | null): void {
    const units = scopeOrder(g, scope);
    const unitIds = new Set(units.map((u) => u.id));
    // Tasklet-to-tasklet edges carry values through locals declared in the scope that holds both tasklets.
    const direct = new Map<number, string>();
    for (const u of units) {
      if (u.kind !== 'tasklet') continue;
      for (const e of g.outEdges.get(u.id)!) {
        const dst = g.byId.get(e.dst);
        if (dst?.kind === 'tasklet' && unitIds.has(dst.id) && e.srcConnector) {
          const v = `__tlab_edge_${g.state.edges.indexOf(e)}`;
          const t = u.outConnectors[e.srcConnector] ?? (e.dstConnector ? dst.inConnectors[e.dstConnector] : null);
          this.out.line(`${ctypeOf(t) ?? 'double'} ${v} = {};`);
          direct.set(e.index, v);
        }
      }
    }
    for (const u of units) {
      switch (u.kind) {
        case 'access':
          this.emitAccess(ctx, env, g, u);
          break;
        case 'tasklet':
          this.emitTasklet(ctx, env, g, u, direct);
          break;
        case 'map_entry':
          this.emitMap(ctx, env, g, u);
          break;
        case 'nested_sdfg':
          this.emitNestedCall(ctx, env, g, u);
          break;
        default:
          this.fail(u.jsonPath, `${u.kind} node '${u.label}'`, `${u.kind} nodes are not supported`, 'expand or remove the node in DaCe first');
      }
    }
  }

  private emitMap(ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): void {
    const o = this.out;
    const map = entry.map;
    const inner: Env = { names: new Map(env.names), parallel: env.parallel };
    const parallel = map.schedule === 'CPU_Multicore';
    o.mark(entry.jsonPath);
    const headers: string[] = [];
    map.params.forEach((p, i) => {
      const r = map.range[i];
      if (!r) this.fail(entry.jsonPath, `map ${map.label}`, `map parameter ${p} has no range`, 'check the SDFG with DaCe validate()');
      if (r.tile.trim() !== '1') this.fail(entry.jsonPath, `map ${map.label}`, 'tiled map ranges are not supported', 'remove the tile from the map range');
      const v = cppIdent(p);
      const start = this.guard(entry.jsonPath, `map ${map.label}`, () => this.sym(ctx, inner, r.start));
      const end = this.guard(entry.jsonPath, `map ${map.label}`, () => this.sym(ctx, inner, r.end));
      const step = this.guard(entry.jsonPath, `map ${map.label}`, () => this.sym(ctx, inner, r.step));
      let negative = false;
      try {
        negative = sizeValue(this.symExpr(r.step), () => null) < 0n;
      } catch {
        negative = false;
      }
      headers.push(`for (int64_t ${v} = ${start}; ${v} ${negative ? '>=' : '<='} ${grouped(end)}; ${v} += ${step})`);
      inner.names.set(p, v);
    });
    if (parallel) {
      this.usesOpenMP = true;
      inner.parallel = true;
      const collapse = map.params.length > 1 ? ` collapse(${map.params.length})` : '';
      o.line(`#pragma omp parallel for${collapse}`);
    }
    for (const h of headers) o.open(h);
    const want = (s: SiteKey) => s.kind === 'scope' && s.stateJsonPath === g.state.jsonPath && s.mapEntryId === entry.id;
    for (const [name, desc] of ctx.sdfg.arrays) {
      if (!desc.transient || this.plan.placement(ctx.sdfg, name).kind !== 'stack') continue;
      const sc = this.stackScope(ctx.sdfg, name);
      if (sc && sc.state === g.state && sc.entry === entry.id) this.declareStack(ctx, inner, desc);
    }
    this.emitSiteAllocations(ctx, inner, want);
    this.emitScope(ctx, inner, g, entry.id);
    this.emitSiteFrees(ctx, inner, want);
    for (let i = 0; i < headers.length; i++) o.close();
  }

  /** Source and destination of a memlet between two containers. */
  private copyEnds(m: Memlet, srcName: string, dstName: string): { srcSubset: Subset | null; dstSubset: Subset | null } {
    const dataIsSrc = m.isDataSrc ?? (m.data === srcName);
    if (m.data === srcName && (dataIsSrc || m.data !== dstName)) return { srcSubset: m.subset, dstSubset: m.otherSubset };
    return { srcSubset: m.otherSubset, dstSubset: m.subset };
  }

  /** Follows a write path outward through map exits to the access node it ends at. */
  private outerDestination(g: StateGraph, e: MemletEdge): AccessNode | null {
    let edge: MemletEdge | undefined = e;
    for (let guard = 0; edge && guard < 1000; guard++) {
      const dst = g.byId.get(edge.dst);
      if (!dst) return null;
      if (dst.kind === 'access') return dst;
      if (dst.kind !== 'map_exit' || !edge.dstConnector?.startsWith('IN_')) return null;
      const conn: string = 'OUT_' + edge.dstConnector.slice(3);
      edge = g.outEdges.get(dst.id)!.find((x: MemletEdge) => x.srcConnector === conn);
    }
    return null;
  }

  /** Follows a read path outward through map entries to the access node it starts at. */
  private outerSource(g: StateGraph, e: MemletEdge): AccessNode | null {
    let edge: MemletEdge | undefined = e;
    for (let guard = 0; edge && guard < 1000; guard++) {
      const src = g.byId.get(edge.src);
      if (!src) return null;
      if (src.kind === 'access') return src;
      if (src.kind !== 'map_entry' || !edge.srcConnector?.startsWith('OUT_')) return null;
      const conn: string = 'IN_' + edge.srcConnector.slice(4);
      edge = g.inEdges.get(src.id)!.find((x: MemletEdge) => x.dstConnector === conn);
    }
    return null;
  }

  private emitAccess(ctx: FnCtx, env: Env, g: StateGraph, node: AccessNode): void {
    for (const e of g.inEdges.get(node.id)!) {
      if (e.memlet.data === null) continue;
      const src = g.byId.get(e.src);
      if (src?.kind !== 'access' && src?.kind !== 'map_entry') continue;
      const from = this.outerSource(g, e);
      if (!from) continue;
      this.emitCopy(ctx, env, e, from.data, node.data);
    }
    for (const e of g.outEdges.get(node.id)!) {
      if (e.memlet.data === null) continue;
      const dst = g.byId.get(e.dst);
      if (dst?.kind !== 'map_exit') continue;
      const to = this.outerDestination(g, e);
      if (!to) continue;
      this.emitCopy(ctx, env, e, node.data, to.data);
    }
  }

  private emitCopy(ctx: FnCtx, env: Env, e: MemletEdge, srcName: string, dstName: string): void {
    const element = `copy ${srcName} -> ${dstName}`;
    this.guard(e.jsonPath, element, () => {
      const src = this.containerPtr(ctx, srcName, e.jsonPath);
      const dst = this.containerPtr(ctx, dstName, e.jsonPath);
      const { srcSubset, dstSubset } = this.copyEnds(e.memlet, srcName, dstName);
      const sp = this.subsetOf(src.desc, srcSubset, e.jsonPath);
      const dp = this.subsetOf(dst.desc, dstSubset, e.jsonPath);
      const unit = (d: SubsetPoint['dims'][number]) => sameSym(d.startText, d.endText);
      const sNon = sp.dims.map((d, i) => (unit(d) ? -1 : i)).filter((i) => i >= 0);
      const dNon = dp.dims.map((d, i) => (unit(d) ? -1 : i)).filter((i) => i >= 0);
      let pairs: Array<[number, number]>;
      if (sNon.length === dNon.length) pairs = sNon.map((s, i) => [s, dNon[i]!]);
      else if (sp.dims.length === dp.dims.length) pairs = sp.dims.map((_, i) => [i, i]);
      else throw new ExprError(`copy between subsets of different shapes (${sNon.length} vs ${dNon.length} non-unit dimensions)`);
      const r = this.baseResolver(ctx, env);
      const em = (x: Expr) => cppOf(x, r, 'symbolic');
      const o = this.out;
      o.mark(e.jsonPath);
      o.openBrace();
      const srcIdx = sp.dims.map((d) => em(d.start));
      const dstIdx = dp.dims.map((d) => em(d.start));
      pairs.forEach(([si, di], k) => {
        const d = sp.dims[si]!;
        const count = `((${em(d.end)}) - (${em(d.start)})) / (${em(d.step)}) + 1`;
        o.open(`for (int64_t __k${k} = 0; __k${k} < ${count}; ++__k${k})`);
        srcIdx[si] = `${grouped(em(d.start))} + __k${k} * ${grouped(em(d.step))}`;
        const dd = dp.dims[di]!;
        dstIdx[di] = `${grouped(em(dd.start))} + __k${k} * ${grouped(em(dd.step))}`;
      });
      const target = `${dst.ptr}[${this.linear(ctx, env, dst.desc, dstIdx)}]`;
      const value = `${src.ptr}[${this.linear(ctx, env, src.desc, srcIdx)}]`;
      if (e.memlet.wcr) this.emitWcr(ctx, env, target, value, e.memlet.wcr, ctypeOf(dst.desc.dtype)!, e.jsonPath);
      else o.line(`${target} = ${value};`);
      for (let i = 0; i < pairs.length; i++) o.close();
      o.close();
    });
  }

  private emitWcr(ctx: FnCtx, env: Env, target: string, value: string, wcr: string, ctype: string, jsonPath: string): void {
    const o = this.out;
    const lambda = this.guard(jsonPath, 'WCR', () => parsePythonLambda(wcr));
    if (lambda.params.length !== 2) {
      this.fail(jsonPath, 'WCR', `write-conflict resolution '${wcr}' is not a two-argument lambda`, 'use a lambda such as (lambda a, b: a + b)');
    }
    const [a, b] = lambda.params as [string, string];
    const body = lambda.body;
    const isParam = (x: Expr, n: string) => x.k === 'sym' && x.dtype === undefined && x.name === n;
    const both = (l: Expr, r: Expr) => (isParam(l, a) && isParam(r, b)) || (isParam(l, b) && isParam(r, a));
    let op: string | null = null;
    if (body.k === 'bin' && (body.op === '+' || body.op === '*') && both(body.a, body.b)) op = body.op;
    let fn: string | null = null;
    if (body.k === 'call' && body.args.length === 2 && body.kwargs.length === 0 && both(body.args[0]!, body.args[1]!)) {
      const name = body.fn;
      if (name === 'min' || name === 'max' || name === 'Min' || name === 'Max') fn = `tlab_${name.toLowerCase()}`;
    }
    const floating = /float|double|complex/.test(ctype);
    const complex = ctype.includes('complex');
    if (env.parallel && floating) this.nondeterministicFloat = true;
    let update: string;
    if (op) update = `${target} ${op}= ${value};`;
    else if (fn) update = `${target} = ${fn}(${target}, ${value});`;
    else {
      const names = new Map(env.names);
      names.set(a, '__tlab_a');
      names.set(b, '__tlab_b');
      const expr = this.guard(jsonPath, 'WCR', () => cppOf(body, this.baseResolver(ctx, { names, parallel: env.parallel }), 'python'));
      update = `{ ${ctype} __tlab_a = ${target}; ${ctype} __tlab_b = ${value}; ${target} = ${expr}; }`;
    }
    if (env.parallel) {
      if (op && !complex) o.line('#pragma omp atomic');
      else o.line('#pragma omp critical (__tlab_wcr)');
    }
    o.line(update);
  }

  private emitTasklet(ctx: FnCtx, env: Env, g: StateGraph, t: TaskletNode, direct: Map<number, string>): void {
    const o = this.out;
    const element = `tasklet '${t.label}'`;
    const lang = t.code.language;
    if (lang !== 'Python' && lang !== 'CPP') this.fail(t.jsonPath, element, `${lang} tasklets are not supported`, 'write the tasklet in Python or C++');
    o.mark(t.jsonPath);
    o.openBrace();
    const pre: string[] = [];
    const bind: string[] = [];
    const post: string[] = [];
    /** Connector → how Python code indexes it (pointer connectors). */
    const arrays = new Map<string, { desc: DataDescriptor; subset: SubsetPoint }>();
    const values = new Set<string>();
    let k = 0;
    for (const e of g.inEdges.get(t.id)!) {
      if (!e.dstConnector) continue;
      const c = e.dstConnector;
      const cv = cppIdent(c);
      values.add(c);
      const tmp = `__tlab_in${k++}`;
      if (direct.has(e.index)) {
        pre.push(`auto ${tmp} = ${direct.get(e.index)};`);
        bind.push(`auto ${cv} = ${tmp};`);
        continue;
      }
      if (e.memlet.data === null) {
        bind.push(`${ctypeOf(t.inConnectors[c]) ?? 'double'} ${cv} = {};`);
        continue;
      }
      this.guard(e.jsonPath, element, () => {
        const { ptr, desc } = this.containerPtr(ctx, e.memlet.data!, e.jsonPath);
        const subset = this.dataSubset(g, e, 'in');
        if (this.isSingleElement(desc, subset)) {
          pre.push(`${ctypeOf(desc.dtype)} ${tmp} = ${ptr}[${this.startIndex(ctx, env, desc, subset, e.jsonPath)}];`);
          const ct = ctypeOf(t.inConnectors[c]);
          bind.push(`${ct ?? ctypeOf(desc.dtype)} ${cv} = ${tmp};`);
        } else {
          pre.push(`${ctypeOf(desc.dtype)} *${tmp} = ${ptr} + ${this.startIndex(ctx, env, desc, subset, e.jsonPath)};`);
          bind.push(`${ctypeOf(desc.dtype)} *${cv} = ${tmp};`);
          arrays.set(c, { desc, subset: this.subsetOf(desc, subset, e.jsonPath) });
          values.delete(c);
        }
      });
    }
    const written = new Set<string>();
    const connTmp = new Map<string, string>();
    for (const e of g.outEdges.get(t.id)!) {
      if (!e.srcConnector) continue;
      const c = e.srcConnector;
      const cv = cppIdent(c);
      if (written.has(c)) {
        // One connector feeding several memlets: later writes copy the first binding.
        const first = connTmp.get(c);
        if (!first) this.fail(e.jsonPath, element, `output connector ${c} is a range bound to several memlets`, 'split the tasklet output');
        if (e.memlet.data !== null && !direct.has(e.index)) {
          this.guard(e.jsonPath, element, () => {
            const { ptr, desc } = this.containerPtr(ctx, e.memlet.data!, e.jsonPath);
            const subset = this.dataSubset(g, e, 'out');
            if (!this.isSingleElement(desc, subset) || e.memlet.wcr) throw new ExprError(`connector ${c} writes several memlets with ranges or WCR`);
            post.push(`${ptr}[${this.startIndex(ctx, env, desc, subset, e.jsonPath)}] = ${first};`);
          });
        } else if (direct.has(e.index)) post.push(`${direct.get(e.index)} = ${first};`);
        continue;
      }
      written.add(c);
      const tmp = `__tlab_out${k++}`;
      connTmp.set(c, tmp);
      if (direct.has(e.index)) {
        pre.push(`auto &${tmp} = ${direct.get(e.index)};`);
        bind.push(`auto &${cv} = ${tmp};`);
        values.add(c);
        continue;
      }
      if (e.memlet.data === null) {
        pre.push(`${ctypeOf(t.outConnectors[c]) ?? 'double'} ${tmp} = {};`);
        bind.push(`auto &${cv} = ${tmp};`);
        values.add(c);
        continue;
      }
      this.guard(e.jsonPath, element, () => {
        const { ptr, desc } = this.containerPtr(ctx, e.memlet.data!, e.jsonPath);
        const subset = this.dataSubset(g, e, 'out');
        const ctype = ctypeOf(desc.dtype)!;
        const index = this.startIndex(ctx, env, desc, subset, e.jsonPath);
        if (this.isSingleElement(desc, subset)) {
          values.add(c);
          if (e.memlet.wcr) {
            pre.push(`${ctype} ${tmp} = {};`);
            bind.push(`${ctype} &${cv} = ${tmp};`);
            const sink = new Out();
            const saved = this.out.lines;
            this.out.lines = sink.lines;
            this.emitWcr(ctx, env, `${ptr}[${index}]`, tmp, e.memlet.wcr, ctype, e.jsonPath);
            this.out.lines = saved;
            post.push(...sink.lines.map((l) => l.trimStart()));
          } else {
            pre.push(`${ctype} &${tmp} = ${ptr}[${index}];`);
            bind.push(`${ctype} &${cv} = ${tmp};`);
          }
        } else {
          if (e.memlet.wcr) throw new ExprError(`WCR on a range output (${c}) is not supported`);
          pre.push(`${ctype} *${tmp} = ${ptr} + ${index};`);
          bind.push(`${ctype} *${cv} = ${tmp};`);
          arrays.set(c, { desc, subset: this.subsetOf(desc, subset, e.jsonPath) });
        }
      });
    }
    // Declared connectors without edges still exist as tasklet variables.
    for (const [c, dt] of Object.entries(t.outConnectors)) {
      if (!written.has(c)) {
        bind.push(`${ctypeOf(dt) ?? 'double'} ${cppIdent(c)} = {};`);
        values.add(c);
      }
    }
    for (const l of pre) o.line(l);
    o.openBrace();
    for (const l of bind) o.line(l);
    if (lang === 'CPP') {
      for (const line of t.code.code.split('\n')) o.line(line);
    } else {
      const stmts = this.guard(t.jsonPath, element, () => parsePythonStatements(t.code.code));
      const lines = this.guard(t.jsonPath, element, () => this.taskletStatements(ctx, env, stmts, values, arrays));
      for (const l of lines) o.line(l);
    }
    o.close();
    for (const l of post) o.line(l);
    o.close();
  }

  /** The subset of the container a tasklet edge touches (the innermost memlet, always on `data`). */
  private dataSubset(_g: StateGraph, e: MemletEdge, _dir: 'in' | 'out'): Subset | null {
    return e.memlet.subset;
  }

  private taskletStatements(
    ctx: FnCtx,
    env: Env,
    stmts: readonly Stmt[],
    values: Set<string>,
    arrays: Map<string, { desc: DataDescriptor; subset: SubsetPoint }>,
  ): string[] {
    const declared = new Set<string>();
    const lines: string[] = [];
    // Locals first assigned inside a branch are hoisted (C++ scoping), typed double as DaCe's inference would.
    const { writes } = statementNames(stmts);
    const topLevel = new Set<string>();
    for (const s of stmts) if (s.k === 'assign') for (const t of s.targets) if (t.k === 'sym') topLevel.add(t.name);
    const resolver: NameResolver = {
      read: (name) => {
        if (values.has(name) || declared.has(name)) return cppIdent(name);
        if (arrays.has(name)) throw new ExprError(`array connector '${name}' is used as a value`);
        return this.baseResolver(ctx, env).read(name);
      },
      index: (name, indices) => {
        const a = arrays.get(name);
        if (!a) {
          // `x[0]` on a scalar connector is the value itself.
          if (values.has(name) && indices.length === 1 && indices[0] === '0') return cppIdent(name);
          return this.baseResolver(ctx, env).index(name, indices);
        }
        return `${cppIdent(name)}[${this.connectorIndex(ctx, env, a.desc, a.subset, indices)}]`;
      },
    };
    const emit = (e: Expr) => cppOf(e, resolver, 'python');
    const hoisted = [...writes].filter((w) => !values.has(w) && !arrays.has(w) && !topLevel.has(w));
    for (const h of hoisted) {
      lines.push(`double ${cppIdent(h)} = 0;`);
      declared.add(h);
    }
    const target = (t: Expr): string => {
      if (t.k === 'sym') {
        if (values.has(t.name) || declared.has(t.name)) return cppIdent(t.name);
        return '';
      }
      if (t.k === 'subscript') return emit(t);
      throw new ExprError('only names and subscripts can be assigned');
    };
    const walk = (list: readonly Stmt[], depth: number): void => {
      const pad = '  '.repeat(depth);
      for (const s of list) {
        switch (s.k) {
          case 'pass':
            break;
          case 'expr':
            lines.push(`${pad}${emit(s.e)};`);
            break;
          case 'assign': {
            const value = emit(s.value);
            for (const t of s.targets) {
              const tt = target(t);
              if (tt === '' && t.k === 'sym') {
                declared.add(t.name);
                lines.push(`${pad}auto ${cppIdent(t.name)} = ${value};`);
              } else lines.push(`${pad}${tt} = ${value};`);
            }
            break;
          }
          case 'augassign': {
            const tt = target(s.target);
            if (tt === '') throw new ExprError(`'${s.target.k === 'sym' ? s.target.name : '?'}' is updated before it is assigned`);
            lines.push(`${pad}${tt} = ${emit({ k: 'bin', op: s.op, a: s.target, b: s.value })};`);
            break;
          }
          case 'if':
            lines.push(`${pad}if (${emit(s.cond)}) {`);
            walk(s.then, depth + 1);
            if (s.else.length) {
              lines.push(`${pad}} else {`);
              walk(s.else, depth + 1);
            }
            lines.push(`${pad}}`);
            break;
        }
      }
    };
    walk(stmts, 0);
    return lines;
  }

  /** Python tasklets index array connectors relative to the memlet start, over all or the non-unit dimensions. */
  private connectorIndex(ctx: FnCtx, env: Env, desc: DataDescriptor, subset: SubsetPoint, idx: string[]): string {
    const nonUnit = subset.dims.map((d, i) => (sameSym(d.startText, d.endText) ? -1 : i)).filter((i) => i >= 0);
    let dims: number[];
    if (idx.length === desc.strides.length) dims = desc.strides.map((_, i) => i);
    else if (idx.length === nonUnit.length) dims = nonUnit;
    else throw new ExprError(`array connector indexed with ${idx.length} indices`);
    const terms = dims.map((d, i) => {
      const stride = desc.strides[d]!;
      return stride.trim() === '1' ? `int64_t(${idx[i]})` : `int64_t(${idx[i]}) * ${grouped(this.sym(ctx, env, stride))}`;
    });
    return terms.join(' + ') || '0';
  }

  private emitNestedCall(ctx: FnCtx, env: Env, g: StateGraph, node: NestedSdfgNode): void {
    const inner = node.sdfg;
    const element = `nested SDFG '${node.label}'`;
    if (!inner) this.fail(node.jsonPath, element, `the nested SDFG is stored in an external file (${node.extSdfgPath ?? '?'})`, 'save the SDFG with the nested SDFG embedded');
    const o = this.out;
    o.mark(node.jsonPath);
    const args = ['__state'];
    for (const [name, desc] of inner.arrays) {
      if (desc.transient) continue;
      const e =
        g.inEdges.get(node.id)!.find((x) => x.dstConnector === name) ?? g.outEdges.get(node.id)!.find((x) => x.srcConnector === name);
      if (!e || e.memlet.data === null) {
        // A null pointer here would only surface as a crash inside the nested function.
        this.fail(node.jsonPath, element, `argument '${name}' of the nested SDFG has no connector with a memlet`, 'check the SDFG with DaCe validate()');
      }
      args.push(
        this.guard(e.jsonPath, element, () => {
          const { ptr, desc: outer } = this.containerPtr(ctx, e.memlet.data!, e.jsonPath);
          if (ctypeOf(outer.dtype) !== ctypeOf(desc.dtype)) throw new ExprError(`'${name}' changes type across the nested SDFG boundary`);
          return `${ptr} + ${this.startIndex(ctx, env, outer, e.memlet.subset, e.jsonPath)}`;
        }),
      );
    }
    for (const sym of Object.keys(node.symbolMapping).sort(byCodeUnit)) {
      args.push(this.guard(node.jsonPath, `${element} symbol ${sym}`, () => this.sym(ctx, env, node.symbolMapping[sym]!)));
    }
    o.line(`__tlab_nsdfg_${this.nestedIds.get(inner)}(${args.join(', ')});`);
  }

  // -------------------------------------------------------------------------------------------------------
  // Init / exit / external memory / trampolines
  // -------------------------------------------------------------------------------------------------------

  /** A size expression of any SDFG rewritten over root symbols (nested symbols go through symbol_mapping). */
  rootSizeExpr(s: Sdfg, src: string): Expr {
    const e = this.symExpr(src);
    if (!s.parent) return e;
    const mapping = s.parent.node.symbolMapping;
    const outer = new Map<string, Expr>();
    for (const name of freeSymbols(e)) {
      const m = mapping[name];
      if (m === undefined) throw new ExprError(`size uses '${name}', which is not mapped from the outer SDFG`);
      outer.set(name, this.rootSizeExpr(s.parent.sdfg, m));
    }
    return substitute(e, outer);
  }

  private rootResolver(): NameResolver {
    return {
      read: (name) => {
        if (this.argSymbols.includes(name)) return `int64_t(${cppIdent(name)})`;
        const v = this.plan.symbolValue(name);
        if (v !== null) return `int64_t(${v}LL)`;
        throw new ExprError(`symbol '${name}' has no value`);
      },
      index: () => {
        throw new ExprError('sizes cannot read data');
      },
    };
  }

  private rootBytes(s: Sdfg, desc: DataDescriptor): string {
    const e = this.guard(desc.jsonPath, `transient ${desc.name}`, () => cppOf(this.rootSizeExpr(s, desc.totalSize), this.rootResolver(), 'symbolic'));
    return `size_t(${e}) * sizeof(${ctypeOf(desc.dtype)})`;
  }

  private initParams(): string {
    return this.argSymbols.map((n) => `${this.abiSymbolCtype(n)} ${cppIdent(n)}`).join(', ');
  }

  private emitInitExit(): void {
    const o = this.out;
    const n = this.name;
    o.open(`extern "C" ${n}_state_t *__dace_init_${n}(${this.initParams()})`);
    o.line(`${n}_state_t *__state = new ${n}_state_t();`);
    for (const s of this.file.sdfgs) {
      for (const [name, desc] of s.arrays) {
        if (!desc.transient || this.plan.placement(s, name).kind !== 'persistent') continue;
        o.mark(desc.jsonPath);
        const align = desc.alignment > 0 ? desc.alignment : 64;
        const field = `__state->${this.fieldName(s, name)}`;
        o.line(`${field}_bytes = ${this.rootBytes(s, desc)};`);
        o.line(
          `${field} = static_cast<${ctypeOf(desc.dtype)} *>(tlab_alloc(${field}_bytes, ${align}, ${this.plan.transientIndex(s, name)}))${desc.startOffset ? ` + ${desc.startOffset}` : ''};`,
        );
        if (this.setzeroAnywhere(s, name)) o.line(`std::memset(${field}${desc.startOffset ? ` - ${desc.startOffset}` : ''}, 0, ${field}_bytes);`);
      }
    }
    for (const a of this.argSymbols) o.line(`(void)${cppIdent(a)};`);
    o.line('return __state;');
    o.close();
    o.line('');
    o.open(`extern "C" int __dace_exit_${n}(${n}_state_t *__state)`);
    for (const s of [...this.file.sdfgs].reverse()) {
      for (const [name, desc] of [...s.arrays].reverse()) {
        if (!desc.transient || this.plan.placement(s, name).kind !== 'persistent') continue;
        const align = desc.alignment > 0 ? desc.alignment : 64;
        const field = `__state->${this.fieldName(s, name)}`;
        o.line(`tlab_free(${field}${desc.startOffset ? ` - ${desc.startOffset}` : ''}, ${field}_bytes, ${align}, ${this.plan.transientIndex(s, name)});`);
      }
    }
    o.line('delete __state;');
    o.line('return 0;');
    o.close();
    o.line('');
  }

  private storages(): string[] {
    return [...new Set(this.slots.map((s) => s.storage))].sort(byCodeUnit);
  }

  private emitExternalFunctions(): void {
    const o = this.out;
    const n = this.name;
    const params = this.initParams();
    for (const storage of this.storages()) {
      const slots = this.slots.filter((s) => s.storage === storage);
      const packed = slots.every((s) => s.packedOffset !== null);
      o.open(`extern "C" size_t __dace_get_external_memory_size_${storage}(${n}_state_t *__state${params ? ', ' + params : ''})`);
      o.line('(void)__state;');
      if (packed) o.line(`return size_t(${this.packedTotals.get(storage) ?? 0n}ULL);`);
      else {
        o.line('size_t __size = 0;');
        for (const s of slots) o.line(`__size += ${this.rootBytes(s.sdfg, s.sdfg.arrays.get(s.name)!)};`);
        o.line('return __size;');
      }
      o.close();
      o.line('');
      o.open(`extern "C" void __dace_set_external_memory_${storage}(${n}_state_t *__state, char *__base${params ? ', ' + params : ''})`);
      if (!packed) o.line('size_t __offset = 0;');
      for (const s of slots) {
        const desc = s.sdfg.arrays.get(s.name)!;
        const ctype = ctypeOf(desc.dtype);
        o.mark(desc.jsonPath);
        if (packed) o.line(`__state->${this.fieldName(s.sdfg, s.name)} = reinterpret_cast<${ctype} *>(__base + ${s.packedOffset}ULL);`);
        else {
          o.line(`__state->${this.fieldName(s.sdfg, s.name)} = reinterpret_cast<${ctype} *>(__base + __offset);`);
          o.line(`__offset += ${this.rootBytes(s.sdfg, desc)};`);
        }
      }
      for (const a of this.argSymbols) o.line(`(void)${cppIdent(a)};`);
      o.close();
      o.line('');
    }
  }

  private emitTrampolines(argArrays: string[], argScalars: string[]): void {
    const o = this.out;
    const n = this.name;
    const root = this.file.root;
    const symArgs = this.argSymbols.map((a, i) => `static_cast<${this.abiSymbolCtype(a)}>(__syms[${i}])`).join(', ');
    o.line('// Transient Lab trampolines: one uniform signature for the native addon (docs/runtime-abi.md §2).');
    o.open('extern "C" void *__tlab_init(const int64_t *__syms)');
    o.line(`(void)__syms;`);
    o.line(`return __dace_init_${n}(${symArgs});`);
    o.close();
    o.open('extern "C" void __tlab_program(void *__handle, void *const *__argv)');
    const call = [`static_cast<${n}_state_t *>(__handle)`];
    let i = 0;
    for (const a of argArrays) call.push(`static_cast<${ctypeOf(root.arrays.get(a)!.dtype)} *>(__argv[${i++}])`);
    for (const s of [...argScalars, ...this.argSymbols].sort(byCodeUnit)) {
      const ctype = argScalars.includes(s) ? ctypeOf(root.arrays.get(s)!.dtype)! : this.abiSymbolCtype(s);
      call.push(`*static_cast<const ${ctype} *>(__argv[${i++}])`);
    }
    o.line('(void)__argv;');
    o.line(`__program_${n}(${call.join(', ')});`);
    o.close();
    // Argument counts let the addon refuse a too-short argv before the program reads past its end.
    o.line(`extern "C" uint32_t __tlab_arg_count(void) { return ${call.length - 1}; }`);
    o.line(`extern "C" uint32_t __tlab_init_symbol_count(void) { return ${this.argSymbols.length}; }`);
    o.open('extern "C" int __tlab_exit(void *__handle)');
    o.line(`return __dace_exit_${n}(static_cast<${n}_state_t *>(__handle));`);
    o.close();
    o.open('extern "C" uint64_t __tlab_external_size(void *__handle, const char *__storage, const int64_t *__syms)');
    o.line('(void)__handle; (void)__storage; (void)__syms;');
    for (const s of this.storages()) {
      o.line(
        `if (std::strcmp(__storage, "${s}") == 0) return __dace_get_external_memory_size_${s}(static_cast<${n}_state_t *>(__handle)${symArgs ? ', ' + symArgs : ''});`,
      );
    }
    o.line('return UINT64_MAX;');
    o.close();
    o.open('extern "C" int __tlab_set_external(void *__handle, const char *__storage, char *__base, const int64_t *__syms)');
    o.line('(void)__handle; (void)__storage; (void)__base; (void)__syms;');
    for (const s of this.storages()) {
      o.open(`if (std::strcmp(__storage, "${s}") == 0)`);
      o.line(`__dace_set_external_memory_${s}(static_cast<${n}_state_t *>(__handle), __base${symArgs ? ', ' + symArgs : ''});`);
      o.line('return 0;');
      o.close();
    }
    o.line('return -1;');
    o.close();
    o.open('extern "C" uint32_t __tlab_external_slot_count(const char *__storage)');
    o.line('(void)__storage;');
    for (const s of this.storages()) o.line(`if (std::strcmp(__storage, "${s}") == 0) return ${this.slots.filter((x) => x.storage === s).length};`);
    o.line('return 0;');
    o.close();
    o.open('extern "C" int __tlab_set_external_offsets(void *__handle, const char *__storage, char *__base, const uint64_t *__offsets, uint32_t __n)');
    o.line('(void)__handle; (void)__storage; (void)__base; (void)__offsets; (void)__n;');
    for (const s of this.storages()) {
      const slots = this.slots.filter((x) => x.storage === s);
      o.open(`if (std::strcmp(__storage, "${s}") == 0)`);
      o.line(`if (__n != ${slots.length}) return -2;`);
      o.line(`${n}_state_t *__state = static_cast<${n}_state_t *>(__handle);`);
      slots.forEach((slot, k) => {
        const ctype = ctypeOf(slot.sdfg.arrays.get(slot.name)!.dtype);
        o.line(`__state->${this.fieldName(slot.sdfg, slot.name)} = reinterpret_cast<${ctype} *>(__base + __offsets[${k}]);`);
      });
      o.line('return 0;');
      o.close();
    }
    o.line('return -1;');
    o.close();
  }
}

/** Whether `name` is a transient of `s` that `constants_prop` defines: compile-time data, never allocated. */
export function isConstantContainer(s: Sdfg, name: string): boolean {
  return s.constants.has(name) && s.arrays.get(name)?.transient === true;
}

/** The elements of a `constants_prop` value in C order (ndarray objects, nested lists, bare numbers). */
function constantElements(value: unknown): Array<number | boolean | string> | null {
  const out: Array<number | boolean | string> = [];
  const walk = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(walk);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') {
      out.push(v);
      return true;
    }
    if (v && typeof v === 'object' && 'data' in v) return walk((v as { data: unknown }).data);
    return false;
  };
  return walk(value) ? out : null;
}

/** A C++ literal of `ctype` for one constant element, or null when it has no exact spelling. */
function constantLiteral(v: number | boolean | string, ctype: string): string | null {
  const n = typeof v === 'string' ? Number(v.trim()) : typeof v === 'boolean' ? (v ? 1 : 0) : v;
  if (!Number.isFinite(n)) return null;
  if (ctype === 'bool') return n !== 0 ? 'true' : 'false';
  if (isIntegerCtype(ctype)) {
    if (!Number.isInteger(n)) return null;
    return `${ctype}(${BigInt(n)}${ctype.startsWith('u') ? 'ULL' : 'LL'})`;
  }
  if (ctype === 'double' || ctype === 'float') {
    // The shortest round-trip spelling; a '.0' keeps integral values floating-point literals.
    const text = String(n);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  return null;
}

/** Identifiers of an SDFG that are free symbols (read somewhere, never assigned inside, not a container). */
export function usedRootSymbols(file: SdfgFile): string[] {
  const root = file.root;
  const found = new Set<string>();
  const symNames = (src: string) => freeSymbols(parseSym(src, file.grammar));
  const addSym = (src: string | null | undefined) => {
    if (!src) return;
    try {
      for (const n of symNames(src)) found.add(n);
    } catch {
      /* unparseable text is reported by findUnsupported */
    }
  };
  const addCode = (src: string | null | undefined) => {
    if (!src) return;
    try {
      for (const n of freeSymbols(parsePython(src))) found.add(n);
    } catch {
      try {
        statementNames(parsePythonStatements(src), found, new Set());
      } catch {
        /* reported elsewhere */
      }
    }
  };
  for (const [, d] of root.arrays) {
    if (d.transient) [...d.shape, d.totalSize].forEach(addSym);
    [...d.strides, ...d.offset].forEach(addSym);
    if (!d.transient) addSym(d.totalSize);
  }
  const mapParams = new Set<string>();
  const locals = new Set<string>();
  for (const b of blocksOf(root)) {
    if (b.kind === 'region' || b.kind === 'loop') {
      for (const e of b.edges) {
        if (!isTrueCondition(e.condition)) addCode(e.condition);
        for (const [k, v] of e.assignments) {
          locals.add(k);
          addCode(v);
        }
      }
    }
    if (b.kind === 'loop') {
      if (b.loopVariable) locals.add(b.loopVariable);
      addCode(b.condition);
      for (const st of [b.init, b.update]) {
        if (!st) continue;
        try {
          statementNames(parsePythonStatements(st), found, locals);
        } catch {
          /* reported elsewhere */
        }
      }
    }
    if (b.kind === 'conditional') for (const br of b.branches) addCode(br.condition);
    if (b.kind !== 'state') continue;
    for (const n of b.nodes) {
      if (n.kind === 'map_entry') {
        n.map.params.forEach((p) => mapParams.add(p));
        for (const r of n.map.range) [r.start, r.end, r.step].forEach(addSym);
      } else if (n.kind === 'nested_sdfg') {
        Object.values(n.symbolMapping).forEach(addSym);
      } else if (n.kind === 'tasklet') {
        const conns = new Set([...Object.keys(n.inConnectors), ...Object.keys(n.outConnectors)]);
        const names = new Set<string>();
        if (n.code.language === 'Python') {
          try {
            const { reads, writes } = statementNames(parsePythonStatements(n.code.code));
            for (const r of reads) if (!conns.has(r) && !writes.has(r)) names.add(r);
          } catch {
            /* reported elsewhere */
          }
        } else {
          for (const m of n.code.code.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) if (root.symbols.has(m[0]) && !conns.has(m[0])) names.add(m[0]);
        }
        names.forEach((x) => found.add(x));
      }
    }
    for (const e of b.edges) {
      const m = e.memlet;
      for (const s of [m.subset, m.otherSubset]) {
        if (!s) continue;
        if (s.kind === 'range') s.dims.forEach((d) => [d.start, d.end, d.step].forEach(addSym));
        else if (s.kind === 'indices') s.indices.forEach(addSym);
      }
    }
  }
  const result: string[] = [];
  for (const name of found) {
    if (locals.has(name) || mapParams.has(name) || root.arrays.has(name) || root.constants.has(name)) continue;
    if (name.startsWith('__dace')) continue;
    if (!root.symbols.has(name)) {
      // Undeclared identifiers only count when a symbolic field (not code) uses them: legacy files omit symbols.
      continue;
    }
    result.push(name);
  }
  // Legacy files may not declare symbols: accept undeclared names that appear in descriptor sizes or map ranges.
  const undeclared = new Set<string>();
  const addUndeclared = (src: string) => {
    try {
      for (const n of symNames(src)) undeclared.add(n);
    } catch {
      /* reported elsewhere */
    }
  };
  for (const [, d] of root.arrays) if (d.transient) [...d.shape, d.totalSize].forEach(addUndeclared);
  for (const st of statesOf(root)) for (const n of st.nodes) if (n.kind === 'map_entry') for (const r of n.map.range) [r.start, r.end, r.step].forEach(addUndeclared);
  for (const name of undeclared) {
    if (result.includes(name) || locals.has(name) || mapParams.has(name) || root.arrays.has(name) || root.constants.has(name)) continue;
    if (root.symbols.has(name) || name.startsWith('__dace')) continue;
    result.push(name);
  }
  return result.sort(byCodeUnit);
}

export type { DataflowNode };
