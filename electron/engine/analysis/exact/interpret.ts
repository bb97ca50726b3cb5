/**
 * The reference for live ranges (docs/liveness.md §8): runs a program's control flow for concrete symbol
 * values and records, element by element, which transient values are written and read at which dynamic
 * program point. It shares nothing with the static analysis it checks (linearize, liveness, write-first,
 * overwrite): no loop spans, no overwrite proofs, no connector rules — loops are unrolled by running them,
 * and a value's life is what the run shows.
 *
 * One call of the program is run, starting with no values: what a Persistent transient keeps for the next
 * call is outside the model, as it is outside the static live ranges. A dynamic point is one execution of a
 * state (everything a state's own dataflow does happens at once, the granularity of the static steps). A
 * nested SDFG's states are points of their own, between the point of the state that calls it and a point for
 * the rest of that state's dataflow.
 *
 * Element semantics: a tasklet reads every element its input memlets name and writes every element its output
 * memlets name; a write is *definite* when it names one element and has no WCR and is not dynamic — anything
 * else (a pointer connector, WCR, dynamic) may leave old values in place or read them, so it counts as a read
 * followed by a write. Copies between AccessNodes read their source box and write their destination box.
 * Nested SDFGs see their arguments' elements through the pointer the memlet hands them (the box's first
 * element, the connector's own strides). Data-dependent control flow, library nodes, consume scopes, views,
 * references and structures are refused (the answer would be a guess).
 */
import type {
  ControlFlowBlock,
  DataDescriptor,
  DataflowNode,
  LoopBlock,
  MemletEdge,
  NestedSdfgNode,
  RegionBlock,
  Sdfg,
  SdfgFile,
  StateBlock,
  Subset,
} from '../../model/sdfg.js';
import { freeSymbols } from '../../symbolic/index.js';
import { Instance, Values, flat, forEachIndex } from './values.js';

export interface TraceOptions {
  /** Values of the root SDFG's free symbols. */
  symbols: ReadonlyMap<string, bigint>;
  /** Static step of each state, by its JSON path (the analysis' `steps`). */
  stepOf: ReadonlyMap<string, number>;
  /** Refuse runs longer than this many dynamic points (default 200 000). */
  maxPoints?: number;
  /** Refuse runs that touch more elements than this (default 20 000 000). */
  maxElementOps?: number;
}

export interface Trace {
  /** Static step of each dynamic point, in execution order. */
  steps: number[];
  /**
   * Per transient id (`sdfgIndex:name`): the dynamic points where it holds a value that is still read, as
   * inclusive [from, to] intervals (unsorted, may overlap): every write, and every write → read of an element.
   */
  live: Map<string, Array<[number, number]>>;
  /** Element accesses the run recorded (a size for the refusal limit). */
  elementOps: number;
}

/** Allocated afresh by every invocation of their SDFG: a read before a write in it reads nothing. */
const PER_INVOCATION = new Set(['Scope', 'State', 'SDFG']);

/** How a name of one SDFG reaches a tracked transient's elements. */
interface Binding {
  inst: Instance;
  base: number;
  /** Strides of the name, evaluated when it is used (a size may use a symbol assigned later). */
  strides: string[];
  /** The frame the strides are evaluated in. */
  frame: Frame;
  /** The transient's own binding (itself, or the caller's binding an argument leads to). */
  owner: { frame: Frame; size: string };
}

interface Frame {
  sdfg: Sdfg;
  env: Map<string, bigint>;
  bindings: Map<string, Binding>;
  /** Symbols assigned from data: their values are unknown, and control flow that uses them is refused. */
  opaque: Set<string>;
}

type Jump = 'break' | 'continue' | 'return' | null;

export function interpret(file: SdfgFile, opts: TraceOptions): Trace {
  return new Interpreter(file, opts).run();
}

class Interpreter {
  private readonly steps: number[] = [];
  private readonly instances = new Map<string, Instance>();
  private readonly values: Values;
  private readonly maxPoints: number;
  private readonly maxOps: number;
  private ops = 0;

  constructor(
    private readonly file: SdfgFile,
    private readonly opts: TraceOptions,
  ) {
    this.values = new Values(file);
    this.maxPoints = opts.maxPoints ?? 200_000;
    this.maxOps = opts.maxElementOps ?? 20_000_000;
  }

