/**
 * Private copies of uploaded SDFGs: the profiler compiles from a file, and an evicted model must be parseable
 * again. One folder per service (mode 0700, removed on dispose), one file per distinct content, deleted when no
 * open document uses it any more.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../engine/io/atomic-write.js';
import { withFileErrors } from '../engine/io/fs-errors.js';

export class UploadStore {
  private dir: Promise<string> | null = null;
  private readonly refs = new Map<string, number>();
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly parent: string = tmpdir()) {}

  private folder(): Promise<string> {
    // mkdtemp creates the folder with mode 0700: other users of a shared node cannot read uploads.
    this.dir ??= withFileErrors('input', 'keep an uploaded file in', this.parent, () => mkdtemp(join(this.parent, 'tlab-uploads-')));
    return this.dir;
  }

  static hash(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** Stores `bytes` (once per content, `hash` = UploadStore.hash(bytes)) and takes a reference. */
  async add(bytes: Uint8Array, hash: string, compressed: boolean): Promise<{ hash: string; path: string }> {
    const path = join(await this.folder(), `${hash}${compressed ? '.sdfgz' : '.sdfg'}`);
    // Counted before the write: two uploads of the same bytes at once share one copy.
    const n = this.refs.get(hash) ?? 0;
    this.refs.set(hash, n + 1);
    if (n === 0) this.writes.set(hash, writeFileAtomic(path, bytes, { mode: 0o600, kind: 'input' }));
    try {
      await this.writes.get(hash);
    } catch (err) {
      await this.release(hash, path);
      throw err;
    }
    return { hash, path };
  }

  /** Drops one reference; the copy is deleted with the last. Returns whether it was the last. */
  async release(hash: string, path: string): Promise<boolean> {
    const n = (this.refs.get(hash) ?? 0) - 1;
    if (n > 0) {
      this.refs.set(hash, n);
      return false;
    }
    this.refs.delete(hash);
    this.writes.delete(hash);
    await rm(path, { force: true });
    return true;
  }

  async dispose(): Promise<void> {
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
    this.dir = null;
    this.refs.clear();
    this.writes.clear();
  }
}
