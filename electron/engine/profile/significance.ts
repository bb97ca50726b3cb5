/**
 * What the profiler's tests can and cannot tell from a sample: the significance threshold, the smallest p-value
 * the Mann–Whitney test can reach with n1 and n2 calls (and so how many calls a verdict needs), and the
 * distribution-free comparison of two low quantiles (p10) that replaces it on a noisy run. Pure: the renderer,
 * the reports and the CLI share it through view/verdict.ts.
 */
import { normalCdf } from './stats.js';

/** Differences with a larger p-value are reported as not significant. */
export const SIGNIFICANCE = 0.01;

/**
 * The smallest two-sided p-value `mannWhitney` (stats.ts: normal approximation, continuity correction) can
 * return for samples of n1 and n2 values: every value of one sample below every value of the other, no ties.
 * Any other pair of samples of these sizes gives a larger one. NaN below two values a side (no test).
 */
export function mannWhitneyMinP(n1: number, n2: number): number {
  if (n1 < 2 || n2 < 2) return NaN;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1));
  const z = ((n1 * n2) / 2 - 0.5) / sigma;
  return Math.min(1, 2 * (1 - normalCdf(z)));
}

/** The fewest timed calls per mode (the same number on both sides) with which the test can reach p < alpha. */
export function mannWhitneyMinCalls(alpha = SIGNIFICANCE): number {
  let n = 2;
  while (!(mannWhitneyMinP(n, n) < alpha)) n++;
  return n;
}

/**
 * The indices (0-based, in an ascending sample of n) of a distribution-free confidence interval for the q
 * quantile: [x_lo, x_hi] covers it with probability ≥ `confidence`, because the number of values below the
 * true quantile is Binomial(n, q). `lo` is −1 when no order statistic is low enough (the interval is open
 * below), `hi` is n when none is high enough (open above).
 */
export function quantileIntervalRanks(n: number, q: number, confidence: number): { lo: number; hi: number } {
  const tail = (1 - confidence) / 2;
  // P(B ≤ k) for B ~ Binomial(n, q), summed upwards in log space; terms below 1e-300 do not count.
  const logQ = Math.log(q);
  const logR = Math.log1p(-q);
  let logPmf = n * logR;
  let cdf = 0;
  let lo = -1;
  let hi = n;
  for (let k = 0; k <= n; k++) {
    cdf += Math.exp(logPmf);
    // The value at index k lies above the quantile when at most k values fall below it, P(B ≤ k): it is a
    // lower bound while that is at most `tail`, and an upper bound once it is at least 1 − tail.
    if (cdf <= tail) lo = k;
    if (cdf >= 1 - tail) {
      hi = k;
      break;
    }
    logPmf += Math.log(n - k) - Math.log(k + 1) + logQ - logR;
  }
  return { lo: lo >= 0 && lo < n ? lo : -1, hi: hi < n ? hi : n };
}

export interface QuantileInterval {
  q: number;
  /** The sample's own q quantile (linear interpolation, as stats.ts `quantile`). */
  value: number;
  /** −Infinity / +Infinity when the sample is too small to bound that side. */
  lo: number;
  hi: number;
}

/** The q quantile of an ascending sample with its distribution-free interval at `confidence`. */
function quantileInterval(sorted: ArrayLike<number>, q: number, confidence: number): QuantileInterval {
  const n = sorted.length;
  const pos = (n - 1) * q;
  const a = Math.floor(pos);
  const value = n ? sorted[a]! + ((sorted[Math.ceil(pos)] ?? sorted[a]!) - sorted[a]!) * (pos - a) : NaN;
  const { lo, hi } = quantileIntervalRanks(n, q, confidence);
  return { q, value, lo: lo < 0 ? -Infinity : sorted[lo]!, hi: hi >= n ? Infinity : sorted[hi]! };
}

/**
 * The fewest values with which both ends of the q quantile's interval at `confidence` are bounded: below
 * that, no sample can show a difference of that quantile.
 */
export function quantileMinCalls(q: number, confidence: number): number {
  let n = 1;
  for (;;) {
    const { lo, hi } = quantileIntervalRanks(n, q, confidence);
    if (lo >= 0 && hi < n) return n;
    n++;
  }
}

/** The confidence of each of the two intervals compared: together they err in at most `alpha` of the runs. */
export const intervalConfidence = (alpha = SIGNIFICANCE): number => 1 - alpha / 2;

export interface QuantileComparison {
  subject: QuantileInterval;
  baseline: QuantileInterval;
  /** The subject's q quantile is lower / higher than the baseline's beyond the noise, or not shown to differ. */
  outcome: 'lower' | 'higher' | 'overlap' | 'too-few-calls';
}

/**
 * Whether two samples' q quantiles differ: each gets its distribution-free interval at 1 − alpha/2, and they
 * are said to differ when the intervals do not overlap. If the quantiles were equal, that happens only when
 * one interval misses it, which is at most alpha/2 for each: so a difference is claimed wrongly in at most
 * `alpha` of the runs (Bonferroni), whatever the shape of the two distributions.
 */
export function compareQuantile(
  subjectSorted: ArrayLike<number>,
  baselineSorted: ArrayLike<number>,
  q: number,
  alpha = SIGNIFICANCE,
): QuantileComparison {
  const confidence = intervalConfidence(alpha);
  const subject = quantileInterval(subjectSorted, q, confidence);
  const baseline = quantileInterval(baselineSorted, q, confidence);
  const bounded = (i: QuantileInterval) => Number.isFinite(i.lo) && Number.isFinite(i.hi);
  if (!bounded(subject) || !bounded(baseline)) return { subject, baseline, outcome: 'too-few-calls' };
  const outcome = subject.hi < baseline.lo ? 'lower' : baseline.hi < subject.lo ? 'higher' : 'overlap';
  return { subject, baseline, outcome };
}
