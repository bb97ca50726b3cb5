/**
 * "built by DaCe <version>, <date>, <build type>, <compiler>, flags …" of a DaCe build folder
 * (docs/dace-folders.md): what the folder says about how its library was built, and what it does not say.
 * The CMake cache gives the build type, the compiler and the flags; DaCe's generated sources carry no version
 * (their header comment only says that DaCe generated them), so the version is the cache's `DACE_VERSION` when
 * one was recorded, else the `dace_version` DaCe wrote into the SDFG it saved with the build.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { TlabError } from '../errors.js';
import { fsCause } from '../io/fs-errors.js';

export interface BuiltBy {
  /** The DaCe version, when the folder records one. */
  daceVersion: string | null;
  /** Where `daceVersion` was read: the CMake cache or the SDFG's `dace_version`. */
  versionFrom: 'CMakeCache' | 'SDFG' | null;
  /** When the library was written (its modification time, ISO 8601); null without a library. */
  date: string | null;
  /** False without `build/CMakeCache.txt`: build type, compiler and flags are then unknown. */
  cache: boolean;
  buildType: string | null;
  compiler: string | null;
  /** CMAKE_CXX_FLAGS and the build type's own flags, as CMake passes them. */
  flags: string[];
}

function cmakeEntry(text: string, key: string): string | null {
  const m = new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm').exec(text);
  return m ? m[1]!.trim() || null : null;
}

/** What the folder records; `sdfgVersion` is the `dace_version` of its program.sdfg[z]. */
export async function readBuiltBy(dir: string, libraryPath: string | null, sdfgVersion: string | null): Promise<BuiltBy> {
  const cachePath = join(dir, 'build', 'CMakeCache.txt');
  const text = await readFile(cachePath, 'utf8').catch((cause: unknown) => {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new TlabError('input', `cannot read: ${fsCause(cause)}`, { file: cachePath, cause });
  });
  const date = libraryPath ? (await stat(libraryPath)).mtime.toISOString() : null;
  const cached = text === null ? null : cmakeEntry(text, 'DACE_VERSION');
  const daceVersion = cached ?? sdfgVersion;
  const base = { daceVersion, versionFrom: cached ? ('CMakeCache' as const) : sdfgVersion ? ('SDFG' as const) : null, date };
  if (text === null) return { ...base, cache: false, buildType: null, compiler: null, flags: [] };
  const buildType = cmakeEntry(text, 'CMAKE_BUILD_TYPE');
  const flags = [cmakeEntry(text, 'CMAKE_CXX_FLAGS'), buildType ? cmakeEntry(text, `CMAKE_CXX_FLAGS_${buildType.toUpperCase()}`) : null]
    .filter((f): f is string => !!f)
    .flatMap((f) => f.split(/\s+/).filter(Boolean));
  return { ...base, cache: true, buildType, compiler: cmakeEntry(text, 'CMAKE_CXX_COMPILER'), flags };
}

/**
 * "built by DaCe 2.0.0a6, 2026-12-07, Release, g++, flags -std=c++17 -fPIC -O3 -march=native"; what the folder
 * does not record is said: "built by DaCe: version unknown, …", "no build/CMakeCache.txt: build type, compiler
 * and flags unknown".
 */
export function builtByLine(b: BuiltBy): string {
  const parts = [
    b.daceVersion
      ? `built by DaCe ${b.daceVersion}${b.versionFrom === 'SDFG' ? " (the SDFG's dace_version)" : ''}`
      : 'built by DaCe: version unknown',
  ];
  if (b.date) parts.push(b.date.slice(0, 10));
  if (!b.cache) {
    parts.push('no build/CMakeCache.txt: build type, compiler and flags unknown');
    return parts.join(', ');
  }
  parts.push(b.buildType ?? 'build type not recorded');
  if (b.compiler) parts.push(basename(b.compiler));
  parts.push(b.flags.length ? `flags ${b.flags.join(' ')}` : 'no flags recorded');
  return parts.join(', ');
}
