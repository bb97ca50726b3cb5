/** Runs the built CLI (dist/) as a user would, with its own compile cache, and resolves with what it printed. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../electron/engine/paths.js';

const MAIN = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` adds to (or overrides) the inherited environment, e.g. a compiler that cannot run. */
export function runCli(args: string[], opts: { cache: string; timeoutMs: number; env?: Record<string, string> }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...process.env, ...opts.env, TRANSIENT_LAB_CACHE: opts.cache }, timeout: opts.timeoutMs },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}
