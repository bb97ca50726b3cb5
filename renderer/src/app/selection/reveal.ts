/**
 * "Show in graph" for a transient: find its access nodes with the engine's search, keep the ones inside its own
 * SDFG (the element ids are JSON paths, and the SDFG whose path is their longest prefix holds them), then open the
 * path to the first one, zoom to it and select it.
 */
import type { AnalysisView, SdfgSummary, SearchHit } from '../../../../electron/engine/view/public.js';
import { selectElement } from '../actions.js';
import { graphHandle } from '../graph/handle.js';
import { store, type Selection } from '../state.js';

function sdfgOfElement(sdfgs: readonly SdfgSummary[], id: string): number {
  let best = 0;
  let bestLen = -1;
  for (const s of sdfgs) {
    const p = s.jsonPath;
    if ((id === p || id.startsWith(`${p}.`) || id.startsWith(`${p}[`)) && p.length > bestLen) {
      best = s.index;
      bestLen = p.length;
    }
  }
  return best;
}

export async function revealTransient(view: AnalysisView, row: number): Promise<boolean> {
  const { client, doc } = store.get();
  const g = graphHandle.current;
  if (!client || !doc || !g) return false;
  const name = view.table.name[row]!;
  const sdfg = view.table.sdfg[row]!;
  const hits = await client.search({ doc: doc.doc, query: name, limit: 500 });
  const hit =
    hits.find((h) => h.kind === 'access' && h.label === name && sdfgOfElement(view.sdfgs, h.id) === sdfg) ??
    hits.find((h) => h.kind === 'access' && h.label === name);
  if (!hit) return false;
  await g.reveal({ id: hit.id, path: hit.path });
  g.select(hit.id);
  return true;
}

/**
 * Opens the way to a search hit, zooms to it, selects it in the graph and makes it the shared selection with
 * everything the panel shows (the node or edge is looked up in its region: the hit carries only its id).
 */
export async function revealHit(hit: SearchHit, source: Selection['source'] = 'search'): Promise<void> {
  const { client, doc } = store.get();
  const g = graphHandle.current;
  if (!client || !doc || !g) return;
  await g.reveal({ id: hit.id, path: hit.path });
  g.select(hit.id);
  const region = hit.path.length ? hit.path[hit.path.length - 1]! : null;
  const content = await client.graph({ doc: doc.doc, region });
  const node = content.nodes.find((n) => n.id === hit.id) ?? null;
  const edge = node ? null : (content.edges.find((e) => e.id === hit.id) ?? null);
  selectElement({ id: hit.id, region: content.id, node, edge }, source);
}
