/**
 * Host side of device discovery: runs device-probe-entry.js in a child (the addon never loads in a host process)
 * and returns its report. Used as `ProfileOptions.devices` by the CLI, by `transient-lab devices`, and as the
 * service's `devices` probe: `serve` starts a Node child, the desktop app's main a utilityProcess (the packaged
 * app's RunAsNode fuse is off, so the Electron binary cannot be started as Node).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { packageRoot } from '../engine/paths.js';
import type { DeviceReport } from '../engine/profile/device.js';
import type { UtilityFork } from './child.js';
import { runnerEnv } from './host-electron.js';

function deviceProbeEntry(): string {
  return join(packageRoot(), 'dist', 'electron', 'runner', 'device-probe-entry.js');
}

export interface ProbeOptions {
  /** Runtime libraries to try instead of the default search (tests). */
  runtimeCandidates?: string[];
  timeoutMs?: number;
  entry?: string;
}

function builtEntry(opts: ProbeOptions): string {
  const entry = opts.entry ?? deviceProbeEntry();
  if (!existsSync(entry)) throw new TlabError('run', `the device probe is not built: ${entry} is missing (run npm run build:ts)`);
  return entry;
}

const timedOut = (ms: number) => new TlabError('run', `the CUDA device probe did not answer within ${ms / 1000} s (a hung CUDA driver?)`);
const failed = (why: string) => new TlabError('run', `the CUDA device probe failed: ${why}`);

/** The report: the last line the probe printed. */
function parseReport(stdout: string): DeviceReport {
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '') as DeviceReport;
  } catch {
    throw new TlabError('run', `the CUDA device probe printed something that is not a report: ${stdout.slice(0, 200)}`);
  }
}

export async function probeDevices(opts: ProbeOptions = {}): Promise<DeviceReport> {
  const entry = builtEntry(opts);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [entry, ...(opts.runtimeCandidates ?? [])],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 },
      (err, out, stderr) => {
        if (err) reject((err as { killed?: boolean }).killed ? timedOut(timeoutMs) : failed(stderr.trim() || err.message));
        else resolve(out);
      },
    );
  });
  return parseReport(stdout);
}

let serial = 0;

/** The same probe in an Electron utilityProcess (`fork` is main's `utilityProcess.fork`). */
export async function probeDevicesInUtility(fork: UtilityFork, opts: ProbeOptions = {}): Promise<DeviceReport> {
  const entry = builtEntry(opts);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = fork(entry, opts.runtimeCandidates ?? [], {
      serviceName: `Transient Lab device probe ${process.pid}-${++serial}`,
      stdio: 'pipe',
      execArgv: [],
      env: runnerEnv(),
    });
    let out = '';
    let stderr = '';
    let killed = false;
    // The report is complete once the process has exited and its output has ended, in whichever order they come.
    let waiting = 1 + (child.stdout ? 1 : 0);
    let code = 0;
    const finish = () => {
      if (--waiting > 0) return;
      clearTimeout(timer);
      if (killed) reject(timedOut(timeoutMs));
      else if (code !== 0) reject(failed(stderr.trim() || `exit code ${code}`));
      else resolve(out);
    };
    child.stdout?.on('data', (d: Buffer | string) => (out += String(d)));
    child.stdout?.on('end', finish);
    child.stderr?.on('data', (d: Buffer | string) => (stderr += String(d)));
    child.on('exit', (c) => {
      code = c;
      finish();
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill();
    }, timeoutMs);
  });
  return parseReport(stdout);
}
