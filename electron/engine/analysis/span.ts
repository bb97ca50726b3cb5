/**
 * Where a transient is allocated when its size depends on symbols its own SDFG assigns (interstate
 * assignments, loop variables and loop statements): such a size has no value at the start of the SDFG.
 *
 * DaCe's rule (framecode.py, determine_allocation_lifetime, `is_nonfree_sym_dependent`): allocate in the
 * first state that uses the transient and free in the last one; when some use is not reachable from the
 * first, use the common dominator and post-dominator of the uses. Our control flow is a tree of regions
 * (the SDFG body, ControlFlowRegions, loop bodies, branches), so the rule applies in the innermost region
 * that contains every use: the allocation goes right before the block that dominates every block holding a
 * use, the free right after the block that post-dominates them (or at the end of the region when only the
 * region's end does). Allocating there sizes the buffer with the symbols' values at that point, after the
 * assignments that lead into it.
 *
 * A span is refused (with the reason, which becomes a finding) when one allocation point cannot be right:
 * a symbol of the size is assigned again between the allocation and a use, a cycle re-enters the
 * allocation before the free (or the free before the allocation), or a break/continue/return leaves the
 * span between them.
 */
import type { ControlFlowBlock, InterstateEdge, RegionBlock, Sdfg } from '../model/sdfg.js';
import { parsePythonStatements, statementNames } from '../symbolic/index.js';

/** A region's graph: the SDFG body, a region block, a loop body (the LoopBlock itself) or a branch body. */
type Region = Pick<RegionBlock, 'blocks' | 'edges' | 'start' | 'jsonPath' | 'label'>;

interface BlockSpan {
  region: Region;
  /** Allocation right before this block runs (after the interstate assignments that lead into it). */
  first: ControlFlowBlock;
  /** Free right after this block; null: at the end of the region. */
  last: ControlFlowBlock | null;
  /** Whether `first` is part of a cycle of its region (its executions per call are then unknown). */
  firstInCycle: boolean;
}

export type SpanResult = { span: BlockSpan } | { problem: string };

interface Place {
  region: Region;
  index: number;
}

interface Tree {
  /** Where each block sits. */
  place: Map<ControlFlowBlock, Place>;
  /** The block that owns a region (a LoopBlock or region block is its own region; a branch body's owner is
   * the ConditionalBlock); absent for the SDFG body. */
  owner: Map<Region, ControlFlowBlock>;
}

const trees = new WeakMap<Sdfg, Tree>();

function treeOf(sdfg: Sdfg): Tree {
  let t = trees.get(sdfg);
  if (t) return t;
  t = { place: new Map(), owner: new Map() };
  const tree = t;
  const visit = (region: Region): void => {
    region.blocks.forEach((b, index) => {
      tree.place.set(b, { region, index });
      if (b.kind === 'region' || b.kind === 'loop') {
        tree.owner.set(b, b);
        visit(b);
      } else if (b.kind === 'conditional') {
        for (const br of b.branches) {
          tree.owner.set(br.body, b);
          visit(br.body);
        }
      }
    });
  };
  visit(sdfg.body);
  trees.set(sdfg, t);
  return t;
}

/** The chain of places from the SDFG body down to `block`. */
function chainOf(tree: Tree, block: ControlFlowBlock): Place[] {
  const chain: Place[] = [];
  let cur: ControlFlowBlock | undefined = block;
  for (let guard = 0; cur && guard < 100_000; guard++) {
    const p = tree.place.get(cur);
    if (!p) break;
    chain.push(p);
    cur = tree.owner.get(p.region);
  }
  return chain.reverse();
}

