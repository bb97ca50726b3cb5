/**
 * Live ranges over the program order (docs/liveness.md):
 *
 * 1. Access points: an AccessNode counts over the span of its state, i.e. [state step, last step of the
 *    nested SDFGs the state invokes] — except when all it does is hand the container to nested SDFGs
 *    through their connectors: then the container is used where the callee uses the connector (recursively,
 *    through every level of nesting). Control-flow code that reads a container (interstate conditions and
 *    assignments, loop statements, branch conditions) counts at the steps it was attributed to.
 * 2. Refined rules (§3.7): each access point also says whether it may read the container, only writes it,
 *    or overwrites all of it; the live set is then computed per program point on the flow graph
 *    (flow.ts, live-sets.ts): a container occupies the steps where it is accessed and those a value passes
 *    on its way from a write to a read. A container written before it is read in every iteration is not
 *    live across the back edge, and a loop-carried one is dead between its last read in an iteration and
 *    the overwrite that follows.
 * 3. Interval and baseline rules: range = [first, last] access point, grown over every loop around an
 *    access point — a value may be carried from one iteration into the next — except over loops where the
 *    container is overwritten before any read in every iteration (write-first.ts), and, for a nested SDFG's
 *    own transients, over loops of the SDFGs that call it (each invocation allocates them afresh).
 * 4. References: the uses of a reference that a `set` edge may point at the container are uses of it (reads,
 *    under every rule; under the interval rules no write-first loop is then skipped). Views need no rule: a view
 *    is always used next to the AccessNode it views.
 */
import type { DataDescriptor, InterstateEdge, MemletEdge, NestedSdfgNode, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AccessIndex, AccessSite } from './accesses.js';
import type { AliasIndex } from './aliases.js';
import type { ExprCache } from './expr.js';
import type { FlowGraph } from './flow.js';
import type { LoopSpan, ProgramOrder, StatePlace } from './linearize.js';
import { liveSegments, type ContainerUses } from './live-sets.js';
import type { LivenessRules } from './types.js';
import type { WriteFirstLoops } from './write-first.js';

export interface LiveRange {
  first: number;
  last: number;
}

export interface ControlFlowReads {
  /** Step intervals where control-flow code reads the container. */
  intervals: LiveRange[];
  /** The interstate edge of each interval (where the read happens), null for loop statements and branch conditions. */
  edges: Array<InterstateEdge | null>;
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
      if (!table) out.set(use.sdfg, (table = new Map<string, ControlFlowReads>()));
      let reads = table.get(top);
      if (!reads) table.set(top, (reads = { intervals: [], edges: [], interstate: false }));
      reads.intervals.push({ first: use.first, last: use.last });
      reads.edges.push(use.edge);
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

