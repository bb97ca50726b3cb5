/**
 * The state one emission shares across the emitter's parts, and how SDFG names, symbolic fields and memlet
 * subsets become C++ expressions in the current function (root program or nested SDFG).
 *
 * Containers are always reached through a `T *` (Scalars included), so one linear-index routine serves every
 * access.
 */
import { DefaultResolution } from '../analysis/defaults.js';
import type { DataDescriptor, MapEntryNode, MemletEdge, RangeDim, Sdfg, SdfgFile, Subset } from '../model/sdfg.js';
import type { StorageAllocator } from './allocator.js';
import type { StateGraph } from './graph.js';
import { parseSym, type Expr } from '../symbolic/index.js';
import { UnsupportedElement } from './errors.js';
import { HINT } from './subset.js';
import type { UnsupportedFinding } from './types.js';
import { cppOf, ExprError, grouped, isTranslationError, sameSym, type NameResolver } from './expr.js';
import { cppIdent, ctypeOf, innerSymbolCtype } from './names.js';
import { Out } from './out.js';
import { memberPath, type Containers } from './structs.js';
import type { ExternalSlotPlan, MemoryPlan } from './placement.js';

/** Names visible at one point of the generated code. */
export interface Env {
  names: Map<string, string>;
  /** Inside a CPU_Multicore or CPU_Persistent map: WCR writes need atomics unless wcr-conflicts.ts proves no other thread reaches them. */
  parallel: boolean;
  /** Inside a CPU_Persistent map's parallel region: a CPU_Multicore map shares its loop (`omp for`). */
  persistent?: boolean;
  /** Inside a GPU kernel (device code): WCR writes use device atomics, no host-only runtime calls. */
  device?: boolean;
  /**
   * Inside a CPU_Multicore map that may declare `const bool <name> = tlab_omp_alone(…)` before its loop (true at
   * run time when the loop runs on one thread with nothing beside it): synchronised writes test it and take the
   * plain path then. `used` tells the map to declare it.
   */
  alone?: { name: string; used: boolean };
}

/**
 * What a device backend (codegen/cuda) adds to the host emitter. Every hook is optional in effect: the CPU
 * emitter runs with no backend at all, and a backend answers `null`/`false` for whatever it leaves to the
 * CPU code (host storages, CPU maps, host-to-host copies).
 */
export interface DeviceBackend {
  /** The allocator of a storage the backend owns (GPU_Global, …), or null for host storage. */
  allocator(storage: string): StorageAllocator | null;
  /** Emits a map the backend owns (a GPU_Device map becomes a kernel launch); false = a CPU map. */
  emitMap(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): boolean;
  /** Emits a host-level copy that touches device memory; false = a plain host copy. */
  emitCopy(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, srcName: string, dstName: string): boolean;
  /** Lines right after the runtime include (the device runtime header). */
  includes(): string[];
  /** The symbolic helpers as device code can call them. */
  helpers(text: string): string;
  /** `__dace_init_<n>` after the state is created, before persistent allocations (device setup); may `return nullptr;`. */
  initLines(core: EmitCore): string[];
  /** `__dace_exit_<n>` before persistent frees. */
  exitLines(core: EmitCore): string[];
  /** What `__dace_exit_<n>` returns (an expression the exit lines declared). */
  readonly exitCode: string;
  /** Extra `extern "C"` exports after the trampolines. */
  exports(core: EmitCore): string[];
  /** Storage qualifier of a stack transient declared in device code (`__shared__ ` for GPU_Shared), '' otherwise. */
  stackQualifier(s: Sdfg, name: string): string;
  /** Qualifier of a nested SDFG's function (`__device__ ` when kernels call it), '' for host functions. */
  functionQualifier(core: EmitCore, s: Sdfg): string;
}

export interface LoopLabels {
  brk: string;
  cont: string;
}

/** Per generated function (root program or one nested SDFG). */
export interface FnCtx {
  sdfg: Sdfg;
  /** Container name → C++ pointer expression (member paths resolve through their structure). */
  containers: Containers;
  exitLabel: string;
  /** Root only: symbols that are not arguments but were needed (emitted as constants). */
  constantsUsed: Set<string>;
  isRoot: boolean;
}

export interface SubsetPoint {
  dims: Array<{ start: Expr; end: Expr; step: Expr; startText: string; endText: string }>;
}

const ZERO: Expr = { k: 'int', v: 0n };
const ONE: Expr = { k: 'int', v: 1n };

export class EmitCore {
  readonly out = new Out();
  labelCounter = 0;
  usesOpenMP = false;
  /** Parallel maps that declared a `__tlab_alone<k>` flag so far (Env.alone). */
  aloneFlags = 0;
  nondeterministicFloat = false;
  /** Nested SDFG → k of its `__tlab_nsdfg_<k>` function. */
  readonly nestedIds = new Map<Sdfg, number>();
  readonly name: string;
  /** DaCe's symbol arguments (usedRootSymbols), set when emission starts. */
  argSymbols: string[] = [];
  readonly rootConstants = new Set<string>();
  readonly stackTransients = new Set<string>();
  /** > 0 while device code (a kernel body) is being emitted. */
  deviceDepth = 0;
  /** What translation could not do, one finding per element (the emission goes on after each). */
  readonly findings: UnsupportedFinding[] = [];
  /** DaCe's default schedules and storages (analysis/defaults.ts). */
  readonly defaults = new DefaultResolution();

  constructor(
    readonly file: SdfgFile,
    readonly plan: MemoryPlan,
    readonly slots: ExternalSlotPlan[],
    readonly packedTotals: Map<string, bigint>,
    readonly backend: DeviceBackend | null = null,
  ) {
    this.name = file.root.name;
  }

