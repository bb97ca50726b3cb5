/**
 * The value ranges of map parameters as one node of a state sees them: the parameters of the maps around it,
 * inner maps over outer ones. Maps of one state often share parameter names over different ranges (DaCe names
 * every elementwise map's parameters `__i0, __i1, …`: bert_specialized has `__i0` over B = 8 in one map and over
 * H = 16 in the next), so a range is looked up through the node's scope chain, never by name across the state.
 */
import type { DataflowNode, MemletEdge } from '../model/sdfg.js';

type Ranges = ReadonlyMap<string, [bigint, bigint]>;

export class ScopeRanges {
  /** Map entry id → the known ranges of its parameters. */
  private readonly own = new Map<number, Map<string, [bigint, bigint]>>();

  constructor(
    private readonly nodes: readonly DataflowNode[],
    /** Ranges outside every map of the state (loop variables of enclosing loops). */
    private readonly outer: Ranges,
  ) {}

  set(entryId: number, param: string, range: [bigint, bigint]): void {
    const m = this.own.get(entryId) ?? new Map<string, [bigint, bigint]>();
    m.set(param, range);
    this.own.set(entryId, m);
  }

  /** The ranges seen inside scope `entryId` (null: the state's top level). */
  inside(entryId: number | null): Map<string, [bigint, bigint]> {
    const chain: number[] = [];
    for (let id = entryId, guard = 0; id !== null && guard < this.nodes.length; guard++) {
      chain.push(id);
      id = this.nodes[id]?.scopeEntry ?? null;
    }
    const out = new Map(this.outer);
    for (const id of chain.reverse()) for (const [p, r] of this.own.get(id) ?? []) out.set(p, r);
    return out;
  }

  /** The ranges a memlet's subset is written over: inside the map an edge leaves inward or comes out of. */
  ofEdge(e: MemletEdge): Map<string, [bigint, bigint]> {
    const src = this.nodes[e.src];
    const dst = this.nodes[e.dst];
    if (src?.kind === 'map_entry' && e.srcConnector?.startsWith('OUT_')) return this.inside(src.id);
    if (dst?.kind === 'map_exit' && dst.entryId !== null) return this.inside(dst.entryId);
    return this.inside(dst?.scopeEntry ?? null);
  }
}
