/**
 * One time comparison between two modes' calls: at the median with Mann–Whitney, or at p10 with
 * distribution-free intervals on a noisy run, or "too few calls to test" with how many would do. The verdict
 * (verdict.ts) builds every sentence on these. Pure: no Node, no DOM.
 */
import { sortedOf } from '../profile/noise.js';
import type { ModeResult } from '../profile/result.js';
import {
  compareQuantile,
  intervalConfidence,
  mannWhitneyMinCalls,
  mannWhitneyMinP,
  quantileMinCalls,
  SIGNIFICANCE,
  type QuantileInterval,
} from '../profile/significance.js';
import { mannWhitney, quantile } from '../profile/stats.js';
import { formatCount, formatNs, formatP, formatRatio } from './format.js';

/** Which figure of each mode's calls a comparison is made on. */
export type Statistic = 'median' | 'p10';
/** The robust figure of a noisy run: the 10th percentile of the call times. */
export const ROBUST_QUANTILE = 0.1;

type TimeVerdict = 'faster' | 'slower' | 'no-difference' | 'too-few-calls';

/** Whether `subject` differs in time per call from `baseline`, and by how much. */
export interface TimeComparison {
  verdict: TimeVerdict;
  statistic: Statistic;
  /** The baseline's figure / the subject's: > 1 when the subject is faster. */
  ratio: number;
  /** The figures compared: medians, or p10 on a noisy run. */
  values: { subject: number; baseline: number };
  medians: { subject: number; baseline: number };
  /** Two-sided Mann–Whitney p-value over every timed call (median comparisons); NaN otherwise. */
  p: number;
  /** p10 comparisons: each side's distribution-free interval at 1 − SIGNIFICANCE/2; null otherwise. */
  intervals: { subject: QuantileInterval; baseline: QuantileInterval } | null;
  /** Timed calls on each side. */
  calls: { subject: number; baseline: number };
  /** too-few-calls: the timed calls per mode with which the test can reach the threshold; null otherwise. */
  needCalls: number | null;
  /** "1.37× faster per call", "no significant difference per call", "too few calls to test". */
  claim: string;
  /** "p < 0.001"; "medians 72.0 ms vs 71.8 ms, p = 0.13"; why there are too few calls. */
  evidence: string;
  /** claim (evidence) */
  text: string;
}

/** One side of a comparison: its per-call times and the figures the result records for them. */
export interface Sample {
  calls: ArrayLike<number>;
  median: number;
  p10: number;
}

export const modeSample = (m: ModeResult): Sample => ({ calls: m.calls.totalNs, median: m.summary.medianNs, p10: m.summary.p10Ns });

export const pct = (x: number): string => `${Number((x * 100).toPrecision(3))} %`;

function tooFew(n1: number, n2: number, statistic: Statistic): { need: number; evidence: string } {
  const have =
    n1 === n2 ? `${formatCount(n1)} timed call${n1 === 1 ? '' : 's'} per mode` : `${formatCount(n1)} and ${formatCount(n2)} timed calls`;
  if (statistic === 'p10') {
    const need = quantileMinCalls(ROBUST_QUANTILE, intervalConfidence());
    return { need, evidence: `${have} cannot bound a p10 at ${pct(intervalConfidence())}; ${formatCount(need)} per mode would` };
  }
  const need = mannWhitneyMinCalls(SIGNIFICANCE);
  const best = mannWhitneyMinP(n1, n2);
  const reach = Number.isFinite(best)
    ? `can reach p = ${Number(best.toPrecision(2))} at best, not p < ${SIGNIFICANCE}`
    : 'cannot be tested';
  return { need, evidence: `${have} ${reach}; ${formatCount(need)} per mode would` };
}

function finish(c: Omit<TimeComparison, 'text'>): TimeComparison {
  return { ...c, text: `${c.claim} (${c.evidence})` };
}

/**
 * The run's own A/A control: the widest ratio (≥ 1, on the statistic compared) between two modes that ran the same
 * library, and which two. Calls of one process are not independent draws: two runs of one library (hello_world's
 * five modes, on a busy machine) differed at p < 0.001 in 9 of 10 pairs by 1–4 %. A difference no wider than
 * that is not claimed for modes of different code either.
 */
export interface SameCodeSpread {
  ratio: number;
  between: string;
}

