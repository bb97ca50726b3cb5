/**
 * The runner child and its Node host, with hand-written program libraries: crash isolation, timeouts,
 * cancellation, and the verification data (poisoned calls, guarded workspaces) the child reports.
 * Needs the native addon and dist/ (built by tests/global-setup.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TlabError } from '../../../electron/engine/errors.js';
import { verify } from '../../../electron/engine/profile/verify.js';
import { NodeRunnerHost, RunCancelled, type RunnerProgress } from '../../../electron/runner/host-node.js';
import { handProgram } from './hand-program.js';
import { jobFor } from './runner-job.js';

let cache: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-runner-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

describe('runner host', () => {
  it('runs every variant, times the calls and reports progress', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'EXTERNAL' })], { calls: 5 });
    const progress: RunnerProgress[] = [];
    const results = await new NodeRunnerHost().run(job, { onProgress: (p) => progress.push(p), timeoutMs: 60_000 });
    expect(results.map((r) => r.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
    const [scoped, external] = results;
    expect(scoped!.timing.totalNs).toHaveLength(5);
    expect(scoped!.timing.kept.allocs.every((a) => a === 1)).toBe(true);
    expect(scoped!.timing.kept.frees.every((a) => a === 1)).toBe(true);
    expect(external!.timing.kept.allocs.every((a) => a === 0)).toBe(true);
    expect(external!.workspaceBytes).toEqual({ CPU_Heap: 128n });
    expect(scoped!.timing.totalNs.every((t) => t > 0)).toBe(true);
    // y = 2x + 1 computed from the seeded x.
    const x = new Float64Array(job.inputs.x!.slice().buffer);
    const y = new Float64Array(scoped!.outputs!.y!.slice().buffer);
    expect(y[3]).toBe(2 * x[3]! + 1);
    expect(progress.some((p) => p.phase === 'calls' && p.done === 5 && p.total === 5)).toBe(true);
    expect(progress.some((p) => p.phase === 'verify-2')).toBe(true);
    expect(scoped!.poisonedTransients).toEqual(['0:tmp']);
    // One timed call's events: tmp allocated, then freed, inside that call; EXTERNAL allocates nothing.
    const sample = scoped!.sampledCall!;
    expect(sample.totalNs).toBe(scoped!.timing.totalNs[sample.call]);
    expect(sample.events.map((e) => [e.transient, e.kind, e.bytes])).toEqual([
      ['0:tmp', 'alloc', 128],
      ['0:tmp', 'free', 128],
    ]);
    expect(sample.events[1]!.startNs).toBeGreaterThanOrEqual(sample.events[0]!.startNs + sample.events[0]!.durationNs);
    expect(sample.events[1]!.startNs + sample.events[1]!.durationNs).toBeLessThanOrEqual(sample.totalNs);
    expect(external!.sampledCall).toMatchObject({ events: [] });
    expect(external!.timing.totalNs).toContain(external!.sampledCall!.totalNs);
    const v = verify(
      [
        { label: 'SCOPED', program: { nondeterministicFloat: false } },
        { label: 'EXTERNAL (packed)', program: { nondeterministicFloat: false } },
      ],
      results,
      job.variants[0]!.args,
    );
    expect(v).toEqual({ identical: true, ok: true, vacuous: false, compared: ['y'], details: [] });
  });

  it('reports a segfault with the mode and signal, and the same host runs the next job', async () => {
    const host = new NodeRunnerHost();
    const crashing = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'EXTERNAL', fault: 'segfault' })]);
    const err = await host.run(crashing, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).kind).toBe('run');
    expect((err as TlabError).message).toMatch(/^mode EXTERNAL \(packed\) crashed with SIGSEGV during verification call 1/);
    const fine = await jobFor([handProgram({ mode: 'SCOPED' })]);
    const results = await host.run(fine, { timeoutMs: 60_000 });
    expect(results).toHaveLength(1);
    expect(results[0]!.timing.totalNs).toHaveLength(5);
  });

  it('follows the warm-up and timed calls on the progress page while the child runs them in one native loop', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED', fault: 'slow' })], { calls: 20, warmup: 3 });
    const progress: RunnerProgress[] = [];
    const [result] = await new NodeRunnerHost().run(
      { ...job, skipVerification: true },
      { onProgress: (p) => progress.push(p), timeoutMs: 120_000 },
    );
    expect(result!.timing.totalNs).toHaveLength(20);
    const phases = progress.map((p) => p.phase);
    expect(phases.indexOf('first-call')).toBeLessThan(phases.lastIndexOf('calls'));
    // 20 calls of 30 ms each take 600 ms; the host polls every 100 ms, so it sees calls in progress.
    expect(progress.some((p) => p.phase === 'calls' && p.done! > 0 && p.done! < 20 && p.total === 20)).toBe(true);
    expect(progress.at(-2)).toMatchObject({ phase: 'calls', done: 20, total: 20 });
  });

  it('says that a crash happened during the timed calls, read from the progress page', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED', fault: 'segfault-late' })], { calls: 5, warmup: 1 });
    const err = await new NodeRunnerHost().run({ ...job, skipVerification: true }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).message).toMatch(/^mode SCOPED crashed with SIGSEGV during timed calls/);
  });

  it('kills a hanging program at the timeout', async () => {
    const job = await jobFor([handProgram({ mode: 'PERSISTENT', fault: 'hang' })], { labels: ['PERSISTENT'] });
    const started = Date.now();
    const err = await new NodeRunnerHost().run(job, { timeoutMs: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).message).toMatch(/timed out after 1\.5 s in mode PERSISTENT during verification call 1/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('cancels a running job (cancel() and an AbortSignal)', async () => {
    const host = new NodeRunnerHost();
    const job = await jobFor([handProgram({ fault: 'hang' })]);
    const pending = host.run(job, { onProgress: (p) => p.phase === 'verify-1' && host.cancel() });
    await expect(pending).rejects.toBeInstanceOf(RunCancelled);
    const controller = new AbortController();
    const pending2 = host.run(job, { signal: controller.signal, onProgress: (p) => p.phase === 'verify-1' && controller.abort() });
    await expect(pending2).rejects.toBeInstanceOf(RunCancelled);
  });

  it('detects an uninitialised transient read through the two poison patterns', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED', fault: 'uninitialised' })]);
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const v = verify([{ label: 'SCOPED', program: { nondeterministicFloat: false } }], results, job.variants[0]!.args);
    expect(v.ok).toBe(false);
    const d = v.details.find((x) => x.kind === 'uninitialised-read')!;
    expect(d.array).toBe('y');
    expect(d.index).toEqual([0]);
    expect(d.transients).toEqual(['0:tmp']);
    expect(d.message).toContain('0:tmp');
  });

  it('names the transient that overflows its guarded workspace slot', async () => {
    const job = await jobFor([handProgram({ mode: 'EXTERNAL', fault: 'overflow' })]);
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    expect(results[0]!.guardViolations).toEqual([{ storage: 'CPU_Heap', slot: '0:tmp', where: 'after', byteOffset: 0 }]);
    const v = verify([{ label: 'EXTERNAL (packed)', program: { nondeterministicFloat: false } }], results, job.variants[0]!.args);
    expect(v.ok).toBe(false);
    expect(v.details[0]!.message).toContain('transient 0:tmp wrote past the end');
  });

  it('reports a divergence with the array, index and both values', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'PERSISTENT', fault: 'wrong-result' })], {
      labels: ['SCOPED', 'PERSISTENT'],
    });
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const variants = [
      { label: 'SCOPED', program: { nondeterministicFloat: false } },
      { label: 'PERSISTENT', program: { nondeterministicFloat: false } },
    ];
    const v = verify(variants, results, job.variants[0]!.args);
    expect(v.identical).toBe(false);
    const d = v.details.find((x) => x.kind === 'divergence')!;
    expect(d).toMatchObject({ mode: 'PERSISTENT', reference: 'SCOPED', array: 'y', index: [0] });
    expect(Number(d.values![1]) - Number(d.values![0])).toBeCloseTo(0.5, 12);
  });
});
