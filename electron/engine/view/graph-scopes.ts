/**
 * The scope tree of one state's dataflow, as the graph view needs it: which nodes each level (the state's top
 * level, or the inside of a map/consume scope) shows, and which memlet edges it draws between them.
 *
 * A scope is drawn in its parent as one node (the entry's id) that stands for entry + inside + exit. So an edge
 * leaving the exit is drawn from the scope node, and inside the scope the entry's out-edges start at the
 * region's boundary (and edges into the exit end there). Edges that cross scope levels without passing through
 * entry/exit (malformed files) are lifted to the lowest level that contains both ends, never dropped.
 */
import type { DataflowNode, MemletEdge, StateBlock } from '../model/sdfg.js';

/** -1 = the state's top level; otherwise the id of a scope's entry node. */
export type Level = number;
export const TOP: Level = -1;

export type Endpoint = { kind: 'node'; node: number } | { kind: 'boundary' };

interface LevelEdge {
  edge: MemletEdge;
  src: Endpoint;
  dst: Endpoint;
}

export interface StateScopes {
  /** Nodes drawn at each level, in file order (paired exits are part of their scope, not listed). */
  nodes: Map<Level, number[]>;
  edges: Map<Level, LevelEdge[]>;
  /** For every level, the enclosing levels from the top down (excluding TOP, including itself). */
  chain(level: Level): Level[];
  /** The level a node is drawn at (a paired exit: its scope's level, i.e. inside its own scope). */
  levelOf(node: number): Level;
  /** Exit node id of a scope entry, when paired. */
  exitOf(entry: number): number | null;
}

const isEntry = (n: DataflowNode | undefined): boolean => n?.kind === 'map_entry' || n?.kind === 'consume_entry';

const cache = new WeakMap<StateBlock, StateScopes>();

export function stateScopes(state: StateBlock): StateScopes {
  let s = cache.get(state);
  if (!s) {
    s = build(state);
    cache.set(state, s);
  }
  return s;
}

function build(state: StateBlock): StateScopes {
  const nodes = state.nodes;
  // The scope a node sits in: its scope_entry when that names an entry node, else the top level.
  const parent = new Array<Level>(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const se = nodes[i]!.scopeEntry;
    parent[i] = se !== null && se !== i && isEntry(nodes[se]) ? se : TOP;
  }
  // An exit belongs to the scope of its entry; an entry's own level is its parent.
  const exitOwner = new Array<number | null>(nodes.length).fill(null);
  const exitOfEntry = new Map<number, number>();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if ((n.kind === 'map_exit' || n.kind === 'consume_exit') && n.entryId !== null && isEntry(nodes[n.entryId])) {
      exitOwner[i] = n.entryId;
      if (!exitOfEntry.has(n.entryId)) exitOfEntry.set(n.entryId, i);
    }
  }
  // Levels of scopes, with cycles in malformed scope_entry chains cut at the top level.
  const levelParent = (entry: number): Level => {
    const p = parent[entry]!;
    return p === entry ? TOP : p;
  };
  const chains = new Map<Level, Level[]>([[TOP, []]]);
  const chain = (level: Level): Level[] => {
    let c = chains.get(level);
    if (c) return c;
    const up: Level[] = [];
    const seen = new Set<Level>();
    for (let l = level; l !== TOP && !seen.has(l); l = levelParent(l)) {
      seen.add(l);
      up.push(l);
    }
    c = up.reverse();
    chains.set(level, c);
    return c;
  };

  const levelNodes = new Map<Level, number[]>();
  const push = <T>(m: Map<Level, T[]>, k: Level, v: T): void => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (let i = 0; i < nodes.length; i++) {
    if (exitOwner[i] !== null) continue;
    push(levelNodes, parent[i]!, i);
  }

  // Where each end of an edge sits, before lifting.
  const srcEnd = (i: number): { level: Level; ep: Endpoint } => {
    if (isEntry(nodes[i])) return { level: i, ep: { kind: 'boundary' } };
    const owner = exitOwner[i];
    if (owner !== null && owner !== undefined) return { level: levelParent(owner), ep: { kind: 'node', node: owner } };
    return { level: parent[i]!, ep: { kind: 'node', node: i } };
  };
  const dstEnd = (i: number): { level: Level; ep: Endpoint } => {
    const owner = exitOwner[i];
    if (owner !== null && owner !== undefined) return { level: owner, ep: { kind: 'boundary' } };
    if (isEntry(nodes[i])) return { level: levelParent(i), ep: { kind: 'node', node: i } };
    return { level: parent[i]!, ep: { kind: 'node', node: i } };
  };
  /** The endpoint as seen from `target`, an enclosing level of `level`. */
  const lift = (level: Level, ep: Endpoint, target: Level): Endpoint => {
    if (level === target) return ep;
    const c = chain(level);
    const at = target === TOP ? 0 : c.indexOf(target) + 1;
    return { kind: 'node', node: c[at]! };
  };

  const levelEdges = new Map<Level, LevelEdge[]>();
  for (const edge of state.edges) {
    if (!nodes[edge.src] || !nodes[edge.dst]) continue;
    const s = srcEnd(edge.src);
    const d = dstEnd(edge.dst);
    let level: Level;
    if (s.level === d.level) level = s.level;
    else {
      const cs = chain(s.level);
      const cd = chain(d.level);
      let k = 0;
      while (k < cs.length && k < cd.length && cs[k] === cd[k]) k++;
      level = k === 0 ? TOP : cs[k - 1]!;
    }
    // An entry → exit edge of one scope (data passing straight through) stays inside, boundary to boundary.
    const src = lift(s.level, s.ep, level);
    const dst = lift(d.level, d.ep, level);
    push(levelEdges, level, { edge, src, dst });
  }

  return {
    nodes: levelNodes,
    edges: levelEdges,
    chain,
    levelOf: (i) => exitOwner[i] ?? parent[i] ?? TOP,
    exitOf: (entry) => exitOfEntry.get(entry) ?? null,
  };
}