  fail(jsonPath: string, element: string, message: string, hint: string): never {
    throw new UnsupportedElement(jsonPath, element, message, hint);
  }

  /** Runs `fn`; an expression it cannot translate becomes an UnsupportedElement at `jsonPath`. */
  guard<T>(jsonPath: string, element: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isTranslationError(err)) this.fail(jsonPath, element, err.message, HINT.python);
      throw err;
    }
  }

  /**
   * Emits one element; what it cannot translate becomes a finding and the emission goes on with the next
   * element, so one emission reports every untranslatable element. (The output of an emission with
   * findings is discarded.)
   */
  recover(jsonPath: string, element: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (err instanceof UnsupportedElement)
        this.findings.push({ jsonPath: err.jsonPath, element: err.element, message: err.message, hint: err.hint });
      else if (isTranslationError(err)) this.findings.push({ jsonPath, element, message: err.message, hint: HINT.python });
      else throw err;
    }
  }

  /** Resolver for symbolic fields and interstate code: symbols, map parameters, container reads. */
  baseResolver(ctx: FnCtx, env: Env): NameResolver {
    return {
      read: (text) => {
        const local = env.names.get(text);
        if (local) return local;
        const name = memberPath(text);
        const ptr = ctx.containers.get(name);
        if (ptr) {
          const desc = ctx.sdfg.arrays.get(name)!;
          if (desc.type === 'Scalar' || desc.shape.every((s) => s.trim() === '1')) return `${ptr}[0]`;
          throw new ExprError(`array '${name}' is used as a value`);
        }
        const constant = ctx.sdfg.constants.get(name);
        if (constant && (typeof constant.value === 'number' || typeof constant.value === 'boolean')) {
          // Parenthesised: toCpp treats what a resolver returns as an operand that needs no parentheses.
          return constant.value === true
            ? 'true'
            : constant.value === false
              ? 'false'
              : constant.value < 0
                ? `(${constant.value})`
                : String(constant.value);
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
      index: (text, indices) => {
        const name = memberPath(text);
        const ptr = ctx.containers.get(name);
        if (!ptr) throw new ExprError(`'${name}' is not a data container`);
        const desc = ctx.sdfg.arrays.get(name)!;
        return `${ptr}[${this.linear(ctx, env, desc, indices)}]`;
      },
    };
  }

  /** A symbolic field of this file, in the file's grammar (parseSym memoises the trees). */
  symExpr(src: string): Expr {
    return parseSym(src, this.file.grammar);
  }

  sym(ctx: FnCtx, env: Env, src: string): string {
    return cppOf(this.symExpr(src), this.baseResolver(ctx, env), 'symbolic');
  }

  code(ctx: FnCtx, env: Env, e: Expr): string {
    return cppOf(e, this.baseResolver(ctx, env), 'python');
  }

  /** Σ (index_d + offset_d) · stride_d, in 64-bit arithmetic. */
  linear(ctx: FnCtx, env: Env, desc: DataDescriptor, indexCpp: string[]): string {
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

  subsetOf(desc: DataDescriptor, subset: Subset | null, jsonPath: string): SubsetPoint {
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
    if (subset.kind === 'union') throw new Error(`internal: subset union at ${jsonPath} (the subset check refuses them)`);
    return {
      dims: subset.dims.map((d: RangeDim) => {
        // DaCe's tiled dimension `start:end:1:t` holds start + k + j (j < t): the elements start … end + t - 1
        // (the subset check accepts tiles with step 1 only).
        const endText = d.tile.trim() === '1' ? d.end : `(${d.end}) + (${d.tile}) - 1`;
        return { start: this.symExpr(d.start), end: this.symExpr(endText), step: this.symExpr(d.step), startText: d.start, endText };
      }),
    };
  }

  isSingleElement(desc: DataDescriptor, subset: Subset | null): boolean {
    if (subset === null) return desc.type === 'Scalar' || desc.shape.every((s) => s.trim() === '1');
    if (subset.kind === 'indices') return true;
    if (subset.kind === 'range') return subset.dims.every((d) => sameSym(d.start, d.end) && d.tile.trim() === '1');
    return false;
  }

  startIndex(ctx: FnCtx, env: Env, desc: DataDescriptor, subset: Subset | null, jsonPath: string): string {
    const point = this.subsetOf(desc, subset, jsonPath);
    const r = this.baseResolver(ctx, env);
    return this.linear(
      ctx,
      env,
      desc,
      point.dims.map((d) => cppOf(d.start, r, 'symbolic')),
    );
  }

  containerPtr(ctx: FnCtx, name: string, jsonPath: string): { ptr: string; desc: DataDescriptor } {
    const desc = ctx.sdfg.arrays.get(name);
    const ptr = ctx.containers.get(name);
    if (!desc || !ptr) throw new Error(`internal: '${name}' at ${jsonPath} has no C++ variable in SDFG ${ctx.sdfg.name}`);
    return { ptr, desc };
  }

  /** The state-struct field of a persistent or workspace transient. */
  fieldName(s: Sdfg, name: string): string {
    return `__${s.sdfgIndex}_${cppIdent(name)}`;
  }

  constantName(s: Sdfg, name: string): string {
    return `__tlab_const_${s.sdfgIndex}_${cppIdent(name)}`;
  }

  /** C type of a symbol inside the program (64-bit for integers). */
  symbolCtype(s: Sdfg, name: string): string {
    return innerSymbolCtype(s.symbols.get(name));
  }

  /** C type of a symbol argument in DaCe's ABI (`int` unless declared otherwise). */
  abiSymbolCtype(name: string): string {
    return ctypeOf(this.file.root.symbols.get(name) ?? null) ?? 'int';
  }

  newLabelId(): number {
    return this.labelCounter++;
  }
}
