/**
 * Host side of device discovery: runs device-probe-entry.js in a child (the addon never loads in a host process)
 * and returns its report. Used as `ProfileOptions.devices` by the CLI, and by `transient-lab devices`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { packageRoot } from '../engine/paths.js';
import type { DeviceReport } from '../engine/profile/device.js';

function deviceProbeEntry(): string {
  return join(packageRoot(), 'dist', 'electron', 'runner', 'device-probe-entry.js');
}

export interface ProbeOptions {
  /** Runtime libraries to try instead of the default search (tests). */
  runtimeCandidates?: string[];
  timeoutMs?: number;
  entry?: string;
}

export function probeDevices(opts: ProbeOptions = {}): Promise<DeviceReport> {
  const entry = opts.entry ?? deviceProbeEntry();
  if (!existsSync(entry))
    return Promise.reject(new TlabError('run', `the device probe is not built: ${entry} is missing (run npm run build:ts)`));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [entry, ...(opts.runtimeCandidates ?? [])],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) {
          const why = (err as { killed?: boolean }).killed
            ? `did not answer within ${timeoutMs / 1000} s (a hung CUDA driver?)`
            : `failed: ${stderr.trim() || err.message}`;
          reject(new TlabError('run', `the CUDA device probe ${why}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as DeviceReport);
        } catch {
          reject(new TlabError('run', `the CUDA device probe printed something that is not a report: ${stdout.slice(0, 200)}`));
        }
      },
    );
  });
}
