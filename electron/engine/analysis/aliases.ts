/**
 * What views and references alias (docs/memory-views.md "Views and references"). Neither owns bytes: a view
 * reaches the container at the other end of its one "viewed" memlet, a reference whatever its `set` edge
 * pointed it at when the program ran.
 *
 * The viewed edge is found by DaCe's rules (`sdutil.get_view_edge`): of the view AccessNode's non-empty
 * edges, a lone incoming edge whose memlet path starts at an AccessNode (an in-view), a lone outgoing edge
 * whose path ends at one (an out-view); with one of each, the side that reaches data, then the `views`
 * connector, then the memlet not named after the view, then the side that leaves a scope, else the incoming
 * edge. A view of a view resolves to the root data in the same state. The viewed name is the memlet's data
 * when it names a member of that AccessNode's container (`p.ddt` of structure `p`).
 *
 * A reference is statically known only when every `set` edge in its SDFG points it at the same container.
 */
import type { AccessNode, DataflowNode, MemletEdge, Sdfg, StateBlock } from '../model/sdfg.js';
import { forEachState } from './walk.js';

const VIEW_TYPES: ReadonlySet<string> = new Set(['ArrayView', 'View', 'StructureView', 'ContainerView']);
const REFERENCE_TYPES: ReadonlySet<string> = new Set(['ArrayReference', 'Reference', 'StructureReference', 'ContainerArrayReference']);

export const isViewType = (type: string): boolean => VIEW_TYPES.has(type);
export const isReferenceType = (type: string): boolean => REFERENCE_TYPES.has(type);
/** Views and references: descriptors that name someone else's bytes and allocate none. */
export const isAliasType = (type: string): boolean => VIEW_TYPES.has(type) || REFERENCE_TYPES.has(type);

export interface AliasTarget {
  /**
   * Id of the aliased container: `<sdfgIndex>:<name>` for a transient (or a member of one), the bare name for
   * an argument of the SDFG (a nested SDFG's connector included). Null when it cannot be known statically.
   */
  viewOf: string | null;
  /** Why `viewOf` is null (`reference, set at run time`, …); null otherwise. */
  reason: string | null;
  /** Every container of this SDFG the alias may reach (names, not ids): one when known, several or none when not. */
  candidates: string[];
}

/** A longer chain of views is malformed (a cycle); the resolution gives up on it. */
const MAX_CHAIN = 64;

interface Adjacency {
  ins: MemletEdge[][];
  outs: MemletEdge[][];
}

function adjacency(state: StateBlock): Adjacency {
  const ins: MemletEdge[][] = state.nodes.map(() => []);
  const outs: MemletEdge[][] = state.nodes.map(() => []);
  for (const e of state.edges) {
    outs[e.src]?.push(e);
    ins[e.dst]?.push(e);
  }
  return { ins, outs };
}

const isScope = (n: DataflowNode | undefined): boolean =>
  n !== undefined && (n.kind === 'map_entry' || n.kind === 'map_exit' || n.kind === 'consume_entry' || n.kind === 'consume_exit');

/** The node a memlet path starts at, followed backwards through scope nodes (OUT_x ← IN_x). */
function pathSource(state: StateBlock, adj: Adjacency, edge: MemletEdge): DataflowNode | undefined {
  let e = edge;
  for (let guard = 0; guard <= state.edges.length; guard++) {
    const src = state.nodes[e.src];
    if (!isScope(src) || !e.srcConnector?.startsWith('OUT_')) return src;
    const want = `IN_${e.srcConnector.slice(4)}`;
    const next = adj.ins[e.src]!.find((x) => x.dstConnector === want);
    if (!next) return src;
    e = next;
  }
  return undefined;
}

/** The node a memlet path ends at, followed forwards through scope nodes (IN_x → OUT_x). */
function pathSink(state: StateBlock, adj: Adjacency, edge: MemletEdge): DataflowNode | undefined {
  let e = edge;
  for (let guard = 0; guard <= state.edges.length; guard++) {
    const dst = state.nodes[e.dst];
    if (!isScope(dst) || !e.dstConnector?.startsWith('IN_')) return dst;
    const want = `OUT_${e.dstConnector.slice(3)}`;
    const next = adj.outs[e.dst]!.find((x) => x.srcConnector === want);
    if (!next) return dst;
    e = next;
  }
  return undefined;
}

export interface Viewed {
  edge: MemletEdge;
  /** The AccessNode at the far end of the viewed edge's memlet path. */
  node: AccessNode;
}

