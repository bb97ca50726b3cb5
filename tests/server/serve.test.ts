/**
 * `transient-lab serve` as a user runs it (the built CLI in its own process): the one printed line, FILE
 * arguments, and that stopping it — SIGTERM, or Ctrl-C reaching the whole process group — while a profile runs
 * leaves no runner process behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import type { HostEvents } from '../../electron/ipc/contract.js';
import { descendants } from '../../electron/server/children.js';
import { connectWebSocket, type WebSocketClient, type WebSocketLike } from '../../renderer/src/host/websocket.js';
import { failure } from '../contract/suite.js';

const CLI = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const LINE = /^Transient Lab: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})\n$/;

interface Serve {
  child: ChildProcess;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serve(args: string[], opts: { detached?: boolean } = {}): Promise<Serve> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-open', ...args], { cwd: packageRoot(), stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached ?? false });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = LINE.exec(out);
      if (m) resolve({ child, port: Number(m[1]), token: m[2]!, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before printing its URL: ${err}`)));
  });
}

function connect(s: Serve): Promise<WebSocketClient> {
  return connectWebSocket(`ws://127.0.0.1:${s.port}/ws`, {
    create: (url) => new WebSocket(url, { headers: { Origin: `http://127.0.0.1:${s.port}`, Cookie: `tlab_token_${s.port}=${s.token}` } }) as unknown as WebSocketLike,
  });
}

function isRunner(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner-entry');
  } catch {
    return false;
  }
}

/** Starts a long profile and resolves once its runner child is running, with the runner's pids. */
async function profileUntilRunning(client: WebSocketClient, serverPid: number): Promise<{ runners: number[]; result: Promise<unknown> }> {
  const doc = await client.openExample({ id: 'hdiff' });
  let running!: () => void;
  const inRunner = new Promise<void>((r) => (running = r));
  client.on('profileProgress', (e: HostEvents['profileProgress']) => {
    if (e.stage === 'verify' || e.stage === 'calls') running();
  });
  const result = client.profile({
    doc: doc.doc, job: 'long', modes: ['SCOPED'], layout: 'packed', calls: 100_000, warmup: 0, processes: 1,
    symbols: { I: '32', J: '32', K: '8' }, defaultSymbol: null, seed: '0', inputs: {}, timeoutS: 0,
  });
  result.catch(() => {});
  await inRunner;
  const runners = descendants(serverPid).filter(isRunner);
  return { runners, result };
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

  it('refuses a FILE outside the roots with a usage error', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--no-open', '--port', '0', '--root', join(examplesDir(), '..'), join(packageRoot(), 'package.json')], { cwd: packageRoot() });
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
