/**
 * Whether a WCR write inside parallel code can race with another thread, so that it needs an atomic or a
 * critical section. As DaCe decides it (dace/codegen/targets/cpp.py, is_write_conflicted_with_reason): follow
 * the memlet path outward from the write; Sequential maps are skipped; at each parallel map's exit the write is
 * free of conflicts when the map's parameters index the subset so that two threads never share an element and
 * no other edge into that exit writes the same container; the path ends without conflict at a transient or at
 * an argument of the program, and goes on through the node of a nested SDFG whose argument it reaches. So a
 * reduction in a sequential loop inside a nested SDFG called from a parallel map, writing one element per
 * iteration of that map (an expanded Reduce), is a plain write, as in DaCe.
 *
 * Which parameters must index the subset, and how, differs from DaCe's `_check_map_conflicts` in two ways:
 * - Only the parameters OpenMP divides among threads: all of a CPU_Persistent map's, the first (the first
 *   `collapse`) of a CPU_Multicore map's; the loops inside run in one thread, in order. So an expanded GEMM's
 *   `C[i, j] += A[i, k]·B[k, j]` over a map (i, j, k) is plain (DaCe makes it atomic because k is not in the
 *   subset): no two threads touch one element and each element's updates keep their sequential order, so the
 *   plain write computes bit for bit what the atomic one does, without a locked instruction per update.
 * - A dimension proves a parameter p when its index is `a·p + b` with an integer a ≥ 1 and b free of *every*
 *   parameter of the map (DaCe only asks b to be free of p, so `D[i + j]` over (i, j) passes there and races:
 *   it stays atomic here).
 *
 * Conservative where DaCe looks further: another edge into the same exit writing the same container counts as
 * a conflict (DaCe intersects the propagated subsets), range dimensions and symbolic coefficients never prove a
 * parameter, consume scopes, non-CPU schedules and a path that ends at an access node inside a scope are
 * conflicts. A state's nodes run one after the other here,
 * so DaCe's check of concurrent writers into one access node does not apply.
 */
import type { MapEntryNode, MemletEdge, Sdfg, Subset } from '../model/sdfg.js';
import { freeSymbols, simplify, type Expr } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { stateGraph, type StateGraph } from './graph.js';

const SEQUENTIAL = new Set(['Sequential', 'Unrolled']);
/** Limit on the path's length (maps and nested SDFGs together), far above any file's nesting. */
const MAX_STEPS = 10_000;

/** The point index of each dimension of `subset` (null for a range of several elements). */
function pointIndices(core: EmitCore, subset: Subset | null): Array<Expr | null> {
  if (!subset) return [];
  if (subset.kind === 'indices') return subset.indices.map((s) => core.symExpr(s));
  if (subset.kind !== 'range') return [];
  return subset.dims.map((d) => {
    if (d.start.trim() === d.end.trim()) return core.symExpr(d.start);
    const width = simplify({ k: 'bin', op: '-', a: core.symExpr(d.end), b: core.symExpr(d.start) });
    return width.k === 'int' && width.v === 0n ? core.symExpr(d.start) : null;
  });
}

/** The terms of a sum with their signs: `a - (b + c)` → a, -b, -c. */
function terms(e: Expr, sign: 1n | -1n, out: Array<[Expr, bigint]>): void {
  if (e.k === 'bin' && (e.op === '+' || e.op === '-')) {
    terms(e.a, sign, out);
    terms(e.b, e.op === '+' ? sign : sign === 1n ? -1n : 1n, out);
  } else if (e.k === 'un' && e.op === '-') terms(e.a, sign === 1n ? -1n : 1n, out);
  else out.push([e, sign]);
}

const isSym = (e: Expr, name: string) => e.k === 'sym' && e.name === name;

/** The integer c of a term `p`, `c*p` or `p*c`; null when the term has p in any other form. */
function coefficient(term: Expr, p: string): bigint | null {
  if (isSym(term, p)) return 1n;
  if (term.k === 'bin' && term.op === '*') {
    if (term.a.k === 'int' && isSym(term.b, p)) return term.a.v;
    if (term.b.k === 'int' && isSym(term.a, p)) return term.b.v;
  }
  return null;
}

