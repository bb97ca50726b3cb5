/**
 * `profile` as a new user meets it with bad symbol values and bad output places: clear exit-2 messages before
 * anything is built, and at the end of a run nothing is lost even when the requested places fail.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const chain = join(examplesDir(), 'chain.sdfg');
const hdiff = join(examplesDir(), 'hdiff.sdfg');

let dir: string;
let cache: string;
let temp: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-robust-'));
  cache = join(dir, 'cache');
  temp = join(dir, 'tmp');
  await mkdir(temp);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // TMPDIR: where the fallbacks go (os.tmpdir()), so that the test can find them and clean up.
    const env = { ...process.env, TRANSIENT_LAB_CACHE: cache, TMPDIR: temp };
    execFile(process.execPath, [main, 'profile', ...args], { env, timeout: 300_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

const nothingBuilt = async (): Promise<void> => expect(existsSync(cache) ? await readdir(cache) : []).toEqual([]);

describe('bad symbol values (exit 2, before anything is built)', () => {
  it.each([
    [
      'N=-1',
      [chain, '--symbols', 'N=-1'],
      /negative array extent: with N=-1, 6 arrays \(inp, out, t1, t2 and 2 more\) would have a negative size/,
    ],
    ['N=10^12', [chain, '--symbols', 'N=1000000000000'], /arguments inp \(7\.28 TiB\), out \(7\.28 TiB\) cannot be allocated/],
    ['I=-4,J=-4', [hdiff, '--symbols', 'I=-4,J=-4,K=8'], /negative array extent: with I=-4, J=-4, 5 arrays/],
  ])('%s', async (_name, args, message) => {
    const r = await cli([...args, '--calls', '1']);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|RangeError| {4}at /);
    expect(r.code).toBe(2);
    await nothingBuilt();
  });
});

describe('bad output places are refused before the build (exit 2)', () => {
  it('--out naming a folder', async () => {
    const r = await cli([chain, '--symbols', 'N=64', '--out', dir]);
    expect(r.stderr).toContain(`--out ${dir} is a folder: give a file name`);
    expect(r.code).toBe(2);
    await nothingBuilt();
  });

  it('--save-outputs naming a file', async () => {
    const file = join(dir, 'plain-file');
    await writeFile(file, '');
    const r = await cli([chain, '--symbols', 'N=64', '--save-outputs', file]);
    expect(r.stderr).toContain(`--save-outputs ${file} is a file, not a folder`);
    expect(r.code).toBe(2);
    await nothingBuilt();
  });
});

describe('nothing lost at the end of a run', () => {
  it.runIf(existsSync('/dev/full'))('--out and --save-outputs that fail at the end go to named fallbacks (exit 2)', async () => {
    // Both pass the checks before the build: /dev/full is a writable file (writes fail with ENOSPC), and
    // the outputs folder exists, but a file sits where its SCOPED folder must go.
    const outputs = join(dir, 'outputs');
    await mkdir(outputs);
    await writeFile(join(outputs, 'SCOPED'), '');
    const r = await cli([
      chain,
      '--symbols',
      'N=64',
      '--modes',
      'scoped',
      '--calls',
      '2',
      '--warmup',
      '0',
      '--processes',
      '1',
      '--out',
      '/dev/full',
      '--save-outputs',
      outputs,
    ]);
    expect(r.stdout).toMatch(/^SCOPED /m);
    const out = /cannot write --out \/dev\/full \(no space left on the device\); the result was saved to (\S+) instead/.exec(r.stderr);
    expect(out, r.stderr).not.toBeNull();
    expect(out![1]!.startsWith(join(temp, 'transient-lab-result-'))).toBe(true);
    const result = JSON.parse(await readFile(out![1]!, 'utf8')) as {
      schema: string;
      savedOutputs: { dir: string; fallbackReason: string };
    };
    expect(result.schema).toBe('transient-lab/profile@1');
    const saved = new RegExp(`cannot write --save-outputs ${outputs} \\(.*\\); the outputs were saved to (\\S+) instead`).exec(r.stderr);
    expect(saved, r.stderr).not.toBeNull();
    expect(result.savedOutputs.dir).toBe(saved![1]);
    expect((await readdir(join(saved![1]!, 'SCOPED'))).sort()).toEqual(['inp.npy', 'out.npy']);
    expect(r.stdout).toContain(`warning: --save-outputs: cannot write into ${outputs}`);
    expect(r.code).toBe(2);
  });
});
