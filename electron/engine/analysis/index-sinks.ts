/**
 * The sinks of the index-range analysis (analysis/index-ranges.ts): the places where a name that carries an
 * argument's value indexes data (a memlet subset, an interstate subscript, a tasklet's subscript of a connector),
 * each bounding the carried value by the extent it indexes. The walk (index-ranges.ts) decides what each name
 * carries and calls these on its final pass; they turn one access into bounds and findings (index-findings.ts).
 */
import type { DataDescriptor, SdfgFile, Subset } from '../model/sdfg.js';
import { freeSymbols, show, substitute, type Expr } from '../symbolic/index.js';
import type { IndexFindings } from './index-findings.js';
import { intervalCorners, namesIntervals, type Interval, type JointRanges } from './index-joint.js';
import { carriersOf, corners, descriptorOf, dottedName, memberName, rewrite, trySym, tryEval, V, type Scope } from './index-scope.js';
import { solve } from './index-solve.js';
import { writtenHulls, type Hull } from './written-hull.js';

export class IndexSinks {
  private readonly grammar: SdfgFile['grammar'];

  constructor(
    file: SdfgFile,
    /** Set for the joint pass (index-joint.ts): the arguments' planned values. */
    private readonly joint: JointRanges | null,
    private readonly findings: IndexFindings,
  ) {
    this.grammar = file.grammar;
  }

  private sym(src: string): Expr | null {
    return trySym(src, this.grammar);
  }

  /** `conn[i, j]` in a tasklet, `conn` fed by a subset: each index within that subset's size. */
  taskletSinks(scope: Scope, x: Expr, conns: Map<string, { data: string; subset: Subset | null }>): void {
    rewrite(x, (n) => {
      if (n.k !== 'subscript' || n.base.k !== 'sym') return undefined;
      const conn = conns.get(n.base.name);
      if (!conn) return undefined;
      const extents = this.subsetSizes(scope, conn.data, conn.subset);
      if (!extents) return undefined;
      let dims = extents;
      // DaCe squeezes a connector's size-1 dimensions; an unknown size is not known to be 1, so it stays.
      if (n.index.length !== extents.length) dims = extents.filter((d) => d.size !== 1n);
      if (n.index.length !== dims.length) return undefined;
      n.index.forEach((ix, d) => {
        const size = dims[d]!.size;
        if (size !== null) this.sink(scope, ix, 0n, size, `indexes ${conn.data} dim ${dims[d]!.dim} in a tasklet`);
      });
      return undefined;
    });
  }

  /** The size of each dimension of a connector's subset (null where a bound has no known value). */
  private subsetSizes(scope: Scope, data: string, subset: Subset | null): Array<{ dim: number; size: bigint | null }> | null {
    const d = descriptorOf(scope.sdfg, data);
    if (!d) return null;
    if (!subset) {
      const sizes = d.shape.map((s) => {
        const e = this.sym(s);
        return e ? tryEval(e, scope.env) : null;
      });
      return sizes.map((size, dim) => ({ dim, size }));
    }
    if (subset.kind !== 'range') return subset.kind === 'indices' ? subset.indices.map((_, dim) => ({ dim, size: 1n })) : null;
    const out: Array<{ dim: number; size: bigint | null }> = [];
    for (const [dim, r] of subset.dims.entries()) {
      const a = this.sym(r.start);
      const b = this.sym(r.end);
      const s = this.sym(r.step);
      const av = a ? tryEval(a, scope.env) : null;
      const bv = b ? tryEval(b, scope.env) : null;
      const sv = s ? tryEval(s, scope.env) : null;
      out.push({ dim, size: av === null || bv === null || sv === null || sv <= 0n ? null : (bv - av) / sv + 1n });
    }
    return out;
  }

  /** Subscripts of arrays in interstate code: each index within its array's extent. */
  subscriptSinks(scope: Scope, x: Expr): void {
    rewrite(x, (n) => {
      if (n.k !== 'subscript') return undefined;
      const name = dottedName(n.base);
      if (!name) return undefined;
      const d = descriptorOf(scope.sdfg, name);
      if (!d || !d.arrayLike || n.index.length !== d.shape.length) return undefined;
      n.index.forEach((ix, dim) => this.descriptorSink(scope, memberName(name), d, dim, ix));
      return undefined;
    });
  }

  memletSink(scope: Scope, data: string, subset: Subset): void {
    const d = descriptorOf(scope.sdfg, data);
    if (!d || !d.arrayLike) return;
    const name = memberName(data);
    if (subset.kind === 'range') {
      if (subset.dims.length !== d.shape.length) return;
      subset.dims.forEach((r, dim) => {
        for (const src of [r.start, r.end]) {
          const e = this.sym(src);
          if (e) this.descriptorSink(scope, name, d, dim, e);
        }
      });
    } else if (subset.kind === 'indices') {
      if (subset.indices.length !== d.shape.length) return;
      subset.indices.forEach((src, dim) => {
        const e = this.sym(src);
        if (e) this.descriptorSink(scope, name, d, dim, e);
      });
    }
  }

