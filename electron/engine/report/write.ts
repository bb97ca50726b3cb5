/**
 * Writing report files so that nothing half-written is ever left: each file goes to a temporary file in the
 * same folder (created exclusively, synced), and only when every one of them is complete are they renamed over
 * their targets. Any failure removes the temporary files. An output path that cannot be written is a usage
 * error naming the path and why.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { TlabError } from '../errors.js';

export interface OutputFile {
  path: string;
  data: string | Uint8Array;
}

function why(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'ENOENT') return 'the folder does not exist';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  if (code === 'EISDIR') return 'it is a folder';
  return (err as Error).message ?? String(err);
}

async function checkTarget(path: string): Promise<void> {
  const dir = dirname(resolve(path));
  const folder = await stat(dir).catch((err: unknown) => {
    throw new TlabError('usage', `cannot write ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? `the folder ${dir} does not exist` : why(err)}`);
  });
  if (!folder.isDirectory()) throw new TlabError('usage', `cannot write ${path}: ${dir} is not a folder`);
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new TlabError('usage', `cannot write ${path}: it is a folder`);
}

/** Writes every file, or none of them. */
export async function writeFilesAtomic(files: OutputFile[]): Promise<void> {
  for (const f of files) await checkTarget(f.path);
  const temps: string[] = [];
  try {
    const staged: Array<[string, string]> = [];
    for (const f of files) {
      const temp = join(dirname(resolve(f.path)), `.${basename(f.path)}.${randomBytes(6).toString('hex')}.tmp`);
      let handle;
      try {
        // 'wx': never follow or reuse whatever is already at the temporary name.
        handle = await open(temp, 'wx', 0o644);
      } catch (err) {
        throw new TlabError('usage', `cannot write ${f.path}: ${why(err)}`, { cause: err });
      }
      temps.push(temp);
      try {
        await handle.writeFile(f.data);
        await handle.sync();
      } catch (err) {
        throw new TlabError('usage', `cannot write ${f.path}: ${why(err)}`, { cause: err });
      } finally {
        await handle.close();
      }
      staged.push([temp, f.path]);
    }
    for (const [temp, path] of staged) {
      try {
        await rename(temp, path);
      } catch (err) {
        throw new TlabError('usage', `cannot write ${path}: ${why(err)}`, { cause: err });
      }
    }
  } finally {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
  }
}
