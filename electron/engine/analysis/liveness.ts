/**
 * Live ranges over the program order (docs/liveness.md):
 *
 * 1. Access points: an AccessNode counts over the span of its state, i.e. [state step, last step of the
 *    nested SDFGs the state invokes] — except when all it does is hand the container to nested SDFGs
 *    through their connectors: then the container is used where the callee uses the connector (recursively,
 *    through every level of nesting). Control-flow code that reads a container (interstate conditions and
 *    assignments, loop statements, branch conditions) counts at the steps it was attributed to.
 * 2. Range = [first, last] access point.
 * 3. Loop widening: for every loop (LoopRegion, or a cycle of a state-machine CFG) around an access point,
 *    the range grows to the loop's whole span, because a value may be carried from one iteration into the
 *    next — except over loops where the container is overwritten before any read in every iteration
 *    (write-first.ts), and, for a nested SDFG's own transients, over loops of the SDFGs that call it (each
 *    invocation allocates them afresh: no value can pass from one invocation to the next).
 */
import type { DataDescriptor, MemletEdge, NestedSdfgNode, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AccessIndex, AccessSite } from './accesses.js';
import type { ExprCache } from './expr.js';
import type { LoopSpan, ProgramOrder, StatePlace } from './linearize.js';
import type { LivenessRules } from './types.js';
import type { WriteFirstLoops } from './write-first.js';

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
}

interface Connector {
  sdfg: Sdfg;
  name: string;
  desc: DataDescriptor;
  sites: AccessSite[];
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
  ) {}

  /**
   * Conservative live range of container `name` of `sdfg` (a Structure member when `memberOf` is set),
   * or null when nothing uses it.
   */
  liveRange(sdfg: Sdfg, name: string, desc: DataDescriptor, memberOf: string | null): LiveRange | null {
    const sites = this.access.of(sdfg, name);
    if (this.order.steps.length === 0) return null;
    if (memberOf !== null) {
      // Members are reached through their structure too: whole state spans, every loop widens.
      return this.hull(sites.flatMap((s) => this.stateSpan(s.state) ?? []).map((iv) => this.cover.widen(iv)));
    }
    let raw = this.uses(sdfg, name, sites, []);
    // Handed only to callees that never touch it: nothing uses the bytes, but it is still allocated and
    // "never accessed" would mislead; its AccessNodes count over their states as they would without callees.
    if (raw.length === 0) raw = sites.flatMap((s) => this.stateSpan(s.state) ?? []).map((iv) => ({ ...iv, via: [] }));
    if (raw.length === 0) return null;
    const own = this.writeFirst.loopsWithoutWidening(sdfg, name, desc, sites, this.hull(raw));
    const fresh = this.rules === 'refined' && sdfg.parent !== null && PER_INVOCATION.has(desc.lifetime);
    const widened = raw.map((use) => {
      const keep = use.via.length ? [own, ...use.via.map((c) => this.keepFor(c))] : [own];
      const skipsAny = fresh || keep.some((k) => k.size > 0);
      return this.cover.widen(use, skipsAny ? (loop) => keep.some((k) => k.has(loop)) || (fresh && callsInto(loop.sdfg, sdfg)) : undefined);
    });
    return this.hull(widened);
  }

  /** Where the bytes of `name` (reached through `via`) are used in `sdfg`, before widening. */
  private uses(sdfg: Sdfg, name: string, sites: AccessSite[], via: Connector[]): RawUse[] {
    const out: RawUse[] = [];
    for (const site of sites) {
      const place = this.order.places.get(site.state);
      if (!place) continue;
      const calls = this.rules === 'refined' ? this.onlyPassedToCalls(site, place, name) : null;
      if (!calls) {
        out.push({ first: place.step, last: place.spanEnd, via });
        continue;
      }
      for (const c of calls) for (const u of this.uses(c.sdfg, c.name, c.sites, [...via, c])) out.push(u);
    }
    for (const iv of this.reads.get(sdfg)?.get(name)?.intervals ?? []) out.push({ ...iv, via });
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
      if (!out.some((c) => c.sdfg === other.sdfg && c.name === connector)) {
        out.push({ sdfg: other.sdfg, name: connector!, desc: inner, sites: this.access.of(other.sdfg, connector!) });
      }
    }
    return out;
  }

  /** Write-first loops of a callee for its connector (§3.1; cycles are left out: see write-first.ts). */
  private keepFor(c: Connector): ReadonlySet<LoopSpan> {
    let table = this.connectorKeep.get(c.sdfg);
    if (!table) this.connectorKeep.set(c.sdfg, (table = new Map()));
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

/** Whether `outer` is a proper ancestor of `inner` (one of the SDFGs whose control flow calls it). */
function callsInto(outer: Sdfg, inner: Sdfg): boolean {
  for (let s = inner.parent?.sdfg; s; s = s.parent?.sdfg) if (s === outer) return true;
  return false;
}
