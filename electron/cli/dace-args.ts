/** `profile FOLDER [MORE_FOLDERS…]` and `profile --prebuilt FOLDER`: which arguments are DaCe build folders. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';

/** A folder with DaCe's program.sdfgz / program.sdfg and no Transient Lab manifest.json. */
function isDaceFolder(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false;
  } catch {
    return false;
  }
  if (existsSync(join(path, 'manifest.json'))) return false;
  return existsSync(join(path, 'program.sdfgz')) || existsSync(join(path, 'program.sdfg'));
}

/** Options a DaCe build fixes: its layout, flags and library implementations are the build's own. */
const FIXED = ['layout', 'cxxflags', 'pool-release-threshold', 'library-impl', 'modes', 'remote', 'gpu'];

const WHY: Record<string, string> = {
  modes: 'each folder is built in one mode, read from its SDFG and exports; pass one folder per mode',
  // docs/dace-folders.md, "GPU builds": DaCe compiled its CUDA with nvcc; only our generator's code has a host backend.
  gpu: "DaCe built its code for one backend, and Transient Lab cannot re-target DaCe's CUDA to the host backend; to emulate a GPU program on this machine, profile the SDFG DaCe saved (FOLDER/program.sdfgz) with --gpu host",
};

/**
 * The DaCe build folders among `profile`'s arguments (`--prebuilt` first), or null when they are not DaCe
 * folders. Every one must be one when any is.
 */
export function daceFolderArgs(
  command: string,
  prebuilt: string | null,
  positionals: string[],
  given: ReadonlySet<string>,
): string[] | null {
  const candidates = prebuilt !== null ? [prebuilt, ...positionals] : positionals;
  const dace = candidates.filter(isDaceFolder);
  if (!dace.length) return null;
  const other = candidates.find((c) => !dace.includes(c));
  if (other !== undefined) {
    throw new TlabError(
      'usage',
      `${command}: ${other} is not a DaCe build folder (program.sdfgz or program.sdfg, include/, src/, build/): give only DaCe build folders, one per mode`,
    );
  }
  for (const fixed of FIXED) {
    if (given.has(fixed)) {
      throw new TlabError('usage', `${command}: --${fixed} cannot be used with DaCe build folders: ${WHY[fixed] ?? 'the build fixes it'}`);
    }
  }
  return candidates;
}
