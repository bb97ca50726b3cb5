/** Per-call statistics of a timed series. Every function takes plain number arrays or typed arrays alike. */
import { PER_CALL_COLUMNS, type ColumnSums, type PerCallColumn } from './columns.js';
import type { CallSummary } from './result.js';

export type { CallSummary } from './result.js';

/** The per-call columns `summarize` reads: number arrays (a saved result) or typed arrays (the runner's). */
export type SeriesColumns = Record<PerCallColumn, ArrayLike<number>>;

/** Linear interpolation between closest ranks (numpy's default), on an ascending array. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function sum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
}

/** An ascending copy; a Float64Array sorts numerically without a comparator (fast at millions of calls). */
function sortedTimes(xs: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(xs);
  out.sort();
  return out;
}

export function summarize(t: SeriesColumns): CallSummary {
  return summaryOf(sortedTimes(t.totalNs), Object.fromEntries(PER_CALL_COLUMNS.map(({ name }) => [name, sum(t[name])])) as ColumnSums);
}

/** The summary of `sorted.length` calls from their sorted times and each column's exact sum. */
export function summaryOf(sorted: ArrayLike<number>, sums: ColumnSums): CallSummary {
  const n = sorted.length;
  const total = sums.totalNs;
  return {
    medianNs: quantile(sorted, 0.5),
    p10Ns: quantile(sorted, 0.1),
    p90Ns: quantile(sorted, 0.9),
    meanNs: n ? total / n : NaN,
    allocsPerCall: n ? sums.allocs / n : NaN,
    allocShare: total > 0 ? (sums.allocNs + sums.freeNs) / total : 0,
    minorFaultsPerCall: n ? sums.minorFaults / n : NaN,
    freesPerCall: n ? sums.frees / n : NaN,
    allocNsPerCall: n ? sums.allocNs / n : NaN,
    freeNsPerCall: n ? sums.freeNs / n : NaN,
    allocBytesPerCall: n ? sums.allocBytes / n : NaN,
  };
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 erf approximation, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * Two-sided Mann–Whitney U test (normal approximation with tie and continuity correction, as scipy's
 * `mannwhitneyu(method='asymptotic')`). Per-call times are skewed and noisy, so whether two modes really
 * differ is asked of the whole samples, not read off two medians.
 */
export function mannWhitney(a: ArrayLike<number>, b: ArrayLike<number>): { u: number; z: number; p: number } {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 < 2 || n2 < 2) return { u: NaN, z: NaN, p: NaN };
  const all: Array<[number, 0 | 1]> = [...Array.from(a, (v): [number, 0 | 1] => [v, 0]), ...Array.from(b, (v): [number, 0 | 1] => [v, 1])];
  all.sort((x, y) => x[0] - y[0]);
  let rankSumA = 0;
  let ties = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]![0] === all[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    const t = j - i + 1;
    ties += t * t * t - t;
    for (let k = i; k <= j; k++) if (all[k]![1] === 0) rankSumA += rank;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  if (sigma === 0) return { u, z: 0, p: 1 };
  const diff = u - mean;
  const z = (diff - Math.sign(diff) * 0.5) / sigma;
  return { u, z, p: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}