  run(): Trace {
    const root = this.file.root;
    const frame: Frame = { sdfg: root, env: new Map(this.opts.symbols), bindings: new Map(), opaque: new Set() };
    this.bindTransients(frame);
    this.runRegion(frame, root.body);
    const live = new Map<string, Array<[number, number]>>();
    for (const inst of this.instances.values()) {
      const out: Array<[number, number]> = [];
      for (const t of inst.accessed) out.push([t, t]);
      for (const [w, r] of inst.spans) out.push([w, r]);
      live.set(inst.id, out);
    }
    return { steps: this.steps, live, elementOps: this.ops };
  }

  // ------------------------------------------------------------------------------------------------ control flow

  private runRegion(frame: Frame, g: RegionBlock | LoopBlock): Jump {
    if (g.start === null) {
      if (g.blocks.length) this.values.refuse('a control-flow region without a start block', g.jsonPath);
      return null;
    }
    let idx: number | null = g.start;
    while (idx !== null) {
      const block = g.blocks[idx];
      if (!block) this.values.refuse(`an interstate edge to block ${idx}, which does not exist`, g.jsonPath);
      const jump = this.runBlock(frame, block);
      if (jump) return jump;
      let next: number | null = null;
      for (const e of g.edges) {
        if (e.src !== idx || !this.values.truth(frame, e.condition, e.jsonPath)) continue;
        const values = e.assignments.map(([name, rhs]) => [name, this.assigned(frame, rhs, e.jsonPath)] as const);
        for (const [name, v] of values) {
          if (v === null) {
            frame.env.delete(name);
            frame.opaque.add(name);
          } else {
            frame.env.set(name, v);
            frame.opaque.delete(name);
          }
        }
        next = e.dst;
        break;
      }
      idx = next;
    }
    return null;
  }

  private runBlock(frame: Frame, b: ControlFlowBlock): Jump {
    switch (b.kind) {
      case 'state':
        this.runState(frame, b);
        return null;
      case 'region':
        return this.runRegion(frame, b);
      case 'loop':
        return this.runLoop(frame, b);
      case 'conditional':
        for (const br of b.branches) {
          if (br.condition === null || this.values.truth(frame, br.condition, b.jsonPath)) return this.runRegion(frame, br.body);
        }
        return null;
      case 'break':
      case 'continue':
      case 'return':
        return b.kind;
    }
  }

  private runLoop(frame: Frame, b: LoopBlock): Jump {
    if (b.init) this.assign(frame, b.init, b.jsonPath);
    const check = (): boolean => b.condition === null || this.values.truth(frame, b.condition, b.jsonPath);
    const update = (): void => {
      if (b.update) this.assign(frame, b.update, b.jsonPath);
    };
    if (!b.inverted && !check()) return null;
    for (;;) {
      const jump = this.runRegion(frame, b);
      if (jump === 'break') return null;
      if (jump === 'return') return jump;
      // A do-while loop may check its condition before or after the update; a for/while loop updates first.
      if (b.inverted && !b.updateBeforeCondition) {
        if (!check()) return null;
        update();
      } else {
        update();
        if (!check()) return null;
      }
    }
  }

  /** `v = expr`, `v += expr`, `v -= expr` (loop init and update statements). */
  private assign(frame: Frame, code: string, where: string): void {
    const m = /^\s*([A-Za-z_]\w*)\s*([+-]?)=\s*([^=][\s\S]*)$/.exec(code);
    if (!m) this.values.refuse(`loop statement '${code}' is not an assignment`, where);
    const v = this.values.integer(frame, this.values.py(m[3]!, where), where);
    const old = m[2] ? frame.env.get(m[1]!) : 0n;
    if (old === undefined) this.values.refuse(`'${m[1]}' has no value before '${code}'`, where);
    frame.env.set(m[1]!, m[2] === '-' ? old - v : m[2] === '+' ? old + v : v);
  }

  // ------------------------------------------------------------------------------------------------ states

  private point(state: StateBlock): number {
    const step = this.opts.stepOf.get(state.jsonPath);
    if (step === undefined) this.values.refuse(`state '${state.label}' has no step`, state.jsonPath);
    if (this.steps.length >= this.maxPoints)
      this.values.refuse(`more than ${this.maxPoints} dynamic points (loops too long for the reference run)`, state.jsonPath);
    this.steps.push(step);
    return this.steps.length - 1;
  }

