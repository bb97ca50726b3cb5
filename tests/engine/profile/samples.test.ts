/**
 * Per-call samples at any number of calls (engine/profile/samples.ts, docs/profile.md "Many calls"): typed
 * columns, exact summaries over every call, the kept rows of a result, pooling, and the statistics taking
 * typed arrays as they take number arrays.
 */
import { PURE } from '../../../electron/engine/sdfg/expand/impl.js';
import { describe, expect, it } from 'vitest';
import { assembleResult } from '../../../electron/engine/profile/assemble.js';
import { poolRuns, runRounds, makeRunJob } from '../../../electron/engine/profile/rounds.js';
import {
  keepRows,
  keptIndex,
  keptPerProcess,
  MAX_KEPT_CALLS,
  poolTimings,
  processTiming,
} from '../../../electron/engine/profile/samples.js';
import { mannWhitney, quantile, summarize } from '../../../electron/engine/profile/stats.js';
import type { ProfilePlan } from '../../../electron/engine/profile/plan.js';
import { callsCsv } from '../../../electron/engine/report/csv.js';
import { summaryRows } from '../../../electron/engine/report/model.js';
import { perCall } from '../../../electron/engine/report/numbers.js';
import { builtVariant, fakeResult, FakeHost, fakeTiming } from './steps/fakes.js';

/** Deterministic pseudo-random call times (ns), n of them. */
function times(n: number, seed = 1): Float64Array {
  const out = new Float64Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = 1000 + (s % 5000);
  }
  return out;
}

function stats(total: Float64Array) {
  const n = total.length;
  return {
    totalNs: total,
    allocNs: Float64Array.from(total, (t) => t % 7),
    freeNs: Float64Array.from(total, (t) => t % 3),
    allocs: new Uint32Array(n).fill(2),
    frees: new Uint32Array(n).fill(2),
    allocBytes: new Float64Array(n).fill(64),
    minorFaults: Float64Array.from(total, (t) => (t > 5000 ? 9 : 0)),
    overflowed: false,
  };
}

