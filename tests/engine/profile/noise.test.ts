/**
 * The noise detectors (electron/engine/profile/noise.ts) on synthetic modes with known answers and on the two
 * recorded vadv runs (tests/fixtures/profile/README.md says how they were recorded).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/lib/dip-null.js';
import { modeNoise, PROCESS_SPREAD, resultNoise, settleCalls } from '../../../electron/engine/profile/noise.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import type { ModeResult, ProfileResult } from '../../../electron/engine/profile/result.js';
import { summarize } from '../../../electron/engine/profile/stats.js';

const fixture = (name: string): ProfileResult =>
  JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', name), 'utf8')) as ProfileResult;

/** A mode with the given call times (and faults), everything else plain. */
function mode(totalNs: number[], extra: Partial<ModeResult> & { minorFaults?: number[] } = {}): ModeResult {
  const n = totalNs.length;
  const zeros = new Array<number>(n).fill(0);
  const calls = {
    totalNs,
    allocNs: zeros,
    freeNs: zeros,
    allocs: zeros,
    frees: zeros,
    allocBytes: zeros,
    minorFaults: extra.minorFaults ?? zeros,
  };
  return {
    mode: 'SCOPED',
    layout: null,
    label: 'SCOPED',
    build: { ms: 0, cached: true, flags: [] },
    initNs: 0,
    exitNs: 0,
    firstCallNs: 0,
    calls,
    eventsOverflowed: false,
    runnerOverheadNsPerCall: 0,
    summary: summarize(calls),
    sampledCall: null,
    workspaceBytes: {},
    outputChecksums: {},
    ...extra,
  };
}

/** `n` calls around `level` ns with a 2 % spread. */
function around(level: number, n: number, seed: number): number[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => level * (1 + 0.02 * (rnd() + rnd() + rnd() - 1.5)));
}

const run = { calls: 100, processes: 3, warmup: 5 };

describe('noise detectors: known answers', () => {
  it('a steady mode in agreeing processes is clean', () => {
    const m = mode([...around(1e6, 100, 1), ...around(1.01e6, 100, 2), ...around(0.99e6, 100, 3)], { warmupCalls: [5, 7, 5] });
    const n = modeNoise(m, run);
    expect(n.findings).toEqual([]);
    expect(n.processMedians!.length).toBe(3);
    expect(n.processSpread).toBeLessThan(1.05);
  });

  it('a process that ran slower for its whole life makes the processes disagree', () => {
    const m = mode([...around(1e6, 100, 1), ...around(1.4e6, 100, 2), ...around(1e6, 100, 3)]);
    const n = modeNoise(m, run);
    expect(n.processSpread).toBeGreaterThan(PROCESS_SPREAD);
    expect(n.findings.map((f) => f.kind)).toContain('processes');
    expect(n.findings.find((f) => f.kind === 'processes')!.text).toMatch(
      /^SCOPED: its 3 processes disagree \(medians 9\d\d µs to 1\.\d\d ms\)$/,
    );
    // Too few calls per process to compare their medians: not judged by process.
    expect(modeNoise(mode([1, 2, 3, 4, 5, 6]), { calls: 2, processes: 3, warmup: 5 }).processMedians).toBeNull();
    // A sample that is not calls × processes long (a capped subsample) is not split by process either.
    expect(modeNoise(mode(around(1e6, 250, 4)), run).processMedians).toBeNull();
  });

  it('a sampled mode (many calls) is split by process at its kept calls per process', () => {
    // 3 processes of 1,000,000 calls each, 40 evenly spaced calls kept of each: the slow middle process shows.
    const m = mode([...around(1e6, 40, 5), ...around(1.5e6, 40, 6), ...around(1e6, 40, 7)], {
      sampling: { calls: 3_000_000, keptPerProcess: 40 },
    });
    const n = modeNoise(m, { calls: 1_000_000, processes: 3, warmup: 5 });
    expect(n.processMedians).toHaveLength(3);
    expect(n.findings.map((f) => f.kind)).toContain('processes');
  });

  it('calls that fall into two groups in every process are multimodal, though the processes agree', () => {
    const rnd = mulberry32(9);
    const mixed = Array.from({ length: 300 }, () => (rnd() < 0.4 ? 32e6 : 2.4e6) * (1 + 0.03 * rnd()));
    const n = modeNoise(mode(mixed), run);
    expect(n.findings.map((f) => f.kind)).toContain('multimodal');
    expect(n.dip.p).toBeLessThanOrEqual(0.001);
  });

  it('a warm-up at its cap is unsettled where processes ended differently or faults stay uneven, not when it faults steadily for good', () => {
    const cap = run.warmup + settleCalls(run.warmup);
    const steady = new Array<number>(300).fill(3900);
    const times = [...around(1e6, 100, 1), ...around(1e6, 100, 2), ...around(1e6, 100, 3)];
    // Every process at the cap and faulting the same every call: the program's steady state (chain's SCOPED).
    expect(modeNoise(mode(times, { warmupCalls: [cap, cap, cap], minorFaults: steady }), run).findings).toEqual([]);
    // One process at the cap, the others settled early.
    const some = modeNoise(mode(times, { warmupCalls: [cap, 7, 6], minorFaults: steady }), run);
    expect(some.findings.map((f) => f.text)).toEqual([
      `SCOPED: warm-up hit its cap of ${cap} calls in 1 of 3 processes without the page faults settling`,
    ]);
    // Every process at the cap and the faults still moving between calls.
    const rnd = mulberry32(5);
    const uneven = Array.from({ length: 300 }, () => Math.round(4000 * rnd()));
    expect(modeNoise(mode(times, { warmupCalls: [cap, cap, cap], minorFaults: uneven }), run).findings.map((f) => f.kind)).toEqual([
      'warmup',
    ]);
    // Results that do not record the warm-up are not judged by it.
    expect(modeNoise(mode(times), run).warmupCapped).toBeNull();
  });
});

describe('noise detectors on recorded runs', () => {
  it('the run on a quiet core is clean', () => {
    const r = fixture('vadv-cpu-clean.json');
    const n = resultNoise(r);
    expect(n.findings).toEqual([]);
    expect(n.noisy).toBe(false);
    // SCOPED and POOL fault on every call for good and spend the whole warm-up extension, steadily: not noise.
    expect(n.modes.filter((m) => m.warmupCapped === r.settings.processes).map((m) => m.mode)).toEqual(['SCOPED', 'POOL']);
  });

  it('the run beside CPU hogs is noisy, and says why', () => {
    const n = resultNoise(fixture('vadv-cpu-noisy.json'));
    expect(n.noisy).toBe(true);
    expect(n.findings.length).toBeGreaterThan(0);
    for (const f of n.findings) expect(f.text.startsWith(`${f.mode}: `)).toBe(true);
  });
});
