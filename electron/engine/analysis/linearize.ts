/**
 * Program order: the control flow of the root SDFG and every nested SDFG laid out as numbered steps, one
 * per state execution point. The rules are documented in docs/liveness.md:
 *
 * - a region's blocks come in reverse post-order from its start block (unreachable blocks afterwards, in
 *   file order); LoopRegion bodies inline; ConditionalBlock branches one after another; Break, Continue
 *   and Return blocks produce no step;
 * - a nested SDFG unfolds in place, right after the step of the state that holds the NestedSDFG node;
 * - loops (LoopRegions and cycles of state-machine CFGs) are recorded as step spans so that live ranges
 *   can be widened over them.
 */
import type { ControlFlowBlock, InterstateEdge, LoopBlock, NestedSdfgNode, Sdfg, SdfgFile, StateBlock } from '../model/sdfg.js';
import type { Step } from './types.js';
import type { ExecutionCounter } from './executions.js';
import { nestedCallOrder } from './walk.js';

export interface StatePlace {
  state: StateBlock;
  sdfg: Sdfg;
  step: number;
  /** Last step of the nested SDFGs this state invokes (= step when it invokes none). */
  spanEnd: number;
  /** Executions per call; null when a loop around it cannot be counted. */
  executions: bigint | null;
  /** Steps of each nested SDFG this state invokes (laid out in dataflow order, walk.ts nestedCallOrder). */
  calls: Map<NestedSdfgNode, Span>;
  /** Whether the dataflow fixes the order of those nested SDFGs (then their steps may be compared). */
  callsOrdered: boolean;
}

/** Control-flow code (conditions, assignments, loop statements) with the steps it is attributed to. */
interface CodeUse {
  sdfg: Sdfg;
  code: string;
  first: number;
  last: number;
  /** Interstate edges: the containers they read force an SDFG-level allocation. */
  interstate: boolean;
  /** The interstate edge the code sits on (its reads happen when control passes it); null for loop and branch code. */
  edge: InterstateEdge | null;
}

export interface LoopSpan {
  first: number;
  last: number;
  label: string;
  /** LoopRegion or a cycle of a state machine. */
  kind: 'loop-region' | 'cycle';
  /** The LoopRegion (kind 'loop-region'), so that the write-before-read refinement can inspect its body. */
  region: LoopBlock | null;
  /** The SDFG whose control flow holds the loop. */
  sdfg: Sdfg;
  /** Cycles with a single entry block (natural loops): their graph, blocks and entry (header). */
  cycle: CycleShape | null;
  /**
   * Whether the steps in [first, last] are exactly the steps of the loop's blocks. LoopRegions always are; a
   * state-machine cycle is when reverse post-order happens to lay its blocks out together. Only such cycles
   * can be refined (docs/liveness.md §3.2).
   */
  contiguous: boolean;
}

interface CycleShape {
  graph: Graph;
  /** Block indices of the cycle in `graph`. */
  members: ReadonlySet<number>;
  /** The only block entered from outside the cycle: every iteration starts here. */
  header: number;
}

export interface ProgramOrder {
  steps: Step[];
  places: Map<StateBlock, StatePlace>;
  codeUses: CodeUse[];
  loops: LoopSpan[];
  /** Invocations per call of each SDFG (root: 1). */
  invocations: Map<Sdfg, bigint | null>;
}

interface Span {
  first: number;
  last: number;
}

export type Graph = { blocks: ControlFlowBlock[]; edges: InterstateEdge[]; start: number | null };

const mul = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a * b);

