/**
 * Recent files (Open Recent): SDFGs and result files, newest first, at most MAX_RECENT, kept in
 * `userData/recent.json` and mirrored to the OS list (app.addRecentDocument).
 */
import { join } from 'node:path';
import { JsonFile, readJson } from './store.js';

export type FileKind = 'sdfg' | 'result';

export interface RecentEntry {
  path: string;
  kind: FileKind;
}

export const MAX_RECENT = 12;
const FORMAT = 'transient-lab/recent@1';

function isRecentEntry(f: unknown): f is RecentEntry {
  if (typeof f !== 'object' || f === null) return false;
  const { path, kind } = f as { path?: unknown; kind?: unknown };
  return typeof path === 'string' && path.length > 0 && path.length < 4096 && (kind === 'sdfg' || kind === 'result');
}

function check(x: unknown): RecentEntry[] | null {
  if (typeof x !== 'object' || x === null || (x as { schema?: unknown }).schema !== FORMAT) return null;
  const files = (x as { files?: unknown }).files;
  if (!Array.isArray(files)) return null;
  return (files as unknown[])
    .filter(isRecentEntry)
    .map((f) => ({ path: f.path, kind: f.kind }))
    .slice(0, MAX_RECENT);
}

export class RecentFiles {
  private entries: RecentEntry[] = [];
  private readonly listeners: Array<() => void> = [];

  private constructor(private readonly file: JsonFile<unknown>) {}

  static async load(userData: string, onError: (err: unknown) => void): Promise<RecentFiles> {
    const path = join(userData, 'recent.json');
    const r = new RecentFiles(new JsonFile(path, onError));
    r.entries = await readJson(path, check, []);
    return r;
  }

  list(): readonly RecentEntry[] {
    return this.entries;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  add(path: string, kind: FileKind): Promise<void> {
    this.entries = [{ path, kind }, ...this.entries.filter((e) => e.path !== path)].slice(0, MAX_RECENT);
    return this.changed();
  }

  remove(path: string): Promise<void> {
    this.entries = this.entries.filter((e) => e.path !== path);
    return this.changed();
  }

  clear(): Promise<void> {
    this.entries = [];
    return this.changed();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  private changed(): Promise<void> {
    for (const l of this.listeners) l();
    return this.file.save({ schema: FORMAT, files: this.entries });
  }
}
