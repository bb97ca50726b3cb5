/**
 * The per-call samples of the timed calls, from the addon's typed columns to the saved result, in memory that
 * stays bounded at any number of calls (docs/profile.md, "Many calls"):
 *
 * - every timed call's time (`totalNs`, and a GPU run's `deviceNs`) stays whole, as a Float64Array (8 bytes a
 *   call): the median and the quantiles are exact over all calls;
 * - every column's sum is exact over all calls (the means and shares of the summary);
 * - the per-call rows the result keeps are every call up to MAX_KEPT_CALLS per mode, beyond that the same
 *   number of evenly spaced calls of each process (`keptIndex`), which the charts and the significance test use.
 *
 * The runner child reduces its process's columns with `processTiming` before they cross to the parent, and the
 * engine pools the processes with `poolTimings`. Pure: no Node module (runner child and engine alike use it).
 */
import { emptyColumns, PER_CALL_COLUMNS, type ColumnSums, type PerCallColumn, type TypedColumns } from './columns.js';
import type { VariantGpuTiming, VariantTiming } from './runner-host.js';
import { quantile } from './stats.js';

/** Timed calls per process at most: the addon allocates its per-call columns up front (kMaxCalls in program_library_napi.cc,
 * 48 bytes a call). */
export const MAX_CALLS = 16_777_216;

/**
 * Per mode, the result keeps every timed call up to this many (all processes together); beyond it,
 * `keptPerProcess` evenly spaced calls of each process. 100,000 calls are about 3.5 MB of JSON per mode and
 * keep the Mann–Whitney test and the charts well under a second.
 */
export const MAX_KEPT_CALLS = 100_000;

/** Rows kept of each process that times `calls` calls, out of `processes`: all of them when the mode's calls
 * fit MAX_KEPT_CALLS. */
export function keptPerProcess(calls: number, processes: number): number {
  return Math.min(calls, Math.max(1, Math.floor(MAX_KEPT_CALLS / Math.max(1, processes))));
}

/** The call (index among a process's `n` timed calls) that kept row `i` of `k` is: floor(i·n / k). Exact:
 * i·n stays far below 2^53 (k ≤ 100,000, n ≤ 2^24). */
export function keptIndex(i: number, n: number, k: number): number {
  return k >= n ? i : Math.floor((i * n) / k);
}

type AnyTyped = Float64Array | Uint32Array;

/** Rows `keptIndex(i, n, k)` of a column, or the column itself when every call is kept. */
export function keepRows<T extends AnyTyped>(column: T, k: number): T {
  const n = column.length;
  if (k >= n) return column;
  const out = new (column.constructor as { new (length: number): T })(k);
  for (let i = 0; i < k; i++) out[i] = column[keptIndex(i, n, k)]!;
  return out;
}

function columnSum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
}

/** An ascending copy (a Float64Array sorts numerically, NaN last). */
export function sortedCopy(xs: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(xs);
  out.sort();
  return out;
}

/**
 * One process's timed calls as they cross to the parent: whole times, exact sums, the kept rows. When rows are
 * left out, `stats.minorFaults` is sorted in place for its median (the runner's own copy, no longer needed in
 * call order: 8 bytes a call saved at the child's peak).
 */
export function processTiming(
  stats: TypedColumns & { overflowed: boolean },
  keep: number,
  loopWallNs: number,
  warmupCalls: number,
): VariantTiming {
  const calls = stats.totalNs.length;
  const k = Math.min(calls, Math.max(1, keep));
  const kept = {} as TypedColumns;
  const sums = {} as ColumnSums;
  for (const { name: c } of PER_CALL_COLUMNS) {
    (kept as unknown as Record<PerCallColumn, AnyTyped>)[c] = keepRows<AnyTyped>(stats[c], k);
    sums[c] = columnSum(stats[c]);
  }
  const faults = k < calls ? stats.minorFaults.sort() : sortedCopy(stats.minorFaults);
  return {
    calls,
    totalNs: stats.totalNs,
    sums,
    kept,
    keptPerProcess: k,
    faultMedians: calls ? [quantile(faults, 0.5)] : [],
    overflowed: stats.overflowed,
    batchWallNs: loopWallNs,
    warmupCalls: [warmupCalls],
  };
}

/** A GPU process's device columns: whole device times, the kept rows of all three. */
export function processGpuTiming(
  s: { deviceNs: Float64Array; hostReturnNs: Float64Array; hostSyncNs: Float64Array },
  keep: number,
  pool: VariantGpuTiming['pool'],
): VariantGpuTiming {
  const k = Math.min(s.deviceNs.length, Math.max(1, keep));
  return {
    deviceNs: s.deviceNs,
    kept: { deviceNs: keepRows(s.deviceNs, k), hostReturnNs: keepRows(s.hostReturnNs, k), hostSyncNs: keepRows(s.hostSyncNs, k) },
    pool,
  };
}

/** Nothing timed (a verification-only job): no calls, no warm-up. */
export function emptyTiming(): VariantTiming {
  return { ...processTiming({ ...emptyColumns(), overflowed: false }, 1, 0, 0), warmupCalls: [] };
}

export function concatTyped<T extends AnyTyped>(parts: readonly T[]): T {
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new (parts[0]!.constructor as { new (length: number): T })(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Several processes' timings as one, in process order (a process that timed nothing adds nothing). */
export function poolTimings(timings: readonly VariantTiming[]): VariantTiming {
  if (!timings.length) throw new Error('poolTimings: no timings');
  const timed = timings.filter((t) => t.calls > 0);
  const from = timed.length ? timed : [timings[0]!];
  const kept = {} as TypedColumns;
  const sums = {} as ColumnSums;
  for (const { name: c } of PER_CALL_COLUMNS) {
    (kept as unknown as Record<PerCallColumn, AnyTyped>)[c] = concatTyped(from.map((t) => t.kept[c]));
    sums[c] = from.reduce((s, t) => s + t.sums[c], 0);
  }
  let keptPerProcess = 0;
  for (const t of from) keptPerProcess = Math.max(keptPerProcess, t.keptPerProcess);
  return {
    calls: from.reduce((s, t) => s + t.calls, 0),
    totalNs: concatTyped(from.map((t) => t.totalNs)),
    sums,
    kept,
    keptPerProcess,
    faultMedians: timings.flatMap((t) => t.faultMedians),
    overflowed: timings.some((t) => t.overflowed),
    batchWallNs: timings.reduce((s, t) => s + t.batchWallNs, 0),
    warmupCalls: timings.flatMap((t) => t.warmupCalls),
  };
}

/** Largest value of a list, at any length (no spread into Math.max); -Infinity when empty. */
export function maxOf(xs: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) if (xs[i]! > m) m = xs[i]!;
  return m;
}
