/**
 * Where each container is touched by an AccessNode, and how each nested SDFG is embedded (inside a map or
 * not, under which schedule). Built in one pass over every state of every SDFG.
 */
import type { AccessNode, Sdfg, SdfgFile, StateBlock } from '../model/sdfg.js';
import { forEachState, scheduleOf, scopeChain, scopeLabel } from './walk.js';

export interface AccessSite {
  state: StateBlock;
  node: AccessNode;
}

export interface Embedding {
  /** The innermost map (or other scope) around the NestedSDFG node, or around one of its ancestors. */
  scope: { map: string; state: string; sdfg: string } | null;
  /** Schedule of the innermost scope around the NestedSDFG node chain (null: the SDFG runs at top level). */
  schedule: string | null;
}

export class AccessIndex {
  private readonly bySdfg = new Map<Sdfg, Map<string, AccessSite[]>>();
  private readonly embeddings = new Map<Sdfg, Embedding>();

  constructor(file: SdfgFile) {
    for (const sdfg of file.sdfgs) {
      const table = new Map<string, AccessSite[]>();
      this.bySdfg.set(sdfg, table);
      forEachState(sdfg.body, (state) => {
        for (const node of state.nodes) {
          if (node.kind !== 'access') continue;
          const site = { state, node };
          push(table, node.data, site);
          // `outer.member` paths also touch the structure `outer` (and each intermediate level).
          let dot = node.data.indexOf('.');
          while (dot > 0) {
            push(table, node.data.slice(0, dot), site);
            dot = node.data.indexOf('.', dot + 1);
          }
        }
      });
    }
    for (const sdfg of file.sdfgs) this.embeddingOf(sdfg);
  }

  of(sdfg: Sdfg, name: string): AccessSite[] {
    return this.bySdfg.get(sdfg)?.get(name) ?? [];
  }

  embeddingOf(sdfg: Sdfg): Embedding {
    const hit = this.embeddings.get(sdfg);
    if (hit) return hit;
    let result: Embedding = { scope: null, schedule: null };
    if (sdfg.parent) {
      const outer = this.embeddingOf(sdfg.parent.sdfg);
      const chain = scopeChain(sdfg.parent.state, sdfg.parent.node);
      const inner = chain[0];
      result = inner
        ? {
            scope: { map: scopeLabel(inner), state: sdfg.parent.state.label, sdfg: sdfg.parent.sdfg.name },
            schedule: scheduleOf(inner),
          }
        : outer;
    }
    this.embeddings.set(sdfg, result);
    return result;
  }
}

function push(table: Map<string, AccessSite[]>, key: string, site: AccessSite): void {
  const list = table.get(key);
  if (list) list.push(site);
  else table.set(key, [site]);
}
