/**
 * What the index-range analysis (analysis/index-ranges.ts) finds, kept apart from the walk that finds it: each
 * argument's bound (intersected over its accesses, clamped and narrowed by the joint pass), the reads out of
 * bounds whatever the inputs hold, and the root symbol values that would keep them in bounds. The walk and its
 * sinks (index-sinks.ts) only report into it; it decides how reports combine.
 */
import type { SdfgFile } from '../model/sdfg.js';
import { freeSymbols, substitute, type Expr } from '../symbolic/index.js';
import type { JointRanges } from './index-joint.js';
import { VEXPR, type Scope } from './index-scope.js';
import { solve } from './index-solve.js';

/** The valid values of one integer argument. */
export interface IndexRange {
  /** The argument's name as the program's ABI has it (`p.cells.idx` for a structure member). */
  argument: string;
  /** Inclusive bounds. */
  min: bigint;
  max: bigint;
  /** The argument bounds a loop or map from below (`lower`), above (`upper`), or indexes data (`index`). */
  roles: Array<'lower' | 'upper' | 'index'>;
  /** The first access that bounds it, as people read it: `indexes A dim 0`. */
  reason: string;
  /** Accesses that bound it. */
  accesses: number;
}

/** A root symbol whose value sends an argument read out of bounds, and the nearest value that would not
 * (null when no single value keeps every such read in bounds: an extent is too small). */
export interface SymbolAdvice {
  symbol: string;
  value: bigint;
  suggested: bigint | null;
  min?: bigint;
  max?: bigint;
  /** The symbol is an extent that a fixed index reads past (it must grow), not a symbol inside the index. */
  extent?: boolean;
}

const MAX_OUTSIDE = 20;

interface Bound {
  min: bigint;
  max: bigint;
  roles: Set<'lower' | 'upper' | 'index'>;
  reason: string;
  accesses: number;
  empty: boolean;
}

export class IndexFindings {
  private readonly bounds = new Map<string, Bound>();
  /** Argument accesses out of bounds for any input (fixed by the symbol values). */
  readonly outside: string[] = [];
  outsideCount = 0;
  private readonly hints = new Map<string, { value: bigint; min: bigint; max: bigint; extent?: boolean }>();
  /** Carriers an index skipped because another name in it has no known value (the joint pass's work). */
  skipped = 0;

  constructor(
    private readonly file: SdfgFile,
    /** Set for the joint pass (index-joint.ts): the arguments' planned values. */
    private readonly joint: JointRanges | null,
  ) {}

  /** Every argument some access bounds, by name. */
  ranges(): IndexRange[] {
    const out: IndexRange[] = [];
    for (const [argument, b] of [...this.bounds].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
      if (b.empty) continue;
      out.push({ argument, min: b.min, max: b.max, roles: [...b.roles].sort(), reason: b.reason, accesses: b.accesses });
    }
    return out;
  }

  /** A read out of bounds whatever the inputs hold (the first few texts are kept, every one counted). */
  readOutside(text: string): void {
    if (this.outside.length < MAX_OUTSIDE && !this.outside.includes(text)) this.outside.push(text);
    this.outsideCount++;
  }

  /**
   * An index of one root symbol (`1 - SOA_x`, a Fortran lower bound): the symbol's values that keep it in
   * bounds, intersected over every such index, so that a run out of bounds for any input can say which value
   * to give.
   */
  symbolHint(scope: Scope, index: Expr, lo: bigint, hi: bigint): void {
    const names = [...freeSymbols(index)];
    if (names.length !== 1) return;
    const name = names[0]!;
    const root = scope.roots.get(name);
    const value = scope.env.get(name);
    if (value === undefined || root === undefined || this.file.root.constants.has(root)) return;
    const env = new Map(scope.env);
    env.delete(name);
    const range = solve(substitute(index, new Map([[name, VEXPR]])), env, lo, hi);
    const h = this.hints.get(root);
    if (!range) {
      this.hints.set(root, { value, min: 1n, max: 0n });
      return;
    }
    if (!h) this.hints.set(root, { value, min: range[0], max: range[1] });
    else {
      if (range[0] > h.min) h.min = range[0];
      if (range[1] < h.max) h.max = range[1];
    }
  }

  /**
   * An extent of one root symbol (`SA_x`, a Fortran size) that a fixed index reads past: the symbol must be at
   * least `needed`, the extent the program's own reads require.
   */
  extentHint(scope: Scope, shape: Expr, needed: bigint): void {
    if (shape.k !== 'sym') return;
    const root = scope.roots.get(shape.name);
    const value = scope.env.get(shape.name);
    if (value === undefined || root === undefined || this.file.root.constants.has(root)) return;
    const h = this.hints.get(root);
    if (!h) this.hints.set(root, { value, min: needed, max: 2n ** 31n - 1n, extent: true });
    else if (needed > h.min) h.min = needed;
  }

  /** Root symbols whose value sends a fixed index out of bounds, and the values that would not. */
  symbolAdvice(): SymbolAdvice[] {
    const out: SymbolAdvice[] = [];
    for (const [symbol, h] of [...this.hints].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (h.min <= h.value && h.value <= h.max) continue;
      // An extent keeps its flag when no value fits (its read moved past int32 with it): advice followed grows
      // extents first, and must know this one moves with its read.
      if (h.min > h.max) out.push({ symbol, value: h.value, suggested: null, ...(h.extent ? { extent: true } : {}) });
      else
        out.push({
          symbol,
          value: h.value,
          suggested: h.value < h.min ? h.min : h.max,
          min: h.min,
          max: h.max,
          ...(h.extent ? { extent: true } : {}),
        });
    }
    return out;
  }

  bound(arg: string, min: bigint, max: bigint, role: 'lower' | 'upper' | 'index', reason: string): void {
    if (this.joint) {
      // Inside the planned values, which then narrow at once (index-joint.ts).
      const r = this.joint.clamp(arg, min, max);
      if (!r) return;
      this.addBound(arg, r[0], r[1], role, reason);
      const b = this.bounds.get(arg)!;
      this.joint.narrow(arg, [b.min, b.max]);
      return;
    }
    this.addBound(arg, min, max, role, reason);
  }

  private addBound(arg: string, min: bigint, max: bigint, role: 'lower' | 'upper' | 'index', reason: string): void {
    const b = this.bounds.get(arg);
    if (!b) {
      this.bounds.set(arg, { min, max, roles: new Set([role]), reason, accesses: 1, empty: false });
      return;
    }
    b.roles.add(role);
    b.accesses++;
    const nmin = min > b.min ? min : b.min;
    const nmax = max < b.max ? max : b.max;
    if (nmin > nmax) return; // Conflicting accesses (guarded by conditions we do not follow): keep the first.
    if (nmin !== b.min || nmax !== b.max) {
      b.min = nmin;
      b.max = nmax;
      b.reason = reason;
    }
  }
}
