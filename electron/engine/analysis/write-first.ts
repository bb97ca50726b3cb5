/**
 * The write-before-read refinement of loop widening (docs/liveness.md §3.1).
 *
 * A LoopRegion need not widen a transient's range when every iteration completely overwrites the transient
 * before it can read it: no value then survives from one iteration into the next, so the bytes are free
 * between the last use of one iteration and the overwrite at the start of the next. Everything here is a
 * proof obligation: whenever a fact cannot be established (unknown symbol, unusual memlet path, a node kind
 * whose reads are not visible in the state), the answer is "not write-first" and the loop keeps widening.
 */
import type {
  ControlFlowBlock,
  DataDescriptor,
  LoopBlock,
  MapEntryNode,
  MemletEdge,
  RangeDim,
  Sdfg,
  StateBlock,
  Subset,
} from '../model/sdfg.js';
import { E } from '../symbolic/index.js';
import type { AccessSite } from './accesses.js';
import { evaluate, type Expr } from './expr.js';
import type { LoopSpan, ProgramOrder } from './linearize.js';
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

export class WriteFirstLoops {
  private readonly spanOfRegion = new Map<LoopBlock, LoopSpan>();
  private readonly enclosing = new Map<Sdfg, Map<StateBlock, LoopBlock[]>>();

  constructor(
    order: ProgramOrder,
    private readonly symbols: SymbolContext,
    /** Values given by the caller: usable without side effects on the symbol report. */
    private readonly userSymbols: ReadonlyMap<string, bigint>,
  ) {
    for (const span of order.loops) if (span.region) this.spanOfRegion.set(span.region, span);
  }

  /**
   * The loops (of the transient's own SDFG) over which `name` need not be widened. Loops of outer SDFGs
   * around a nested SDFG call, and state-machine cycles, are never in the set.
   */
  loopsWithoutWidening(sdfg: Sdfg, name: string, desc: DataDescriptor, sites: AccessSite[]): Set<LoopSpan> {
    const out = new Set<LoopSpan>();
    // Views, references, streams and structures reach their bytes through other names.
    if (desc.type !== 'Array' && desc.type !== 'Scalar') return out;
    if (desc.offset.some((o) => o.trim() !== '0')) return out;
    if (sites.some((s) => s.node.data !== name)) return out;
    const loops = new Set<LoopBlock>();
    const table = this.enclosingLoops(sdfg);
    for (const site of sites) for (const l of table.get(site.state) ?? []) loops.add(l);
    for (const loop of loops) {
      const span = this.spanOfRegion.get(loop);
      if (span && this.isWriteFirst(loop, sdfg, name, desc)) out.add(span);
    }
    return out;
  }

  private enclosingLoops(sdfg: Sdfg): Map<StateBlock, LoopBlock[]> {
    let table = this.enclosing.get(sdfg);
    if (table) return table;
    table = new Map();
    const visit = (blocks: ControlFlowBlock[], around: LoopBlock[]): void => {
      for (const b of blocks) {
        if (b.kind === 'state') table!.set(b, around);
        else if (b.kind === 'region') visit(b.blocks, around);
        else if (b.kind === 'loop') visit(b.blocks, [...around, b]);
        else if (b.kind === 'conditional') for (const br of b.branches) visit(br.body.blocks, around);
      }
    };
    visit(sdfg.body.blocks, []);
    this.enclosing.set(sdfg, table);
    return table;
  }

  /** Rule of docs/liveness.md §3.1 for one loop and one container. */
  private isWriteFirst(loop: LoopBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    // The loop statements run between iterations: a read there sees the previous iteration's value.
    for (const code of [loop.init, loop.condition, loop.update]) if (code !== null && this.codeReads(code, name)) return false;
    const visited = new Set<number>();
    let idx = loop.start;
    while (idx !== null && !visited.has(idx)) {
      visited.add(idx);
      const block = loop.blocks[idx];
      if (!block) return false;
      if (block.kind === 'state' && this.touchesInBlock(block, name)) return this.fullyOverwritten(block, sdfg, name, desc);
      // A block before the overwrite must neither use the container nor be able to end the iteration early
      // (the bytes may be clobbered there, and an early exit would skip the overwrite).
      if (block.kind !== 'state' && (this.touchesInBlock(block, name) || mayLeaveIteration(block, false))) return false;
      const out = loop.edges.filter((e) => e.src === idx);
      if (out.length !== 1) return false;
      const e = out[0]!;
      // A false condition with no other edge ends the body: that is an early end of the iteration.
      if (!isTriviallyTrue(e.condition)) return false;
      if (e.assignments.some(([, rhs]) => this.codeReads(rhs, name))) return false;
      idx = e.dst;
    }
    return false;
  }

