/**
 * The desktop app's runner host (electron/runner/host-electron.ts) over the fake utilityProcess, which forks the
 * real runner entry with Electron's `process.parentPort` (the utilityProcess branch of runner-entry.ts): a job
 * runs, a crash is reported with the mode, the signal and the step, and the next job works; timeouts and
 * cancellation kill the process. Needs dist/ and the addon (tests/global-setup.ts builds them).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { RunCancelled, type RunnerProgress } from '../../electron/engine/profile/runner-host.js';
import { defaultRunnerEntry } from '../../electron/runner/host-node.js';
import { runnerEnv, UtilityProcessRunnerHost } from '../../electron/runner/host-electron.js';
import { GoneRegistry } from '../../electron/shell/child-gone.js';
import { handProgram } from '../engine/profile/hand-program.js';
import { jobFor } from '../engine/profile/runner-job.js';
import { eventually } from '../contract/fixtures.js';
import { fakeElectron, type FakeElectron } from './fake-electron.js';

let cache: string;
let electron: FakeElectron;
let host: UtilityProcessRunnerHost;
const savedCache = process.env.TRANSIENT_LAB_CACHE;

beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-utility-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
  electron = fakeElectron(cache);
  const gone = new GoneRegistry(electron.seam.app);
  host = new UtilityProcessRunnerHost({ fork: electron.seam.utilityProcess.fork, goneDetails: gone.wait });
});

afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

describe('runner in a utility process', () => {
  it('runs a job through process.parentPort, one fresh process with its own service name per job', async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'EXTERNAL' })], { calls: 4 });
    const progress: RunnerProgress[] = [];
    const results = await host.run(job, { onProgress: (p) => progress.push(p), timeoutMs: 60_000 });
    expect(results.map((r) => r.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
    expect(results[0]!.timing.totalNs).toHaveLength(4);
    expect(results[1]!.workspaceBytes).toEqual({ CPU_Heap: 128n });
    expect(progress.some((p) => p.phase === 'calls' && p.done === 4)).toBe(true);
    const forks = electron.app.utilityForks;
    expect(forks.at(-1)!.modulePath).toBe(defaultRunnerEntry());
    expect(forks.at(-1)!.options).toMatchObject({ stdio: 'pipe', allowLoadingUnsignedLibraries: true });
    expect(forks.at(-1)!.options.serviceName).toMatch(/^Transient Lab runner /);
    await host.run(await jobFor([handProgram({ mode: 'SCOPED' })], { calls: 1 }), { timeoutMs: 60_000 });
    expect(new Set(electron.app.utilityForks.map((f) => f.options.serviceName)).size).toBe(electron.app.utilityForks.length);
  });

  it('reports a crash with the mode, the signal and the step, and the next job runs in a fresh process', async () => {
    const crashing = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'EXTERNAL', fault: 'segfault' })]);
    for (let i = 0; i < 2; i++) {
      // Twice: Electron emits `exit` and `child-process-gone` in either order (the fake alternates).
      const err = await host.run(crashing, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TlabError);
      expect((err as TlabError).kind).toBe('run');
      expect((err as TlabError).message).toMatch(/^mode EXTERNAL \(packed\) crashed with SIGSEGV during verification call 1/);
    }
    const results = await host.run(await jobFor([handProgram({ mode: 'SCOPED' })]), { timeoutMs: 60_000 });
    expect(results[0]!.timing.totalNs).toHaveLength(5);
  });

  it('kills a hanging program at the timeout, and cancels on request and on an aborted signal', async () => {
    const hanging = await jobFor([handProgram({ mode: 'PERSISTENT', fault: 'hang' })], { labels: ['PERSISTENT'] });
    const err = await host.run(hanging, { timeoutMs: 1500 }).catch((e: unknown) => e);
    expect((err as TlabError).message).toMatch(/timed out after 1\.5 s in mode PERSISTENT during verification call 1/);
    await expect(host.run(hanging, { onProgress: (p) => p.phase === 'verify-1' && host.cancel() })).rejects.toBeInstanceOf(RunCancelled);
    const controller = new AbortController();
    await expect(
      host.run(hanging, { signal: controller.signal, onProgress: (p) => p.phase === 'verify-1' && controller.abort() }),
    ).rejects.toBeInstanceOf(RunCancelled);
    // Every runner process ends (a killed child takes a moment to be reaped).
    expect(
      await eventually(() =>
        electron.app.utilityForks.every((f) => f.process.child.exitCode !== null || f.process.child.signalCode !== null),
      ),
    ).toBe(true);
  });

  it('a missing runner build is a clear error, not a crash', async () => {
    const missing = new UtilityProcessRunnerHost({
      fork: electron.seam.utilityProcess.fork,
      goneDetails: async () => null,
      entry: join(cache, 'nope.js'),
    });
    const err = await missing.run(await jobFor([handProgram({ mode: 'SCOPED' })])).catch((e: unknown) => e);
    expect((err as TlabError).message).toMatch(/the runner is not built/);
  });
});

describe('runner environment', () => {
  it('drops what would make Electron start as plain Node or change how Node starts', () => {
    const env = runnerEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1', NODE_OPTIONS: '--require x', ELECTRON_NO_ASAR: '1', HOME: '/h' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', TLAB_RUNNER_PARENT: String(process.pid) });
  });
});
