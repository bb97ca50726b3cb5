/**
 * The graph's transient marks for one mode, built from the AnalysisView's columns in slices of a few thousand
 * rows, yielding between slices: 30k transients must not freeze the window. Memoised per view and mode.
 */
import type { AnalysisView } from '../../../../electron/engine/view/types.js';
import { transientMarks, type TransientMark, type TransientMarks } from '../../graph/index.js';
import type { ModeName } from '../../theme/index.js';
import { yieldToEventLoop } from '../yield.js';

const SLICE = 2000;
const cache = new WeakMap<AnalysisView, Map<string, TransientMarks>>();


/** Resolves with the marks, or null when `stale()` turns true between slices. */
export async function buildMarks(view: AnalysisView, mode: ModeName | 'ALL', stale: () => boolean): Promise<TransientMarks | null> {
  let byMode = cache.get(view);
  if (!byMode) cache.set(view, (byMode = new Map()));
  const hit = byMode.get(mode);
  if (hit) return hit;
  const t = view.table;
  const out = new Map<string, TransientMark>();
  for (let start = 0; start < t.count; start += SLICE) {
    const list = [];
    for (let i = start; i < Math.min(t.count, start + SLICE); i++) {
      list.push({
        id: t.id[i]!,
        storage: t.dict.storage[t.storage[i]!]!,
        effectiveStorage: t.dict.storage[t.effectiveStorage[i]!]!,
        bytes: t.bytes[i]!,
        eligible: { PERSISTENT: (t.eligible[i]! & 1) !== 0, EXTERNAL: (t.eligible[i]! & 2) !== 0 },
        reason: t.reason[i]! < 0 ? null : t.dict.reason[t.reason[i]!]!,
        allocation: t.dict.allocation[t.allocation[i]!]!,
      });
    }
    for (const [k, v] of transientMarks({ transients: list, target: view.analysis.target }, mode)) out.set(k, v);
    if (start + SLICE < t.count) {
      await yieldToEventLoop();
      if (stale()) return null;
    }
  }
  byMode.set(mode, out);
  return out;
}
