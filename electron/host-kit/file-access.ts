/**
 * Which files the renderer may name. The host injects one policy into the service:
 * - browser mode: `RootsFileAccess`, the `--root` folders (realpath checks: `..`, absolute paths and symlinks
 *   that lead out of every root are refused);
 * - the desktop app: `ApprovedFileAccess`, exactly the paths the user picked in a dialog or dropped.
 * Every path the service opens, lists or writes for the renderer goes through here first.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { FolderEntry, FolderListing } from '../ipc/contract.js';
import { ContractFailure } from '../ipc/errors.js';
import { TlabError } from '../engine/errors.js';
import { daceBuildSdfg } from '../engine/dace/detect.js';

export type FilePurpose = 'sdfg' | 'result' | 'input' | 'folder';

export interface FileAccess {
  /** Folders shown to the renderer (`EnvironmentInfo.roots`); empty when files come from dialogs. */
  readonly roots: readonly string[];
  /** The real, absolute path to read for a path the renderer gave, or a ContractFailure('refused'). */
  resolveRead(path: string, purpose: FilePurpose): Promise<string>;
  /** The absolute path to write (never through a link), or a ContractFailure('refused'). */
  resolveWrite(path: string, purpose: 'result'): Promise<string>;
  listFolder(path: string | null): Promise<FolderListing>;
}

/** Entries listed per folder; a folder with more says `truncated`. */
const MAX_ENTRIES = 5000;

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function kindOf(name: string): FolderEntry['kind'] {
  const ext = extname(name).toLowerCase();
  return ext === '.sdfg' || ext === '.sdfgz' ? 'sdfg' : ext === '.json' ? 'result' : 'other';
}

function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'does not exist'
    : code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'ENOTDIR'
        ? 'a part of the path is not a folder'
        : ((err as Error).message ?? String(err));
}

/** Browser mode: files inside the `--root` folders only. */
export class RootsFileAccess implements FileAccess {
  private constructor(
    /** As given (absolute), for messages and for resolving relative paths. */
    readonly roots: readonly string[],
    /** The same folders after realpath. */
    private readonly realRoots: readonly string[],
  ) {}

  /** Every root must be an existing folder. */
  static async create(roots: readonly string[]): Promise<RootsFileAccess> {
    if (!roots.length) throw new TlabError('usage', 'at least one root folder is needed');
    const given = roots.map((r) => resolve(r));
    const real: string[] = [];
    for (const root of given) {
      let r: string;
      try {
        r = await realpath(root);
      } catch (err) {
        throw new TlabError('usage', `--root ${root}: ${fsReason(err)}`);
      }
      if (!(await stat(r)).isDirectory()) throw new TlabError('usage', `--root ${root}: not a folder`);
      real.push(r);
    }
    return new RootsFileAccess(given, real);
  }

  private refuse(path: string): never {
    throw new ContractFailure(
      'refused',
      `outside the folders this server may read (${this.roots.join(', ')}); restart \`transient-lab serve\` with --root to allow another folder`,
      { file: path },
    );
  }