  /** Whether `block` (recursively) has an access node of `name` or code that reads it. */
  private touchesInBlock(block: ControlFlowBlock, name: string): boolean {
    return this.namesTouchedBy(block).has(name);
  }

  private codeReads(code: string, name: string): boolean {
    return this.namesReadBy(code).has(name);
  }

  // The questions above are asked for every (transient, enclosing loop) pair: on Fortran-generated programs
  // with hundreds of transients, rescanning the blocks each time made this the slowest part of the analysis.
  // Both answers are per-block / per-string facts, so they are computed once.
  private readonly touchedNames = new WeakMap<ControlFlowBlock, ReadonlySet<string>>();
  private readonly codeNames = new Map<string, ReadonlySet<string>>();

  /** Container names (first component of dotted names) that `code` reads. */
  private namesReadBy(code: string): ReadonlySet<string> {
    let hit = this.codeNames.get(code);
    if (hit) return hit;
    const trimmed = code.trim();
    let names: Iterable<string> = [];
    if (trimmed) {
      try {
        names = this.symbols.exprs.namesOf(this.symbols.exprs.py(trimmed));
      } catch {
        names = trimmed.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
      }
    }
    hit = new Set([...names].map((n) => n.split('.')[0]!));
    this.codeNames.set(code, hit);
    return hit;
  }

  /** Every container name `block` touches: access nodes (and the roots of dotted member paths) and names read
   * by its loop statements, interstate edges and branch conditions, recursively. */
  private namesTouchedBy(block: ControlFlowBlock): ReadonlySet<string> {
    let hit = this.touchedNames.get(block);
    if (hit) return hit;
    const names = new Set<string>();
    const addCode = (code: string | null): void => {
      if (code !== null) for (const n of this.namesReadBy(code)) names.add(n);
    };
    switch (block.kind) {
      case 'state':
        for (const n of block.nodes) {
          if (n.kind !== 'access') continue;
          names.add(n.data);
          const dot = n.data.indexOf('.');
          if (dot > 0) names.add(n.data.slice(0, dot));
        }
        break;
      case 'region':
      case 'loop':
        if (block.kind === 'loop') [block.init, block.condition, block.update].forEach(addCode);
        for (const e of block.edges) {
          addCode(e.condition);
          for (const [, rhs] of e.assignments) addCode(rhs);
        }
        for (const b of block.blocks) for (const n of this.namesTouchedBy(b)) names.add(n);
        break;
      case 'conditional':
        for (const br of block.branches) {
          addCode(br.condition);
          for (const n of this.namesTouchedBy(br.body)) names.add(n);
        }
        break;
      default:
        break;
    }
    this.touchedNames.set(block, names);
    return names;
  }

  /**
   * Whether `state` writes every element of `name` and reads none: its AccessNodes of the container have no
   * outgoing data edges, and the incoming writes (tasklet elements or copies, possibly through maps, no WCR,
   * not dynamic) cover the whole shape for the analysed symbol values.
   */
  private fullyOverwritten(state: StateBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    const boxes: Box[] = [];
    for (const node of state.nodes) {
      if (node.kind !== 'access' || node.data !== name) continue;
      for (const e of state.edges) {
        if (e.memlet.data === null) continue;
        if (e.src === node.id) return false;
        if (e.dst !== node.id) continue;
        const written = this.writtenBoxes(state, sdfg, e, name, desc, []);
        if (!written) return false;
        boxes.push(...written);
      }
    }
    const shape: bigint[] = [];
    for (const dim of desc.shape) {
      const v = this.fieldValue(sdfg, dim);
      if (v === null) return false;
      shape.push(v);
    }
    return covers(boxes, shape);
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
          out.push(...boxes);
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
      default:
        // Nested SDFGs and library nodes may read their outputs (accumulations, in-out connectors).
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

  private fieldValue(sdfg: Sdfg, src: string, excluded: ReadonlySet<string> = new Set()): bigint | null {
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

/** Whether running `block` can end the current iteration of the enclosing loop early. */
function mayLeaveIteration(block: ControlFlowBlock, insideInnerLoop: boolean): boolean {
  switch (block.kind) {
    case 'return':
      return true;
    case 'break':
    case 'continue':
      return !insideInnerLoop;
    case 'region':
      return block.blocks.some((b) => mayLeaveIteration(b, insideInnerLoop));
    case 'loop':
      return block.blocks.some((b) => mayLeaveIteration(b, true));
    case 'conditional':
      return block.branches.some((br) => mayLeaveIteration(br.body, insideInnerLoop));
    default:
      return false;
  }
}

function isTriviallyTrue(condition: string): boolean {
  const c = condition.trim();
  return c === '' || c === '1' || c === 'True' || c === '(1)' || c === '(True)';
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
