/** Where the package's own files are, whether we run from `dist/` (built) or from sources (vitest). */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | null = null;

/** The folder holding package.json of transient-lab. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'native'))) {
      cachedRoot = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`transient-lab: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export function examplesDir(): string {
  return resolve(packageRoot(), 'assets', 'examples');
}

export function corpusDir(): string {
  return resolve(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
}