/** Whether `index` is `a·p + b` with an integer a ≥ 1 and b free of every name in `excluded`. */
function affineIn(index: Expr, p: string, excluded: ReadonlySet<string>): boolean {
  const parts: Array<[Expr, bigint]> = [];
  terms(index, 1n, parts);
  let a = 0n;
  for (const [term, sign] of parts) {
    const free = freeSymbols(term);
    if (!free.has(p)) {
      for (const n of free) if (excluded.has(n)) return false;
      continue;
    }
    const c = coefficient(term, p);
    if (c === null) return false;
    a += sign * c;
  }
  return a >= 1n;
}

/**
 * Whether the write `edge` makes through the exit of `entry` (a parallel map) can meet another thread's: unless
 * each parameter the threads divide (all of a CPU_Persistent map's, the first `collapse` of a CPU_Multicore
 * map's) indexes some dimension as `a·p + b` with b free of every parameter of the map.
 */
function mapConflicted(core: EmitCore, schedule: string, entry: MapEntryNode, edge: MemletEdge): boolean {
  const dims = pointIndices(core, edge.memlet.subset);
  const params = entry.map.params;
  const all = new Set(params);
  const divided = schedule === 'CPU_Multicore' ? params.slice(0, Math.max(1, Math.min(entry.map.collapse, params.length))) : params;
  return !divided.every((p) => dims.some((d) => d !== null && affineIn(d, p, all)));
}

/**
 * Whether the WCR write `edge` (out of a tasklet, or a copy's edge) of state graph `g` in `sdfg` may conflict
 * with another thread's. Only meaningful inside parallel code; a memlet marked `wcr_nonatomic` is never asked.
 */
function writeConflicted(core: EmitCore, sdfg: Sdfg, g: StateGraph, edge: MemletEdge): boolean {
  let s = sdfg;
  let graph = g;
  let e = edge;
  for (let step = 0; step < MAX_STEPS; step++) {
    const dst = graph.byId.get(e.dst);
    if (!dst) return true;
    if (dst.kind === 'map_exit') {
      const entry = dst.entryId === null ? undefined : graph.byId.get(dst.entryId);
      if (entry?.kind !== 'map_entry' || !e.dstConnector?.startsWith('IN_')) return true;
      const schedule = core.defaults.scheduleOf(s, graph.state, entry);
      if (!SEQUENTIAL.has(schedule)) {
        if (schedule !== 'CPU_Multicore' && schedule !== 'CPU_Persistent') return true;
        const siblings = graph.inEdges.get(dst.id) ?? [];
        if (siblings.some((x) => x !== e && x.memlet.data === e.memlet.data)) return true;
        if (mapConflicted(core, schedule, entry, e)) return true;
      }
      const out = `OUT_${e.dstConnector.slice(3)}`;
      const next = graph.outEdges.get(dst.id)?.find((x) => x.srcConnector === out);
      if (!next) return true;
      e = next;
      continue;
    }
    // An access node inside a scope may be shared by the scope's threads whatever it holds (DaCe ends its path
    // there without a conflict).
    if (dst.kind !== 'access' || dst.scopeEntry !== null) return true;
    const desc = s.arrays.get(dst.data.split('.')[0]!);
    if (!desc) return true;
    if (desc.transient) return false;
    if (!s.parent) return false;
    const { sdfg: outer, state, node } = s.parent;
    const pg = stateGraph(state);
    const next = pg.outEdges.get(node.id)?.find((x) => x.srcConnector === dst.data);
    if (!next) return true;
    s = outer;
    graph = pg;
    e = next;
  }
  return true;
}

/**
 * Whether the WCR write `e` is emitted without atomics: marked `wcr_nonatomic`, or host code in which no other
 * thread can write its element (device code keeps its atomics: every kernel thread may race).
 */
export function wcrPlain(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, e: MemletEdge): boolean {
  if (e.memlet.wcrNonatomic) return true;
  if (!env.parallel || env.device) return false;
  return !writeConflicted(core, ctx.sdfg, g, e);
}