  /** `range` grown over every loop around its end points for which `skip` (if given) says no. */
  widen(range: LiveRange, skip?: (loop: LoopSpan) => boolean): LiveRange {
    if (!skip) {
      return {
        first: Math.min(range.first, this.lo[range.first]!, this.lo[range.last]!),
        last: Math.max(range.last, this.hi[range.first]!, this.hi[range.last]!),
      };
    }
    const around = this.loopsAround();
    let { first, last } = range;
    // Every loop around an end point is looked at, not only the outermost: an inner loop that still
    // widens matters when the outer one is skipped.
    for (const loop of [...around[range.first]!, ...around[range.last]!]) {
      if (skip(loop)) continue;
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

/** One use of a container's bytes, before widening, and the names it was reached through. */
interface RawUse extends LiveRange {
  /** Connectors (callee SDFG and connector name) from the container down to the use; [] for its own uses. */
  via: Connector[];
  /**
   * What the use does to the container (refined rules): `read` (or absent) — may read it; `write` — writes
   * some of it, reads none; `full` — overwrites all of it and reads none, at `first`; `edge` — interstate
   * code next to these steps reads it, on the edge between them (`Gathered.edges`). A new kind of use that
   * says nothing is a read: the conservative default.
   */
  effect?: 'read' | 'write' | 'full' | 'edge';
}

interface Connector {
  sdfg: Sdfg;
  name: string;
  desc: DataDescriptor;
  sites: AccessSite[];
  /** Every memlet that hands it over names its whole container, with the connector's shape and strides. */
  whole: boolean;
}

/** What the refined rules gather besides the uses: overwrites of delegating states, and edges that read. */
interface Gathered {
  kills: number[];
  edges: InterstateEdge[];
}

/** A container whose live set is asked for. */
export interface LiveQuery {
  sdfg: Sdfg;
  name: string;
  desc: DataDescriptor;
  /** The structure a member belongs to (`outer` of `outer.member`), or null. */
  memberOf: string | null;
}

/** Lifetimes whose buffer is allocated afresh by every invocation of its SDFG (dace-memory-abi.md §2.1). */
const PER_INVOCATION = new Set(['Scope', 'State', 'SDFG']);

/** Descriptor types that let another name reach a container's bytes without an adjacent AccessNode. */
const REFERENCES = new Set(['Reference', 'ArrayReference', 'StructureReference', 'ContainerArrayReference']);

export class Liveness {
  private readonly edgesAt = new WeakMap<StateBlock, Map<number, MemletEdge[]>>();
  private readonly connectorKeep = new Map<Sdfg, Map<string, ReadonlySet<LoopSpan>>>();
  private readonly referenceFree = new Map<Sdfg, boolean>();

  constructor(
    private readonly order: ProgramOrder,
    private readonly access: AccessIndex,
    private readonly reads: Map<Sdfg, Map<string, ControlFlowReads>>,
    private readonly cover: LoopCover,
    private readonly writeFirst: WriteFirstLoops,
    private readonly rules: LivenessRules = 'refined',
    /** The flow graph the refined rules solve on (required for them). */
    private readonly flow: FlowGraph | null = null,
    private readonly aliases: AliasIndex | null = null,
  ) {}

  /**
   * The live set of each container as sorted disjoint step intervals (one interval under the interval and
   * baseline rules, and for structure members), or null when nothing uses it. Under the refined rules all
   * containers are solved together: one bit-vector dataflow pass over the flow graph.
   */
  liveSets(queries: readonly LiveQuery[]): Array<LiveRange[] | null> {
    const out = new Array<LiveRange[] | null>(queries.length).fill(null);
    const solved: number[] = [];
    const uses: Array<ContainerUses & { touched: LiveRange[] }> = [];
    queries.forEach((q, i) => {
      if (this.rules !== 'refined' || q.memberOf !== null || !this.flow) {
        const r = this.liveRange(q.sdfg, q.name, q.desc, q.memberOf);
        out[i] = r && [r];
        return;
      }
      const u = this.containerUses(q.sdfg, q.name, q.desc);
      if (!u) return;
      solved.push(i);
      uses.push(u);
    });
    if (uses.length) {
      liveSegments(this.flow!, uses).forEach((segments, k) => {
        // Only read, never written (no value ever reaches a read): no step needs its bytes, but it is used,
        // and "never accessed" would mislead; it counts where it is touched.
        out[solved[k]!] = segments.length ? segments : mergeRanges(uses[k]!.touched);
      });
    }
    return out;
  }

  /** Where and how a container's bytes are used, for the per-point dataflow (§3.7); null when never. */
  private containerUses(sdfg: Sdfg, name: string, desc: DataDescriptor): (ContainerUses & { touched: LiveRange[] }) | null {
    const sites = this.access.of(sdfg, name);
    if (this.order.steps.length === 0) return null;
    const gathered: Gathered = { kills: [], edges: [] };
    let raw = this.uses(sdfg, name, desc, sites, [], gathered);
    // Uses of a reference that may point at the container read its bytes (a write through it is counted as a
    // read too: conservative, it only keeps the container live longer).
    for (const u of this.referenceUses(sdfg, name)) raw.push(u);
    // Handed only to callees that never touch it: still allocated, counted over its states (see liveRange).
    if (raw.length === 0) raw = sites.flatMap((s) => this.stateSpan(s.state) ?? []).map((iv) => ({ ...iv, via: [] }));
    if (raw.length === 0) return null;
    for (const u of raw) if (u.effect === 'full') gathered.kills.push(u.first);
    const flow = this.flow!;
    return {
      // An interstate edge reads between two steps, on its own node: it occupies neither step by itself.
      access: raw.filter((u) => u.effect !== 'edge'),
      touched: raw,
      reads: raw.filter((u) => (u.effect ?? 'read') === 'read'),
      readNodes: gathered.edges.map((e) => flow.nodeOfEdge.get(e)).filter((n) => n !== undefined),
      kills: gathered.kills,
      fresh: freshIn(sdfg, desc.lifetime),
    };
  }

  /** Every use of a reference that a `set` edge may point at container `name`, as a read of the container. */
  private referenceUses(sdfg: Sdfg, name: string): RawUse[] {
    const out: RawUse[] = [];
    for (const r of this.aliases?.referencesTo(sdfg, name) ?? []) {
      const desc = sdfg.arrays.get(r);
      if (desc) for (const u of this.uses(sdfg, r, desc, this.access.of(sdfg, r), [], null)) out.push(u);
    }
    return out;
  }

  /**
   * Conservative live range of container `name` of `sdfg` (a Structure member when `memberOf` is set),
   * or null when nothing uses it: the interval and baseline rules (§3.1–§3.5).
   */
  liveRange(sdfg: Sdfg, name: string, desc: DataDescriptor, memberOf: string | null): LiveRange | null {
    const sites = this.access.of(sdfg, name);
    if (this.order.steps.length === 0) return null;
    if (memberOf !== null) {
      // Members are reached through their structure too: whole state spans, every loop widens.
      return this.hull(sites.flatMap((s) => this.stateSpan(s.state) ?? []).map((iv) => this.cover.widen(iv)));
    }
    let raw = this.uses(sdfg, name, desc, sites, [], null);
    // A reference pointed at the container reaches its bytes wherever the reference is used, with no AccessNode
    // of the container nearby (a view needs nothing: it is always used next to its viewed AccessNode).
    const references = this.referenceUses(sdfg, name);
    for (const u of references) raw.push(u);
    // Handed only to callees that never touch it: nothing uses the bytes, but it is still allocated and
    // "never accessed" would mislead; its AccessNodes count over their states as they would without callees.
    if (raw.length === 0) raw = sites.flatMap((s) => this.stateSpan(s.state) ?? []).map((iv) => ({ ...iv, via: [] }));
    if (raw.length === 0) return null;
    // An overwrite of the container proves nothing about what a reference reads first: no loop is skipped.
    const own = references.length ? new Set<LoopSpan>() : this.writeFirst.loopsWithoutWidening(sdfg, name, desc, sites, this.hull(raw));
    const fresh = this.rules !== 'baseline' && sdfg.parent !== null && PER_INVOCATION.has(desc.lifetime);
    const widened = raw.map((use) => {
      const keep = use.via.length ? [own, ...use.via.map((c) => this.keepFor(c))] : [own];
      const skipsAny = fresh || keep.some((k) => k.size > 0);
      return this.cover.widen(use, skipsAny ? (loop) => keep.some((k) => k.has(loop)) || (fresh && callsInto(loop.sdfg, sdfg)) : undefined);
    });
    return this.hull(widened);
  }

  /**
   * Where the bytes of `name` (reached through `via`) are used in `sdfg`, before widening. With `gathered`
   * (refined rules), each use says what it does to the container, a state that hands the container to its
   * callees and overwrites all of it through them (§3.4) adds its step to the kills, and interstate edges
   * whose code reads it are listed.
   */
  private uses(sdfg: Sdfg, name: string, desc: DataDescriptor, sites: AccessSite[], via: Connector[], gathered: Gathered | null): RawUse[] {
    const out: RawUse[] = [];
    const whole = via.every((c) => c.whole);
    const effect = (state: StateBlock): RawUse['effect'] => {
      if (!gathered) return 'read';
      const e = this.writeFirst.stateEffect(state, sdfg, name, desc);
      // Overwriting all of a connector that reaches only part of the container leaves the rest in place.
      return e === 'full' && !whole ? 'write' : e;
    };
    for (const site of sites) {
      const place = this.order.places.get(site.state);
      if (!place) continue;
      const calls = this.rules !== 'baseline' ? this.onlyPassedToCalls(site, place, name) : null;
      if (!calls) {
        out.push({ first: place.step, last: place.spanEnd, via, effect: effect(site.state) });
        continue;
      }
      if (gathered && effect(site.state) === 'full') gathered.kills.push(place.step);
      for (const c of calls) for (const u of this.uses(c.sdfg, c.name, c.desc, c.sites, [...via, c], gathered)) out.push(u);
    }
    const code = this.reads.get(sdfg)?.get(name);
    code?.intervals.forEach((iv, i) => {
      const edge = code.edges[i] ?? null;
      if (gathered && edge) gathered.edges.push(edge);
      out.push({ ...iv, via, effect: gathered && edge ? 'edge' : 'read' });
    });
    return out;
  }

  /**
   * The connectors through which this AccessNode hands its container to nested SDFGs, when that is all it
   * does; null when the node (also) takes part in the state's own dataflow, or when the steps of the callees
   * cannot be trusted to follow execution order. Then the node counts over its whole state span.
   */
  private onlyPassedToCalls(site: AccessSite, place: StatePlace, name: string): Connector[] | null {
    const { state, node } = site;
    if (node.data !== name || node.scopeEntry !== null || !place.callsOrdered) return null;
    const edges = this.dataEdges(state, node.id);
    if (edges.length === 0) return null;
    const out: Connector[] = [];
    for (const e of edges) {
      const outgoing = e.src === node.id;
      const other = state.nodes[outgoing ? e.dst : e.src];
      if (!other || other.kind !== 'nested_sdfg' || other.scopeEntry !== null || !other.sdfg || !place.calls.has(other)) return null;
      // The call receives a pointer into the container its memlet names (codegen/emit): it must be this one.
      if (e.memlet.data !== name) return null;
      const connector = outgoing ? e.dstConnector : e.srcConnector;
      const inner = connector === null ? undefined : other.sdfg.arrays.get(connector);
      if (!inner || inner.transient || (inner.type !== 'Array' && inner.type !== 'Scalar') || !this.withoutReferences(other)) return null;
      const whole = this.handsWhole(e, site.state, name, other.sdfg, inner);
      const known = out.find((c) => c.sdfg === other.sdfg && c.name === connector);
      if (known) known.whole &&= whole;
      else out.push({ sdfg: other.sdfg, name: connector!, desc: inner, sites: this.access.of(other.sdfg, connector!), whole });
    }
    return out;
  }

  /**
   * Whether memlet `e` hands callee connector `inner` exactly all of `name`: the box is the whole container
   * and the connector has its shape and strides, so that overwriting every element of the connector
   * overwrites every element of the container (for the analysed symbol values).
   */
  private handsWhole(e: MemletEdge, state: StateBlock, name: string, callee: Sdfg, inner: DataDescriptor): boolean {
    const caller = this.order.places.get(state)?.sdfg;
    const outer = caller?.arrays.get(name);
    if (!caller || !outer || outer.shape.length !== inner.shape.length) return false;
    const value = (sdfg: Sdfg, src: string): bigint | null => this.writeFirst.fieldValue(sdfg, src);
    const dims = e.memlet.subset === null ? null : e.memlet.subset.kind === 'range' ? e.memlet.subset.dims : undefined;
    if (dims === undefined || (dims && dims.length !== outer.shape.length)) return false;
    for (let d = 0; d < outer.shape.length; d++) {
      const extent = value(caller, outer.shape[d]!);
      if (extent === null || value(callee, inner.shape[d]!) !== extent) return false;
      const stride = value(caller, outer.strides[d]!);
      if (stride === null || value(callee, inner.strides[d]!) !== stride) return false;
      if (!dims) continue;
      const r = dims[d]!;
      if (value(caller, r.start) !== 0n || value(caller, r.end) !== extent - 1n || value(caller, r.tile) !== 1n) return false;
      if (extent > 1n && value(caller, r.step) !== 1n) return false;
    }
    return true;
  }

  /** Write-first loops of a callee for its connector (§3.1; cycles are left out: see write-first.ts). */
  private keepFor(c: Connector): ReadonlySet<LoopSpan> {
    let table = this.connectorKeep.get(c.sdfg);
    if (!table) this.connectorKeep.set(c.sdfg, (table = new Map<string, ReadonlySet<LoopSpan>>()));
    let hit = table.get(c.name);
    if (!hit) table.set(c.name, (hit = this.writeFirst.loopsWithoutWidening(c.sdfg, c.name, c.desc, c.sites, null)));
    return hit;
  }

  /** Whether no SDFG inside the call declares a reference (which could reach a connector's bytes unseen). */
  private withoutReferences(call: NestedSdfgNode): boolean {
    const check = (sdfg: Sdfg): boolean => {
      const hit = this.referenceFree.get(sdfg);
      if (hit !== undefined) return hit;
      let ok = ![...sdfg.arrays.values()].some((d) => REFERENCES.has(d.type));
      if (ok) {
        for (const place of this.order.places.values()) {
          if (place.sdfg !== sdfg) continue;
          for (const n of place.calls.keys()) if (n.sdfg && !check(n.sdfg)) ok = false;
        }
      }
      this.referenceFree.set(sdfg, ok);
      return ok;
    };
    return check(call.sdfg!);
  }

  private dataEdges(state: StateBlock, id: number): MemletEdge[] {
    let table = this.edgesAt.get(state);
    if (!table) {
      table = new Map();
      for (const e of state.edges) {
        if (e.memlet.data === null) continue;
        for (const end of e.src === e.dst ? [e.src] : [e.src, e.dst]) {
          const list = table.get(end);
          if (list) list.push(e);
          else table.set(end, [e]);
        }
      }
      this.edgesAt.set(state, table);
    }
    return table.get(id) ?? [];
  }

  private stateSpan(state: StateBlock): LiveRange | null {
    const place = this.order.places.get(state);
    return place ? { first: place.step, last: place.spanEnd } : null;
  }

  private hull(ranges: LiveRange[]): LiveRange | null {
    if (ranges.length === 0) return null;
    let first = Infinity;
    let last = -Infinity;
    for (const r of ranges) {
      if (r.first < first) first = r.first;
      if (r.last > last) last = r.last;
    }
    return { first, last };
  }
}

/** Sorted disjoint union of step intervals. */
function mergeRanges(ranges: readonly LiveRange[]): LiveRange[] | null {
  const sorted = [...ranges].sort((a, b) => a.first - b.first || a.last - b.last);
  const out: LiveRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.first <= last.last + 1) last.last = Math.max(last.last, r.last);
    else out.push({ first: r.first, last: r.last });
  }
  return out.length ? out : null;
}

/**
 * The SDFG whose every invocation starts a container afresh: its own SDFG for Scope, State and SDFG
 * lifetimes, the root for Global (allocated once per call of the program); null for Persistent and External
 * (and anything else), which keep their values from one call of the program to the next.
 */
function freshIn(sdfg: Sdfg, lifetime: string): Sdfg | null {
  if (PER_INVOCATION.has(lifetime)) return sdfg;
  if (lifetime !== 'Global') return null;
  let root = sdfg;
  while (root.parent) root = root.parent.sdfg;
  return root;
}

/** Whether `outer` is a proper ancestor of `inner` (one of the SDFGs whose control flow calls it). */
function callsInto(outer: Sdfg, inner: Sdfg): boolean {
  for (let s = inner.parent?.sdfg; s; s = s.parent?.sdfg) if (s === outer) return true;
  return false;
}
