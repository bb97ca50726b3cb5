/** Profile step 3, run rounds: jobs through an injected RunnerHost, round-robin, verification once. */
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../../../electron/engine/errors.js';
import type { ProfileProgress } from '../../../../electron/engine/profile/options.js';
import { makeRunJob, poolRuns, runRounds, settleCalls } from '../../../../electron/engine/profile/rounds.js';
import { RunCancelled } from '../../../../electron/engine/profile/runner-host.js';
import { MAX_KEPT_CALLS, processGpuTiming } from '../../../../electron/engine/profile/samples.js';
import { GUARD_BYTE, GUARD_BYTES, POISON } from '../../../../electron/engine/profile/verify.js';
import { builtVariant, fakeResult, FakeHost, fakeSample } from './fakes.js';

const built = [builtVariant('SCOPED', 'a'), builtVariant('PERSISTENT', 'b'), builtVariant('EXTERNAL', 'c')];
const job = () => makeRunJob(built, { x: new Uint8Array(128) }, { calls: 50, warmup: 2, sdfgFile: 'p.sdfg' });

describe('run-rounds step', () => {
  it('makes one job with every variant, its init symbols and the verification settings', () => {
    const j = job();
    expect(j.variants.map((v) => v.label)).toEqual(['SCOPED', 'PERSISTENT', 'EXTERNAL (packed)']);
    expect(j.variants[0]).toMatchObject({
      mode: 'SCOPED',
      layout: null,
      libPath: '/nonexistent/a.so',
      initSymbols: [16n],
      transientIds: ['0:tmp'],
    });
    expect(j.variants[2]!.externals).toHaveLength(1);
    expect(j).toMatchObject({ calls: 50, warmup: 2, settle: 16, poison: POISON, guardByte: GUARD_BYTE, guardBytes: GUARD_BYTES });
  });

  it('refuses an init symbol without a value, naming it', () => {
    const broken = builtVariant('SCOPED', 'a');
    broken.program = { ...broken.program, symbols: {} };
    expect(() => makeRunJob([broken], {}, { calls: 1, warmup: 0, sdfgFile: 'p.sdfg' })).toThrow(/init symbol N has no value/);
  });

  it('lets the warm-up settle by at most max(16, 3 × warmup) calls, and never without a warm-up', () => {
    expect([0, 1, 5, 6, 10].map(settleCalls)).toEqual([0, 16, 16, 18, 30]);
  });

  it('verifies every variant in a job of its own, then times each in fresh jobs, round-robin', async () => {
    const host = new FakeHost();
    const progress: ProfileProgress[] = [];
    const runs = await runRounds(host, job(), { processes: 2, timeoutMs: 0, onProgress: (p) => progress.push(p) });
    expect(host.jobs.map(({ job: j }) => [j.variants.map((v) => v.label).join(), Boolean(j.skipVerification), j.calls, j.settle])).toEqual([
      ['SCOPED', false, 0, 0],
      ['PERSISTENT', false, 0, 0],
      ['EXTERNAL (packed)', false, 0, 0],
      ['SCOPED', true, 50, 16],
      ['PERSISTENT', true, 50, 16],
      ['EXTERNAL (packed)', true, 50, 16],
      ['SCOPED', true, 50, 16],
      ['PERSISTENT', true, 50, 16],
      ['EXTERNAL (packed)', true, 50, 16],
    ]);
    // Runs come back per variant: the verification run, then the timing rounds in order.
    expect(runs.map((r) => r.map((x) => x.timing.totalNs[0]))).toEqual([
      [100, 400, 700],
      [200, 500, 800],
      [300, 600, 900],
    ]);
    expect(runs.every((r) => r[0]!.outputs !== null && r.slice(1).every((x) => x.outputs === null))).toBe(true);
    // --timeout 0 means no limit for the host, not "kill after a second".
    expect(host.jobs.every(({ opts }) => opts.timeoutMs === 0)).toBe(true);
    expect(progress).toContainEqual({ stage: 'verify', message: 'verify SCOPED' });
    expect(progress).toContainEqual({ stage: 'calls', message: 'PERSISTENT (process 2/2) calls 50/50', done: 50, total: 50 });
    expect(progress.filter((p) => p.stage === 'verify')).toHaveLength(3);
  });

  it('verifies in the one timing job when there is only one process', async () => {
    const host = new FakeHost();
    const runs = await runRounds(host, job(), { processes: 1, timeoutMs: 0 });
    expect(host.jobs.map(({ job: j }) => [j.variants[0]!.label, Boolean(j.skipVerification), j.calls])).toEqual([
      ['SCOPED', false, 50],
      ['PERSISTENT', false, 50],
      ['EXTERNAL (packed)', false, 50],
    ]);
    expect(runs.map((r) => r.length)).toEqual([1, 1, 1]);
  });

  it('skips the verification jobs when the job says so', async () => {
    const host = new FakeHost();
    await runRounds(host, { ...job(), skipVerification: true }, { processes: 1, timeoutMs: 0 });
    expect(host.jobs.map(({ job: j }) => [j.variants[0]!.label, j.skipVerification, j.calls])).toEqual([
      ['SCOPED', true, 50],
      ['PERSISTENT', true, 50],
      ['EXTERNAL (packed)', true, 50],
    ]);
  });

  it('gives each job what is left of the overall deadline (at least one second)', async () => {
    let clock = 1_000;
    const host = new FakeHost(() => {
      clock += 4_000;
    });
    await runRounds(host, { ...job(), skipVerification: true }, { processes: 1, timeoutMs: 10_000, now: () => clock });
    expect(host.jobs.map(({ opts }) => opts.timeoutMs)).toEqual([10_000, 6_000, 2_000]);
    clock = 0;
    const late = new FakeHost(() => {
      clock += 20_000;
    });
    await runRounds(late, job(), { processes: 2, timeoutMs: 10_000, now: () => clock });
    expect(late.jobs.map(({ opts }) => opts.timeoutMs)).toEqual([10_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000]);
  });

  it('stops between jobs when cancelled, and passes the signal to the host', async () => {
    const controller = new AbortController();
    const host = new FakeHost((_j, _o, i) => {
      if (i === 1) controller.abort();
    });
    await expect(runRounds(host, job(), { processes: 3, timeoutMs: 0, signal: controller.signal })).rejects.toBeInstanceOf(RunCancelled);
    expect(host.jobs).toHaveLength(2);
    expect(host.jobs[0]!.opts.signal).toBe(controller.signal);
  });

  it('refuses a host that answers with the wrong results', async () => {
    const none = new FakeHost(() => []);
    await expect(runRounds(none, job(), { processes: 1, timeoutMs: 0 })).rejects.toThrow(TlabError);
    const wrong = new FakeHost(() => [fakeResult('POOL')]);
    await expect(runRounds(wrong, job(), { processes: 1, timeoutMs: 0 })).rejects.toThrow(/results for POOL, expected SCOPED/);
  });

  it('pools the rounds of a variant: verification of the first, timings of all', async () => {
    let jobs = 0;
    const host = new FakeHost((j) => {
      jobs++;
      return j.variants.map((v) =>
        fakeResult(v.label, { calls: j.calls ? [jobs * 100] : [], outputs: j.skipVerification ? null : { y: new Uint8Array(8) } }),
      );
    });
    const runs = await runRounds(host, job(), { processes: 3, timeoutMs: 0 });
    const pooled = poolRuns(runs[1]!);
    expect(Array.from(pooled.timing.totalNs)).toEqual([500, 800, 1100]);
    expect(pooled.timing.calls).toBe(3);
    expect(pooled.timing.warmupCalls).toEqual([3, 3, 3]);
    expect(pooled.outputs).not.toBeNull();
  });

  it('keeps the sampled call nearest the pooled median, its index moved to the pooled arrays', () => {
    // Pooled calls: 100 200 900 | 300 400 | 500 → median 350; the samples: 200 (process 1), 400 (process 2, call 1), none.
    const pooled = poolRuns([
      fakeResult('SCOPED', { calls: [100, 200, 900], sample: fakeSample(1, 200) }),
      fakeResult('SCOPED', { calls: [300, 400], sample: fakeSample(1, 400) }),
      fakeResult('SCOPED', { calls: [500], sample: null }),
    ]);
    expect(pooled.sampledCall).toMatchObject({ call: 4, totalNs: 400 });
    expect(pooled.timing.totalNs[pooled.sampledCall!.call]).toBe(400);
    expect(poolRuns([fakeResult('SCOPED', { sample: null })]).sampledCall).toBeNull();
  });

  it('pools GPU runs: device columns in call order, the highest pool marks of the timing processes', () => {
    const gpu = (deviceNs: number[], pool: { reservedHighBytes: number; usedHighBytes: number } | null) =>
      processGpuTiming(
        {
          deviceNs: Float64Array.from(deviceNs),
          hostReturnNs: Float64Array.from(deviceNs, (d) => d / 2),
          hostSyncNs: Float64Array.from(deviceNs),
        },
        MAX_KEPT_CALLS,
        pool ? { ...pool, releaseThreshold: 7n } : null,
      );
    const verifying = { ...fakeResult('POOL', { calls: [], outputs: { y: new Uint8Array(8) } }), gpu: gpu([], null) };
    const a = { ...fakeResult('POOL', { calls: [1, 2] }), gpu: gpu([10, 20], { reservedHighBytes: 100, usedHighBytes: 50 }) };
    const b = { ...fakeResult('POOL', { calls: [3] }), gpu: gpu([30], { reservedHighBytes: 80, usedHighBytes: 60 }) };
    const f = (xs: number[]) => Float64Array.from(xs);
    expect(poolRuns([verifying, a, b]).gpu).toEqual({
      deviceNs: f([10, 20, 30]),
      kept: { deviceNs: f([10, 20, 30]), hostReturnNs: f([5, 10, 15]), hostSyncNs: f([10, 20, 30]) },
      pool: { reservedHighBytes: 100, usedHighBytes: 60, releaseThreshold: 7n },
    });
    expect(poolRuns([{ ...a, gpu: gpu([10, 20], null) }]).gpu!.pool).toBeNull();
    // CPU runs carry no GPU part.
    expect(poolRuns([fakeResult('POOL'), fakeResult('POOL')])).not.toHaveProperty('gpu');
  });
});
