/**
 * Is this folder a DaCe build folder (docs/dace-folders.md)? Cheap checks on names only, for the Open dialog's
 * listing (every subfolder of a listed folder is asked) and the desktop app's drops: DaCe's saved SDFG
 * (`program.sdfgz` or `program.sdfg`), a `build/` folder, and `include/` or (the older layout) `src/`. A folder
 * holding a Transient Lab `manifest.json` is a `transient-lab build` folder, never a DaCe one. Whether the
 * folder is complete (its library, its signatures) is checked when it is opened or profiled (folder.ts).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

const kindOf = (path: string): Promise<'file' | 'dir' | null> =>
  stat(path).then(
    (s) => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : null),
    () => null,
  );

/** The folder's `program.sdfgz` / `program.sdfg` when `dir` is laid out as a DaCe build folder, else null. */
export async function daceBuildSdfg(dir: string): Promise<string | null> {
  const [gz, plain, build, include, src, manifest] = await Promise.all(
    ['program.sdfgz', 'program.sdfg', 'build', 'include', 'src', 'manifest.json'].map((n) => kindOf(join(dir, n))),
  );
  if (manifest !== null || build !== 'dir' || (include !== 'dir' && src !== 'dir')) return null;
  return gz === 'file' ? join(dir, 'program.sdfgz') : plain === 'file' ? join(dir, 'program.sdfg') : null;
}
