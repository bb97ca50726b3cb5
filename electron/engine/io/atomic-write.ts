/**
 * The one way Transient Lab writes a file: the bytes go to a temporary file in the target's own folder (created
 * exclusively, never through something already there), are fsync'ed, and only then is that file renamed over
 * the target. A write that fails at any point — a full disk, a file-size limit, a quota, an fsync or a rename
 * that fails — removes the temporary file and leaves the old target exactly as it was; a crash leaves the old
 * file or the new one, never half of one. Every host (CLI, browser mode, the desktop app) goes through here.
 *
 * A target that exists and is not a regular file (`--out /dev/stdout`, a FIFO, /dev/full) is written in place:
 * renaming over a device would replace the device. A symbolic link is followed: its target is replaced, the
 * link stays.
 *
 * Failures are FileErrors (`cannot write PATH: no space left on the device`) of the caller's kind. The file
 * system is a parameter (`fs`) so that tests can make a write fail wherever they choose.
 */
import { randomBytes } from 'node:crypto';
import { link, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ErrorKind } from '../errors.js';
import { FileError } from './fs-errors.js';

/** What the writer uses of an open file (node:fs/promises' FileHandle has this shape). */
export interface WriteHandle {
  write(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  sync(): Promise<void>;
  chmod(mode: number): Promise<void>;
  close(): Promise<void>;
}

interface FileStat {
  isFile(): boolean;
  isDirectory(): boolean;
  mode: number;
}

/** The file system seam: node:fs/promises, or a test's wrapper that fails on purpose. */
export interface WriteFs {
  open(path: string, flags: string, mode?: number): Promise<WriteHandle>;
  rename(from: string, to: string): Promise<void>;
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
}

export const nodeWriteFs: WriteFs = {
  open: (path, flags, mode) => open(path, flags, mode),
  rename,
  link,
  unlink,
  stat,
  realpath: (path) => realpath(path),
};

export interface WriteOptions {
  /** The TlabError kind of a failure (default `usage`: a place the user named). */
  kind?: ErrorKind;
  /** Permission bits of a new file (default 0o666 less the umask); a replaced file keeps its own. */
  mode?: number;
  /** Never replace an existing file: fail with EEXIST instead (fallback files). */
  exclusive?: boolean;
  /** What the message calls the operation (default `write`): `cannot <action> <path>: …`. */
  action?: string;
  /** Lines under the message (what to do about it). */
  details?: string[];
  fs?: WriteFs;
}

export interface OutputFile {
  path: string;
  data: string | Uint8Array;
}

/** Bytes per write call; a partial write is continued, not repeated. */
const CHUNK = 1 << 20;

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

async function writeAll(handle: WriteHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.byteLength;) {
    const { bytesWritten } = await handle.write(bytes, done, Math.min(CHUNK, bytes.byteLength - done), null);
    // A write that takes nothing would loop forever; the kernel reports a real cause on the next call anyway.
    if (bytesWritten <= 0) throw Object.assign(new Error('the file system accepted no bytes'), { code: 'EIO' });
    done += bytesWritten;
  }
}

/** Where the bytes really go, and what is there now (null: nothing). */
async function resolveTarget(fs: WriteFs, path: string): Promise<{ real: string; existing: FileStat | null }> {
  const abs = resolve(path);
  try {
    const real = await fs.realpath(abs);
    return { real, existing: await fs.stat(real) };
  } catch (err) {
    // Nothing there (or a file where a folder should be): opening the temporary file says which.
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return { real: abs, existing: null };
    throw err;
  }
}

function tempName(real: string): string {
  // Hidden, beside the target (a rename never crosses file systems), and short enough for any name.
  return join(dirname(real), `.${basename(real).slice(0, 120)}.${randomBytes(6).toString('hex')}.tmp`);
}

async function closeQuietly(handle: WriteHandle): Promise<void> {
  await handle.close().catch(() => undefined);
}

async function removeQuietly(fs: WriteFs, path: string): Promise<void> {
  await fs.unlink(path).catch(() => undefined);
}

/** The folder's entry for the renamed file reaches the disk too (where the platform can sync a folder). */
async function syncFolder(fs: WriteFs, dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    await handle.sync().catch(() => undefined);
    await closeQuietly(handle);
  } catch {
    // Not every platform opens folders; the file itself is synced already.
  }
}

/** When the temporary file cannot be created for want of a folder: which folder, and what is wrong with it. */
async function folderProblem(fs: WriteFs, dir: string): Promise<string | null> {
  try {
    return (await fs.stat(dir)).isDirectory() ? null : `${dir} is not a folder`;
  } catch (err) {
    return code(err) === 'ENOTDIR' ? `a part of ${dir} is a file, not a folder` : `the folder ${dir} does not exist`;
  }
}

/** A staged write: the temporary file holds every byte, synced; `commit` renames it over the target. */
interface Staged {
  target: string;
  real: string;
  temp: string | null;
}

