/**
 * The proof that one state overwrites a whole container without reading it (docs/liveness.md §3.1, rules 4–6):
 * every write into its AccessNodes is a tasklet element, a copy or a nested SDFG that overwrites its whole
 * connector first (§3.4), possibly through maps, with no WCR and not dynamic, and the written boxes cover the
 * whole shape for the analysed symbol values. Any fact that cannot be established answers "no".
 */
import type { DataDescriptor, MapEntryNode, MemletEdge, NestedSdfgNode, RangeDim, Sdfg, StateBlock, Subset } from '../model/sdfg.js';
import { E } from '../symbolic/index.js';
import { evaluate, type Expr } from './expr.js';
import type { SymbolContext } from './symbols.js';

/** Closed integer interval; empty when hi < lo. */
interface Interval {
  lo: bigint;
  hi: bigint;
}
type Box = Interval[];

interface MapParam {
  name: string;
  lo: bigint;
  hi: bigint;
}

/** Coordinate-compressed coverage checks beyond this many cells give up (stay conservative). */
const MAX_COVERAGE_CELLS = 100_000;

export class FullOverwrite {
  constructor(
    private readonly symbols: SymbolContext,
    /** Values given by the caller: usable without side effects on the symbol report. */
    private readonly userSymbols: ReadonlyMap<string, bigint>,
    /** Whether a nested SDFG overwrites all of `connector` before reading it; absent: callees never count. */
    private readonly calleeOverwrites?: (call: NestedSdfgNode, connector: string, desc: DataDescriptor) => boolean,
  ) {}

  /**
   * Whether `state` writes every element of `name` and reads none: its AccessNodes of the container have no
   * outgoing data edges, and the incoming writes (tasklet elements or copies, possibly through maps, no WCR,
   * not dynamic) cover the whole shape for the analysed symbol values.
   */
  fullyOverwritten(state: StateBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    return this.effect(state, sdfg, name, desc) === 'full';
  }

  /**
   * What `state`'s dataflow does to `name`: `full` — writes every element and reads none (the rule above);
   * `write` — writes some elements and reads none (no outgoing data edge, every write one whose elements
   * are known); `read` — anything else: it may read the container, or what it does is not established.
   */
  effect(state: StateBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): 'full' | 'write' | 'read' {
    const boxes: Box[] = [];
    for (const node of state.nodes) {
      if (node.kind !== 'access' || node.data !== name) continue;
      for (const e of state.edges) {
        if (e.memlet.data === null) continue;
        if (e.src === node.id) return 'read';
        if (e.dst !== node.id) continue;
        const written = this.writtenBoxes(state, sdfg, e, name, desc, []);
        if (!written) return 'read';
        for (const w of written) boxes.push(w);
      }
    }
    const shape: bigint[] = [];
    for (const dim of desc.shape) {
      const v = this.fieldValue(sdfg, dim);
      if (v === null) return 'write';
      shape.push(v);
    }
    return covers(boxes, shape) ? 'full' : 'write';
  }

