/**
 * Interim AnalysisView builder: the `analysis@1` document plus live bytes after each step per mode and storage.
 * The memory-views work replaces it with engine/view/analysis.ts; views.ts is the one place that chooses.
 *
 * Per mode, a transient holds memory
 * - over its live range when it still allocates per call in that mode;
 * - over the whole program when it sits in init (file-Persistent, or moved there by PERSISTENT) or in a caller
 *   workspace (file-External); in EXTERNAL the workspace counts once, at its packed size.
 * A storage whose curve needs an unknown (symbolic) size has no curve rather than a wrong one.
 */
import { jsonInt, toAnalysisJson, type JsonInt } from '../engine/analysis/json.js';
import { allocatesPerCall } from '../engine/analysis/allocation.js';
import { MODES, type Analysis, type Mode, type TransientInfo } from '../engine/analysis/index.js';
import type { AnalysisView } from '../engine/view/types.js';

type Span = { first: number; last: number };

function spanIn(t: TransientInfo, mode: Mode, a: Analysis, whole: Span): Span | null | 'workspace' {
  const site = t.allocation;
  if (site.kind === 'init') return whole;
  if (site.kind === 'external') return mode === 'EXTERNAL' ? 'workspace' : whole;
  if (!allocatesPerCall(site)) return null;
  if (a.modes[mode].stillAllocating.includes(t.id)) return t.live ?? whole;
  return mode === 'PERSISTENT' ? whole : mode === 'EXTERNAL' ? 'workspace' : (t.live ?? whole);
}

export function memoryCurves(a: Analysis): Record<string, Record<string, JsonInt[]>> {
  const n = a.steps.length;
  const whole = { first: 0, last: Math.max(0, n - 1) };
  const out: Record<string, Record<string, JsonInt[]>> = {};
  for (const mode of MODES) {
    const deltas = new Map<string, bigint[] | null>();
    const add = (storage: string, bytes: bigint | null, span: Span): void => {
      if (!deltas.has(storage)) deltas.set(storage, new Array<bigint>(n + 1).fill(0n));
      const d = deltas.get(storage)!;
      if (d === null) return;
      if (bytes === null) {
        deltas.set(storage, null);
        return;
      }
      d[span.first]! += bytes;
      d[span.last + 1]! -= bytes;
    };
    for (const t of a.transients) {
      const span = spanIn(t, mode, a, whole);
      if (span !== null && span !== 'workspace' && n > 0) add(t.effectiveStorage, t.bytes, span);
    }
    if (mode === 'EXTERNAL' && n > 0) for (const [storage, bytes] of Object.entries(a.modes.EXTERNAL.workspace)) add(storage, bytes, whole);
    const curves: Record<string, JsonInt[]> = {};
    for (const [storage, d] of [...deltas].sort(([x], [y]) => (x < y ? -1 : 1))) {
      if (d === null) continue;
      let live = 0n;
      curves[storage] = d.slice(0, n).map((delta) => jsonInt((live += delta)));
    }
    out[mode] = curves;
  }
  return out;
}

export function interimAnalysisView(a: Analysis): AnalysisView {
  return { analysis: toAnalysisJson(a) as Record<string, unknown>, memory: memoryCurves(a) };
}
