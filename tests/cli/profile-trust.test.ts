/**
 * `profile` ends with a result or a clear error whatever the input (the built CLI, end to end):
 * - many timed calls (300,000 of a tiny program) give a result, where spreading the per-call arrays into
 *   push() overflowed the stack (exit 6, "Maximum call stack size exceeded");
 * - a program that writes past an argument's end is stopped by the runner's argument guards with a message
 *   that names the array, the side, how far, the mode and the symbols — never glibc's `free(): invalid size`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODES } from '../../electron/engine/analysis/types.js';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const chain = join(packageRoot(), 'assets', 'examples', 'chain.sdfg');
const overrun = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'overrun_one_past.sdfg');
const gemmTiled = join(corpusDir(), 'spcl__dace-webclient__tests__test_graphs__gemm_expanded_pure_tiled.sdfg');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-trust-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, 'profile', ...args],
      { env: { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache'), ...env }, timeout: 300_000, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('profile with many calls', () => {
  it('refuses more timed calls per process than the runner can hold, before building anything', async () => {
    const r = await cli([chain, '--symbols', 'N=1', '--calls', '20000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--calls must be at most 16,777,216 \(timed calls per process; use --processes for more\), got 20,000,000/);
  });

  it('times 300,000 calls: exact summary over all, 100,000 evenly spaced rows kept', async () => {
    const out = join(dir, 'many.json');
    // One OpenMP thread: on a busy shared machine a team's waits would make each of these tiny calls slow.
    const r = await cli(
      [chain, '--symbols', 'N=1', '--modes', 'SCOPED', '--calls', '300000', '--warmup', '0', '--processes', '1', '--out', out],
      { OMP_NUM_THREADS: '1' },
    );
    expect(r.stderr).not.toMatch(/call stack/);
    expect(r.code).toBe(0);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    const m = result.modes[0]!;
    expect(m.sampling).toEqual({ calls: 300_000, keptPerProcess: 100_000 });
    expect(m.calls.totalNs).toHaveLength(100_000);
    expect(m.calls.minorFaults).toHaveLength(100_000);
    // Four transients per call in SCOPED, counted over every call.
    expect(m.summary.allocsPerCall).toBe(4);
    expect(m.summary.freesPerCall).toBe(4);
    expect(m.summary.p10Ns).toBeLessThanOrEqual(m.summary.medianNs);
    expect(m.summary.medianNs).toBeLessThanOrEqual(m.summary.p90Ns);
    expect(m.sampledCall!.call).toBeLessThan(300_000);
  });
});

describe('profile of a program that writes past an argument', () => {
  it.each(MODES)('%s: exit 6 with the argument, the side, how far and the symbols', async (mode) => {
    const r = await cli([overrun, '--symbols', 'N=64', '--modes', mode, '--calls', '3', '--processes', '1']);
    expect(r.code).toBe(6);
    const label = mode === 'EXTERNAL' ? 'EXTERNAL \\(packed\\)' : mode;
    expect(r.stderr).toMatch(
      new RegExp(
        `mode ${label} during verification call 1 failed: out-of-bounds write: the program wrote 8 bytes past the end of argument B \\(B has 512 bytes\\) with symbols N=64: these sizes may not fit the program's tiling or loop bounds; try larger symbol values`,
      ),
    );
    expect(r.stderr).not.toMatch(/free\(\)|munmap_chunk|corrupted|SIGABRT/);
  });

  it('gemm_expanded_pure_tiled at --default-symbol 16: the tiles overrun C, said as such', async () => {
    const r = await cli([gemmTiled, '--default-symbol', '16', '--modes', 'SCOPED', '--calls', '3', '--processes', '1']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /mode SCOPED during verification call 1 failed: out-of-bounds write: the program wrote [\d,]+ bytes past the end of argument C \(C has 2,048 bytes\) with symbols K=16, M=16, N=16: these sizes may not fit the program's tiling or loop bounds; try larger symbol values/,
    );
    expect(r.stderr).not.toMatch(/free\(\)|munmap_chunk|SIGABRT/);
  });
});
