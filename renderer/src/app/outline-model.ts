/**
 * The outline's numbers for a 30k-transient analysis, kept cheap enough for one short task: one pass groups the
 * rows by SDFG and sums their bytes; the biggest-first order is made only for what is shown (the first rows of
 * an open SDFG: a top-k selection, not a sort of the whole group). Sorting every group up front took 130–160 ms
 * in one render on velocity_tendencies (the outline's useMemo was the open's longest task after the analysis).
 */
import type { AnalysisView } from '../../../electron/engine/view/public.js';

export interface OutlineGroups {
  /** Rows per SDFG index, in file order. */
  rows: Map<number, number[]>;
  /** Per SDFG: row count, the known bytes summed, whether any size is symbolic. */
  totals: Map<number, { count: number; bytes: number; symbolic: boolean }>;
  /** Bytes each row owns, -1 when symbolic or a view or reference (the order's key: those go last). */
  bytes: Float64Array;
  /** Biggest first, symbolic sizes last, then by name: the outline's order of rows. */
  compare(this: void, a: number, b: number): number;
  /** The first `k` rows of SDFG `sdfg` in that order (memoised: re-renders do not redo it). */
  top(sdfg: number, k: number): number[];
}

export function outlineGroups(view: AnalysisView): OutlineGroups {
  const t = view.table;
  const bytes = new Float64Array(t.count);
  const rows = new Map<number, number[]>();
  const totals = new Map<number, { count: number; bytes: number; symbolic: boolean }>();
  for (let i = 0; i < t.count; i++) {
    const b = t.bytes[i];
    // A view or reference owns nothing: never summed, listed after the containers that hold memory.
    const alias = t.alias[i]! >= 0;
    const v = alias || b === null || b === undefined ? -1 : typeof b === 'number' ? b : Number(b);
    bytes[i] = v;
    const k = t.sdfg[i]!;
    let list = rows.get(k);
    let tot = totals.get(k);
    if (!list || !tot) {
      rows.set(k, (list = []));
      totals.set(k, (tot = { count: 0, bytes: 0, symbolic: false }));
    }
    list.push(i);
    tot.count++;
    if (alias) continue;
    if (v < 0 || Number.isNaN(v)) tot.symbolic = true;
    else tot.bytes += v;
  }
  const names = t.name;
  const compare = (a: number, b: number): number => bytes[b]! - bytes[a]! || (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0);
  const memo = new Map<string, number[]>();
  const top = (sdfg: number, k: number): number[] => {
    const key = `${sdfg}:${k}`;
    let hit = memo.get(key);
    if (!hit) memo.set(key, (hit = topK(rows.get(sdfg) ?? [], k, compare)));
    return hit;
  };
  return { rows, totals, bytes, compare, top };
}

/** The first `k` of `list` in `compare` order (all of them, sorted, when `k` ≥ its length); `list` is not changed. */
export function topK(list: readonly number[], k: number, compare: (a: number, b: number) => number): number[] {
  if (list.length <= k * 4) return list.slice().sort(compare).slice(0, k);
  const best: number[] = [];
  for (const i of list) {
    if (best.length === k && compare(i, best[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(best[mid]!, i) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