  private writtenBoxes(state: StateBlock, sdfg: Sdfg, e: MemletEdge, name: string, desc: DataDescriptor, params: MapParam[]): Box[] | null {
    if (e.memlet.wcr !== null || e.memlet.dynamic) return null;
    const src = state.nodes[e.src];
    if (!src) return null;
    const subset = e.memlet.data === name ? e.memlet.subset : e.memlet.otherSubset;
    switch (src.kind) {
      case 'map_exit': {
        const entry = src.entryId === null ? null : state.nodes[src.entryId];
        if (!entry || entry.kind !== 'map_entry' || !e.srcConnector?.startsWith('OUT_')) return null;
        const own = this.mapParams(entry, sdfg, params);
        if (!own) return null;
        const inner = params.concat(own);
        const inConnector = `IN_${e.srcConnector.slice(4)}`;
        const feeding = state.edges.filter((x) => x.dst === src.id && x.dstConnector === inConnector && x.memlet.data !== null);
        if (feeding.length === 0) return null;
        const out: Box[] = [];
        for (const f of feeding) {
          const boxes = this.writtenBoxes(state, sdfg, f, name, desc, inner);
          if (!boxes) return null;
          for (const b of boxes) out.push(b);
        }
        return out;
      }
      case 'tasklet': {
        // A tasklet's output connector is a value only when it names one element; with a larger subset the
        // tasklet gets a pointer and may read through it or leave elements untouched.
        if (!subset || !this.singleElement(subset)) return null;
        const box = this.boxOf(subset, sdfg, desc, params);
        return box ? [box] : null;
      }
      case 'access': {
        const from = sdfg.arrays.get(src.data);
        if (src.data === name || !from || (from.type !== 'Array' && from.type !== 'Scalar')) return null;
        if (!subset) {
          // A memlet named after the container with no subset means all of it (a box clipped by `covers`);
          // a missing other_subset is left to the code generator's defaults, which this proof does not assume.
          const whole = e.memlet.data === name && params.length === 0;
          return whole ? [desc.shape.map(() => ({ lo: -(1n << 62n), hi: 1n << 62n }))] : null;
        }
        const box = this.boxOf(subset, sdfg, desc, params);
        return box ? [box] : null;
      }
      case 'nested_sdfg': {
        // A callee may read what it writes (accumulations, in-out connectors): it counts as a full write only
        // when its own control flow overwrites the whole connector before anything reads it (§3.4), and the
        // memlet hands it exactly the box it names.
        if (params.length || src.scopeEntry !== null || !src.sdfg || !this.calleeOverwrites || !subset) return null;
        const connector = e.srcConnector;
        const inner = connector === null ? undefined : src.sdfg.arrays.get(connector);
        if (!inner || inner.transient || connector! in src.inConnectors) return null;
        const box = this.boxOf(subset, sdfg, desc, []);
        if (!box) return null;
        let cells = 1n;
        for (const dim of inner.shape) {
          const v = this.fieldValue(src.sdfg, dim);
          if (v === null) return null;
          cells *= v;
        }
        const volume = box.reduce((n, iv) => n * (iv.hi >= iv.lo ? iv.hi - iv.lo + 1n : 0n), 1n);
        if (volume !== cells || !this.calleeOverwrites(src, connector!, inner)) return null;
        return [box];
      }
      default:
        // Library nodes may read their outputs.
        return null;
    }
  }

  /** Rectangular map ranges only: bounds that name an enclosing parameter make the union hard to bound. */
  private mapParams(entry: MapEntryNode, sdfg: Sdfg, outer: MapParam[]): MapParam[] | null {
    const names = new Set([...outer.map((p) => p.name), ...entry.map.params]);
    // A parameter that shadows an enclosing one would be looked up with the wrong range.
    if (names.size !== outer.length + entry.map.params.length) return null;
    const out: MapParam[] = [];
    for (let i = 0; i < entry.map.params.length; i++) {
      const r = entry.map.range[i];
      if (!r) return null;
      const step = this.fieldValue(sdfg, r.step, names);
      const lo = this.fieldValue(sdfg, r.start, names);
      const hi = this.fieldValue(sdfg, r.end, names);
      if (step !== 1n || lo === null || hi === null) return null;
      out.push({ name: entry.map.params[i]!, lo, hi });
    }
    return out;
  }

  private singleElement(subset: Subset): boolean {
    if (subset.kind === 'indices') return true;
    if (subset.kind !== 'range') return false;
    return subset.dims.every((d) => {
      try {
        const diff = E.sub(this.symbols.exprs.sym(d.end), this.symbols.exprs.sym(d.start));
        return diff.k === 'int' && diff.v === 0n;
      } catch {
        return false;
      }
    });
  }

