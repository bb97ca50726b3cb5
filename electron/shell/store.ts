/**
 * Small JSON files in the user-data folder (recent files, window state). Written through the engine's one
 * atomic writer (engine/io/atomic-write.ts), so a crash or a full disk leaves the old file or the new one,
 * never half of one. A missing or unreadable file reads
 * as the defaults; the app never fails to start because of its own state.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic, type WriteFs } from '../engine/io/atomic-write.js';

export async function writeJsonAtomic(file: string, value: unknown, fs?: WriteFs): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(value, null, 1)}\n`, { mode: 0o600, fs });
}

/** The parsed file if `check` accepts it, else `fallback` (missing, unreadable, malformed: all the same). */
export async function readJson<T>(file: string, check: (x: unknown) => T | null, fallback: T): Promise<T> {
  try {
    return check(JSON.parse(await readFile(file, 'utf8'))) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * One JSON file written in order: each save waits for the previous one, and saves that pile up while one is
 * written collapse into the latest value.
 */
export class JsonFile<T> {
  private writing: Promise<void> = Promise.resolve();
  private pending: { value: T } | null = null;

  constructor(
    readonly path: string,
    private readonly onError: (err: unknown) => void,
  ) {}

  save(value: T): Promise<void> {
    const first = this.pending === null;
    this.pending = { value };
    if (!first) return this.writing;
    this.writing = this.writing.then(async () => {
      const next = this.pending;
      this.pending = null;
      if (next) await writeJsonAtomic(this.path, next.value).catch(this.onError);
    });
    return this.writing;
  }

  /** Resolves when every save so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }
}
