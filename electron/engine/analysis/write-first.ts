/**
 * The write-before-read refinement of loop widening (docs/liveness.md §3.1–3.3).
 *
 * A loop need not widen a container's range when every iteration completely overwrites the container before
 * it can read it: no value then survives from one iteration into the next, so the bytes are free between the
 * last use of one iteration and the overwrite at the start of the next. Loops are LoopRegions and, under
 * stricter conditions (§3.2), cycles of state machines. The overwrite may also be the first iteration of an
 * inner LoopRegion that certainly runs (§3.3). Everything here is a proof obligation: whenever a fact cannot be
 * established (unknown symbol, unusual memlet path, a node kind whose reads are not visible in the state),
 * the answer is "not write-first" and the loop keeps widening.
 */
import type { ControlFlowBlock, DataDescriptor, LoopBlock, NestedSdfgNode, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AccessSite } from './accesses.js';
import type { ExecutionCounter } from './executions.js';
import type { Graph, LoopSpan, ProgramOrder } from './linearize.js';
import { FullOverwrite } from './overwrite.js';
import type { SymbolContext } from './symbols.js';

export interface WriteFirstOptions {
  /** Refine state-machine cycles (§3.2). */
  cycles: boolean;
  /** Accept the first iteration of an inner LoopRegion that certainly runs as the overwrite (§3.3). */
  innerLoops: boolean;
  /** Accept a nested SDFG that overwrites its whole output connector first as a full write (§3.4). */
  callees: boolean;
}

export class WriteFirstLoops {
  private readonly spanOfRegion = new Map<LoopBlock, LoopSpan>();
  private readonly enclosing = new Map<Sdfg, Map<StateBlock, LoopBlock[]>>();
  private readonly cyclesOf = new Map<Sdfg, LoopSpan[]>();
  private readonly overwrite: FullOverwrite;
  /** isWriteFirst answers per loop and container name (inner loops are asked again by every outer level). */
  private readonly memo = new Map<LoopBlock, Map<string, boolean>>();
  private readonly calleeMemo = new Map<Sdfg, Map<string, boolean>>();
  private readonly effects = new WeakMap<StateBlock, Map<string, 'full' | 'write' | 'read'>>();

  constructor(
    order: ProgramOrder,
    private readonly symbols: SymbolContext,
    /** Values given by the caller: usable without side effects on the symbol report. */
    userSymbols: ReadonlyMap<string, bigint>,
    private readonly counter: ExecutionCounter,
    private readonly options: WriteFirstOptions = { cycles: true, innerLoops: true, callees: true },
  ) {
    this.overwrite = new FullOverwrite(
      symbols,
      userSymbols,
      options.callees ? (call, connector, desc) => this.calleeOverwrites(call, connector, desc) : undefined,
    );
    for (const span of order.loops) {
      if (span.region) this.spanOfRegion.set(span.region, span);
      else if (span.cycle && span.contiguous) {
        const list = this.cyclesOf.get(span.sdfg);
        if (list) list.push(span);
        else this.cyclesOf.set(span.sdfg, [span]);
      }
    }
  }

  /** What `state`'s own dataflow does to `name` (overwrite.ts `effect`), with callees that overwrite first (§3.4). */
  stateEffect(state: StateBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): 'full' | 'write' | 'read' {
    let table = this.effects.get(state);
    if (!table) this.effects.set(state, (table = new Map<string, 'full' | 'write' | 'read'>()));
    let hit = table.get(name);
    if (!hit) table.set(name, (hit = this.overwrite.effect(state, sdfg, name, desc)));
    return hit;
  }

  /** A symbolic field's value for the analysed symbols, without asking for new ones; null when unknown. */
  fieldValue(sdfg: Sdfg, src: string): bigint | null {
    return this.overwrite.fieldValue(sdfg, src);
  }

  /**
   * The loops of `sdfg` over which `name` need not be widened. Loops of outer SDFGs around a nested SDFG call
   * are never in the set (liveness.ts handles them). `within` is the hull of every step where the container's
   * bytes are used, through any name (null when unknown): a cycle is only refined when it holds all of them,
   * because leaving a cycle runs its entry block again, whose step lies before the uses (§3.2).
   */
  loopsWithoutWidening(
    sdfg: Sdfg,
    name: string,
    desc: DataDescriptor,
    sites: AccessSite[],
    within: { first: number; last: number } | null,
  ): Set<LoopSpan> {
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
    if (this.options.cycles && within) {
      for (const span of this.cyclesOf.get(sdfg) ?? []) {
        if (span.first <= within.first && within.last <= span.last && this.isWriteFirstCycle(span, sdfg, name, desc)) out.add(span);
      }
    }
    return out;
  }

  private enclosingLoops(sdfg: Sdfg): Map<StateBlock, LoopBlock[]> {
    let table = this.enclosing.get(sdfg);
    if (table) return table;
    table = new Map();
    const visit = (blocks: ControlFlowBlock[], around: LoopBlock[]): void => {
      for (const b of blocks) {
        if (b.kind === 'state') table.set(b, around);
        else if (b.kind === 'region') visit(b.blocks, around);
        else if (b.kind === 'loop') visit(b.blocks, [...around, b]);
        else if (b.kind === 'conditional') for (const br of b.branches) visit(br.body.blocks, around);
      }
    };
    visit(sdfg.body.blocks, []);
    this.enclosing.set(sdfg, table);
    return table;
  }

