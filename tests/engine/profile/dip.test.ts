/**
 * Hartigan's dip test (electron/engine/profile/dip.ts): the statistic against an independent computation from
 * its definition, the null table against a fresh simulation, and the test on samples with known answers.
 */
import { describe, expect, it } from 'vitest';
import { DIP_MAX_N, DIP_NULL, dipPValue, dipStatistic, dipTestLogTimes, thinSorted } from '../../../electron/engine/profile/dip.js';
import { mulberry32, simulateDipNull } from '../../../bench/lib/dip-null.js';

/** Standard normal draws from a seeded generator (Box–Muller). */
function normals(n: number, seed: number): number[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()));
}

describe('the dip statistic', () => {
  // Expected values from tests/engine/profile/dip-lp-oracle.py: the dip as a linear programme over unimodal
  // distribution functions, written from the definition and sharing no code with dip.ts.
  const ORACLE: Array<[number[], number]> = [
    [[-0.992, -0.891, -0.62, -0.492, -0.455, -0.274, 0.001, 0.06, 0.299, 0.357, 0.49, 1.34], 0.07896825396825395],
    [
      [-0.57, -0.403, -0.387, -0.279, -0.137, -0.009, 0.032, 0.209, 4.245, 4.447, 4.62, 4.838, 4.929, 4.944, 5.047, 5.081],
      0.2071018062397379,
    ],
    [[0.217, 0.294, 0.376, 0.445, 0.446, 0.558, 0.62, 0.894, 0.953, 0.968, 1.066, 1.117, 1.12, 2.422, 2.889], 0.09443623830625304],
    [[0.059, 0.091, 0.361, 0.388, 0.508, 0.541, 0.598, 0.64, 0.742, 0.871], 0.08940397350993377],
    [
      [-0.594, -0.338, -0.29, -0.232, -0.098, -0.094, -0.033, 0.064, 0.102, 0.288, 0.334, 0.341, 0.449, 0.719, 3.338, 3.603, 4.323, 4.573],
      0.075505967825636,
    ],
    [[1, 2, 3, 4, 5, 6, 7, 8], 0.0625],
    [
      [-0.398, -0.093, -0.065, -0.019, 0.138, 0.251, 2.914, 2.926, 2.939, 2.95, 3.071, 3.305, 5.777, 5.911, 5.961, 5.976, 5.998, 6.233],
      0.140710382513661,
    ],
  ];

  it('equals the dip computed from its definition', () => {
    for (const [x, want] of ORACLE) expect(dipStatistic(x)).toBeCloseTo(want, 12);
  });

  it('is 1/(2n) for evenly spaced points, near 1/4 for two tight equal clusters, 0 for too few or equal values', () => {
    expect(dipStatistic([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBeCloseTo(1 / 20, 12);
    const two = [...Array.from({ length: 50 }, (_, i) => i * 1e-3), ...Array.from({ length: 50 }, (_, i) => 10 + i * 1e-3)];
    expect(dipStatistic(two)).toBeGreaterThan(0.24);
    expect(dipStatistic(two)).toBeLessThanOrEqual(0.25);
    expect(dipStatistic([1, 2, 3])).toBe(0);
    expect(dipStatistic([5, 5, 5, 5, 5])).toBe(0);
  });
});

describe('the null table', () => {
  it('agrees with a fresh simulation of uniform samples within its error', () => {
    // 4,000 new samples (another seed than the table's): the 95 % and 99 % quantiles of √n·dip move by a few
    // hundredths between simulations of this size, far less than the gap to a multimodal sample's.
    for (const n of [20, 200]) {
      const row = DIP_NULL.find(([m]) => m === n)![1];
      const fresh = simulateDipNull(n, 4000, 0xabc + n);
      expect(Math.abs(fresh[2]! - row[2]!)).toBeLessThan(0.03);
      expect(Math.abs(fresh[3]! - row[3]!)).toBeLessThan(0.05);
    }
  });

  it('reads p-values as upper bounds from the table', () => {
    const row = DIP_NULL.find(([m]) => m === 100)![1];
    const at = (z: number) => dipPValue(z / Math.sqrt(100), 100);
    expect(at(row[0]! - 0.01)).toBe(1);
    expect(at(row[3]! - 1e-6)).toBe(0.05);
    expect(at(row[3]!)).toBe(0.01);
    expect(at(row[4]! + 0.1)).toBe(0.001);
  });
});

describe('the dip test on log call times: known answers', () => {
  it('leaves a unimodal normal sample alone', () => {
    const t = dipTestLogTimes(normals(600, 1).map((z) => Math.exp(Math.log(350e3) + 0.02 * z)));
    expect(t.p).toBeGreaterThan(0.05);
  });

  it('finds a clearly bimodal sample (undisturbed calls and calls that waited for a core)', () => {
    const z = normals(600, 2);
    const times = z.map((v, i) => (i % 3 === 0 ? 30e6 : 2.4e6) * Math.exp(0.05 * v));
    const t = dipTestLogTimes(times);
    expect(t.p).toBeLessThanOrEqual(0.001);
    expect(t.dip).toBeGreaterThan(0.1);
  });

  it('leaves a log-normal sample with a long tail alone: one hump in the log', () => {
    const times = normals(2000, 3).map((v) => 1e6 * Math.exp(0.6 * v));
    expect(dipTestLogTimes(times).p).toBeGreaterThan(0.05);
  });

  it('does not read a coarse clock’s repeated values as many modes', () => {
    // Normal times rounded to a 1 µs clock: a handful of distinct values, each repeated many times.
    const times = normals(800, 4).map((v) => Math.round(20 + 2 * v) * 1000);
    expect(new Set(times).size).toBeLessThan(20);
    expect(dipTestLogTimes(times).p).toBeGreaterThan(0.05);
  });

  it('does not test fewer than ten calls', () => {
    expect(dipTestLogTimes([1, 2, 3, 4, 5, 100, 101, 102, 103]).p).toBeNaN();
  });

  it('thins large samples to a bounded size and still finds two humps', () => {
    const z = normals(200_000, 5);
    const times = Float64Array.from(z, (v, i) => (i % 2 ? 5e6 : 1e6) * Math.exp(0.03 * v));
    const t = dipTestLogTimes(times);
    expect(t.n).toBe(DIP_MAX_N);
    expect(t.p).toBeLessThanOrEqual(0.001);
    const sorted = Float64Array.from(times).sort();
    const thin = thinSorted(sorted);
    expect(thin.length).toBe(DIP_MAX_N);
    expect([thin[0]! >= sorted[0]!, thin[DIP_MAX_N - 1]! <= sorted[sorted.length - 1]!]).toEqual([true, true]);
  });
});