export function linearize(file: SdfgFile, counter: ExecutionCounter): ProgramOrder {
  const order: ProgramOrder = { steps: [], places: new Map(), codeUses: [], loops: [], invocations: new Map() };
  const steps = order.steps;

  const addCode = (sdfg: Sdfg, code: string | null, first: number, last: number, edge: InterstateEdge | null): void => {
    if (code === null) return;
    const trimmed = code.trim();
    if (!trimmed || trimmed === '1' || trimmed === 'True' || trimmed === '(1)') return;
    order.codeUses.push({ sdfg, code: trimmed, first, last, interstate: edge !== null, edge });
  };

  const linearizeSdfg = (sdfg: Sdfg, path: string[], invocations: bigint | null): Span => {
    order.invocations.set(sdfg, invocations);
    return linearizeGraph(sdfg.body, sdfg, path, invocations);
  };

  const linearizeBlock = (b: ControlFlowBlock, sdfg: Sdfg, path: string[], mult: bigint | null): Span => {
    switch (b.kind) {
      case 'state': {
        const step = steps.length;
        steps.push({ index: step, label: [...path, b.label].join('/'), sdfg: sdfg.sdfgIndex, jsonPath: b.jsonPath });
        const { calls, ordered } = nestedCallOrder(b);
        const place: StatePlace = { state: b, sdfg, step, spanEnd: step, executions: mult, calls: new Map(), callsOrdered: ordered };
        order.places.set(b, place);
        for (const n of calls) {
          if (!n.sdfg) continue;
          const invocations = mul(mult, counter.scopeIterations(sdfg, b, n.scopeEntry));
          place.calls.set(n, linearizeSdfg(n.sdfg, [...path, b.label, n.sdfg.name], invocations));
        }
        place.spanEnd = steps.length - 1;
        return { first: step, last: place.spanEnd };
      }
      case 'region':
        return linearizeGraph(b, sdfg, [...path, b.label], mult);
      case 'loop': {
        const span = linearizeLoop(b, sdfg, path, mult);
        return span;
      }
      case 'conditional': {
        const first = steps.length;
        for (const br of b.branches) linearizeGraph(br.body, sdfg, [...path, b.label, br.body.label], mult);
        const span = { first, last: steps.length - 1 };
        for (const br of b.branches) addCode(sdfg, br.condition, anchorStart(span), anchorEnd(span), null);
        return span;
      }
      default:
        return { first: steps.length, last: steps.length - 1 };
    }
  };

  const linearizeLoop = (b: LoopBlock, sdfg: Sdfg, path: string[], mult: bigint | null): Span => {
    const trips = counter.loopTrips(b, sdfg);
    const span = linearizeGraph(b, sdfg, [...path, b.label], mul(mult, trips));
    if (span.last >= span.first) {
      order.loops.push({
        first: span.first,
        last: span.last,
        label: [...path, b.label].join('/'),
        kind: 'loop-region',
        region: b,
        sdfg,
        cycle: null,
        contiguous: true,
      });
    }
    for (const code of [b.init, b.condition, b.update]) addCode(sdfg, code, anchorStart(span), anchorEnd(span), null);
    return span;
  };

  /**
   * Records a cycle (strongly connected blocks of one region) as a loop. A cycle with a single entry block is
   * a natural loop: the cycles inside it (strongly connected parts of its blocks without the entry) are
   * recorded too, recursively, so that a refinement of the outer cycle still widens over the inner ones.
   */
  const recordCycle = (g: Graph, members: number[], spans: Span[], sdfg: Sdfg, path: string[]): void => {
    let lo = Infinity;
    let hi = -Infinity;
    let covered = 0;
    for (const m of members) {
      const s = spans[m]!;
      if (s.last >= s.first) {
        lo = Math.min(lo, s.first);
        hi = Math.max(hi, s.last);
        covered += s.last - s.first + 1;
      }
    }
    if (lo > hi) return;
    const set = new Set(members);
    const entries = new Set<number>();
    if (g.start !== null && set.has(g.start)) entries.add(g.start);
    for (const e of g.edges) if (!set.has(e.src) && set.has(e.dst)) entries.add(e.dst);
    const header = entries.size === 1 ? [...entries][0]! : null;
    const loop: LoopSpan = {
      first: lo,
      last: hi,
      label: [...path, `cycle@${g.blocks[header ?? members[0]!]!.label}`].join('/'),
      kind: 'cycle',
      region: null,
      sdfg,
      cycle: header === null ? null : { graph: g, members: set, header },
      contiguous: covered === hi - lo + 1,
    };
    order.loops.push(loop);
    if (header !== null)
      for (const inner of stronglyConnected(
        g,
        members.filter((m) => m !== header),
      ).cycles)
        recordCycle(g, inner, spans, sdfg, path);
  };

  const linearizeGraph = (g: Graph, sdfg: Sdfg, path: string[], mult: bigint | null): Span => {
    const first = steps.length;
    const cyclic = stronglyConnected(g);
    const spans = new Array<Span>(g.blocks.length);
    for (const idx of blockOrder(g)) {
      // Blocks of a state-machine cycle run an unknown number of times.
      spans[idx] = linearizeBlock(g.blocks[idx]!, sdfg, path, cyclic.component[idx]! >= 0 ? null : mult);
    }
    for (const members of cyclic.cycles) recordCycle(g, members, spans, sdfg, path);
    for (const e of g.edges) {
      const src = spans[e.src];
      const dst = spans[e.dst];
      if (!src || !dst) continue;
      const codes = [e.condition, ...e.assignments.map(([, rhs]) => rhs)];
      for (const code of codes) {
        addCode(sdfg, code, anchorEnd(src), anchorEnd(src), e);
        addCode(sdfg, code, anchorStart(dst), anchorStart(dst), e);
      }
    }
    return { first, last: steps.length - 1 };
  };

  linearizeSdfg(file.root, [file.root.name], 1n);
  // Anchors of empty spans may point one past the end; keep every attributed step inside the program.
  const lastStep = Math.max(0, steps.length - 1);
  for (const use of order.codeUses) {
    use.first = Math.min(Math.max(use.first, 0), lastStep);
    use.last = Math.min(Math.max(use.last, use.first), lastStep);
  }
  return order;
}

