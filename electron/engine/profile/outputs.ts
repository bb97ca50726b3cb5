/**
 * Where a profile run writes its results, checked before anything is built, and written so that nothing is
 * lost: a run can take many minutes, and a mistyped `--out` or `--save-outputs` found only at the end would
 * throw the whole run away. If writing still fails at the end (the disk filled up, the folder went away), the
 * data goes to a clearly named fallback in the OS temp folder (or the current folder) and the caller says where.
 * Every file goes through writeFileAtomic: a failed write never leaves half a file, nor destroys an older one.
 */
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Mode } from '../analysis/types.js';
import type { Layout, ProgramArg } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { makeDirectory } from '../files.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { FileError, fsCause } from '../io/fs-errors.js';
import { gatherCOrder } from './inputs.js';
import { writeNpy } from './npy.js';
import type { VariantResult } from './runner-host.js';

/** Why a write failed, in plain words (a FileError carries it already). */
function errorText(error: unknown): string {
  return error instanceof FileError ? error.reason : fsCause(error);
}

/** The nearest existing ancestor of `path` (itself included), with its stat. */
async function nearestExisting(path: string): Promise<{ path: string; isDirectory: boolean }> {
  for (let p = resolve(path); ;) {
    try {
      return { path: p, isDirectory: (await stat(p)).isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const up = dirname(p);
      if (up === p) return { path: p, isDirectory: false };
      p = up;
    }
  }
}

async function writableFolder(folder: string, option: string, target: string, missing: boolean): Promise<void> {
  try {
    await access(folder, fsConstants.W_OK);
  } catch (error) {
    throw new TlabError(
      'usage',
      `${option} ${target}: cannot write into ${folder}${missing ? ' (where the missing folders would be created)' : ''}: ${errorText(error)}`,
      {
        details: [`choose a folder you can write to; this is checked before the build so that a long run is not lost`],
      },
    );
  }
}

/** `--out FILE`: a file (not a folder) that can be created or overwritten; missing folders are created later. */
export async function checkOutputFile(path: string, option = '--out'): Promise<void> {
  const found = await nearestExisting(path);
  if (found.path === resolve(path)) {
    if (found.isDirectory)
      throw new TlabError('usage', `${option} ${path} is a folder: give a file name, e.g. ${join(path, 'result.json')}`);
    try {
      await access(found.path, fsConstants.W_OK);
    } catch (error) {
      throw new TlabError('usage', `${option} ${path}: the file exists and cannot be overwritten: ${errorText(error)}`);
    }
    return;
  }
  if (!found.isDirectory) throw new TlabError('usage', `${option} ${path}: ${found.path} is a file, so no folder can be created there`);
  await writableFolder(found.path, option, path, true);
}

/** `--save-outputs DIR`: a folder (existing or to be created) that can be written into. */
export async function checkOutputFolder(path: string, option = '--save-outputs'): Promise<void> {
  const found = await nearestExisting(path);
  if (!found.isDirectory) {
    throw new TlabError(
      'usage',
      found.path === resolve(path)
        ? `${option} ${path} is a file, not a folder`
        : `${option} ${path}: ${found.path} is a file, so no folder can be created there`,
    );
  }
  await writableFolder(found.path, option, path, found.path !== resolve(path));
}

export interface SavedFile {
  /** Where the data is now. */
  path: string;
  /** The requested place could not be written: why, and `path` is a fallback. */
  fallbackReason: string | null;
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'program';
}

/** Folders tried, in order, when the requested place cannot be written. */
function fallbackFolders(): string[] {
  return [...new Set([tmpdir(), process.cwd()])];
}

/**
 * Writes `text` to `path` (creating missing folders); if that fails, to
 * `<fallback folder>/transient-lab-<what>-<program>-<time>.json`. Throws only when no place at all is writable.
 */
export async function writeWithFallback(
  path: string,
  text: string,
  what: string,
  program: string,
  folders = fallbackFolders(),
): Promise<SavedFile> {
  let reason: string;
  try {
    await makeDirectory(dirname(resolve(path)));
    // Atomic: a run that cannot replace an older result at PATH leaves that result as it was.
    await writeFileAtomic(path, text);
    return { path, fallbackReason: null };
  } catch (error) {
    reason = errorText(error);
  }
  const tried: string[] = [];
  for (const folder of folders) {
    const fallback = join(folder, `transient-lab-${what}-${safeName(program)}-${stamp()}.json`);
    try {
      await writeFileAtomic(fallback, text, { exclusive: true });
      return { path: fallback, fallbackReason: reason };
    } catch (error) {
      tried.push(`${fallback}: ${errorText(error)}`);
    }
  }
  throw new TlabError('usage', `cannot write ${path}: ${reason}; no fallback place was writable either`, { details: tried });
}

export interface SavedOutputs {
  /** The folder holding `<MODE>/<NAME>.npy` now. */
  dir: string;
  requested: string;
  fallbackReason: string | null;
}

async function writeOutputsInto(
  dir: string,
  variants: Array<{ mode: Mode; layout: Layout | null }>,
  results: VariantResult[],
  args: ProgramArg[],
): Promise<void> {
  const externalLayouts = variants.filter((v) => v.mode === 'EXTERNAL').length;
  for (const [i, v] of variants.entries()) {
    const r = results[i]!;
    if (!r.outputs) continue;
    const target = join(dir, v.mode === 'EXTERNAL' && externalLayouts > 1 ? `EXTERNAL-${v.layout}` : v.mode);
    await makeDirectory(target);
    for (const arg of args) {
      if (arg.kind !== 'array' || !r.outputs[arg.name]) continue;
      await writeNpy(join(target, `${arg.name}.npy`), gatherCOrder(arg, r.outputs[arg.name]!));
    }
  }
}

/** `--save-outputs DIR`: DIR/<MODE>/<NAME>.npy after the verification call; a fallback folder when DIR fails. */
export async function saveOutputs(
  dir: string,
  variants: Array<{ mode: Mode; layout: Layout | null }>,
  results: VariantResult[],
  args: ProgramArg[],
  program: string,
  folders = fallbackFolders(),
): Promise<SavedOutputs> {
  let reason: string;
  try {
    await writeOutputsInto(dir, variants, results, args);
    return { dir, requested: dir, fallbackReason: null };
  } catch (error) {
    if (error instanceof TlabError && !(error instanceof FileError)) throw error;
    reason = errorText(error);
  }
  const tried: string[] = [];
  for (const folder of folders) {
    let fallback: string;
    try {
      fallback = await mkdtemp(join(folder, `transient-lab-outputs-${safeName(program)}-${stamp()}-`));
    } catch (error) {
      tried.push(`${folder}: ${errorText(error)}`);
      continue;
    }
    try {
      await writeOutputsInto(fallback, variants, results, args);
      return { dir: fallback, requested: dir, fallbackReason: reason };
    } catch (error) {
      tried.push(`${fallback}: ${errorText(error)}`);
    }
  }
  throw new TlabError('usage', `--save-outputs: cannot write into ${dir}: ${reason}; no fallback folder was writable either`, {
    details: tried,
  });
}