  private runState(frame: Frame, state: StateBlock): void {
    const clock = { now: this.point(state) };
    for (const unit of this.units(state, null)) this.runNode(frame, state, state.nodes[unit]!, frame.env, clock);
  }

  /**
   * The nodes of one scope level (top level: `scope` null) that run as units — tasklets, access nodes, calls and
   * the entries of inner maps (a map with everything inside it) — in a topological order of the dataflow
   * (smallest id first among the ready ones).
   */
  private units(state: StateBlock, scope: number | null): number[] {
    const owner = (id: number): number | null => {
      let n: DataflowNode | undefined = state.nodes[id];
      if (n?.kind === 'map_exit' && n.entryId !== null) n = state.nodes[n.entryId];
      for (let guard = 0; n && n.scopeEntry !== scope && guard <= state.nodes.length; guard++) {
        if (n.scopeEntry === null) return null;
        n = state.nodes[n.scopeEntry];
      }
      return n && n.scopeEntry === scope ? n.id : null;
    };
    const members = state.nodes.filter((n) => n.kind !== 'map_exit' && owner(n.id) === n.id && n.id !== scope).map((n) => n.id);
    const indegree = new Map(members.map((m) => [m, 0]));
    const succ = new Map<number, number[]>(members.map((m) => [m, []]));
    for (const e of state.edges) {
      const a = owner(e.src);
      const b = owner(e.dst);
      if (a === null || b === null || a === b || !succ.has(a) || !indegree.has(b)) continue;
      succ.get(a)!.push(b);
      indegree.set(b, indegree.get(b)! + 1);
    }
    const ready = members.filter((m) => indegree.get(m) === 0);
    const out: number[] = [];
    while (ready.length) {
      ready.sort((x, y) => x - y);
      const m = ready.shift()!;
      out.push(m);
      for (const s of succ.get(m)!) {
        indegree.set(s, indegree.get(s)! - 1);
        if (indegree.get(s) === 0) ready.push(s);
      }
    }
    if (out.length !== members.length) this.values.refuse(`the dataflow of state '${state.label}' has a cycle`, state.jsonPath);
    return out;
  }

  /** Runs one unit; `clock.now` is the dynamic point of the state's own dataflow (later after a call). */
  private runNode(frame: Frame, state: StateBlock, node: DataflowNode, env: Map<string, bigint>, clock: { now: number }): void {
    switch (node.kind) {
      case 'map_entry': {
        const units = this.units(state, node.id);
        for (const point of this.iterations(frame, node.map.params, node.map.range, env, node.jsonPath)) {
          for (const unit of units) this.runNode(frame, state, state.nodes[unit]!, point, clock);
        }
        return;
      }
      case 'tasklet': {
        const t = clock.now;
        for (const e of state.edges)
          if (e.dst === node.id && e.memlet.data !== null) this.touch(frame, e.memlet.data, e.memlet.subset, env, t, 'read', e.jsonPath);
        for (const e of state.edges) {
          if (e.src !== node.id || e.memlet.data === null) continue;
          const definite = e.memlet.wcr === null && !e.memlet.dynamic && this.values.singleElement(frame, e.memlet.subset, env, e.jsonPath);
          this.touch(frame, e.memlet.data, e.memlet.subset, env, t, definite ? 'write' : 'update', e.jsonPath);
        }
        return;
      }
      case 'access': {
        const t = clock.now;
        for (const e of state.edges) {
          if (e.memlet.data === null) continue;
          if (e.dst === node.id) {
            const src = state.nodes[e.src];
            if (src?.kind === 'access') this.copy(frame, src.data, node.data, e, env, t);
            else if (src?.kind === 'map_entry') this.values.refuse('a copy into an access node inside a map', e.jsonPath);
          } else if (e.src === node.id && state.nodes[e.dst]?.kind === 'map_exit' && node.scopeEntry !== null) {
            this.values.refuse('a copy out of an access node inside a map', e.jsonPath);
          }
        }
        // An access node with no data edges (or only edges handled by their other end) touches nothing itself.
        return;
      }
      case 'nested_sdfg': {
        const before = this.steps.length;
        this.call(frame, state, node, env);
        // The rest of the state's dataflow runs after the call: a point of its own, at the call's last step.
        if (this.steps.length > before) {
          this.steps.push(this.steps[this.steps.length - 1]!);
          clock.now = this.steps.length - 1;
        }
        return;
      }
      case 'map_exit':
        return;
      default: {
        const touchesTracked = state.edges.some(
          (e) => (e.src === node.id || e.dst === node.id) && e.memlet.data !== null && frame.bindings.has(e.memlet.data),
        );
        if (touchesTracked)
          this.values.refuse(`a ${node.kind} node that accesses a transient (its reads and writes are not visible)`, node.jsonPath);
      }
    }
  }

