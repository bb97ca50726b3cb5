/**
 * "Show in graph" for a transient: find its access nodes with the engine's search, keep the ones inside its own
 * SDFG (the element ids are JSON paths, and the SDFG whose path is their longest prefix holds them), then open the
 * path to the first one, zoom to it and select it.
 */
import type { AnalysisView, SdfgSummary } from '../../../../electron/engine/view/types.js';
import { graphHandle } from '../graph/handle.js';
import { store } from '../state.js';

export function sdfgOfElement(sdfgs: readonly SdfgSummary[], id: string): number {
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
  const hit = hits.find((h) => h.kind === 'access' && h.label === name && sdfgOfElement(view.sdfgs, h.id) === sdfg) ?? hits.find((h) => h.kind === 'access' && h.label === name);
  if (!hit) return false;
  await g.reveal({ id: hit.id, path: hit.path });
  g.select(hit.id);
  return true;
}
