/**
 * Joint index ranges (analysis/index-ranges.ts, second pass): an index that several generated arguments reach
 * at once. DaCe-Fortran's addusxx_g reads `qgm[ig - 1, ijtoh_at0 + nij - 1]` where `nij = nij_type[nt - 1]` is set
 * on an interstate edge of the host program and `ijtoh_at0 = gpu_ijtoh[ih - 1, jh - 1, nt - 1]` on one inside the
 * kernel's nested SDFGs: an offset table plus a local index, both arguments. Each argument's own pass skips such
 * an index (its other name has no known value). This pass gives each other name the interval of values it can
 * take when the inputs are generated as planned, and bounds the argument at every corner of those intervals.
 *
 * Planned values: an argument that the first pass bounded takes that range; one it did not is generated 0…7
 * (profile/inputs.ts, docs/profile.md "Inputs"). Every range this pass derives lies inside the argument's
 * planned one and replaces it at once (Gauss-Seidel): a later index is solved against the narrowed values,
 * and an earlier one solved against the wider values stays in bounds for any subset of them. Arguments the first
 * pass left free are solved first, so that a range derived from the program (a loop bound's) keeps its values
 * and the free offset takes what is left (addusxx_g: `becpsi_c[ijkb0 + jh - 1]` with jh ≤ nh[nt - 1] gives
 * `ofsbeta` = 0 and keeps `nh` at 16). One solve per index suffices for its safety; the others only narrow.
 *
 * Names' intervals are computed when an index asks (a name defined by an interstate assignment, a loop
 * variable whose bounds read data, a nested SDFG's symbol mapped from the caller), so they see the ranges
 * narrowed so far. A map parameter whose range reads data takes its interval when its state is visited.
 */
import type { DataflowNode } from '../model/sdfg.js';
import { evalInt, freeSymbols, show, type Expr } from '../symbolic/index.js';
import {
  descriptorOf,
  dottedName,
  MAX_CARRIERS,
  memberName,
  rewrite,
  tryEval,
  V,
  type Carrier,
  type LazyInterval,
  type Scope,
} from './index-scope.js';
import type { ScopeRanges } from './scope-ranges.js';

export type Interval = [bigint, bigint];

/** What the generator gives an integer argument no index bounds (profile/inputs.ts: `x >> 61`). */
export const GENERATED: Interval = [0n, 7n];

/** Beyond this many other names an index is not solved (2^n corners). */
const MAX_NAMES = 4;
const MAX_DEPTH = 24;

export class JointRanges {
  constructor(
    /** Each generated argument's values as planned so far (narrowed as this pass bounds it). */
    private readonly planned: Map<string, Interval>,
    /** Arguments the first pass did not bound, and their element counts (where known). */
    private readonly free: ReadonlyMap<string, bigint | null>,
  ) {}

  /** Narrows `arg` to its planned values; null when none of [min, max] is planned. */
  clamp(arg: string, min: bigint, max: bigint): Interval | null {
    const p = this.planned.get(arg);
    const lo = p && p[0] > min ? p[0] : min;
    const hi = p && p[1] < max ? p[1] : max;
    return lo <= hi ? [lo, hi] : null;
  }

  narrow(arg: string, range: Interval): void {
    const p = this.planned.get(arg);
    if (p && p[0] === range[0] && p[1] === range[1]) return;
    this.planned.set(arg, range);
    this.version++;
  }

  /** Bumped whenever a planned range narrows: a name's interval computed before is recomputed after. */
  private version = 0;

  /**
   * A name's interval, computed when asked and kept until a planned range narrows (chains of interstate
   * assignments would otherwise be walked again for every corner of every index). A name asked again while its
   * own interval is being computed (an assignment that reads itself) has none.
   */
  lazy(compute: LazyInterval): LazyInterval {
    let at = -1;
    let value: Interval | null = null;
    let busy = false;
    return (depth) => {
      if (at === this.version) return value;
      if (busy) return null;
      busy = true;
      try {
        value = compute(depth);
      } finally {
        busy = false;
      }
      at = this.version;
      return value;
    };
  }