/** The viewed edge of view AccessNode `view` and the AccessNode it reaches, or null (an invalid view). */
function viewedOf(state: StateBlock, adj: Adjacency, view: AccessNode): Viewed | null {
  const ins = adj.ins[view.id]!.filter((e) => e.memlet.data !== null);
  const outs = adj.outs[view.id]!.filter((e) => e.memlet.data !== null);
  const source = (e: MemletEdge): AccessNode | null => {
    const n = pathSource(state, adj, e);
    return n?.kind === 'access' ? n : null;
  };
  const sink = (e: MemletEdge): AccessNode | null => {
    const n = pathSink(state, adj, e);
    return n?.kind === 'access' ? n : null;
  };
  const pick = (edge: MemletEdge, node: AccessNode | null): Viewed | null => (node ? { edge, node } : null);
  if (ins.length === 0 && outs.length === 0) return null;
  if (ins.length === 1 && outs.length !== 1) return pick(ins[0]!, source(ins[0]!));
  if (outs.length === 1 && ins.length !== 1) return pick(outs[0]!, sink(outs[0]!));
  if (ins.length !== 1) return null;
  const inEdge = ins[0]!;
  const outEdge = outs[0]!;
  const src = source(inEdge);
  const dst = sink(outEdge);
  if (src && !dst) return pick(inEdge, src);
  if (!src && dst) return pick(outEdge, dst);
  if (!src || !dst) return null;
  if (inEdge.dstConnector === 'views') return pick(inEdge, src);
  if (outEdge.srcConnector === 'views') return pick(outEdge, dst);
  const inNamesView = inEdge.memlet.data === view.data;
  const outNamesView = outEdge.memlet.data === view.data;
  if (inNamesView && !outNamesView) return pick(outEdge, dst);
  if (!inNamesView && outNamesView) return pick(inEdge, src);
  if (inNamesView && outNamesView) return null;
  const inFrom = state.nodes[inEdge.src];
  if (inFrom?.kind === 'map_entry' || inFrom?.kind === 'consume_entry') return pick(inEdge, src);
  const outTo = state.nodes[outEdge.dst];
  if (outTo?.kind === 'map_exit' || outTo?.kind === 'consume_exit') return pick(outEdge, dst);
  return pick(inEdge, src);
}

/** The viewed edge of view AccessNode `view` of `state` (DaCe's `get_view_edge`) and the AccessNode it reaches. */
export function viewedEdge(state: StateBlock, view: AccessNode): Viewed | null {
  return viewedOf(state, cachedAdjacency(state), view);
}

/** The AccessNode a memlet path ends at backwards (through map entries): where a reference's `set` edge starts. */
export function memletPathSource(state: StateBlock, edge: MemletEdge): DataflowNode | undefined {
  return pathSource(state, cachedAdjacency(state), edge);
}

const adjacencies = new WeakMap<StateBlock, Adjacency>();

function cachedAdjacency(state: StateBlock): Adjacency {
  let adj = adjacencies.get(state);
  if (!adj) {
    adj = adjacency(state);
    adjacencies.set(state, adj);
  }
  return adj;
}

/** The container a viewed edge reaches: the memlet's member path when it names one of the node's members. */
function viewedName(v: Viewed): string {
  const data = v.edge.memlet.data;
  return data !== null && data.startsWith(`${v.node.data}.`) ? data : v.node.data;
}

/** Descriptor of `name` (a dotted member path allowed) in `sdfg`. */
function descriptorType(sdfg: Sdfg, name: string): string | null {
  const parts = name.split('.');
  let d = sdfg.arrays.get(parts[0]!) ?? null;
  for (let i = 1; d && i < parts.length; i++) d = d.members?.find((m) => m.name === parts[i]) ?? null;
  return d?.type ?? null;
}

/** Id of container `name` of `sdfg` as `TransientInfo.id` writes it, or its bare name for an argument. */
function containerId(sdfg: Sdfg, name: string): string {
  const root = sdfg.arrays.get(name.split('.')[0]!);
  if (root?.transient) return `${sdfg.sdfgIndex}:${name}`;
  const parts = name.split('.');
  let d = root ?? null;
  for (let i = 1; d && i < parts.length; i++) {
    d = d.members?.find((m) => m.name === parts[i]) ?? null;
    if (d?.transient) return `${sdfg.sdfgIndex}:${name}`;
  }
  return name;
}

/** Per SDFG: each view's and reference's target, computed on first use. */
export class AliasIndex {
  private readonly bySdfg = new Map<Sdfg, Map<string, AliasTarget>>();
  private readonly reachers = new Map<Sdfg, Map<string, string[]>>();

  /** What alias `name` (a view or reference descriptor of `sdfg`, or a member path under one) reaches. */
  targetOf(sdfg: Sdfg, name: string): AliasTarget | null {
    const table = this.tableOf(sdfg);
    const direct = table.get(name);
    if (direct) return direct;
    // A member of a view or reference is the same member of what it aliases.
    const dot = name.indexOf('.');
    if (dot < 0) return null;
    const owner = this.targetOf(sdfg, name.slice(0, dot));
    if (!owner) return null;
    const rest = name.slice(dot);
    return {
      viewOf: owner.viewOf === null ? null : `${owner.viewOf}${rest}`,
      reason: owner.reason,
      candidates: owner.candidates.map((c) => `${c}${rest}`),
    };
  }

