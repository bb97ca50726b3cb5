/**
 * `profile --remote` against the test sshd on 127.0.0.1 (tests/fixtures/sshd.ts: Debian's openssh-server, host
 * and client keys generated in a temporary folder, never any other address; missing OpenSSH fails, not skips).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, type ProfileOptions } from '../../electron/engine/profile/options.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { profileRemote, type RemoteOptions } from '../../electron/runner/remote-host.js';
import { descendants } from '../../electron/cli/children.js';
import { freePort, startTestSshd, type TestSshd } from '../fixtures/sshd.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const hdiff = join(examplesDir(), 'hdiff.sdfg');

let dir = '';
let sshd: TestSshd | null = null;
let sshOptions: string[] = [];
let port = 0;

beforeAll(async () => {
  sshd = await startTestSshd();
  sshOptions = sshd.sshOptions;
  port = Number(sshOptions.find((o) => o.startsWith('Port='))!.slice('Port='.length));
  dir = await mkdtemp(join(tmpdir(), 'tlab-remote-test-'));
});

afterAll(async () => {
  await sshd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, ...args],
      { env: { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache') }, timeout: 300_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const sshArgs = () => sshOptions.flatMap((o) => ['--ssh-option', o]);

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

async function allGone(pids: number[], ms = 15_000): Promise<number[]> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!pids.some(alive)) return [];
    await new Promise((r) => setTimeout(r, 200));
  }
  return pids.filter(alive);
}

describe('profile --remote over ssh to 127.0.0.1', () => {
  it('builds and runs there; the result comes back as the same result JSON', async () => {
    const out = join(dir, 'remote.json');
    const r = await cli([
      'profile',
      hdiff,
      '--symbols',
      'I=16,J=16,K=4',
      '--modes',
      'scoped,external',
      '--calls',
      '2',
      '--warmup',
      '0',
      '--processes',
      '1',
      '--remote',
      '127.0.0.1',
      ...sshArgs(),
      '--remote-command',
      `node ${main}`,
      '--out',
      out,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(doc.schema).toBe('transient-lab/profile@1');
    expect(doc.program.file).toBe(hdiff);
    expect(doc.modes.map((m) => m.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
    expect(doc.verification.ok).toBe(true);
    expect(doc.notes.some((n) => n.startsWith('built and run on 127.0.0.1 over ssh'))).toBe(true);
  });

  it('a remote error keeps its kind, file and JSON path (exit 3 for a missing symbol)', async () => {
    const r = await cli(['profile', hdiff, '--remote', '127.0.0.1', ...sshArgs(), '--remote-command', `node ${main}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${hdiff}: at $.attributes.symbols: on 127.0.0.1: symbol I has no value`);
  });

  it('says plainly when Transient Lab is not installed there', async () => {
    const r = await cli(['profile', hdiff, '--remote', '127.0.0.1', ...sshArgs(), '--remote-command', '/nonexistent/transient-lab']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/Transient Lab is not installed on 127\.0\.0\.1: `\/nonexistent\/transient-lab` was not found there/);
  });

  it('refuses another version', async () => {
    const fake = join(dir, 'old-agent.mjs');
    const wire = join(packageRoot(), 'dist', 'electron', 'runner', 'remote-wire.js');
    await writeFile(
      fake,
      `import { encodeFrame } from ${JSON.stringify(wire)};\nprocess.stdout.write(encodeFrame({ type: 'hello', protocol: 1, version: '0.0.1-old', pid: process.pid }));\nprocess.stdin.resume();\n`,
    );
    const r = await cli([
      'profile',
      hdiff,
      '--symbols',
      'I=16,J=16,K=4',
      '--remote',
      '127.0.0.1',
      ...sshArgs(),
      '--remote-command',
      `node ${fake}`,
    ]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /127\.0\.0\.1 runs Transient Lab 0\.0\.1-old \(remote protocol 1\), this is \S+ \(protocol 1\): install the same version there/,
    );
  });

  it('cannot connect: a clear error', async () => {
    const closed = await freePort();
    const r = await cli(['profile', hdiff, '--remote', '127.0.0.1', ...sshArgs().map((a) => a.replace(`Port=${port}`, `Port=${closed}`))]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/cannot connect to 127\.0\.0\.1 with ssh/);
  });

  /** A long run, dropped or stopped once the remote runner is timing calls. */
  async function longRemoteRun(
    extra: Partial<ProfileOptions>,
    onCalls: (ids: { ssh: number; agent: number }) => void,
  ): Promise<{ error: unknown; remoteProcesses: number[] }> {
    let ssh = 0;
    let agent = 0;
    let remoteProcesses: number[] = [];
    let fired = false;
    const remote: RemoteOptions = {
      target: '127.0.0.1',
      sshOptions,
      remoteCommand: `node ${main}`,
      onStarted: (p) => (ssh = p),
      onAgent: (p) => (agent = p),
    };
    // Everything the test's sshd starts for this session, sampled while it runs (a process orphaned by its
    // parent's death leaves the tree, so the union is kept).
    const seen = new Set<number>();
    const sample = setInterval(() => {
      for (const p of descendants(sshd!.pid)) seen.add(p);
    }, 100);
    const options = {
      ...DEFAULT_PROFILE_OPTIONS,
      modes: ['SCOPED' as const],
      symbols: new Map([
        ['I', 128n],
        ['J', 128n],
        ['K', 80n],
      ]),
      calls: 1_000_000,
      warmup: 0,
      processes: 1,
      runner: new NodeRunnerHost(),
      ...extra,
    };
    const error = await profileRemote(hdiff, options, remote, (p) => {
      if (p.stage === 'calls' && !fired) {
        fired = true;
        remoteProcesses = [agent, ...descendants(agent)];
        onCalls({ ssh, agent });
      }
    }).then(
      () => null,
      (e: unknown) => e,
    );
    clearInterval(sample);
    for (const p of remoteProcesses) seen.add(p);
    return { error, remoteProcesses: [...seen] };
  }

  it('a dropped connection is a clear error, and nothing is left running there', async () => {
    const { error, remoteProcesses } = await longRemoteRun({ timeoutMs: 0 }, ({ ssh }) => process.kill(ssh, 'SIGKILL'));
    expect(error).toBeInstanceOf(TlabError);
    expect((error as TlabError).message).toMatch(
      /^the connection to 127\.0\.0\.1 dropped during .*calls.*; the remote run stops when its connection closes/,
    );
    expect(remoteProcesses.length).toBeGreaterThanOrEqual(2); // the agent and its runner child
    expect(await allGone(remoteProcesses)).toEqual([]);
  });

  it('a timeout reaches the remote process and stops it', async () => {
    // Wherever the run is when the limit passes (connecting, building, timing), the remote side must stop.
    const { error, remoteProcesses } = await longRemoteRun({ timeoutMs: 6_000 }, () => {});
    expect(error).toBeInstanceOf(TlabError);
    expect((error as TlabError).message).toMatch(/^timed out after 6\.0 s on 127\.0\.0\.1 during .*; the remote run was stopped/);
    expect(remoteProcesses.length).toBeGreaterThanOrEqual(2); // sshd's session process and the agent at least
    expect(await allGone(remoteProcesses)).toEqual([]);
  });

  it('cancel reaches the remote process', async () => {
    const controller = new AbortController();
    const { error, remoteProcesses } = await longRemoteRun({ signal: controller.signal, timeoutMs: 0 }, () => controller.abort());
    expect(error).toBeInstanceOf(TlabError);
    expect((error as TlabError).message).toMatch(/^cancelled on 127\.0\.0\.1/);
    expect(remoteProcesses.length).toBeGreaterThanOrEqual(2);
    expect(await allGone(remoteProcesses)).toEqual([]);
  });
});