function identifiers(code: string | null): Set<string> {
  return new Set(code?.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
}

const assignedCache = new WeakMap<Sdfg, ReadonlySet<string>>();

/** Symbols an SDFG assigns in its control flow: interstate assignments, loop variables and loop statements. */
function assignedSymbols(sdfg: Sdfg): ReadonlySet<string> {
  const hit = assignedCache.get(sdfg);
  if (hit) return hit;
  const out = new Set<string>();
  const visit = (region: Region): void => {
    for (const e of region.edges) for (const [k] of e.assignments) out.add(k);
    for (const b of region.blocks) for (const s of assignedBy(b)) out.add(s);
  };
  visit(sdfg.body);
  assignedCache.set(sdfg, out);
  return out;
}

/** Symbols a block assigns when it runs (everything inside it, for compound blocks). */
function assignedBy(b: ControlFlowBlock): Set<string> {
  const out = new Set<string>();
  if (b.kind === 'loop') {
    if (b.loopVariable) out.add(b.loopVariable);
    for (const st of [b.init, b.update]) {
      if (!st) continue;
      try {
        statementNames(parsePythonStatements(st), new Set(), out);
      } catch {
        // Unparseable statements are the subset check's to report; count every name they mention.
        for (const n of identifiers(st)) out.add(n);
      }
    }
  }
  if (b.kind === 'loop' || b.kind === 'region') {
    for (const e of b.edges) for (const [k] of e.assignments) out.add(k);
    for (const inner of b.blocks) for (const s of assignedBy(inner)) out.add(s);
  }
  if (b.kind === 'conditional') for (const br of b.branches) for (const s of assignedBy(br.body)) out.add(s);
  return out;
}

/** A jump inside `b` that leaves `b` (return, or break/continue not enclosed by a loop inside `b`). */
function leavingJump(b: ControlFlowBlock, inLoop: boolean): ControlFlowBlock | null {
  if (b.kind === 'return' || ((b.kind === 'break' || b.kind === 'continue') && !inLoop)) return b;
  const inner =
    b.kind === 'region' || b.kind === 'loop' ? b.blocks : b.kind === 'conditional' ? b.branches.flatMap((br) => br.body.blocks) : [];
  for (const x of inner) {
    const j = leavingJump(x, inLoop || b.kind === 'loop');
    if (j) return j;
  }
  return null;
}

/** Blocks of `sdfg` that use container `name`: states with an access node, and blocks whose code reads it. */
function usesOf(sdfg: Sdfg, name: string, tree: Tree): ControlFlowBlock[] {
  const uses: ControlFlowBlock[] = [];
  const readsEdge = (e: InterstateEdge) => identifiers(e.condition).has(name) || e.assignments.some(([, v]) => identifiers(v).has(name));
  for (const [b, p] of tree.place) {
    if (b.kind === 'state' && b.nodes.some((n) => n.kind === 'access' && n.data === name)) uses.push(b);
    if (b.kind === 'loop' && [b.init, b.condition, b.update].some((c) => identifiers(c).has(name))) uses.push(b);
    if (b.kind === 'conditional' && b.branches.some((br) => identifiers(br.condition).has(name))) uses.push(b);
    for (const e of p.region.edges) {
      if (e.src === p.index && readsEdge(e)) uses.push(b, p.region.blocks[e.dst]!);
    }
  }
  for (const e of sdfg.body.edges) if (readsEdge(e)) uses.push(sdfg.body.blocks[e.src]!, sdfg.body.blocks[e.dst]!);
  return [...new Set(uses)];
}

/**
 * The allocation span of transient `name` of `sdfg` whose size uses the symbols `sizeSymbols`; null when
 * none of them is assigned inside `sdfg` (the size is known at the SDFG's start) or nothing uses it.
 */
export function allocationSpan(sdfg: Sdfg, name: string, sizeSymbols: Iterable<string>): SpanResult | null {
  const assigned = assignedSymbols(sdfg);
  const nonfree = [...sizeSymbols].filter((s) => assigned.has(s));
  if (!nonfree.length) return null;
  const tree = treeOf(sdfg);
  const chains = usesOf(sdfg, name, tree)
    .map((b) => chainOf(tree, b))
    .filter((c) => c.length > 0);
  if (!chains.length) return null;

  // The innermost region every use is inside of.
  let depth = 0;
  for (;;) {
    const next = depth + 1;
    const region = chains[0]![next]?.region;
    if (!region || !chains.every((c) => c[next]?.region === region)) break;
    depth = next;
  }
  const region = chains[0]![depth]!.region;
  const anchors = [...new Set(chains.map((c) => c[depth]!.index))];
  const what = `'${name}' (its size uses ${nonfree.map((s) => `'${s}'`).join(', ')}, assigned inside SDFG '${sdfg.name}')`;

  const g = regionGraph(region);
  const reachable = g.reachableFrom(region.start);
  const live = anchors.filter((a) => reachable.has(a));
  if (!live.length) return { problem: `${what}: no use of it is reachable from the start of region '${region.label}'` };
  const first = g.commonDominator(live);
  const lastIndex = g.commonPostDominator(live);
  if (first === null) return { problem: `${what}: no block of region '${region.label}' runs before every use` };
  // Blocks between the allocation and the free (inclusive), and whether the free is the region's end.
  const between = [...g.reachableFrom(first)].filter((b) => lastIndex === null || b === lastIndex || g.reachableFrom(b).has(lastIndex));
  const span = new Set(between);
  for (const b of span) {
    const jump = leavingJump(region.blocks[b]!, false);
    if (jump)
      return {
        problem: `${what}: the ${jump.kind} block '${jump.label}' leaves region '${region.label}' between its allocation and its free`,
      };
  }
  if (g.reachableAvoiding(first, lastIndex).has(first)) {
    return { problem: `${what}: a cycle of region '${region.label}' reaches block '${region.blocks[first]!.label}' again before the free` };
  }
  if (lastIndex !== null && g.reachableAvoiding(lastIndex, first).has(lastIndex)) {
    return { problem: `${what}: a cycle of region '${region.label}' runs block '${region.blocks[lastIndex]!.label}' again after the free` };
  }
  for (const s of nonfree) {
    const redefined = region.edges.find(
      (e) => span.has(e.src) && e.src !== lastIndex && span.has(e.dst) && e.assignments.some(([k]) => k === s),
    );
    const inside = [...span].find((b) => assignedBy(region.blocks[b]!).has(s));
    if (redefined || inside !== undefined) {
      const where = redefined ? `on the interstate edge ${redefined.jsonPath}` : `inside block '${region.blocks[inside!]!.label}'`;
      return {
        problem: `${what}: '${s}' is assigned again ${where}, between the buffer's allocation and its last use, so no single size fits`,
      };
    }
  }
  return {
    span: {
      region,
      first: region.blocks[first]!,
      last: lastIndex === null ? null : region.blocks[lastIndex]!,
      firstInCycle: g.reachableAvoiding(first, null).has(first),
    },
  };
}

/** Reachability, dominators and post-dominators over one region's blocks (small graphs: plain sets). */
function regionGraph(region: Region) {
  const n = region.blocks.length;
  const succ: Array<Set<number>> = Array.from({ length: n }, () => new Set());
  const pred: Array<Set<number>> = Array.from({ length: n }, () => new Set());
  for (const e of region.edges) {
    if (e.src < 0 || e.src >= n || e.dst < 0 || e.dst >= n) continue;
    succ[e.src]!.add(e.dst);
    pred[e.dst]!.add(e.src);
  }
  /** Blocks reachable from `from` without stepping on `avoid`; `from` itself only when `includeSelf` or
   * when a cycle leads back to it. */
  const reach = (from: number | null, avoid: number | null, includeSelf: boolean): Set<number> => {
    const seen = new Set<number>();
    if (from === null) return seen;
    const stack: number[] = [];
    const push = (b: number) => {
      if (b === avoid || seen.has(b)) return;
      seen.add(b);
      stack.push(b);
    };
    if (includeSelf) push(from);
    else succ[from]!.forEach(push);
    while (stack.length) succ[stack.pop()!]!.forEach(push);
    return seen;
  };
  const start = region.start;
  const nodes = [...reach(start, null, true)];
  // Dominators from the start; post-dominators towards a virtual exit (-1) that every block without a
  // successor (and every jump block) leads to.
  const dom = solve(nodes, (b) => [...pred[b]!].filter((p) => nodes.includes(p)), start === null ? [] : [start]);
  const pdom = solve([...nodes, -1], (b) => (b === -1 ? [] : succ[b]!.size ? [...succ[b]!] : [-1]), [-1]);
  return {
    reachableFrom: (b: number | null) => reach(b, null, true),
    /** Blocks reachable from `b`'s successors without passing `avoid` (includes `b` itself only via a cycle). */
    reachableAvoiding: (b: number, avoid: number | null) => reach(b, avoid, false),
    commonDominator(blocks: number[]): number | null {
      const common = intersect(blocks.map((b) => dom.get(b) ?? new Set<number>()));
      // The nearest: the common dominator that every other common dominator dominates.
      return [...common].find((c) => [...common].every((o) => dom.get(c)?.has(o))) ?? null;
    },
    commonPostDominator(blocks: number[]): number | null {
      const common = intersect(blocks.map((b) => pdom.get(b) ?? new Set<number>()));
      common.delete(-1);
      return [...common].find((c) => [...common].every((o) => pdom.get(c)?.has(o))) ?? null;
    },
  };
}

/** Iterative (post-)dominator sets: D(entry) = {entry}; D(b) = {b} ∪ ⋂ D(p) over the flow predecessors p. */
function solve(nodes: number[], preds: (b: number) => number[], entries: number[]): Map<number, Set<number>> {
  const all = new Set(nodes);
  const d = new Map<number, Set<number>>(nodes.map((b) => [b, entries.includes(b) ? new Set([b]) : new Set(all)]));
  for (let changed = true, guard = 0; changed && guard < 10_000; guard++) {
    changed = false;
    for (const b of nodes) {
      if (entries.includes(b)) continue;
      const ps = preds(b).filter((p) => all.has(p));
      const next = ps.length ? intersect(ps.map((p) => d.get(p)!)) : new Set<number>();
      next.add(b);
      if (next.size !== d.get(b)!.size) {
        d.set(b, next);
        changed = true;
      }
    }
  }
  return d;
}

function intersect(sets: Array<Set<number>>): Set<number> {
  if (!sets.length) return new Set();
  const [head, ...rest] = sets;
  return new Set([...head!].filter((x) => rest.every((s) => s.has(x))));
}

/**
 * Executions per call of a block, with linearize's conventions: a block in a cycle of its region runs an
 * unknown number of times, a loop body runs the loop's trip count times per loop execution, and a branch
 * body counts as often as its ConditionalBlock.
 */
export function blockExecutions(
  sdfg: Sdfg,
  block: ControlFlowBlock,
  invocations: bigint | null,
  loopTrips: (loop: ControlFlowBlock & { kind: 'loop' }) => bigint | null,
): bigint | null {
  const tree = treeOf(sdfg);
  let count: bigint | null = invocations;
  for (const { region, index } of chainOf(tree, block)) {
    if (count === null) return null;
    const owner = tree.owner.get(region);
    if (owner?.kind === 'loop') {
      const trips = loopTrips(owner);
      count = trips === null ? null : count * trips;
    }
    if (count !== null && regionGraph(region).reachableAvoiding(index, null).has(index)) count = null;
  }
  return count;
}