  private copy(frame: Frame, from: string, to: string, e: MemletEdge, env: Map<string, bigint>, t: number): void {
    const m = e.memlet;
    const namesDst = m.data === to && m.data !== from;
    const srcSubset = namesDst ? m.otherSubset : m.subset;
    const dstSubset = namesDst ? m.subset : m.otherSubset;
    // A missing subset on one side means its whole container here (read) or a write of unknown extent (update).
    if (srcSubset !== null || !namesDst) this.touch(frame, from, srcSubset, env, t, 'read', e.jsonPath);
    else this.touch(frame, from, null, env, t, 'read', e.jsonPath);
    const definite = dstSubset !== null && m.wcr === null && !m.dynamic;
    this.touch(frame, to, dstSubset, env, t, definite ? 'write' : 'update', e.jsonPath);
  }

  private call(frame: Frame, state: StateBlock, node: NestedSdfgNode, env: Map<string, bigint>): void {
    const callee = node.sdfg;
    if (!callee) this.values.refuse('a nested SDFG that is not loaded', node.jsonPath);
    const inner: Frame = { sdfg: callee, env: new Map(), bindings: new Map(), opaque: new Set() };
    for (const [sym, code] of Object.entries(node.symbolMapping))
      inner.env.set(sym, this.values.integer({ ...frame, env }, this.values.sym(code, node.jsonPath), node.jsonPath));
    for (const e of state.edges) {
      const connector = e.dst === node.id ? e.dstConnector : e.src === node.id ? e.srcConnector : null;
      if (connector === null || e.memlet.data === null) continue;
      const outer = frame.bindings.get(e.memlet.data);
      const desc = callee.arrays.get(connector);
      if (!outer || !desc) continue;
      this.plainDescriptor(desc, callee);
      const start = this.values.subsetStart(frame, e.memlet.subset, env, e.memlet.data, e.jsonPath);
      const outerStrides = this.strides(outer);
      const base = outer.base + start.reduce((s, v, i) => s + v * (outerStrides[i] ?? 0), 0);
      inner.bindings.set(connector, { inst: outer.inst, base, strides: desc.strides, frame: inner, owner: outer.owner });
    }
    this.bindTransients(inner);
    this.runRegion(inner, callee.body);
  }

  /** Tracked transients of the frame's SDFG; per-invocation ones start without values on every call. */
  private bindTransients(frame: Frame): void {
    for (const desc of frame.sdfg.arrays.values()) {
      if (!desc.transient) continue;
      if (
        desc.type === 'View' ||
        desc.type.endsWith('View') ||
        desc.type.endsWith('Reference') ||
        desc.type === 'Reference' ||
        desc.members
      ) {
        this.values.refuse(`transient '${desc.name}' is a ${desc.type}`, desc.jsonPath);
      }
      this.plainDescriptor(desc, frame.sdfg);
      const id = `${frame.sdfg.sdfgIndex}:${desc.name}`;
      let inst = this.instances.get(id);
      if (!inst) this.instances.set(id, (inst = new Instance(id)));
      else if (PER_INVOCATION.has(desc.lifetime)) inst.reset();
      frame.bindings.set(desc.name, { inst, base: 0, strides: desc.strides, frame, owner: { frame, size: desc.totalSize } });
    }
  }

  private strides(b: Binding): number[] {
    return b.strides.map((s) => Number(this.values.integer(b.frame, this.values.sym(s, b.frame.sdfg.jsonPath), b.frame.sdfg.jsonPath)));
  }

  private plainDescriptor(desc: DataDescriptor, sdfg: Sdfg): void {
    if (desc.offset.some((o) => o.trim() !== '0'))
      this.values.refuse(`'${desc.name}' of SDFG '${sdfg.name}' has an index offset`, desc.jsonPath);
  }

  // ------------------------------------------------------------------------------------------------ elements