  private descriptorSink(scope: Scope, name: string, d: DataDescriptor, dim: number, index: Expr): void {
    let carries = false;
    let known = true;
    const ranged: string[] = [];
    for (const n of freeSymbols(index)) {
      if (scope.symbols.has(n) || scope.containers.has(n)) carries = true;
      if (scope.env.has(n)) continue;
      if (scope.ranges.has(n) && ranged.length < 3) ranged.push(n);
      else known = false;
    }
    // Views alias argument memory (radiation's `v_config_…` views of structure members) as much as transients.
    // A transient read at a fixed index beyond its extent reads another allocation's memory: its extent symbol
    // is too small for the program (get_albedos reads rows 1 … 140 of a transient sized by an SA symbol).
    if (!carries && !known) return;
    // The joint pass only bounds arguments; reads fixed by the symbols were reported by the first.
    if (!carries && this.joint) return;
    const shape = this.sym(d.shape[dim]!);
    const offset = this.sym(d.offset[dim] ?? '0');
    const size = shape ? tryEval(shape, scope.env) : null;
    const off = offset ? tryEval(offset, scope.env) : 0n;
    if (size === null || off === null) return;
    // A name that holds an argument's value on some paths may also reach a known value on others (a row bound
    // `i_endidx` set to nproma = 48 in interior blocks, interstate-values.ts): on those paths the index is fixed.
    if (known) {
      // An argument read at an index fixed by the symbol values alone (and loops over known bounds): out of
      // bounds whatever the inputs hold. Linear indices reach their extremes at the loops' bounds.
      let reported = false;
      let highest: bigint | null = null;
      const transient = d.transient && !d.type.includes('View');
      for (const corner of corners(ranged, scope.ranges)) {
        const at = tryEval(index, new Map([...scope.env, ...corner]));
        if (at !== null && (highest === null || at > highest)) highest = at;
        if (!reported && at !== null && (at < -off || at >= size - off)) {
          reported = true;
          const loops = [...corner].map(([k, v]) => `${k} = ${v}`).join(', ');
          const what = transient ? `transient ${name}` : name;
          const text = `${what} dim ${dim} is read at ${at}, outside [${-off}, ${size - off}) with these symbol values (${show(index)}${loops ? ` at ${loops}` : ''})`;
          this.findings.readOutside(text);
        }
        const fixed = substitute(index, new Map([...corner].map(([k, v]) => [k, { k: 'int', v }])));
        // An index over the extent's own symbol (`0 … SA - 1` of an array of SA) moves with the extent; a
        // transient's extent, not the index's symbols, is what the program's reads decide (extentHint).
        if (transient) continue;
        if (!shape || !freeSymbols(fixed).has(shape.k === 'sym' ? shape.name : ''))
          this.findings.symbolHint(scope, fixed, -off, size - off);
      }
      if (highest !== null && highest >= size - off && shape) this.findings.extentHint(scope, shape, highest + off + 1n);
      if (!carries) return;
    }
    // A transient filled only in part: the index stays inside what is written (written-hull.ts).
    const hull = d.transient && !d.type.includes('View') ? this.hullOf(scope, name)?.[dim] : undefined;
    if (hull && (hull[0] > -off || hull[1] < size - off - 1n)) {
      const lo = hull[0] > -off ? hull[0] : -off;
      const hi = hull[1] + 1n < size - off ? hull[1] + 1n : size - off;
      this.sink(scope, index, lo, hi, `indexes ${name} dim ${dim}, written only at [${hull[0]}, ${hull[1] + 1n})`);
      return;
    }
    this.sink(scope, index, -off, size - off, `indexes ${name} dim ${dim}`);
  }

  /** Per scope's symbol values (a nested SDFG called twice may see other values). */
  private readonly hulls = new Map<ReadonlyMap<string, bigint>, Map<string, Hull>>();

  private hullOf(scope: Scope, name: string): Hull | undefined {
    let h = this.hulls.get(scope.env);
    if (!h) {
      h = writtenHulls(scope.sdfg, scope.env, this.grammar);
      this.hulls.set(scope.env, h);
    }
    return h.get(name);
  }

  /**
   * Bounds every argument that `index` carries so that lo <= index < hi. The first pass needs the other names
   * known; the joint pass (index-joint.ts) solves at every corner of their intervals.
   */
  private sink(scope: Scope, index: Expr, lo: bigint, hi: bigint, reason: string): void {
    if (hi <= lo) return;
    const carriers = carriersOf(scope, index, null);
    for (const c of this.joint ? this.joint.order(carriers) : carriers) {
      const names = freeSymbols(c.f);
      names.delete(V);
      const others = [...names].filter((n) => !scope.env.has(n));
      if (others.length && !this.joint) {
        this.findings.skipped++;
        continue;
      }
      const at = namesIntervals(others, (n) => this.joint!.nameInterval(scope, n, 0));
      if (!at) continue;
      let range: Interval | null = null;
      for (const corner of intervalCorners(at)) {
        const r = solve(c.f, new Map([...scope.env, ...corner]), lo, hi);
        range = r && range ? [r[0] > range[0] ? r[0] : range[0], r[1] < range[1] ? r[1] : range[1]] : r;
        if (!range || range[0] > range[1]) break;
      }
      if (range && range[0] <= range[1]) this.findings.bound(c.arg, range[0], range[1], c.role ?? 'index', reason);
    }
  }
}
