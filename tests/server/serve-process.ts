/**
 * `transient-lab serve` as a user runs it, for the tests: the built CLI in its own process (so that a crash of
 * the server is a crash of that process, seen as its exit), a client of its WebSocket, and the runner children
 * it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { packageRoot } from '../../electron/engine/paths.js';
import type { HostEvents } from '../../electron/ipc/contract.js';
import { descendants } from '../../electron/cli/children.js';
import { connectWebSocket, type WebSocketClient, type WebSocketLike } from '../../renderer/src/host/websocket.js';

export const CLI = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
export const LINE = /^Transient Lab: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})\n$/;

export interface Serve {
  child: ChildProcess;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `serve --port 0 --no-open ARGS` (`node` options such as `--require F` go before the CLI). */
export function serve(args: string[], opts: { detached?: boolean; nodeOptions?: string[] } = {}): Promise<Serve> {
  const child = spawn(process.execPath, [...(opts.nodeOptions ?? []), CLI, 'serve', '--port', '0', '--no-open', ...args], {
    cwd: packageRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = LINE.exec(out);
      if (m) resolve({ child, port: Number(m[1]), token: m[2]!, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before printing its URL: ${err}`)));
  });
}

/** The headers a page of this server sends with its handshake. */
export function pageHeaders(s: Pick<Serve, 'port' | 'token'>): Record<string, string> {
  return { Origin: `http://127.0.0.1:${s.port}`, Cookie: `tlab_token_${s.port}=${s.token}` };
}

export function connect(s: Serve): Promise<WebSocketClient> {
  return connectWebSocket(`ws://127.0.0.1:${s.port}/ws`, {
    create: (url) => new WebSocket(url, { headers: pageHeaders(s) }) as unknown as WebSocketLike,
  });
}

export function isRunner(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner-entry');
  } catch {
    return false;
  }
}

/** Starts a long profile and resolves once its runner child is running, with the runner's pids. */
export async function profileUntilRunning(
  client: WebSocketClient,
  serverPid: number,
): Promise<{ runners: number[]; result: Promise<unknown> }> {
  const doc = await client.openExample({ id: 'hdiff' });
  let running!: () => void;
  const inRunner = new Promise<void>((r) => (running = r));
  client.on('profileProgress', (e: HostEvents['profileProgress']) => {
    if (e.stage === 'verify' || e.stage === 'calls') running();
  });
  const result = client.profile({
    doc: doc.doc,
    job: 'long',
    modes: ['SCOPED'],
    layout: 'packed',
    calls: 100_000,
    warmup: 0,
    processes: 1,
    symbols: { I: '32', J: '32', K: '8' },
    defaultSymbol: null,
    seed: '0',
    inputs: {},
    timeoutS: 0,
  });
  result.catch(() => {});
  await inRunner;
  const runners = descendants(serverPid).filter(isRunner);
  return { runners, result };
}

/** Resolves once none of `pids` is a running runner any more (false after `ms`). */
export async function runnersGone(pids: number[], ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if (!pids.some(isRunner)) return true;
  }
  return !pids.some(isRunner);
}
