/**
 * Conservative live ranges over the program order (docs/liveness.md):
 *
 * 1. Access points: every AccessNode counts over the span of its state, i.e. [state step, last step of the
 *    nested SDFGs the state invokes]. Control-flow code that reads a container (interstate conditions and
 *    assignments, loop statements, branch conditions) counts at the steps it was attributed to.
 * 2. Range = [first, last] access point.
 * 3. Loop widening: for every loop (LoopRegion, or a cycle of a state-machine CFG) that contains an access
 *    point, the range grows to the loop's whole span, because a value may be carried from one iteration
 *    into the next, except over the LoopRegions where the container is overwritten before any read in
 *    every iteration (write-first.ts): no value crosses their iterations.
 */
import type { Sdfg } from '../model/sdfg.js';
import type { AccessSite } from './accesses.js';
import type { ExprCache } from './expr.js';
import type { LoopSpan, ProgramOrder } from './linearize.js';

export interface LiveRange {
  first: number;
  last: number;
}

export interface ControlFlowReads {
  /** Step intervals where control-flow code reads the container. */
  intervals: LiveRange[];
  /** Read by an interstate edge (forces an SDFG-level allocation in DaCe). */
  interstate: boolean;
}

/** Containers read by control-flow code, per SDFG and (top-level) container name. */
export function controlFlowReads(order: ProgramOrder, exprs: ExprCache): Map<Sdfg, Map<string, ControlFlowReads>> {
  const out = new Map<Sdfg, Map<string, ControlFlowReads>>();
  for (const use of order.codeUses) {
    const arrays = use.sdfg.arrays;
    if (arrays.size === 0) continue;
    for (const name of namesInCode(use.code, exprs)) {
      const top = name.split('.')[0]!;
      if (!arrays.has(top)) continue;
      let table = out.get(use.sdfg);
      if (!table) out.set(use.sdfg, (table = new Map()));
      let reads = table.get(top);
      if (!reads) table.set(top, (reads = { intervals: [], interstate: false }));
      reads.intervals.push({ first: use.first, last: use.last });
      reads.interstate ||= use.interstate;
    }
  }
  return out;
}

function namesInCode(code: string, exprs: ExprCache): Iterable<string> {
  try {
    return exprs.namesOf(exprs.py(code));
  } catch {
    // Code the Python subset parser does not accept: any identifier might name a container.
    return code.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
  }
}

/** Union of the spans of all loops around each step: widening a range is then two array lookups. */
export class LoopCover {
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  /** Loops around each step, built on the first widening with exceptions (most programs never need it). */
  private around: LoopSpan[][] | null = null;

  constructor(private readonly order: ProgramOrder) {
    const n = order.steps.length;
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    for (let s = 0; s < n; s++) {
      this.lo[s] = s;
      this.hi[s] = s;
    }
    // Outer loops first: a step already covered by an outer loop cannot be widened by an inner one.
    const loops = [...order.loops].sort((a, b) => b.last - b.first - (a.last - a.first));
    for (const loop of loops) {
      for (let s = loop.first; s <= loop.last; s++) {
        if (this.lo[s]! > loop.first) this.lo[s] = loop.first;
        if (this.hi[s]! < loop.last) this.hi[s] = loop.last;
      }
    }
  }

  widen(range: LiveRange, except?: ReadonlySet<LoopSpan>): LiveRange {
    if (!except || except.size === 0) {
      return {
        first: Math.min(range.first, this.lo[range.first]!, this.lo[range.last]!),
        last: Math.max(range.last, this.hi[range.first]!, this.hi[range.last]!),
      };
    }
    const around = this.loopsAround();
    let { first, last } = range;
    // Every loop around an end point is looked at, not only the outermost: an inner loop that still
    // widens matters when the outer one is excepted.
    for (const loop of [...around[range.first]!, ...around[range.last]!]) {
      if (except.has(loop)) continue;
      if (loop.first < first) first = loop.first;
      if (loop.last > last) last = loop.last;
    }
    return { first, last };
  }

  private loopsAround(): LoopSpan[][] {
    if (!this.around) {
      const around: LoopSpan[][] = Array.from({ length: this.order.steps.length }, () => []);
      for (const loop of this.order.loops) for (let s = loop.first; s <= loop.last; s++) around[s]!.push(loop);
      this.around = around;
    }
    return this.around;
  }
}

export function liveRange(
  sites: AccessSite[],
  reads: ControlFlowReads | undefined,
  order: ProgramOrder,
  cover: LoopCover,
  /** Loops over which this container is not widened (write-before-read in every iteration). */
  writeFirst?: ReadonlySet<LoopSpan>,
): LiveRange | null {
  const intervals: LiveRange[] = [];
  for (const site of sites) {
    const place = order.places.get(site.state);
    if (place) intervals.push({ first: place.step, last: place.spanEnd });
  }
  if (reads) intervals.push(...reads.intervals);
  if (intervals.length === 0 || order.steps.length === 0) return null;
  let first = Infinity;
  let last = -Infinity;
  for (const iv of intervals) {
    const w = cover.widen(iv, writeFirst);
    if (w.first < first) first = w.first;
    if (w.last > last) last = w.last;
  }
  return { first, last };
}