/** Writes `fill`'s bytes into a synced temporary file beside `path` (or in place for a non-regular file). */
async function stage(
  path: string,
  fill: (handle: WriteHandle) => Promise<void>,
  o: WriteOptions & { defaultMode?: number },
): Promise<Staged> {
  const fs = o.fs ?? nodeWriteFs;
  const action = o.action ?? 'write';
  const fail = (err: unknown): never => {
    // A failure already put in words (reading the source of a copy) stays as it is.
    if (err instanceof FileError) throw err;
    throw new FileError(o.kind ?? 'usage', action, path, err, { details: o.details });
  };
  const { real, existing } = await resolveTarget(fs, path).catch(fail);
  if (existing?.isDirectory()) fail(Object.assign(new Error('it is a folder'), { code: 'EISDIR' }));
  if (existing && o.exclusive) fail(Object.assign(new Error('it exists already'), { code: 'EEXIST' }));
  if (existing && !existing.isFile()) {
    // A device, a FIFO, a socket: write through it. There is no old file to keep.
    const handle = await fs.open(real, 'w').catch(fail);
    try {
      await fill(handle);
    } catch (err) {
      fail(err);
    } finally {
      await closeQuietly(handle);
    }
    return { target: path, real, temp: null };
  }
  const temp = tempName(real);
  const handle = await fs.open(temp, 'wx', o.mode ?? o.defaultMode ?? 0o666).catch(async (err: unknown): Promise<never> => {
    const reason = code(err) === 'ENOENT' || code(err) === 'ENOTDIR' ? await folderProblem(fs, dirname(real)) : null;
    if (reason) throw new FileError(o.kind ?? 'usage', action, path, err, { reason, details: o.details });
    return fail(err);
  });
  try {
    await fill(handle);
    // Replacing a file keeps its permissions (a result made group-readable stays so).
    if (existing) await handle.chmod(existing.mode & 0o7777);
    await handle.sync();
    await handle.close();
  } catch (err) {
    await closeQuietly(handle);
    await removeQuietly(fs, temp);
    fail(err);
  }
  return { target: path, real, temp };
}

async function commit(s: Staged, o: WriteOptions): Promise<void> {
  if (s.temp === null) return;
  const fs = o.fs ?? nodeWriteFs;
  try {
    if (o.exclusive) await placeExclusive(fs, s.temp, s.real);
    else await fs.rename(s.temp, s.real);
  } catch (err) {
    await removeQuietly(fs, s.temp);
    throw new FileError(o.kind ?? 'usage', o.action ?? 'write', s.target, err, { details: o.details });
  }
  await syncFolder(fs, dirname(s.real));
}

/** rename() would replace a file that appeared meanwhile; link() fails instead (EEXIST). */
async function placeExclusive(fs: WriteFs, temp: string, real: string): Promise<void> {
  try {
    await fs.link(temp, real);
  } catch (err) {
    const c = code(err);
    if (c === 'EEXIST' || !['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'].includes(c ?? '')) throw err;
    // A file system without hard links: check, then rename (a race here can only lose to another fallback).
    const there = await fs.stat(real).then(
      () => true,
      (e: unknown) => {
        if (code(e) === 'ENOENT') return false;
        throw e;
      },
    );
    if (there) throw Object.assign(new Error('it exists already'), { code: 'EEXIST' });
    await fs.rename(temp, real);
    return;
  }
  await removeQuietly(fs, temp);
}

/** Writes `data` to `path` atomically (see the top of this file). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, o: WriteOptions = {}): Promise<void> {
  const bytes = bytesOf(data);
  await commit(await stage(path, (h) => writeAll(h, bytes), o), o);
}

/**
 * Copies `source` to `dest` atomically, chunk by chunk (a library can be large). A new file gets the source's
 * permission bits (a library stays executable) unless `mode` says otherwise.
 */
export async function copyFileAtomic(source: string, dest: string, o: WriteOptions = {}): Promise<void> {
  const fs = o.fs ?? nodeWriteFs;
  const kind = o.kind ?? 'usage';
  const from = await fs.open(source, 'r').catch((err: unknown) => {
    throw new FileError(kind, 'read', source, err, { details: o.details });
  });
  try {
    const mode = (await fs.stat(source).catch(() => null))?.mode;
    const buffer = new Uint8Array(CHUNK);
    const fill = async (to: WriteHandle): Promise<void> => {
      for (;;) {
        let bytesRead: number;
        try {
          ({ bytesRead } = await from.read(buffer, 0, buffer.byteLength, null));
        } catch (err) {
          throw new FileError(kind, 'read', source, err);
        }
        if (bytesRead === 0) return;
        await writeAll(to, buffer.subarray(0, bytesRead));
      }
    };
    await commit(await stage(dest, fill, { ...o, defaultMode: mode === undefined ? undefined : mode & 0o7777 }), o);
  } finally {
    await closeQuietly(from);
  }
}

/**
 * Writes several files, all or none as far as a file system allows: every one is staged (written and synced
 * beside its target) before the first is renamed into place, so a full disk or a limit met on any file leaves
 * every old file as it was.
 */
export async function writeFilesAtomic(files: OutputFile[], o: WriteOptions = {}): Promise<void> {
  const fs = o.fs ?? nodeWriteFs;
  const staged: Staged[] = [];
  try {
    for (const f of files) {
      const bytes = bytesOf(f.data);
      staged.push(await stage(f.path, (h) => writeAll(h, bytes), o));
    }
  } catch (err) {
    await Promise.all(staged.map((s) => (s.temp ? removeQuietly(fs, s.temp) : Promise.resolve())));
    throw err;
  }
  for (const [i, s] of staged.entries()) {
    try {
      await commit(s, o);
    } catch (err) {
      await Promise.all(staged.slice(i + 1).map((t) => (t.temp ? removeQuietly(fs, t.temp) : Promise.resolve())));
      throw err;
    }
  }
}