  /** The elements a subset names while the map parameters run over their ranges, as one box. */
  private boxOf(subset: Subset, sdfg: Sdfg, desc: DataDescriptor, params: MapParam[]): Box | null {
    let dims: RangeDim[];
    if (subset.kind === 'range') dims = subset.dims;
    else if (subset.kind === 'indices') dims = subset.indices.map((i) => ({ start: i, end: i, step: '1', tile: '1' }));
    else return null;
    if (dims.length !== desc.shape.length) return null;
    const paramNames = new Set(params.map((p) => p.name));
    const used = new Set<string>();
    const box: Box = [];
    for (const d of dims) {
      let start: Expr;
      let end: Expr;
      try {
        start = this.symbols.exprs.sym(d.start);
        end = this.symbols.exprs.sym(d.end);
      } catch {
        return null;
      }
      if (this.fieldValue(sdfg, d.tile, paramNames) !== 1n) return null;
      const single = E.sub(end, start);
      if (!(single.k === 'int' && single.v === 0n) && this.fieldValue(sdfg, d.step, paramNames) !== 1n) return null;
      const inDim = [...paramNames].filter((p) => this.symbols.exprs.namesOf(start).has(p) || this.symbols.exprs.namesOf(end).has(p));
      if (inDim.length === 0) {
        const lo = this.exprValue(sdfg, start);
        const hi = this.exprValue(sdfg, end);
        if (lo === null || hi === null) return null;
        box.push({ lo, hi });
        continue;
      }
      // `p + a : p + b` with p in [lo, hi] covers [lo + a, hi + b] without gaps (each window is non-empty
      // and consecutive windows touch). Any other use of a parameter (scaled, in two dimensions) is refused.
      const name = inDim[0]!;
      if (inDim.length > 1 || used.has(name)) return null;
      used.add(name);
      const p = params.find((x) => x.name === name)!;
      const a = E.sub(start, E.sym(name));
      const b = E.sub(end, E.sym(name));
      for (const x of [a, b]) for (const n of this.symbols.exprs.namesOf(x)) if (paramNames.has(n)) return null;
      const av = this.exprValue(sdfg, a);
      const bv = this.exprValue(sdfg, b);
      if (av === null || bv === null) return null;
      if (av > bv || p.hi < p.lo) box.push({ lo: 1n, hi: 0n });
      else box.push({ lo: p.lo + av, hi: p.hi + bv });
    }
    return box;
  }

  /** A symbolic field's value for the analysed symbols (null: unknown, or it names an `excluded` parameter). */
  fieldValue(sdfg: Sdfg, src: string, excluded: ReadonlySet<string> = new Set()): bigint | null {
    let e: Expr;
    try {
      e = this.symbols.exprs.sym(src);
    } catch {
      return null;
    }
    for (const n of this.symbols.exprs.namesOf(e)) if (excluded.has(n)) return null;
    return this.exprValue(sdfg, e);
  }

  /** Value for the analysed symbols; null when a name has no root meaning or no known value. */
  private exprValue(sdfg: Sdfg, e: Expr): bigint | null {
    const root = this.symbols.toRoot(sdfg, e);
    if (!root.expr) return null;
    const env = new Map<string, bigint>();
    for (const n of this.symbols.exprs.namesOf(root.expr)) {
      // Only values already known: asking the symbol context for a new one would add defaults or
      // "unresolved" warnings just because this proof was attempted.
      const v = this.userSymbols.get(n) ?? this.symbols.values.get(n);
      if (v === undefined) return null;
      env.set(n, v);
    }
    return evaluate(root.expr, env);
  }
}

/** Whether the union of the boxes contains every index of `shape` (coordinate compression). */
export function covers(boxes: Box[], shape: bigint[]): boolean {
  if (shape.some((s) => s <= 0n)) return true;
  const live = boxes.filter((b) => b.length === shape.length && b.every((iv) => iv.lo <= iv.hi));
  if (live.length === 0) return false;
  // Cut points per dimension: between two consecutive cuts every box either contains the whole cell or none.
  const cuts = shape.map((extent, d) => {
    const set = new Set<bigint>([0n, extent]);
    for (const b of live) {
      const iv = b[d]!;
      if (iv.lo > 0n && iv.lo < extent) set.add(iv.lo);
      if (iv.hi + 1n > 0n && iv.hi + 1n < extent) set.add(iv.hi + 1n);
    }
    return [...set].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  });
  let cells = 1;
  for (const c of cuts) {
    cells *= c.length - 1;
    if (cells > MAX_COVERAGE_CELLS) return false;
  }
  const index = new Array<number>(shape.length).fill(0);
  for (let n = 0; n < cells; n++) {
    let rest = n;
    for (let d = shape.length - 1; d >= 0; d--) {
      const count = cuts[d]!.length - 1;
      index[d] = rest % count;
      rest = Math.floor(rest / count);
    }
    const inside = live.some((b) => b.every((iv, d) => iv.lo <= cuts[d]![index[d]!]! && cuts[d]![index[d]! + 1]! - 1n <= iv.hi));
    if (!inside) return false;
  }
  return true;
}
