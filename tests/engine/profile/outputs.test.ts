/**
 * Nothing lost at the end of a long run: `--out` and `--save-outputs` are checked before anything is built,
 * and when writing still fails at the end the data goes to a named fallback instead of being dropped.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyTiming } from '../../../electron/engine/profile/samples.js';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { checkOutputFile, checkOutputFolder, saveOutputs, writeWithFallback } from '../../../electron/engine/profile/outputs.js';
import type { VariantResult } from '../../../electron/runner/messages.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-outputs-'));
  await writeFile(join(dir, 'a-file'), 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function usage(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TlabError);
  expect((error as TlabError).kind).toBe('usage');
  return (error as TlabError).message;
}

describe('checkOutputFile (--out)', () => {
  it('accepts a new file, a new file in folders still to be created, and an existing file', async () => {
    await checkOutputFile(join(dir, 'result.json'));
    await checkOutputFile(join(dir, 'new', 'deeper', 'result.json'));
    await checkOutputFile(join(dir, 'a-file'));
  });

  it('refuses a folder, saying what to give instead', async () => {
    expect(await usage(checkOutputFile(dir))).toBe(`--out ${dir} is a folder: give a file name, e.g. ${join(dir, 'result.json')}`);
  });

  it('refuses a path under a file', async () => {
    expect(await usage(checkOutputFile(join(dir, 'a-file', 'result.json')))).toBe(
      `--out ${join(dir, 'a-file', 'result.json')}: ${join(dir, 'a-file')} is a file, so no folder can be created there`,
    );
  });

  it('refuses a place that cannot be written', async () => {
    // /proc/self is a folder nobody can create files in, root included.
    if (!existsSync('/proc/self')) return;
    expect(await usage(checkOutputFile('/proc/self/result.json'))).toMatch(
      /^--out \/proc\/self\/result\.json: cannot write into \/proc\/self/,
    );
  });
});

describe('checkOutputFolder (--save-outputs)', () => {
  it('accepts an existing folder and one still to be created', async () => {
    await checkOutputFolder(dir);
    await checkOutputFolder(join(dir, 'outputs', 'run1'));
  });

  it('refuses a file and a folder under a file', async () => {
    expect(await usage(checkOutputFolder(join(dir, 'a-file')))).toBe(`--save-outputs ${join(dir, 'a-file')} is a file, not a folder`);
    expect(await usage(checkOutputFolder(join(dir, 'a-file', 'x')))).toMatch(/is a file, so no folder can be created there$/);
  });
});

describe('writeWithFallback', () => {
  it('writes where asked, creating missing folders', async () => {
    const target = join(dir, 'made', 'for', 'it.json');
    expect(await writeWithFallback(target, '{"a":1}', 'result', 'prog')).toEqual({ path: target, fallbackReason: null });
    expect(await readFile(target, 'utf8')).toBe('{"a":1}');
  });

  it('saves to a named fallback when the requested place fails at the end', async () => {
    const fallbacks = join(dir, 'fallbacks');
    await mkdir(fallbacks);
    const saved = await writeWithFallback(join(dir, 'a-file', 'result.json'), '{"kept":true}', 'result', 'my prog', [
      join(dir, 'missing-folder'),
      fallbacks,
    ]);
    expect(saved.fallbackReason).toBe('a part of the path is a file, not a folder');
    expect(saved.path.startsWith(join(fallbacks, 'transient-lab-result-my_prog-'))).toBe(true);
    expect(saved.path.endsWith('.json')).toBe(true);
    expect(await readFile(saved.path, 'utf8')).toBe('{"kept":true}');
  });

  it('writes to /dev/full fail at the end (disk full) and land in the fallback', async () => {
    if (!existsSync('/dev/full')) return;
    await checkOutputFile('/dev/full'); // exists and is writable: the check before the build lets it through
    const saved = await writeWithFallback('/dev/full', '{}', 'result', 'p', [dir]);
    expect(saved.fallbackReason).toBe('no space left on the device');
    expect(await readFile(saved.path, 'utf8')).toBe('{}');
  });

  it('throws, listing every place tried, only when nothing at all is writable', async () => {
    const message = await usage(writeWithFallback(join(dir, 'a-file', 'r.json'), '{}', 'result', 'p', [join(dir, 'a-file')]));
    expect(message).toMatch(/no fallback place was writable either$/);
  });
});

describe('saveOutputs', () => {
  const arg: ProgramArg = {
    name: 'out',
    kind: 'array',
    dtype: 'float64',
    ctype: 'double',
    elementBytes: 8,
    shape: [2n],
    totalElements: 2n,
    strides: [1n],
    written: true,
    read: false,
  };
  const result = (values: number[]): VariantResult => ({
    label: 'SCOPED',
    initNs: 0,
    exitNs: 0,
    firstCallNs: 0,
    workspaceBytes: {},
    outputs: { out: new Uint8Array(new Float64Array(values).buffer) },
    outputsSecond: null,
    poisonedTransients: [],
    guardViolations: [],
    timing: emptyTiming(),
    sampledCall: null,
  });
  const variants = [
    { mode: 'SCOPED' as const, layout: null },
    { mode: 'EXTERNAL' as const, layout: 'packed' as const },
  ];

  it('writes <MODE>/<NAME>.npy where asked', async () => {
    const target = join(dir, 'saved');
    const saved = await saveOutputs(target, variants, [result([1, 2]), result([3, 4])], [arg], 'prog');
    expect(saved).toEqual({ dir: target, requested: target, fallbackReason: null });
    expect((await readNpy(join(target, 'EXTERNAL', 'out.npy'))).data).toEqual(new Uint8Array(new Float64Array([3, 4]).buffer));
  });

  it('puts every output into a fallback folder when the requested one fails at the end', async () => {
    const target = join(dir, 'blocked');
    await mkdir(target);
    await writeFile(join(target, 'SCOPED'), 'a file where the SCOPED folder must go');
    const fallbacks = join(dir, 'output-fallbacks');
    await mkdir(fallbacks);
    const saved = await saveOutputs(target, variants, [result([1, 2]), result([3, 4])], [arg], 'prog', [fallbacks]);
    expect(saved.fallbackReason).toMatch(/not a directory|is a file/);
    expect(saved.dir.startsWith(join(fallbacks, 'transient-lab-outputs-prog-'))).toBe(true);
    expect((await readdir(saved.dir)).sort()).toEqual(['EXTERNAL', 'SCOPED']);
    expect((await readNpy(join(saved.dir, 'SCOPED', 'out.npy'))).data).toEqual(new Uint8Array(new Float64Array([1, 2]).buffer));
  });
});
