/**
 * File-system failures as people read them. A Node fs error (`EFBIG: file too large, copyfile '…' -> '…'`) says
 * what the kernel said; a person needs the path, the cause in plain words, and an exit code that follows the
 * CLI's convention — never an internal error with a stack trace. Each boundary that touches the file system
 * turns what it catches into a FileError (a TlabError) of the kind of the step it belongs to.
 */
import { TlabError, type ErrorKind } from '../errors.js';

/** Plain words for the codes a write or a read can meet; unknown codes keep Node's message. */
const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than this process may write (its file-size limit, ulimit -f) or than the file system allows',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'it exists already',
  EMFILE: 'too many open files in this process (ulimit -n)',
  ENFILE: 'too many open files on this system',
  EIO: 'an input/output error on the device',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many levels of symbolic links',
  EXDEV: 'it is on another file system',
  EBUSY: 'the file or the device is busy',
  ETXTBSY: 'the file is a program that is running',
  ENOMEM: 'out of memory',
  ENXIO: 'no such device',
  ENODEV: 'no such device',
  EINVAL: 'the file system does not support this operation',
};

/** An error thrown by node:fs (it carries a string `code` such as ENOSPC and the syscall that failed). */
export function isFsError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  const e = err as NodeJS.ErrnoException | null;
  return e instanceof Error && typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code) && typeof e.syscall === 'string';
}

/** The cause of a file-system error in plain words (the message of anything else). */
export function fsCause(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && code in CAUSES) return CAUSES[code]!;
  return err instanceof Error ? err.message : String(err);
}

/** A file-system failure at a named path: `cannot <action> <path>: <reason>`. */
export class FileError extends TlabError {
  /** The Node error code (ENOSPC, EFBIG, …), or null when the failure was not a Node error. */
  readonly code: string | null;
  readonly path: string;
  /** The cause alone, in plain words. */
  readonly reason: string;

  constructor(kind: ErrorKind, action: string, path: string, cause: unknown, opts: { reason?: string; details?: string[] } = {}) {
    const reason = opts.reason ?? fsCause(cause);
    super(kind, `cannot ${action} ${path}: ${reason}`, { details: opts.details ?? [], cause });
    this.code = (cause as NodeJS.ErrnoException | null)?.code ?? null;
    this.path = path;
    this.reason = reason;
  }
}

/** Runs `work`; a file-system error it throws becomes a FileError of `kind` (anything else passes through). */
export async function withFileErrors<T>(
  kind: ErrorKind,
  action: string,
  path: string,
  work: () => Promise<T>,
  details: string[] = [],
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isFsError(err)) throw new FileError(kind, action, path, err, { details });
    throw err;
  }
}
