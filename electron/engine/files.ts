/** File-system helpers the engine needs beyond node:fs. */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` that always ends. Node 20's own `mkdir(path, { recursive: true })` spins forever (100% CPU) on
 * paths such as `/proc/x/y`, where mkdir answers ENOENT for a parent that stat says exists; a user's
 * `--save-outputs` or cache folder can be anything, so create each missing component ourselves.
 */
export async function makeDirectory(path: string): Promise<void> {
  const missing: string[] = [];
  for (let dir = resolve(path); ;) {
    try {
      if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error(`${dir} exists and is not a directory`), { code: 'ENOTDIR' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir);
    } catch (err) {
      // Another process may create the same folder at the same time (two profiles sharing a cache).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