  /**
   * Joint pass: `name = rhs` on an interstate edge; the name's interval is the hull of its assignments' (and of
   * the value its caller maps in, when it has one). A new assignment drops every interval kept so far: one
   * asked before it was seen (a map range in the first walk) lacks it.
   */
  define(scope: Scope, name: string, rhs: Expr): void {
    const d = scope.defs.get(name) ?? new Map<string, Expr>();
    const key = show(rhs);
    if (d.has(key)) return;
    d.set(key, rhs);
    this.version++;
    if (scope.defs.has(name)) return;
    scope.defs.set(name, d);
    const mapped = scope.lazy.get(name);
    scope.lazy.set(
      name,
      this.lazy((depth) => {
        let out: Interval | null = null;
        if (mapped) {
          out = mapped(depth);
          if (!out) return null;
        }
        for (const x of d.values()) {
          const r = this.exprInterval(scope, x, depth);
          if (!r) return null;
          out = hull(out, r);
        }
        return out;
      }),
    );
  }

  /** Joint pass: map parameters whose range reads data (a dynamic range input, a symbol set from data). */
  dataMapRanges(scope: Scope, nodes: readonly DataflowNode[], ranges: ScopeRanges, sym: (src: string) => Expr | null): void {
    // Twice: an inner map's range names the outer map's parameter, and nodes need not list the outer first.
    for (let round = 0; round < 2; round++)
      for (const n of nodes) {
        if (n.kind !== 'map_entry') continue;
        const inside = { ...scope, ranges: ranges.inside(n.scopeEntry) };
        n.map.params.forEach((p, i) => {
          const r = n.map.range[i];
          const a = r ? sym(r.start) : null;
          const b = r ? sym(r.end) : null;
          if (!a || !b || (tryEval(a, scope.env) !== null && tryEval(b, scope.env) !== null)) return;
          const ia = this.exprInterval(inside, a, 0);
          const ib = this.exprInterval(inside, b, 0);
          if (ia && ib && ia[0] <= ib[1]) ranges.set(n.id, p, [ia[0], ib[1]]);
        });
      }
  }

  /** Joint pass: the values a name can take with the arguments generated as planned (null: unknown). */
  nameInterval(scope: Scope, name: string, depth: number): Interval | null {
    const v = scope.env.get(name);
    if (v !== undefined) return [v, v];
    const r = scope.ranges.get(name);
    if (r) return r;
    if (depth > MAX_DEPTH) return null;
    const lazy = scope.lazy.get(name);
    if (lazy) return lazy(depth + 1);
    const scalar = descriptorOf(scope.sdfg, name)?.arrayLike === false ? scope.containers.get(name) : undefined;
    return this.carriersInterval(scope.symbols.get(name) ?? scalar, scope.env);
  }

  /** The values a container or name holds that only arguments' values reach (a loop bound's carrier: null). */
  private carriersInterval(cs: readonly Carrier[] | undefined, env: ReadonlyMap<string, bigint>): Interval | null {
    if (!cs?.length || cs.length >= MAX_CARRIERS || cs.some((c) => c.role !== null)) return null;
    let out: Interval | null = null;
    for (const c of cs) {
      const p = this.planned.get(c.arg);
      const r = p ? intervalOf(c.f, env, (n) => (n === V ? p : null)) : null;
      if (!r) return null;
      out = hull(out, r);
    }
    return out;
  }

  /** Joint pass: the values an expression takes (reads of carrier containers at their carriers' values). */
  exprInterval(scope: Scope, x: Expr, depth: number): Interval | null {
    const reads = new Map<string, Interval>();
    let unknown = false;
    const y = rewrite(x, (n) => {
      if (n.k !== 'subscript') return undefined;
      const name = dottedName(n.base);
      const r = name === null ? null : this.carriersInterval(scope.containers.get(memberName(name)), scope.env);
      if (!r) {
        unknown = true;
        return n;
      }
      const fresh = `__tlab_read${reads.size}`;
      reads.set(fresh, r);
      return { k: 'sym', name: fresh };
    });
    if (unknown) return null;
    return intervalOf(y, scope.env, (n) => reads.get(n) ?? this.nameInterval(scope, n, depth));
  }

