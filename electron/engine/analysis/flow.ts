/**
 * The control-flow graph over program steps (docs/liveness.md §3.7): one node per step, and virtual nodes
 * (no step) where control merges or branches without running a state — region entries and exits, loop
 * latches, the join after a conditional or a call inside a map. An edge is a possible transfer of control
 * from one node to the next; every path an execution can take is a path of the graph (the graph may have
 * more: extra edges only make live sets larger, never unsound).
 *
 * - A state's step is followed by the steps of the nested SDFGs it invokes, in the order linearize laid them
 *   out, then by the state's successors. A call inside a map may run any number of times: its exit also leads
 *   back to its entry, and around it.
 * - A region runs from its start block along its interstate edges; a block whose out-edges may all be false
 *   (none is trivially true) may also end the region.
 * - A LoopRegion enters its body; it may skip it unless its trip count is known to be at least 1 (or it is a
 *   do-while loop). The end of the body (and `continue`) reaches the latch, which leads back to the body
 *   unless the loop is known to run exactly once, and out. `break` leads out, `return` to the SDFG's exit.
 * - A ConditionalBlock enters one of its branches, or none when no branch is unconditional.
 * - An interstate edge with code (a condition that is not trivially true, or assignments) is a node of its
 *   own: its reads happen between the two blocks.
 *
 * The graph covers one call of the program, as every live range does: nothing leads from its exit back to
 * its entry (values a Persistent or External transient keeps for the next call are not followed).
 */
import type { ControlFlowBlock, InterstateEdge, LoopBlock, RegionBlock, Sdfg, SdfgFile } from '../model/sdfg.js';
import type { ExecutionCounter } from './executions.js';
import type { ProgramOrder } from './linearize.js';

export interface FlowGraph {
  /** Nodes 0 … steps-1 are the steps; the rest are virtual. */
  readonly steps: number;
  readonly nodes: number;
  readonly succStart: Int32Array;
  readonly succ: Int32Array;
  readonly predStart: Int32Array;
  readonly pred: Int32Array;
  /** Reverse post-order from the program's entry (nodes no path reaches come last). */
  readonly order: Int32Array;
  /** The node where each invocation of an SDFG begins, and the one where it ends. */
  readonly entryOf: ReadonlyMap<Sdfg, number>;
  readonly exitOf: ReadonlyMap<Sdfg, number>;
  /** The virtual node on each interstate edge that carries code (its reads happen there). */
  readonly nodeOfEdge: ReadonlyMap<InterstateEdge, number>;
}

interface Targets {
  brk: number | null;
  cont: number | null;
  ret: number;
}

interface Ends {
  in: number;
  out: number;
}

