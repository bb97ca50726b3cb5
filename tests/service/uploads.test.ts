/**
 * Uploads kept on the host (service/uploads.ts): written through the atomic writer, so a host whose temporary
 * folder is unusable or full answers with a one-line error naming the place and the cause (kind `input`), not
 * an internal error, and leaves no partial copy behind.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileError } from '../../electron/engine/io/fs-errors.js';
import { UploadStore } from '../../electron/service/uploads.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-uploads-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(run: Promise<unknown>): Promise<FileError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileError);
  return err as FileError;
}

describe('UploadStore', () => {
  it('a temporary folder that is a file: a one-line input error naming it', async () => {
    const notAFolder = join(dir, 'a-file');
    await writeFile(notAFolder, 'x');
    const bytes = new Uint8Array([1, 2, 3]);
    const err = await failure(new UploadStore(notAFolder).add(bytes, UploadStore.hash(bytes), false));
    expect(err.kind).toBe('input');
    expect(err.message).toBe(`cannot keep an uploaded file in ${notAFolder}: a part of the path is a file, not a folder`);
  });

  it('a full disk (a 64 KiB tmpfs, where mount is allowed): ENOSPC, no partial copy left', async (ctx) => {
    const mnt = join(dir, 'tmpfs');
    await mkdir(mnt);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { stdio: 'pipe' });
    } catch (err) {
      console.warn(`tmpfs test skipped: mount -t tmpfs refused here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`);
      ctx.skip();
    }
    try {
      const store = new UploadStore(mnt);
      const bytes = new Uint8Array(200 * 1024).fill(7);
      const err = await failure(store.add(bytes, UploadStore.hash(bytes), false));
      expect(err.kind).toBe('input');
      expect(err.message).toMatch(/^cannot write .*\.sdfg: no space left on the device$/);
      const [folder] = await readdir(mnt);
      expect(await readdir(join(mnt, folder!))).toEqual([]);
      await store.dispose();
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});