/** `c` as "no difference" when its ratio lies within the run's same-code spread; unchanged otherwise. */
function withinSpread(c: TimeComparison, spread: SameCodeSpread | null | undefined): TimeComparison {
  if (!spread || (c.verdict !== 'faster' && c.verdict !== 'slower')) return c;
  const r = c.ratio >= 1 ? c.ratio : 1 / c.ratio;
  if (!(r <= spread.ratio)) return c;
  return finish({
    ...c,
    verdict: 'no-difference',
    claim: c.statistic === 'p10' ? 'no clear difference at p10' : 'no significant difference per call',
    evidence: `${formatRatio(r)} apart (${c.evidence}), within the ${formatRatio(spread.ratio)} between ${spread.between}, which ran the same library in this run`,
  });
}

/** The profiler's test of whether `subject` is faster or slower than `baseline` per call, on `statistic`; with
 * `spread`, a difference within the run's same-code spread is not claimed. */
export function compareTimes(
  subject: Sample,
  baseline: Sample,
  statistic: Statistic = 'median',
  spread?: SameCodeSpread | null,
): TimeComparison {
  return withinSpread(testTimes(subject, baseline, statistic), spread);
}

function testTimes(subject: Sample, baseline: Sample, statistic: Statistic): TimeComparison {
  const calls = { subject: subject.calls.length, baseline: baseline.calls.length };
  const medians = { subject: subject.median, baseline: baseline.median };
  const values = statistic === 'p10' ? { subject: subject.p10, baseline: baseline.p10 } : medians;
  const ratio = values.baseline / values.subject;
  const base = { statistic, ratio, values, medians, calls, p: NaN, intervals: null, needCalls: null };
  const at = statistic === 'p10' ? 'at p10' : 'per call';
  const moved = (faster: boolean) => `${formatRatio(faster ? ratio : 1 / ratio)} ${faster ? 'faster' : 'slower'} ${at}`;
  if (statistic === 'p10') {
    const q = compareQuantile(sortedOf(subject.calls), sortedOf(baseline.calls), ROBUST_QUANTILE);
    const intervals = { subject: q.subject, baseline: q.baseline };
    if (q.outcome === 'too-few-calls') {
      const few = tooFew(calls.subject, calls.baseline, statistic);
      return finish({
        ...base,
        intervals,
        verdict: 'too-few-calls',
        needCalls: few.need,
        claim: 'too few calls to test',
        evidence: few.evidence,
      });
    }
    const pair = `p10 ${formatNs(values.subject)} vs ${formatNs(values.baseline)}`;
    const level = pct(intervalConfidence());
    if (q.outcome === 'overlap') {
      return finish({
        ...base,
        intervals,
        verdict: 'no-difference',
        claim: 'no clear difference at p10',
        evidence: `${pair}; their ${level} intervals overlap`,
      });
    }
    const faster = q.outcome === 'lower';
    return finish({
      ...base,
      intervals,
      verdict: faster ? 'faster' : 'slower',
      claim: moved(faster),
      evidence: `${pair}; their ${level} intervals do not overlap`,
    });
  }
  const best = mannWhitneyMinP(calls.subject, calls.baseline);
  if (!(best < SIGNIFICANCE)) {
    const few = tooFew(calls.subject, calls.baseline, statistic);
    return finish({ ...base, verdict: 'too-few-calls', needCalls: few.need, claim: 'too few calls to test', evidence: few.evidence });
  }
  const { p } = mannWhitney(Array.from(baseline.calls), Array.from(subject.calls));
  if (!(p < SIGNIFICANCE)) {
    return finish({
      ...base,
      p,
      verdict: 'no-difference',
      claim: 'no significant difference per call',
      evidence: `medians ${formatNs(medians.subject)} vs ${formatNs(medians.baseline)}, ${formatP(p)}`,
    });
  }
  const faster = values.subject < values.baseline;
  return finish({ ...base, p, verdict: faster ? 'faster' : 'slower', claim: moved(faster), evidence: formatP(p) });
}

/** A mode's device times per call (GPU results), or null on CPU. */
export function deviceTimes(m: ModeResult): Sample | null {
  const g = m.gpu;
  if (!g || !Array.isArray(g.deviceNs) || g.deviceNs.length === 0) return null;
  return { calls: g.deviceNs, median: g.deviceMedianNs, p10: quantile(Array.from(sortedOf(g.deviceNs)), ROBUST_QUANTILE) };
}
