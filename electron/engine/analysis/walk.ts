/** Generic traversals of the control-flow tree of one SDFG (not into nested SDFGs). */
import type { ControlFlowBlock, DataflowNode, NestedSdfgNode, RegionBlock, StateBlock } from '../model/sdfg.js';

export function forEachState(region: RegionBlock, visit: (state: StateBlock) => void): void {
  const stack: ControlFlowBlock[] = [...region.blocks].reverse();
  while (stack.length) {
    const b = stack.pop()!;
    if (b.kind === 'state') visit(b);
    else if (b.kind === 'region' || b.kind === 'loop') for (let i = b.blocks.length - 1; i >= 0; i--) stack.push(b.blocks[i]!);
    else if (b.kind === 'conditional') for (let i = b.branches.length - 1; i >= 0; i--) stack.push(b.branches[i]!.body);
  }
}

/** The chain of scope entry nodes around `node`, innermost first. Stops on cycles in malformed files. */
export function scopeChain(state: StateBlock, node: DataflowNode): DataflowNode[] {
  const out: DataflowNode[] = [];
  let id = node.scopeEntry;
  while (id !== null && out.length <= state.nodes.length) {
    const entry = state.nodes[id];
    if (!entry) break;
    out.push(entry);
    id = entry.scopeEntry;
  }
  return out;
}

export function scopeLabel(node: DataflowNode): string {
  return node.kind === 'map_entry' ? node.map.label : node.label;
}

export function scheduleOf(node: DataflowNode): string | null {
  if (node.kind === 'map_entry') return node.map.schedule;
  if (node.kind === 'consume_entry' || node.kind === 'nested_sdfg' || node.kind === 'library') return node.schedule;
  return null;
}

/**
 * The order in which the NestedSDFG nodes of a state run, as far as the dataflow fixes it.
 *
 * Each node belongs to a top-level *unit* of the state (itself, or the outermost scope around it); units are
 * put in a dependency order (Kahn, smallest node id first among ready units) and the nested SDFGs follow
 * their units in that order. `ordered` is true when that order is the only one the dataflow allows: every
 * unit holding a nested SDFG reaches the next one through data or ordering edges. Only then can program
 * steps inside one nested SDFG be compared with steps inside another of the same state (docs/liveness.md).
 */
export function nestedCallOrder(state: StateBlock): { calls: NestedSdfgNode[]; ordered: boolean } {
  const nested = state.nodes.filter((n): n is NestedSdfgNode => n.kind === 'nested_sdfg');
  if (nested.length === 0) return { calls: [], ordered: true };
  const nodes = state.nodes;
  const unitOf = (n: DataflowNode): number => {
    let x: DataflowNode = n;
    if ((x.kind === 'map_exit' || x.kind === 'consume_exit') && x.entryId !== null) x = nodes[x.entryId] ?? x;
    for (let guard = 0; x.scopeEntry !== null && guard <= nodes.length; guard++) {
      const parent = nodes[x.scopeEntry];
      if (!parent) break;
      x = parent;
    }
    return x.id;
  };
  const unit = nodes.map(unitOf);
  const succ = new Map<number, Set<number>>();
  const indegree = new Map<number, number>();
  for (const u of unit) if (!indegree.has(u)) indegree.set(u, 0);
  for (const e of state.edges) {
    const a = unit[e.src];
    const b = unit[e.dst];
    if (a === undefined || b === undefined || a === b) continue;
    let s = succ.get(a);
    if (!s) succ.set(a, (s = new Set()));
    if (s.has(b)) continue;
    s.add(b);
    indegree.set(b, indegree.get(b)! + 1);
  }
  const position = new Map<number, number>();
  const ready = [...indegree]
    .filter(([, d]) => d === 0)
    .map(([u]) => u)
    .sort((x, y) => x - y);
  while (ready.length) {
    const u = ready.shift()!;
    position.set(u, position.size);
    for (const v of succ.get(u) ?? []) {
      const d = indegree.get(v)! - 1;
      indegree.set(v, d);
      if (d === 0) ready.splice(lowerIndex(ready, v), 0, v);
    }
  }
  // A dependency cycle (malformed state): the remaining units keep id order and nothing counts as ordered.
  const cyclic = position.size < indegree.size;
  for (const u of [...indegree.keys()].sort((x, y) => x - y)) if (!position.has(u)) position.set(u, position.size);
  const calls = [...nested].sort((x, y) => position.get(unit[x.id]!)! - position.get(unit[y.id]!)! || x.id - y.id);
  if (cyclic) return { calls, ordered: false };
  const units = [...new Set(calls.map((n) => unit[n.id]!))];
  if (units.length !== calls.length) return { calls, ordered: false };
  for (let i = 0; i + 1 < units.length; i++) if (!reaches(succ, units[i]!, units[i + 1]!)) return { calls, ordered: false };
  return { calls, ordered: true };
}

function lowerIndex(sorted: number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function reaches(succ: Map<number, Set<number>>, from: number, to: number): boolean {
  const seen = new Set<number>([from]);
  const stack = [from];
  while (stack.length) {
    for (const v of succ.get(stack.pop()!) ?? []) {
      if (v === to) return true;
      if (!seen.has(v)) {
        seen.add(v);
        stack.push(v);
      }
    }
  }
  return false;
}