  private touch(
    frame: Frame,
    data: string,
    subset: Subset | null,
    env: Map<string, bigint>,
    t: number,
    how: 'read' | 'write' | 'update',
    where: string,
  ): void {
    const b = frame.bindings.get(data);
    if (!b) return;
    const inst = b.inst;
    // A write needs the bytes at its point even if nothing reads it; a read needs them only for a value
    // that was written (the span below): reading memory nothing filled reads garbage in every layout.
    if (how !== 'read') inst.accessed.add(t);
    const strides = this.strides(b);
    // Indices stay inside the transient the name leads to, sized as it is now (a size may change per iteration).
    const limit = Number(this.values.integer(b.owner.frame, this.values.sym(b.owner.size, where), where));
    inst.grow(limit);
    const visit = (flat: number): void => {
      if (++this.ops > this.maxOps)
        this.values.refuse(`more than ${this.maxOps} element accesses (too large for the reference run)`, where);
      if (flat < 0 || flat >= limit)
        this.values.refuse(`an access to element ${flat} of the transient behind '${data}' (${limit} elements)`, where);
      if (how !== 'write') {
        const w = inst.lastWrite[flat]!;
        if (w >= 0 && (inst.spans.get(w) ?? -1) < t) inst.spans.set(w, t);
      }
      if (how !== 'read') inst.lastWrite[flat] = t;
    };
    if (subset === null) {
      const desc = frame.sdfg.arrays.get(data);
      if (!desc) this.values.refuse(`'${data}' has no descriptor`, where);
      const shape = desc.shape.map((s) => this.values.integer(frame, this.values.sym(s, where), where));
      forEachIndex(
        shape.map((n) => ({ start: 0n, end: n - 1n, step: 1n, tile: 1n })),
        (idx) => visit(flat(b.base, strides, idx)),
      );
      return;
    }
    for (const dims of this.values.boxes(frame, subset, env, where)) forEachIndex(dims, (idx) => visit(flat(b.base, strides, idx)));
  }

  /** The points of a map's range, one environment reused for all (nothing keeps it past an iteration). */
  private *iterations(
    frame: Frame,
    params: string[],
    range: Array<{ start: string; end: string; step: string; tile: string }>,
    env: Map<string, bigint>,
    where: string,
  ): Generator<Map<string, bigint>> {
    const f = { ...frame, env };
    const lists = range.map((d) => {
      const start = this.values.integer(f, this.values.sym(d.start, where), where);
      const end = this.values.integer(f, this.values.sym(d.end, where), where);
      const step = this.values.integer(f, this.values.sym(d.step, where), where);
      if (this.values.integer(f, this.values.sym(d.tile, where), where) !== 1n) this.values.refuse('a tiled map range', where);
      if (step <= 0n) this.values.refuse('a map range with a step that is not positive', where);
      return { start, step, count: end < start ? 0n : (end - start) / step + 1n };
    });
    const total = lists.reduce((n, d) => n * d.count, 1n);
    if (total === 0n) return;
    // Counted up front: a map too large for the reference run is refused before it runs.
    if (BigInt(this.ops) + total > BigInt(this.maxOps))
      this.values.refuse(`more than ${this.maxOps} element accesses and map iterations (too large for the reference run)`, where);
    this.ops += Number(total);
    const point = new Map(env);
    const index = lists.map(() => 0n);
    for (;;) {
      params.forEach((p, i) => point.set(p, lists[i]!.start + index[i]! * lists[i]!.step));
      yield point;
      let d = lists.length - 1;
      while (d >= 0 && ++index[d]! === lists[d]!.count) index[d--] = 0n;
      if (d < 0) return;
    }
  }

  /**
   * The value an interstate assignment gives its symbol; null when the right-hand side reads data containers:
   * then it reads every element of each (at the last point run, where control leaves for the edge).
   */
  private assigned(frame: Frame, rhs: string, where: string): bigint | null {
    const e = this.values.py(rhs, where);
    const data = [...freeSymbols(e)].map((n) => n.split('.')[0]!).filter((n) => frame.sdfg.arrays.has(n));
    if (data.length === 0) return this.values.integer(frame, e, where);
    const now = this.steps.length - 1;
    if (now >= 0) for (const name of data) this.touch(frame, name, null, frame.env, now, 'read', where);
    return null;
  }
}