describe('samples', () => {
  it('keeps every call up to the cap, beyond it evenly spaced calls of each process', () => {
    expect(keptPerProcess(100, 3)).toBe(100);
    expect(keptPerProcess(MAX_KEPT_CALLS, 1)).toBe(MAX_KEPT_CALLS);
    expect(keptPerProcess(10_000_000, 1)).toBe(MAX_KEPT_CALLS);
    expect(keptPerProcess(300_000, 3)).toBe(33_333);
    expect([0, 1, 2, 3].map((i) => keptIndex(i, 10, 4))).toEqual([0, 2, 5, 7]);
    expect(Array.from(keepRows(Float64Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 4))).toEqual([0, 2, 5, 7]);
    const all = Uint32Array.of(1, 2, 3);
    expect(keepRows(all, 3)).toBe(all);
  });

  it("a process's timing: whole times, exact sums and median faults over every call, the kept rows", () => {
    const n = 250_001;
    const s = stats(times(n));
    const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);
    const expected = {
      totalNs: sum(s.totalNs),
      allocNs: sum(s.allocNs),
      freeNs: sum(s.freeNs),
      allocs: 2 * n,
      frees: 2 * n,
      allocBytes: 64 * n,
      minorFaults: sum(s.minorFaults),
    };
    const sortedFaults = Array.from(s.minorFaults).sort((a, b) => a - b);
    const t = processTiming(s, MAX_KEPT_CALLS, expected.totalNs + 99, 4);
    expect(t.calls).toBe(n);
    expect(t.totalNs).toBe(s.totalNs);
    expect(t.sums).toEqual(expected);
    expect(t.faultMedians).toEqual([quantile(sortedFaults, 0.5)]);
    expect(t.keptPerProcess).toBe(MAX_KEPT_CALLS);
    expect(t.kept.totalNs).toHaveLength(MAX_KEPT_CALLS);
    expect(t.kept.totalNs[7]).toBe(times(n)[keptIndex(7, n, MAX_KEPT_CALLS)]);
    expect(t.kept.allocs).toBeInstanceOf(Uint32Array);
    expect([t.batchWallNs, t.warmupCalls]).toEqual([expected.totalNs + 99, [4]]);
  });

  it('pools processes in order, skipping one that timed nothing', () => {
    const a = fakeTiming([1, 2, 3]);
    const b = fakeTiming([4, 5]);
    const p = poolTimings([fakeTiming([]), a, b]);
    expect(p.calls).toBe(5);
    expect(Array.from(p.totalNs)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(p.kept.allocNs)).toEqual([10, 10, 10, 10, 10]);
    expect(p.sums.totalNs).toBe(15);
    expect(p.faultMedians).toEqual([2, 2]);
    expect(p.warmupCalls).toEqual([3, 3]);
  });

  it('a result of more calls than it keeps: exact summary over all of them, kept rows, sampling, CSV call indices', async () => {
    // Two processes of 150,000 calls: 50,000 rows kept of each.
    const calls = 150_000;
    const host = new FakeHost((job, _opts, index) =>
      job.variants.map((v) => ({
        ...fakeResult(v.label),
        timing: job.calls ? processTiming(stats(times(calls, index + 2)), job.keepCalls ?? MAX_KEPT_CALLS, 0, 1) : fakeTiming([]),
      })),
    );
    const built = [builtVariant('SCOPED', 'a')];
    const job = makeRunJob(built, { x: new Uint8Array(8) }, { calls, warmup: 1, sdfgFile: 'p.sdfg' });
    const runs = await runRounds(host, job, { processes: 2, timeoutMs: 0 });
    expect(host.jobs.map((j) => j.job.keepCalls)).toEqual([50_000, 50_000, 50_000]);
    const pooled = runs.map(poolRuns);
    const all = new Float64Array([...times(calls, 3), ...times(calls, 4)]);
    const plan = {
      filePath: 'p.sdfg',
      fileHash: 'f',
      args: built[0]!.program.args,
      symbols: { N: 16n },
      name: 'p',
      analysis: { modes: {}, libraryImpl: PURE, libraryExpansions: [] },
    } as unknown as ProfilePlan;
    const result = assembleResult({
      plan,
      built,
      results: pooled,
      verification: { identical: true, ok: true, vacuous: true, compared: [], details: [] },
      options: { layout: 'packed', calls, warmup: 1, processes: 2, seed: 0n, inputs: new Map() },
      machine: { cpu: 'c', cores: 2, compiler: 'g++', os: 'Linux', node: 'v20' },
      warnings: [],
    });
    const m = result.modes[0]!;
    expect(m.sampling).toEqual({ calls: 2 * calls, keptPerProcess: 50_000 });
    expect(m.calls.totalNs).toHaveLength(100_000);
    expect(Array.isArray(m.calls.allocs)).toBe(true);
    // Exact over all 300,000 calls, equal to summarize() over every column in full.
    const full = summarize({ ...stats(all), allocNs: Float64Array.from(all, (t) => t % 7), freeNs: Float64Array.from(all, (t) => t % 3) });
    expect(m.summary).toEqual(full);
    expect(m.summary.medianNs).toBe(
      quantile(
        Array.from(all).sort((a, b) => a - b),
        0.5,
      ),
    );
    // Row 1 of process 2 is that process's call floor(1 · 150,000 / 50,000) = 3.
    expect(m.calls.totalNs[50_001]).toBe(times(calls, 4)[3]);
    const csv = callsCsv([{ label: 'r', result, source: null }]).split('\n');
    expect(csv[1 + 50_001]!.split(',').slice(5, 8)).toEqual(['1', '3', String(times(calls, 4)[3])]);
    // Reports count every call and take the exact means.
    expect(summaryRows([{ label: 'r', result, source: null }])[0]!.calls).toBe(300_000);
    expect(perCall.frees(m)).toBe(2);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('the statistics take typed arrays as they take number arrays', () => {
    const a = times(500, 5);
    const b = Float64Array.from(times(500, 6), (t) => t + 300);
    expect(mannWhitney(a, b)).toEqual(mannWhitney(Array.from(a), Array.from(b)));
    expect(quantile(Float64Array.of(1, 2, 3, 4), 0.5)).toBe(2.5);
    const s = stats(a);
    const plain = {
      totalNs: Array.from(s.totalNs),
      allocNs: Array.from(s.allocNs),
      freeNs: Array.from(s.freeNs),
      allocs: Array.from(s.allocs),
      frees: Array.from(s.frees),
      allocBytes: Array.from(s.allocBytes),
      minorFaults: Array.from(s.minorFaults),
    };
    expect(summarize(s)).toEqual(summarize(plain));
  });
});