  /**
   * The references of `sdfg` that may reach container `name` (a top-level name) when they are used: their uses
   * are uses of its bytes. Views need no such list: a view is always used next to its viewed AccessNode.
   */
  referencesTo(sdfg: Sdfg, name: string): readonly string[] {
    let m = this.reachers.get(sdfg);
    if (!m) {
      m = new Map();
      for (const [alias, t] of this.tableOf(sdfg)) {
        if (!isReferenceType(sdfg.arrays.get(alias)?.type ?? '')) continue;
        for (const c of t.candidates) {
          const top = c.split('.')[0]!;
          const list = m.get(top);
          if (list) list.push(alias);
          else m.set(top, [alias]);
        }
      }
      this.reachers.set(sdfg, m);
    }
    return m.get(name) ?? [];
  }

  private tableOf(sdfg: Sdfg): Map<string, AliasTarget> {
    let table = this.bySdfg.get(sdfg);
    if (!table) {
      table = resolveSdfg(sdfg);
      this.bySdfg.set(sdfg, table);
    }
    return table;
  }
}

/** One SDFG's views and references, resolved to root containers. */
function resolveSdfg(sdfg: Sdfg): Map<string, AliasTarget> {
  const out = new Map<string, AliasTarget>();
  const aliases = [...sdfg.arrays.values()].filter((d) => isAliasType(d.type));
  if (aliases.length === 0) return out;
  /** Per alias name: what each of its uses reaches (names; a reference's name while unresolved). */
  const reach = new Map<string, Set<string>>(aliases.map((d) => [d.name, new Set()]));
  const unresolved = new Map<string, number>(aliases.map((d) => [d.name, 0]));
  const isView = (name: string): boolean => isViewType(descriptorType(sdfg, name) ?? '');

  forEachState(sdfg.body, (state) => {
    let adj: Adjacency | null = null;
    for (const node of state.nodes) {
      if (node.kind !== 'access') continue;
      const own = reach.get(node.data);
      if (!own) continue;
      adj ??= adjacency(state);
      if (isView(node.data)) {
        // Follow the chain of views down to data that is no view (or to a reference, resolved below).
        let at: AccessNode = node;
        const seen = new Set<number>([node.id]);
        let target: string | null = null;
        for (let k = 0; k < MAX_CHAIN; k++) {
          const v = viewedOf(state, adj, at);
          if (!v || seen.has(v.node.id)) break;
          const name = viewedName(v);
          if (!isView(name)) {
            target = name;
            break;
          }
          seen.add(v.node.id);
          at = v.node;
        }
        if (target === null) unresolved.set(node.data, unresolved.get(node.data)! + 1);
        else own.add(target);
      }
      // A reference is (re)pointed by an incoming edge on its `set` connector.
      for (const e of adj.ins[node.id]!) {
        if (e.dstConnector !== 'set' || e.memlet.data === null || !isReferenceType(descriptorType(sdfg, node.data) ?? '')) continue;
        const from = pathSource(state, adj, e);
        if (from?.kind !== 'access') {
          unresolved.set(node.data, unresolved.get(node.data)! + 1);
          continue;
        }
        const data = e.memlet.data.startsWith(`${from.data}.`) ? e.memlet.data : from.data;
        own.add(data);
      }
    }
  });

  // Views and references that reach other aliases take over what those reach (to a fixed point: chains of
  // references through states, a view of a reference).
  const final = (name: string, seen: Set<string>): Set<string> => {
    const own = reach.get(name);
    if (!own) return new Set([name]);
    const result = new Set<string>();
    for (const r of own) {
      const dot = r.indexOf('.');
      const top = dot < 0 ? r : r.slice(0, dot);
      if (!reach.has(top)) result.add(r);
      else if (!seen.has(top)) for (const x of final(top, new Set([...seen, top]))) result.add(dot < 0 ? x : `${x}${r.slice(dot)}`);
    }
    return result;
  };
  for (const d of aliases) {
    const candidates = [...final(d.name, new Set([d.name]))].sort();
    const reference = isReferenceType(d.type);
    let viewOf: string | null = null;
    let reason: string | null = null;
    if (candidates.length === 1) viewOf = containerId(sdfg, candidates[0]!);
    else if (reference) {
      reason = candidates.length === 0 ? 'reference, set at run time' : `reference, set at run time (to ${candidates.join(' or ')})`;
    } else if (candidates.length === 0) {
      reason =
        unresolved.get(d.name)! > 0
          ? 'view without a viewed container (no AccessNode at the end of its viewed edge)'
          : 'view never used: nothing to view';
    } else reason = `views different containers in different states (${candidates.join(', ')})`;
    out.set(d.name, { viewOf, reason, candidates });
  }
  return out;
}
