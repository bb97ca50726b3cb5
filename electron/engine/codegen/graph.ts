/** Per-state graph helpers: adjacency, scope membership and a dependency order inside one scope. */
import type { DataflowNode, MemletEdge, StateBlock } from '../model/sdfg.js';

export interface StateGraph {
  state: StateBlock;
  byId: Map<number, DataflowNode>;
  inEdges: Map<number, MemletEdge[]>;
  outEdges: Map<number, MemletEdge[]>;
}

const cache = new WeakMap<StateBlock, StateGraph>();

export function stateGraph(state: StateBlock): StateGraph {
  let g = cache.get(state);
  if (g) return g;
  const byId = new Map<number, DataflowNode>();
  const inEdges = new Map<number, MemletEdge[]>();
  const outEdges = new Map<number, MemletEdge[]>();
  for (const n of state.nodes) {
    byId.set(n.id, n);
    inEdges.set(n.id, []);
    outEdges.set(n.id, []);
  }
  for (const e of state.edges) {
    inEdges.get(e.dst)?.push(e);
    outEdges.get(e.src)?.push(e);
  }
  g = { state, byId, inEdges, outEdges };
  cache.set(state, g);
  return g;
}

/** The scope entry that directly contains `n` (a map exit lives in the scope of its own entry's parent). */
export function containingScope(g: StateGraph, n: DataflowNode): number | null {
  if ((n.kind === 'map_exit' || n.kind === 'consume_exit') && n.entryId !== null) {
    return g.byId.get(n.entryId)?.scopeEntry ?? null;
  }
  return n.scopeEntry;
}

/** Map exits stand for their map: the scheduling unit is the entry. */
function unitOf(g: StateGraph, n: DataflowNode): DataflowNode {
  if ((n.kind === 'map_exit' || n.kind === 'consume_exit') && n.entryId !== null) return g.byId.get(n.entryId) ?? n;
  return n;
}

/** The node of `scope` (a unit) that contains `n`, or null when `n` is not inside `scope`. */
function representative(g: StateGraph, n: DataflowNode, scope: number | null): DataflowNode | null {
  let x: DataflowNode = unitOf(g, n);
  for (let guard = 0; guard < 10_000; guard++) {
    const s = containingScope(g, x);
    if (s === scope) return x;
    if (s === null) return null;
    const parent = g.byId.get(s);
    if (!parent) return null;
    x = parent;
  }
  return null;
}

/** Units directly inside `scope` in an order that respects every data dependency (stable by node id). */
export function scopeOrder(g: StateGraph, scope: number | null): DataflowNode[] {
  const units = g.state.nodes.filter(
    (n) => containingScope(g, n) === scope && n.kind !== 'map_exit' && n.kind !== 'consume_exit' && n.id !== scope,
  );
  const ids = new Set(units.map((u) => u.id));
  const deps = new Map<number, Set<number>>(units.map((u) => [u.id, new Set<number>()]));
  for (const e of g.state.edges) {
    const s = g.byId.get(e.src);
    const d = g.byId.get(e.dst);
    if (!s || !d) continue;
    const rs = representative(g, s, scope);
    const rd = representative(g, d, scope);
    if (!rs || !rd || rs.id === rd.id || !ids.has(rs.id) || !ids.has(rd.id)) continue;
    deps.get(rd.id)!.add(rs.id);
  }
  const done = new Set<number>();
  const order: DataflowNode[] = [];
  while (order.length < units.length) {
    const ready = units.find((u) => !done.has(u.id) && [...deps.get(u.id)!].every((d) => done.has(d)));
    // A cycle cannot be scheduled; fall back to id order so that generation still terminates.
    const pick = ready ?? units.find((u) => !done.has(u.id))!;
    done.add(pick.id);
    order.push(pick);
  }
  return order;
}

export { blocksOf, statesOf } from '../model/queries.js';
