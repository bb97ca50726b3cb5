/**
 * Numbers as generated text shows them: each one a `NumberRun` carrying its exact value and a key that says
 * where in the result it comes from. Keys are `<quantity>|<result index>|<mode label>` (docs/reports.md), so a
 * test can look every shown number up in the result again.
 */
import { PER_CALL_COLUMN, type PerCallColumn } from '../profile/columns.js';
import type { ModeResult } from '../profile/result.js';
import { formatBytes, formatCount, formatNs, formatP, formatPercent, formatRatio } from '../view/format.js';
import type { NumberRun } from './types.js';

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** A count per call: integers as such ("3"), others with one decimal ("2.5"). */
export function countText(x: number): string {
  if (!Number.isFinite(x)) return '–';
  return Number.isInteger(x) ? formatCount(x) : x.toFixed(1);
}

/** A per-call column's mean over every timed call: the summary's (the table's `mean` field), exact where the rows
 * may be a subsample (docs/profile-schema.md "Sampling"); results older than that field kept every call in the
 * columns, whose mean it then is. */
export function columnMean(m: ModeResult, column: PerCallColumn): number {
  return m.summary[PER_CALL_COLUMN[column].mean] ?? mean(m.calls[column]);
}

/** Exact over every timed call where the summary has them; older results kept every call in the columns. */
export const perCall = {
  frees: (m: ModeResult): number => columnMean(m, 'frees'),
  /** Mean ns inside instrumented allocations and frees per call. */
  allocatorNs: (m: ModeResult): number =>
    m.summary.allocNsPerCall != null && m.summary.freeNsPerCall != null
      ? m.summary.allocNsPerCall + m.summary.freeNsPerCall
      : mean(m.calls.allocNs.map((a, i) => a + (m.calls.freeNs[i] ?? 0))),
};

/** Σ of a mode's workspace over storages; null when it has none. */
export function workspaceSum(m: ModeResult): number | null {
  const values = Object.values(m.workspaceBytes);
  return values.length ? values.reduce((s, b) => s + b, 0) : null;
}

/**
 * A p-value as text. Next to the significance threshold (0.01) two decimals would read "p = 0.01" for a p of
 * 0.0103, beside "a difference is claimed only when p < 0.01": there it gets four.
 */
export function pText(p: number): string {
  return p >= 0.0095 && p < 0.0105 ? `p = ${p.toFixed(4)}` : formatP(p);
}

export const N = {
  ns: (key: string, value: number): NumberRun => ({ key, value, text: formatNs(value) }),
  bytes: (key: string, value: number): NumberRun => ({ key, value, text: formatBytes(value) }),
  count: (key: string, value: number): NumberRun => ({ key, value, text: countText(value) }),
  ratio: (key: string, value: number): NumberRun => ({ key, value, text: formatRatio(value) }),
  percent: (key: string, value: number): NumberRun => ({ key, value, text: formatPercent(value) }),
  p: (key: string, value: number): NumberRun => ({ key, value, text: pText(value) }),
};

/** `quantity|r|label` */
export const key = (quantity: string, result: number, label: string): string => `${quantity}|${result}|${label}`;