export function buildFlowGraph(file: SdfgFile, order: ProgramOrder, counter: ExecutionCounter): FlowGraph {
  const steps = order.steps.length;
  const edges: number[][] = Array.from({ length: steps }, () => []);
  const entryOf = new Map<Sdfg, number>();
  const exitOf = new Map<Sdfg, number>();
  const nodeOfEdge = new Map<InterstateEdge, number>();
  const node = (): number => edges.push([]) - 1;
  const edge = (a: number, b: number): void => void edges[a]!.push(b);

  const sdfgEnds = (sdfg: Sdfg): Ends => {
    const exit = node();
    const body = region(sdfg.body, sdfg, { brk: null, cont: null, ret: exit });
    edge(body.out, exit);
    entryOf.set(sdfg, body.in);
    exitOf.set(sdfg, exit);
    return { in: body.in, out: exit };
  };

  const region = (g: RegionBlock | LoopBlock, sdfg: Sdfg, t: Targets): Ends => {
    const ends = { in: node(), out: node() };
    if (g.blocks.length === 0) {
      edge(ends.in, ends.out);
      return ends;
    }
    const parts = g.blocks.map((b) => block(b, sdfg, t));
    if (g.start !== null && parts[g.start]) edge(ends.in, parts[g.start]!.in);
    else for (const p of parts) edge(ends.in, p.in); // no start block: any block may run first
    const unconditional = new Uint8Array(parts.length);
    for (const e of g.edges) {
      const src = parts[e.src];
      const dst = parts[e.dst];
      if (!src || !dst) continue;
      if (isTriviallyTrue(e.condition) && e.assignments.length === 0) edge(src.out, dst.in);
      else {
        // The edge's code runs between the two blocks: a node of its own, where its reads happen.
        const on = node();
        nodeOfEdge.set(e, on);
        edge(src.out, on);
        edge(on, dst.in);
      }
      if (isTriviallyTrue(e.condition)) unconditional[e.src] = 1;
    }
    // When no out-edge's condition holds, the region ends after the block.
    parts.forEach((p, i) => {
      if (!unconditional[i]) edge(p.out, ends.out);
    });
    return ends;
  };

  const block = (b: ControlFlowBlock, sdfg: Sdfg, t: Targets): Ends => {
    switch (b.kind) {
      case 'state': {
        const place = order.places.get(b);
        const at = place ? place.step : node();
        let out = at;
        for (const [call] of place?.calls ?? []) {
          if (!call.sdfg) continue;
          const callee = sdfgEnds(call.sdfg);
          edge(out, callee.in);
          if (call.scopeEntry === null) {
            out = callee.out;
            continue;
          }
          // Once per map iteration: again, or not at all.
          const join = node();
          edge(callee.out, callee.in);
          edge(callee.out, join);
          edge(out, join);
          out = join;
        }
        return { in: at, out };
      }
      case 'region':
        return region(b, sdfg, t);
      case 'loop':
        return loop(b, sdfg, t);
      case 'conditional': {
        const ends = { in: node(), out: node() };
        let always = false;
        for (const br of b.branches) {
          const r = region(br.body, sdfg, t);
          edge(ends.in, r.in);
          edge(r.out, ends.out);
          if (br.condition === null || isTriviallyTrue(br.condition)) always = true;
        }
        if (!always) edge(ends.in, ends.out);
        return ends;
      }
      default: {
        // break / continue / return: control goes to the target; nothing follows the block itself.
        const ends = { in: node(), out: node() };
        const target = b.kind === 'break' ? t.brk : b.kind === 'continue' ? t.cont : t.ret;
        edge(ends.in, target ?? t.ret);
        return ends;
      }
    }
  };

  const loop = (b: LoopBlock, sdfg: Sdfg, t: Targets): Ends => {
    const ends = { in: node(), out: node() };
    const latch = node();
    const body = region(b, sdfg, { brk: ends.out, cont: latch, ret: t.ret });
    const trips = counter.loopTrips(b, sdfg);
    edge(ends.in, body.in);
    if (!b.inverted && (trips === null || trips < 1n)) edge(ends.in, ends.out);
    edge(body.out, latch);
    if (trips === null || trips > 1n) edge(latch, body.in);
    edge(latch, ends.out);
    return ends;
  };

  const root = sdfgEnds(file.root);
  return freeze(steps, edges, root.in, entryOf, exitOf, nodeOfEdge);
}

function freeze(
  steps: number,
  edges: number[][],
  entry: number,
  entryOf: Map<Sdfg, number>,
  exitOf: Map<Sdfg, number>,
  nodeOfEdge: Map<InterstateEdge, number>,
): FlowGraph {
  const n = edges.length;
  const succStart = new Int32Array(n + 1);
  const predCount = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    succStart[i + 1] = succStart[i]! + edges[i]!.length;
    for (const j of edges[i]!) predCount[j + 1]!++;
  }
  const succ = new Int32Array(succStart[n]!);
  const predStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) predStart[i + 1] = predStart[i]! + predCount[i + 1]!;
  const pred = new Int32Array(predStart[n]!);
  const fill = predStart.slice(0, n);
  for (let i = 0; i < n; i++) {
    let k = succStart[i]!;
    for (const j of edges[i]!) {
      succ[k++] = j;
      pred[fill[j]!++] = i;
    }
  }
  // Reverse post-order from the entry: forward problems converge in few passes when visited in this order.
  const visited = new Uint8Array(n);
  const order = new Int32Array(n);
  let filled = 0;
  const dfs = (root: number): void => {
    const post: number[] = [];
    const stack: Array<[number, number]> = [[root, succStart[root]!]];
    visited[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top[1] < succStart[top[0] + 1]!) {
        const next = succ[top[1]++]!;
        if (!visited[next]) {
          visited[next] = 1;
          stack.push([next, succStart[next]!]);
        }
      } else {
        post.push(top[0]);
        stack.pop();
      }
    }
    for (let i = post.length - 1; i >= 0; i--) order[filled++] = post[i]!;
  };
  dfs(entry);
  for (let i = 0; i < n; i++) if (!visited[i]) dfs(i);
  return { steps, nodes: n, succStart, succ, predStart, pred, order, entryOf, exitOf, nodeOfEdge };
}

function isTriviallyTrue(condition: string): boolean {
  const c = condition.trim();
  return c === '' || c === '1' || c === 'True' || c === '(1)' || c === '(True)';
}
