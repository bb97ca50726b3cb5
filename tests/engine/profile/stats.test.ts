import { describe, expect, it } from 'vitest';
import { fakeTiming } from './steps/fakes.js';
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

describe('pooling runs of several processes', () => {
  it('concatenates the timed calls and takes init and first call from a process without verification', async () => {
    const { poolRuns } = await import('../../../electron/engine/profile/rounds.js');
    const run = (init: number, first: number, calls: number[], verified: boolean) => ({
      label: 'PERSISTENT',
      initNs: init,
      exitNs: 1,
      firstCallNs: first,
      workspaceBytes: {},
      outputs: verified ? { A: new Uint8Array(8) } : null,
      outputsSecond: verified ? { A: new Uint8Array(8) } : null,
      poisonedTransients: [],
      guardViolations: [],
      sampledCall: null,
      timing: { ...fakeTiming(calls), batchWallNs: 10 },
    });
    const pooled = poolRuns([run(900, 50, [1, 2], true), run(100, 70, [3], false), run(120, 80, [4, 5], false)]);
    expect(Array.from(pooled.timing.totalNs)).toEqual([1, 2, 3, 4, 5]);
    expect(pooled.timing.kept.minorFaults).toHaveLength(5);
    expect(pooled.timing.sums.minorFaults).toBe(10);
    expect(pooled.timing.batchWallNs).toBe(30);
    expect(pooled.outputs).not.toBeNull();
    expect([pooled.initNs, pooled.firstCallNs]).toEqual([100, 70]);
    expect(poolRuns([run(900, 50, [1], true)]).initNs).toBe(900);
  });
});
