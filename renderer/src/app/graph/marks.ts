/**
 * The graph's transient marks for one mode, built from the AnalysisView's columns in slices of at most
 * `SLICE_MS` of work, yielding between slices: 30k transients must not freeze the window. Fixed slices of
 * 2,000 rows were 50–120 ms tasks on a loaded machine (their garbage made the next minor GC long too).
 * Memoised per view and mode.
 */
import type { AnalysisView } from '../../../../electron/engine/view/public.js';
import { transientMarks, type TransientMark, type TransientMarks } from '../../graph/index.js';
import type { ModeName } from '../../theme/index.js';
import { yieldToEventLoop } from '../../yield.js';

/** Rows per step between clock reads, and the work per slice before yielding. */
const STEP = 250;
const SLICE_MS = 8;
const cache = new WeakMap<AnalysisView, Map<string, TransientMarks>>();

/** Resolves with the marks, or null when `stale()` turns true between slices. */
export async function buildMarks(view: AnalysisView, mode: ModeName | 'ALL', stale: () => boolean): Promise<TransientMarks | null> {
  let byMode = cache.get(view);
  if (!byMode) cache.set(view, (byMode = new Map<string, TransientMarks>()));
  const hit = byMode.get(mode);
  if (hit) return hit;
  const t = view.table;
  const out = new Map<string, TransientMark>();
  let sliceStart = performance.now();
  for (let start = 0; start < t.count; start += STEP) {
    const list = [];
    for (let i = start; i < Math.min(t.count, start + STEP); i++) {
      list.push({
        id: t.id[i]!,
        storage: t.dict.storage[t.storage[i]!]!,
        effectiveStorage: t.dict.storage[t.effectiveStorage[i]!]!,
        bytes: t.bytes[i]!,
        eligible: { PERSISTENT: (t.eligible[i]! & 1) !== 0, EXTERNAL: (t.eligible[i]! & 2) !== 0 },
        reason: t.reason[i]! < 0 ? null : t.dict.reason[t.reason[i]!]!,
        allocation: t.dict.allocation[t.allocation[i]!]!,
        // Views and references: they own no bytes (every roll-up skips them).
        ...(t.alias[i]! >= 0 ? { viewOf: t.dict.alias[t.alias[i]!]!.viewOf, type: t.dict.type[t.type[i]!]! } : {}),
      });
    }
    for (const [k, v] of transientMarks({ transients: list, target: view.analysis.target }, mode)) out.set(k, v);
    if (start + STEP < t.count && performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      if (stale()) return null;
      sliceStart = performance.now();
    }
  }
  byMode.set(mode, out);
  return out;
}
