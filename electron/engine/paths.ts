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

/**
 * Where a file of the package is on disk for programs that cannot read inside an ASAR archive. In the packaged
 * desktop app the package is `resources/app.asar`; electron-builder's `asarUnpack` copies the files the
 * compiler must read (the runtime header) and the addon that dlopen loads to `resources/app.asar.unpacked`,
 * at the same place inside. Anywhere else (a checkout, an npm install) the path is returned as is.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

/** native/ (the addon build and the runtime header), in its unpacked place when packaged. */
export function nativeDir(): string {
  return unpackedPath(join(packageRoot(), 'native'));
}

/** The bundled examples (unpacked in the packaged app, like native/: they are ordinary files to every reader). */
export function examplesDir(): string {
  return unpackedPath(resolve(packageRoot(), 'assets', 'examples'));
}

export function corpusDir(): string {
  return resolve(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
}
