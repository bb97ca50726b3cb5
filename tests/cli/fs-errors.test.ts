/**
 * `profile` on a machine whose file system says no: a file-size limit (RLIMIT_FSIZE, `ulimit -f`, which gives
 * a real EFBIG) met while writing the build cache, while copying a cached library into the run folder, while
 * writing the runner's job files, and while replacing an older `--out` result; a full tmpfs under `--out` where this sandbox may mount one. Each ends in
 * one line naming the path and the cause with the exit code of its step — never an internal error with a stack
 * trace — and an older result at `--out` survives byte for byte.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const hdiff = join(examplesDir(), 'hdiff.sdfg');
const RUN = [hdiff, '--symbols', 'I=16,J=16,K=8', '--modes', 'SCOPED', '--warmup', '0', '--processes', '1'];
const EFBIG_WORDS = 'the file is larger than this process may write (its file-size limit, ulimit -f) or than the file system allows';

let dir: string;
let warmCache: string;
let temp: string;
/** A small result from a run without limits: the "older result" that --out must not destroy. */
let older: string;

/** `profile ARGS` with the file-size limit `limitKiB` (ulimit -f counts 1024-byte blocks), or none. */
function profileWith(args: string[], o: { limitKiB?: number; cache: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const limit = o.limitKiB === undefined ? '' : `ulimit -f ${o.limitKiB} && `;
  return new Promise((resolve) => {
    // TMPDIR: the run folder and the fallbacks; cwd: the last fallback place. Both inside the test's folder.
    const env = { ...process.env, TRANSIENT_LAB_CACHE: o.cache, TMPDIR: temp };
    execFile(
      'bash',
      ['-c', `${limit}exec "$0" "$@"`, process.execPath, main, 'profile', ...args],
      { env, cwd: dir, timeout: 300_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

function oneLineNoStack(stderr: string): string {
  expect(stderr).not.toMatch(/internal error|^\s+at |Error: E[A-Z]+:/m);
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^transient-lab profile: /);
  return lines[0]!;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-fs-'));
  warmCache = join(dir, 'cache');
  temp = join(dir, 'tmp');
  await mkdir(temp);
  older = join(dir, 'older.json');
  const r = await profileWith([...RUN, '--calls', '3', '--out', older], { cache: warmCache });
  expect(r.code, r.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a file-size limit (real EFBIG)', () => {
  it('writing the generated source into a cold build cache: one line, exit 5', async () => {
    const r = await profileWith([...RUN, '--calls', '3'], { limitKiB: 8, cache: join(dir, 'cold-cache') });
    expect(oneLineNoStack(r.stderr)).toMatch(
      new RegExp(
        `^transient-lab profile: cannot write ${join(dir, 'cold-cache', 'libs')}/\\.tmp-[^/]+/program\\.cpp: ${EFBIG_WORDS.replace(/[()]/g, '\\$&')}$`,
      ),
    );
    expect(r.stderr).toContain('set TRANSIENT_LAB_CACHE');
    expect(r.code).toBe(5);
  });

  it('copying a cached library into the run folder: one line, exit 5', async () => {
    const r = await profileWith([...RUN, '--calls', '3'], { limitKiB: 16, cache: warmCache });
    expect(oneLineNoStack(r.stderr)).toMatch(
      new RegExp(`^transient-lab profile: cannot write ${temp}/tlab-run-\\w+/SCOPED-\\w+-\\d+-\\d+\\.so: the file is larger`),
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.code).toBe(5);
  });

  it("writing the runner's job files (the inputs): one line, exit 6", async () => {
    // The library (~21 KB) fits under 64 KiB; the inputs of I=16,J=16,K=8 do not.
    const r = await profileWith([...RUN, '--calls', '3'], { limitKiB: 64, cache: warmCache });
    expect(oneLineNoStack(r.stderr)).toBe(`transient-lab profile: cannot write the runner's job files in ${temp}: ${EFBIG_WORDS}`);
    expect(r.code).toBe(6);
  });

  it('replacing an older --out result: the older result survives byte for byte (exit 2)', async () => {
    const target = join(dir, 'out', 'result.json');
    await mkdir(join(dir, 'out'));
    await copyFile(older, target);
    // 2000 calls make a result of ~200 KB; the library (~21 KB) and the inputs fit under 128 KiB.
    const r = await profileWith([...RUN, '--calls', '2000', '--out', target], { limitKiB: 128, cache: warmCache });
    expect(Buffer.compare(await readFile(target), await readFile(older))).toBe(0);
    expect(await readdir(join(dir, 'out'))).toEqual(['result.json']);
    expect(oneLineNoStack(r.stderr)).toBe(
      `transient-lab profile: cannot write ${target}: ${EFBIG_WORDS}; no fallback place was writable either`,
    );
    expect(r.code).toBe(2);
  });
});

describe('a full disk under --out (a 64 KiB tmpfs, where mount is allowed)', () => {
  let mnt: string;
  let refused: string | null = 'not tried';
  beforeAll(async () => {
    mnt = join(dir, 'tmpfs');
    await mkdir(mnt);
    try {
      if (process.getuid?.() !== 0) throw new Error('not root');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { stdio: 'pipe' });
      refused = null;
    } catch (err) {
      refused = String((err as { stderr?: Buffer }).stderr ?? err).trim();
      console.warn(`tmpfs test skipped: mount -t tmpfs refused here (${refused})`);
    }
  });
  afterAll(() => {
    if (!refused) execFileSync('umount', [mnt]);
  });

  it('the older result survives and the new one goes to the fallback (exit 2)', async (ctx) => {
    if (refused) ctx.skip();
    const target = join(mnt, 'result.json');
    await copyFile(older, target);
    await writeFile(join(mnt, 'fill'), Buffer.alloc(64 * 1024)).catch(() => undefined);
    const r = await profileWith([...RUN, '--calls', '2000', '--out', target], { cache: warmCache });
    expect(Buffer.compare(await readFile(target), await readFile(older))).toBe(0);
    const m =
      /^transient-lab profile: cannot write --out (\S+) \(no space left on the device\); the result was saved to (\S+) instead$/m.exec(
        r.stderr,
      );
    expect(m, r.stderr).not.toBeNull();
    expect(m![1]).toBe(target);
    expect(m![2]!.startsWith(join(temp, 'transient-lab-result-hdiff-'))).toBe(true);
    expect(JSON.parse(await readFile(m![2]!, 'utf8'))).toMatchObject({ schema: 'transient-lab/profile@1' });
    expect(r.code).toBe(2);
    expect((await readdir(mnt)).sort()).toEqual(['fill', 'result.json']);
  });
});

describe('other file-system failures in plain words', () => {
  it("an --input that is a folder: exit 3, the cause in words, not Node's", async () => {
    const r = await profileWith([...RUN, '--calls', '1', '--input', `in_field=${dir}`], { cache: warmCache });
    expect(oneLineNoStack(r.stderr)).toBe(`transient-lab profile: ${dir}: cannot read: it is a folder`);
    expect(r.code).toBe(3);
  });

  it('build --out naming a file: exit 2', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [main, 'build', hdiff, '--symbols', 'I=16,J=16,K=8', '--out', older],
        { env: { ...process.env, TRANSIENT_LAB_CACHE: warmCache }, cwd: dir },
        (err, _out, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }),
      ),
    );
    expect(r.stderr).toBe(`transient-lab build: cannot create --out ${older}: it exists and is not a folder\n`);
    expect(r.code).toBe(2);
  });
});