  /** Absolute path, relative ones from the first root; refused unless lexically inside a root. */
  private lexical(path: string): string {
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.roots[0]!, path);
    if (!this.roots.some((r) => isInside(abs, r)) && !this.realRoots.some((r) => isInside(abs, r))) this.refuse(path);
    return abs;
  }

  private insideReal(real: string): boolean {
    return this.realRoots.some((r) => isInside(real, r));
  }

  async resolveRead(path: string, purpose: FilePurpose): Promise<string> {
    const abs = this.lexical(path);
    let real: string;
    try {
      real = await realpath(abs);
    } catch (err) {
      throw new TlabError('input', `cannot open: ${fsReason(err)}`, { file: path });
    }
    // A link inside a root may point anywhere: only where it really leads counts.
    if (!this.insideReal(real)) this.refuse(path);
    const st = await stat(real);
    if (purpose === 'folder' ? !st.isDirectory() : !st.isFile()) {
      throw new TlabError('input', purpose === 'folder' ? 'not a folder' : 'not a file (a folder or a device)', { file: path });
    }
    return real;
  }

  async resolveWrite(path: string): Promise<string> {
    const abs = this.lexical(path);
    let dir: string;
    try {
      dir = await realpath(dirname(abs));
    } catch (err) {
      throw new TlabError('usage', `cannot save: the folder ${fsReason(err)}`, { file: path });
    }
    if (!this.insideReal(dir)) this.refuse(path);
    const target = join(dir, basename(abs));
    await refuseLinkTarget(target, path);
    return target;
  }

  async listFolder(path: string | null): Promise<FolderListing> {
    const real = await this.resolveRead(path ?? this.roots[0]!, 'folder');
    const atRoot = this.realRoots.includes(real);
    const items = await readdir(real, { withFileTypes: true });
    const entries: FolderEntry[] = [];
    let truncated = false;
    for (const item of items) {
      // `.dacecache` is hidden, but it is where DaCe keeps its build folders (docs/dace-folders.md).
      if (item.name.startsWith('.') && item.name !== '.dacecache') continue;
      if (entries.length >= MAX_ENTRIES) {
        truncated = true;
        break;
      }
      const full = join(real, item.name);
      let target = full;
      if (item.isSymbolicLink()) {
        try {
          target = await realpath(full);
        } catch {
          continue; // dangling link
        }
        if (!this.insideReal(target)) continue;
      }
      let st;
      try {
        st = await stat(target);
      } catch {
        continue;
      }
      // A DaCe build folder is one openable entry (its SDFG), not a folder to descend into.
      if (st.isDirectory())
        entries.push({ name: item.name, path: full, kind: (await daceBuildSdfg(target)) ? 'dace' : 'folder', bytes: null });
      else if (st.isFile()) entries.push({ name: item.name, path: full, kind: kindOf(item.name), bytes: st.size });
    }
    // Folders (DaCe build folders among them, where a user looks for them) first.
    const dir = (e: FolderEntry): number => Number(e.kind === 'folder' || e.kind === 'dace');
    entries.sort((a, b) => dir(b) - dir(a) || a.name.localeCompare(b.name));
    return { path: real, parent: atRoot ? null : dirname(real), entries, truncated };
  }
}

/** The file to be written must not be a link (it could point anywhere) nor a folder. */
async function refuseLinkTarget(target: string, asGiven: string): Promise<void> {
  try {
    const st = await lstat(target);
    if (st.isSymbolicLink()) throw new ContractFailure('refused', 'will not write through a symbolic link', { file: asGiven });
    if (!st.isFile()) throw new ContractFailure('refused', 'a folder or device of that name exists', { file: asGiven });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * The desktop app: only paths the user approved (Open/Save dialogs, drops, the command line). The shell calls
 * `approve` with what the dialog returned; the renderer can then name those paths and nothing else.
 */
export class ApprovedFileAccess implements FileAccess {
  readonly roots: readonly string[] = [];
  private readonly readable = new Set<string>();
  private readonly writable = new Set<string>();

  /** A file the user chose to open (resolved through links now: what was approved is what is read), or a DaCe
   * build folder (dropped, or chosen in the folder dialog): the folder and the SDFG it holds. */
  async approve(path: string): Promise<string> {
    const real = await realpath(resolve(path));
    if ((await stat(real)).isDirectory()) {
      const sdfg = await daceBuildSdfg(real);
      if (!sdfg)
        throw new TlabError('input', 'a folder that is not a DaCe build folder (program.sdfgz or program.sdfg, build/, include/ or src/)', {
          file: path,
        });
      this.readable.add(await realpath(sdfg));
    }
    this.readable.add(real);
    return real;
  }

  /** A file the user chose in a Save dialog (it may not exist yet). */
  approveWrite(path: string): string {
    const abs = resolve(path);
    this.writable.add(abs);
    return abs;
  }

  async resolveRead(path: string, purpose: FilePurpose): Promise<string> {
    let real: string;
    try {
      real = await realpath(resolve(path));
    } catch (err) {
      throw new TlabError('input', `cannot open: ${fsReason(err)}`, { file: path });
    }
    if (purpose === 'folder' && !this.readable.has(real))
      throw new ContractFailure('refused', 'the desktop app opens files through its Open dialog, not by browsing', { file: path });
    if (!this.readable.has(real))
      throw new ContractFailure('refused', 'this file was not chosen in an Open dialog or dropped on the window', { file: path });
    const dir = (await stat(real)).isDirectory();
    if (purpose === 'folder' ? !dir : dir) throw new TlabError('input', dir ? 'not a file (a folder)' : 'not a folder', { file: path });
    return real;
  }

  async resolveWrite(path: string): Promise<string> {
    const abs = resolve(path);
    if (!this.writable.has(abs)) throw new ContractFailure('refused', 'this path was not chosen in a Save dialog', { file: path });
    await refuseLinkTarget(abs, path);
    return abs;
  }

  async listFolder(): Promise<FolderListing> {
    throw new ContractFailure('refused', 'the desktop app opens files through its Open dialog, not by browsing');
  }
}