  /** Rule of docs/liveness.md §3.1 for one LoopRegion and one container. */
  private isWriteFirst(loop: LoopBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    let table = this.memo.get(loop);
    if (!table) this.memo.set(loop, (table = new Map<string, boolean>()));
    const hit = table.get(name);
    if (hit !== undefined) return hit;
    table.set(name, false); // malformed self-nesting cannot recurse forever
    // The loop statements run between iterations: a read there sees the previous iteration's value.
    let result = ![loop.init, loop.condition, loop.update].some((code) => code !== null && this.codeReads(code, name));
    result &&= loop.start !== null && this.entryChainOverwrites(loop, loop.start, null, sdfg, name, desc);
    table.set(name, result);
    return result;
  }

  /**
   * §3.2: a natural loop of a state machine (one entry block, its blocks contiguous in step order) is
   * write-first when the chain from its entry reaches a full overwrite before anything else touches the
   * container. Edges that leave the cycle may branch off the chain: the container is not used outside it.
   */
  private isWriteFirstCycle(span: LoopSpan, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    const cycle = span.cycle!;
    return this.entryChainOverwrites(cycle.graph, cycle.header, cycle.members, sdfg, name, desc);
  }

  /**
   * Follows the entry chain of one iteration from `start` (rule 3): blocks that do not touch the container
   * and cannot end the iteration early, each with exactly one edge that stays in the loop (`members`; null =
   * the LoopRegion body, where that edge must be the only one and unconditional), until the first block that
   * touches the container. That block must overwrite all of it without reading it: a state (rules 4–6), or,
   * with innerLoops, an inner LoopRegion that runs at least once and is itself write-first (§3.3).
   */
  private entryChainOverwrites(
    graph: Graph,
    start: number,
    members: ReadonlySet<number> | null,
    sdfg: Sdfg,
    name: string,
    desc: DataDescriptor,
  ): boolean {
    const visited = new Set<number>();
    let idx: number = start;
    while (!visited.has(idx)) {
      visited.add(idx);
      const block = graph.blocks[idx];
      if (!block) return false;
      const touches = this.touchesInBlock(block, name);
      if (block.kind === 'state' && touches) return this.overwrite.fullyOverwritten(block, sdfg, name, desc);
      if (block.kind === 'loop' && touches && this.options.innerLoops) return this.firstIterationOverwrites(block, sdfg, name, desc);
      // A block before the overwrite must neither use the container nor be able to end the iteration early
      // (the bytes may be clobbered there, and an early exit would skip the overwrite).
      if (block.kind !== 'state' && (touches || mayLeaveIteration(block, false))) return false;
      const out = graph.edges.filter((e) => e.src === idx);
      const stay = members ? out.filter((e) => members.has(e.dst)) : out;
      if (stay.length !== 1) return false;
      const e = stay[0]!;
      // In a LoopRegion body a false condition with no other edge ends the body: an early end of the iteration.
      // In a cycle the other edges leave the loop, after which the container is not used any more.
      if (!members && !isTriviallyTrue(e.condition)) return false;
      if (this.codeReads(e.condition, name) || e.assignments.some(([, rhs]) => this.codeReads(rhs, name))) return false;
      idx = e.dst;
    }
    return false;
  }

  /**
   * §3.4: one invocation of a nested SDFG is one pass through its body: it overwrites `connector` before any
   * read when the entry chain of its top-level control flow reaches a full overwrite first.
   */
  private calleeOverwrites(call: NestedSdfgNode, connector: string, desc: DataDescriptor): boolean {
    const callee = call.sdfg!;
    if (desc.type !== 'Array' && desc.type !== 'Scalar') return false;
    if (desc.offset.some((o) => o.trim() !== '0')) return false;
    let table = this.calleeMemo.get(callee);
    if (!table) this.calleeMemo.set(callee, (table = new Map<string, boolean>()));
    const hit = table.get(connector);
    if (hit !== undefined) return hit;
    table.set(connector, false);
    const body = callee.body;
    const result = body.start !== null && this.entryChainOverwrites(body, body.start, null, callee, connector, desc);
    table.set(connector, result);
    return result;
  }

  /**
   * §3.3: an inner LoopRegion overwrites the container before any read when its own iterations are
   * write-first and it runs at least once for the analysed symbol values (a zero-trip loop writes nothing;
   * a data-dependent or uncountable one proves nothing).
   */
  private firstIterationOverwrites(inner: LoopBlock, sdfg: Sdfg, name: string, desc: DataDescriptor): boolean {
    if (containsReturn(inner)) return false;
    const trips = this.counter.loopTrips(inner, sdfg);
    if (trips === null || trips < 1n) return false;
    return this.isWriteFirst(inner, sdfg, name, desc);
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
    const hit = this.touchedNames.get(block);
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

function containsReturn(block: ControlFlowBlock): boolean {
  switch (block.kind) {
    case 'return':
      return true;
    case 'region':
    case 'loop':
      return block.blocks.some(containsReturn);
    case 'conditional':
      return block.branches.some((br) => containsReturn(br.body));
    default:
      return false;
  }
}

function isTriviallyTrue(condition: string): boolean {
  const c = condition.trim();
  return c === '' || c === '1' || c === 'True' || c === '(1)' || c === '(True)';
}
