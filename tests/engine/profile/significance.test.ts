/**
 * What a sample can show (electron/engine/profile/significance.ts): the smallest p-value the Mann–Whitney test
 * can reach with n calls a side and the calls a verdict needs, and the distribution-free p10 comparison.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/lib/dip-null.js';
import {
  compareQuantile,
  intervalConfidence,
  mannWhitneyMinCalls,
  mannWhitneyMinP,
  quantileIntervalRanks,
  quantileMinCalls,
  SIGNIFICANCE,
} from '../../../electron/engine/profile/significance.js';
import { mannWhitney } from '../../../electron/engine/profile/stats.js';

const range = (n: number, from = 0): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('too few calls to test', () => {
  it('the smallest p is that of two fully separated samples', () => {
    for (const [n1, n2] of [
      [2, 2],
      [3, 3],
      [5, 5],
      [6, 6],
      [4, 9],
      [30, 30],
    ] as const) {
      expect(mannWhitneyMinP(n1, n2)).toBeCloseTo(mannWhitney(range(n1), range(n2, 1000)).p, 12);
    }
    // Any other pair of samples of these sizes gives a larger p.
    expect(mannWhitney([1, 5, 2, 8, 3], [4, 6, 7, 9, 10]).p).toBeGreaterThan(mannWhitneyMinP(5, 5));
  });

  it('2 calls a side reach p = 0.245 at best; 6 a side are the fewest that reach p < 0.01', () => {
    // scipy.stats.mannwhitneyu([0, 1], [2, 3], method='asymptotic') → p = 0.2453 (the "p = 0.25" of --calls 2).
    expect(mannWhitneyMinP(2, 2)).toBeCloseTo(0.24528, 4);
    expect(mannWhitneyMinP(5, 5)).toBeCloseTo(0.012186, 5);
    expect(mannWhitneyMinP(5, 5)).toBeGreaterThan(SIGNIFICANCE);
    expect(mannWhitneyMinP(6, 6)).toBeLessThan(SIGNIFICANCE);
    expect(mannWhitneyMinCalls()).toBe(6);
    expect(mannWhitneyMinCalls(0.05)).toBe(4);
    expect(mannWhitneyMinP(1, 10)).toBeNaN();
  });
});

describe('p10 intervals', () => {
  it('match the binomial order-statistic bounds (scipy.stats.binom)', () => {
    // binom.cdf(k, 600, 0.1): ≤ 0.0025 up to k = 39, ≥ 0.9975 from k = 81.
    expect(quantileIntervalRanks(600, 0.1, 0.995)).toEqual({ lo: 39, hi: 81 });
    // 0.9^57 = 0.00246 ≤ 0.0025 < 0.9^56: 57 values are the fewest that bound a p10 from below.
    expect(quantileIntervalRanks(57, 0.1, 0.995).lo).toBe(0);
    expect(quantileIntervalRanks(56, 0.1, 0.995).lo).toBe(-1);
    expect(quantileMinCalls(0.1, intervalConfidence())).toBe(57);
  });

  it('claims a difference between equal p10s in at most 1 % of samples', () => {
    const rnd = mulberry32(11);
    let claims = 0;
    const runs = 400;
    for (let r = 0; r < runs; r++) {
      const a = Float64Array.from({ length: 200 }, () => 1e6 * Math.exp(rnd())).sort();
      const b = Float64Array.from({ length: 200 }, () => 1e6 * Math.exp(rnd())).sort();
      if (compareQuantile(a, b, 0.1).outcome !== 'overlap') claims++;
    }
    expect(claims / runs).toBeLessThanOrEqual(0.01);
  });

  it('finds a real shift of the fast calls, and says when there are too few calls', () => {
    const fast = Float64Array.from(range(300), (i) => 2.4e6 + i * 1e3);
    const slow = Float64Array.from(range(300), (i) => 2.9e6 + i * 1e3);
    expect(compareQuantile(fast, slow, 0.1).outcome).toBe('lower');
    expect(compareQuantile(slow, fast, 0.1).outcome).toBe('higher');
    expect(compareQuantile(fast.subarray(0, 40), slow.subarray(0, 40), 0.1).outcome).toBe('too-few-calls');
  });
});