/** The step where a span's control flow enters (the next step when the span is empty). */
const anchorStart = (s: Span): number => s.first;
/** The step where a span's control flow leaves (the previous step when the span is empty). */
const anchorEnd = (s: Span): number => (s.last >= s.first ? s.last : s.first - 1);

/** Reverse post-order from the start block, then unreachable blocks in file order. */
function blockOrder(g: Graph): number[] {
  const n = g.blocks.length;
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (const e of g.edges) if (e.src >= 0 && e.src < n && e.dst >= 0 && e.dst < n) succ[e.src]!.push(e.dst);
  // Successors are explored last-edge-first so that, after reversal, the first out-edge's target comes
  // first: a guard's loop body then precedes its exit, as in the source program.
  for (const list of succ) list.reverse();
  const visited = new Uint8Array(n);
  const out: number[] = [];
  const dfsFrom = (root: number): void => {
    const post: number[] = [];
    const stack: Array<[number, number]> = [[root, 0]];
    visited[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const next = succ[top[0]]![top[1]++];
      if (next === undefined) {
        post.push(top[0]);
        stack.pop();
      } else if (!visited[next]) {
        visited[next] = 1;
        stack.push([next, 0]);
      }
    }
    for (let i = post.length - 1; i >= 0; i--) out.push(post[i]!);
  };
  if (g.start !== null && g.start >= 0 && g.start < n) dfsFrom(g.start);
  for (let i = 0; i < n; i++) if (!visited[i]) dfsFrom(i);
  return out;
}

/**
 * Tarjan's SCCs; `component[i]` is the cycle index of block i, or -1 when i is on no cycle. With `only`, the
 * subgraph induced by those blocks (other blocks and their edges are left out).
 */
function stronglyConnected(g: Graph, only?: number[]): { component: number[]; cycles: number[][] } {
  const n = g.blocks.length;
  const succ: number[][] = Array.from({ length: n }, () => []);
  const selfLoop = new Uint8Array(n);
  const inside = only ? new Uint8Array(n) : null;
  if (inside) for (const i of only!) if (i >= 0 && i < n) inside[i] = 1;
  for (const e of g.edges) {
    if (e.src < 0 || e.src >= n || e.dst < 0 || e.dst >= n) continue;
    if (inside && (!inside[e.src] || !inside[e.dst])) continue;
    succ[e.src]!.push(e.dst);
    if (e.src === e.dst) selfLoop[e.src] = 1;
  }
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const component = new Array<number>(n).fill(-1);
  const cycles: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1 || (inside && !inside[root])) continue;
    const work: Array<[number, number]> = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const frame = work[work.length - 1]!;
      const v = frame[0];
      const w = succ[v]![frame[1]++];
      if (w !== undefined) {
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const members: number[] = [];
        let x: number;
        do {
          x = stack.pop()!;
          onStack[x] = 0;
          members.push(x);
        } while (x !== v);
        if (members.length > 1 || selfLoop[v]) {
          for (const m of members) component[m] = cycles.length;
          cycles.push(members.sort((a, b) => a - b));
        }
      }
    }
  }
  return { component, cycles };
}