  /** Joint pass: a loop `v = init; v op last` whose bounds read data ranges over their intervals. */
  loop(scope: Scope, v: string, init: Expr, op: string, last: Expr): void {
    scope.lazy.set(
      v,
      this.lazy((depth) => {
        const i = this.exprInterval(scope, init, depth);
        const l = this.exprInterval(scope, last, depth);
        if (!i || !l) return null;
        const r: Interval | null =
          op === '<=' ? [i[0], l[1]] : op === '<' ? [i[0], l[1] - 1n] : op === '>=' ? [l[0], i[1]] : op === '>' ? [l[0] + 1n, i[1]] : null;
        return r && r[0] <= r[1] ? r : null;
      }),
    );
  }

  /**
   * Free arguments first, the smaller first (an offset table is smaller than the table it offsets: addusxx_g's
   * `nij_type` has one element per species, `ijtoh` nh × nh per species), then the rest in their given order.
   */
  order<T extends { arg: string }>(carriers: readonly T[]): T[] {
    const size = (c: T) => this.free.get(c.arg) ?? 2n ** 62n;
    const free = carriers.filter((c) => this.free.has(c.arg)).sort((a, b) => (size(a) < size(b) ? -1 : size(a) > size(b) ? 1 : 0));
    return [...free, ...carriers.filter((c) => !this.free.has(c.arg))];
  }
}

/** Every combination of the named intervals' ends (one empty map when none). */
export function intervalCorners(ranges: ReadonlyMap<string, Interval>): Array<Map<string, bigint>> {
  let out: Array<Map<string, bigint>> = [new Map<string, bigint>()];
  for (const [n, [lo, hi]] of ranges) {
    const at = (m: Map<string, bigint>, v: bigint) => new Map<string, bigint>([...m, [n, v]]);
    out = out.flatMap((m) => (lo === hi ? [at(m, lo)] : [at(m, lo), at(m, hi)]));
  }
  return out;
}

/**
 * The values `x` takes when each free name ranges over its interval (`resolve`), names in `env` fixed: its
 * extremes at the intervals' ends, as for a linear index. Null when a name has no interval.
 */
function intervalOf(x: Expr, env: ReadonlyMap<string, bigint>, resolve: (name: string) => Interval | null): Interval | null {
  const ranges = new Map<string, Interval>();
  for (const n of freeSymbols(x)) {
    if (env.has(n)) continue;
    if (ranges.size >= MAX_NAMES) return null;
    const r = resolve(n);
    if (!r) return null;
    ranges.set(n, r);
  }
  let lo: bigint | null = null;
  let hi: bigint | null = null;
  for (const corner of intervalCorners(ranges)) {
    let v: bigint | null;
    try {
      v = evalInt(x, new Map([...env, ...corner]));
    } catch {
      return null;
    }
    if (v === null) return null;
    if (lo === null || v < lo) lo = v;
    if (hi === null || v > hi) hi = v;
  }
  return lo === null || hi === null ? null : [lo, hi];
}

/** The hull of two intervals (either may be missing). */
function hull(a: Interval | null, b: Interval): Interval {
  if (!a) return b;
  return [a[0] < b[0] ? a[0] : b[0], a[1] > b[1] ? a[1] : b[1]];
}

/** The intervals of `names` (null when one has none, or there are too many to solve over). */
export function namesIntervals(names: readonly string[], resolve: (name: string) => Interval | null): Map<string, Interval> | null {
  if (names.length > MAX_NAMES) return null;
  const out = new Map<string, Interval>();
  for (const n of names) {
    const r = resolve(n);
    if (!r) return null;
    out.set(n, r);
  }
  return out;
}
