/**
 * `transient-lab serve` as a user runs it (the built CLI in its own process): the one printed line, FILE
 * arguments, and that stopping it — SIGTERM, SIGHUP, Ctrl-C reaching the whole process group, a crash, or kill -9 —
 * while a profile runs leaves no runner process behind.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { failure } from '../contract/suite-kit.js';
import { CLI, LINE, connect, isRunner, profileUntilRunning, runnersGone, serve } from './serve-process.js';

/** The runners of `pids` still running (an orphan of a failed test), each killed so that none outlives the test. */
function killLeftovers(pids: number[]): number[] {
  const left = pids.filter(isRunner);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return left;
}

describe('transient-lab serve', () => {
  it('prints exactly one line, opens FILE arguments at start, and SIGTERM leaves no runner behind', { timeout: 600_000 }, async () => {
    const s = await serve(['--root', examplesDir(), join(examplesDir(), 'chain.sdfg')]);
    const client = await connect(s);
    const env = await client.environment({});
    expect(env.openAtStart).toEqual([join(examplesDir(), 'chain.sdfg')]);
    expect(env.roots).toEqual([examplesDir()]);
    const gone: string[] = [];
    client.on('disconnected', ({ reason }) => gone.push(reason));
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);

    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect((await failure(result)).kind).toBe('transport');
    expect(gone).toHaveLength(1);
    expect(runners.filter(isRunner)).toEqual([]);
    expect(s.stdout()).toMatch(LINE);
    expect(s.stderr()).toBe('');
  });

  it('Ctrl-C (SIGINT to the whole process group) during a profile stops everything', { timeout: 600_000 }, async () => {
    const s = await serve(['--root', examplesDir()], { detached: true });
    const client = await connect(s);
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    process.kill(-s.child.pid!, 'SIGINT');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect((await failure(result)).kind).toBe('transport');
    expect(runners.filter(isRunner)).toEqual([]);
  });

  it('SIGHUP (the ssh session of its terminal closed) during a profile stops everything', { timeout: 600_000 }, async () => {
    const s = await serve(['--root', examplesDir()]);
    const client = await connect(s);
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    s.child.kill('SIGHUP');
    const end = await s.exited;
    const orphans = killLeftovers(runners);
    expect(orphans).toEqual([]);
    expect(end).toEqual({ code: 0, signal: null });
    expect((await failure(result)).kind).toBe('transport');
  });

  it('an uncaught exception in the server kills its runner children before it exits (70)', { timeout: 600_000 }, async () => {
    const s = await serve(['--root', examplesDir()], {
      nodeOptions: ['--require', join(packageRoot(), 'tests', 'fixtures', 'server', 'crash-on-sigusr2.cjs')],
    });
    const client = await connect(s);
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    s.child.kill('SIGUSR2');
    const end = await s.exited;
    const gone = await runnersGone(runners, 2000);
    expect(killLeftovers(runners)).toEqual([]);
    expect(gone).toBe(true);
    expect(end).toEqual({ code: 70, signal: null });
    expect((await failure(result)).kind).toBe('transport');
    expect(s.stderr()).toMatch(/^transient-lab serve: internal error: Error: injected crash/);
  });

  it('kill -9 of serve during a profile (or the OOM killer) takes its runner with it', { timeout: 600_000 }, async () => {
    const s = await serve(['--root', examplesDir()]);
    const client = await connect(s);
    const { runners, result } = await profileUntilRunning(client, s.child.pid!);
    expect(runners.length).toBe(1);
    s.child.kill('SIGKILL');
    expect(await s.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const gone = await runnersGone(runners, 5000);
    expect(killLeftovers(runners)).toEqual([]);
    expect(gone).toBe(true);
    expect((await failure(result)).kind).toBe('transport');
  });

  it('refuses a FILE outside the roots with a usage error', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--no-open', '--port', '0', '--root', join(examplesDir(), '..'), join(packageRoot(), 'package.json')],
      { cwd: packageRoot() },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/package\.json is not inside the --root folders/);
  });

  it('warns when --host widens the bind beyond loopback', { timeout: 120_000 }, async () => {
    const s = await serve(['--root', examplesDir(), '--host', '0.0.0.0']);
    expect(s.stdout()).toMatch(LINE);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.stderr()).toMatch(/warning: --host 0\.0\.0\.0: Transient Lab is reachable from other machines/);
    s.child.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  });
});
