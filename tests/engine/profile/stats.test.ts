import { describe, expect, it } from 'vitest';
import { mannWhitney, normalCdf, quantile } from '../../../electron/engine/profile/stats.js';

describe('statistics', () => {
  it('normalCdf matches known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.575829)).toBeCloseTo(0.005, 6);
  });

  it('Mann–Whitney U matches scipy (asymptotic, continuity correction)', () => {
    // scipy.stats.mannwhitneyu([1,2,3,4,5], [6,7,8,9,10], method='asymptotic') → U=0, p=0.012185
    const r = mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(r.u).toBe(0);
    expect(r.p).toBeCloseTo(0.012185, 5);
    // with ties (average ranks): U = 12.5 - 4·5/2 = 2.5 for [1,2,2,3] vs [2,3,4,5]; far from significant
    const t = mannWhitney([1, 2, 2, 3], [2, 3, 4, 5]);
    expect(t.u).toBe(2.5);
    expect(t.p).toBeGreaterThan(0.05);
  });

  it('finds no difference between samples of one distribution and a clear one after a shift', () => {
    const base = Array.from({ length: 200 }, (_, i) => 1000 + ((i * 7919) % 97));
    const same = Array.from({ length: 200 }, (_, i) => 1000 + ((i * 104729) % 97));
    const shifted = base.map((v) => v + 30);
    expect(mannWhitney(base, same).p).toBeGreaterThan(0.1);
    expect(mannWhitney(base, shifted).p).toBeLessThan(1e-6);
    expect(mannWhitney([1], [2]).p).toBeNaN();
  });

  it('quantile interpolates like numpy', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.1)).toBeCloseTo(1.9, 10);
  });
});
