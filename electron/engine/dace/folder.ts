/**
 * Reads a DaCe build folder (`.dacecache/<name>/`, docs/dace-folders.md): its SDFG (`program.sdfgz`, or the
 * older `program.sdfg`), the C signatures of its build (header.ts), the library, and the CMakeCache's build
 * facts. Every problem is a TlabError('input') naming the folder (or the file) and what is wrong.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TlabError } from '../errors.js';
import { fsCause } from '../io/fs-errors.js';
import type { SdfgFile } from '../model/sdfg.js';
import { readSdfgFile } from '../sdfg/index.js';
import { builtByLine, readBuiltBy, type BuiltBy } from './built-by.js';
import { externalStorages, findFunction, type CFunction } from './header.js';

export interface DaceFolder {
  dir: string;
  /** SDFG name: the `<n>` of every DaCe function. */
  name: string;
  sdfgPath: string;
  /** sha256 (hex) of the SDFG file's bytes. */
  sdfgHash: string;
  /** sha256 (hex) of the SDFG's JSON with every transient's lifetime, storage and pool flag left out: the same
   * for builds of one program in different modes (DaCe saves the SDFG after code generation, modes applied). */
  programHash: string;
  file: SdfgFile;
  libraryPath: string;
  /** Where init/program/exit were read: `include/<n>.h`, or `src/cpu/<n>.cpp` in the older layout. */
  signatureFile: string;
  init: CFunction;
  program: CFunction;
  exit: CFunction;
  /** Storages whose External size/set pair the sources define (DACE_EXPORTED), sorted. */
  storages: string[];
  /** DaCe's CUDA (or HIP) sources, relative to the folder: a GPU build when any (docs/dace-folders.md). */
  gpuSources: string[];
  builtBy: BuiltBy;
}

const exists = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

async function readText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch((cause: unknown) => {
    throw new TlabError('input', `cannot read: ${fsCause(cause)}`, { file: path, cause });
  });
}

/** `src/cpu/*.cpp`, `src/cuda/*.cu` and `src/cuda/hip/*.cpp`, whichever exist. */
async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const [sub, ext] of [
    ['src/cpu', '.cpp'],
    ['src/cuda', '.cu'],
    ['src/cuda/hip', '.cpp'],
  ] as const) {
    const names = await readdir(join(dir, sub)).catch(() => [] as string[]);
    for (const n of names.sort()) if (n.endsWith(ext)) out.push(join(dir, sub, n));
  }
  return out;
}

/** `build/lib<n>.so`, `build/<config>/lib<n>.so`, or (production folders) `lib<n>.so` at the top. */
async function findLibrary(dir: string, name: string): Promise<string | null> {
  const lib = `lib${name}.so`;
  const candidates = [join(dir, 'build', lib), join(dir, lib)];
  const configs = await readdir(join(dir, 'build'), { withFileTypes: true }).catch(() => []);
  for (const c of configs) if (c.isDirectory()) candidates.push(join(dir, 'build', c.name, lib));
  for (const c of candidates) if (await exists(c)) return c;
  return null;
}

/** Drops what a memory mode changes (every transient's lifetime, storage, pool) and hashes the rest. */
function programHash(bytes: Uint8Array): string {
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : Buffer.from(bytes).toString('utf8');
  const strip = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) strip(x);
    else if (v && typeof v === 'object') {
      const attrs = (v as { attributes?: Record<string, unknown> }).attributes;
      if (attrs && attrs['transient'] === true) for (const k of ['lifetime', 'storage', 'pool']) delete attrs[k];
      for (const x of Object.values(v)) strip(x);
    }
  };
  const json: unknown = JSON.parse(text);
  strip(json);
  return createHash('sha256').update(JSON.stringify(json)).digest('hex');
}

/** `program.sdfgz` or `program.sdfg` of a DaCe build folder, or null when `dir` is none (a Transient Lab build
 * folder, with manifest.json, is none). */
export async function daceFolderSdfg(dir: string): Promise<string | null> {
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir || (await exists(join(dir, 'manifest.json')))) return null;
  for (const name of ['program.sdfgz', 'program.sdfg']) if (await exists(join(dir, name))) return join(dir, name);
  return null;
}

/** "built by DaCe …" of the folder whose SDFG is `name` with `daceVersion` (analyze, the window): always a line,
 * saying what is unknown. */
export async function folderBuiltBy(dir: string, name: string, daceVersion: string | null): Promise<string> {
  return builtByLine(await readBuiltBy(dir, await findLibrary(dir, name), daceVersion));
}

function need(fn: CFunction | string | null, name: string, file: string): CFunction {
  if (typeof fn === 'string') throw new TlabError('input', fn, { file });
  if (!fn) throw new TlabError('input', `does not declare ${name}`, { file });
  return fn;
}

export async function readDaceFolder(dirIn: string): Promise<DaceFolder> {
  const dir = resolve(dirIn);
  const st = await stat(dir).catch((cause: unknown) => {
    throw new TlabError('input', `cannot open the DaCe build folder: ${fsCause(cause)}`, { file: dirIn, cause });
  });
  if (!st.isDirectory()) throw new TlabError('input', 'not a folder (a DaCe build folder is .dacecache/<name>/)', { file: dirIn });
  // DaCe 2.0 saves only program.sdfgz; older versions program.sdfg.
  const sdfgPath = (await exists(join(dir, 'program.sdfgz')))
    ? join(dir, 'program.sdfgz')
    : (await exists(join(dir, 'program.sdfg')))
      ? join(dir, 'program.sdfg')
      : null;
  if (!sdfgPath) {
    throw new TlabError('input', 'no program.sdfgz or program.sdfg here: not a DaCe build folder (.dacecache/<name>/)', { file: dir });
  }
  const bytes = await readFile(sdfgPath);
  const file = await readSdfgFile(sdfgPath);
  const name = file.root.name;
  const libraryPath = await findLibrary(dir, name);
  if (!libraryPath) {
    throw new TlabError(
      'input',
      `no lib${name}.so in build/, build/<config>/ or the folder itself: the program was not compiled (or the build failed)`,
      {
        file: dir,
      },
    );
  }
  const sources = await sourceFiles(dir);
  const texts = new Map<string, string>();
  for (const s of sources) texts.set(s, await readText(s));
  const header = join(dir, 'include', `${name}.h`);
  const frame = join(dir, 'src', 'cpu', `${name}.cpp`);
  const signatureFile = (await exists(header)) ? header : texts.has(frame) ? frame : null;
  if (!signatureFile) {
    throw new TlabError(
      'input',
      `neither include/${name}.h nor src/cpu/${name}.cpp is here: the exact C signatures cannot be read (a production folder keeps only the library; rebuild in development mode)`,
      { file: dir },
    );
  }
  const text = texts.get(signatureFile) ?? (await readText(signatureFile));
  const init = need(findFunction(text, `__dace_init_${name}`), `__dace_init_${name}`, signatureFile);
  const program = need(findFunction(text, `__program_${name}`), `__program_${name}`, signatureFile);
  const exit = need(findFunction(text, `__dace_exit_${name}`), `__dace_exit_${name}`, signatureFile);
  const storages = [...new Set([...texts.values()].flatMap(externalStorages))].sort();
  const gpuSources = sources.filter((f) => f.startsWith(join(dir, 'src', 'cuda'))).map((f) => relative(dir, f));
  return {
    dir,
    name,
    sdfgPath,
    sdfgHash: createHash('sha256').update(bytes).digest('hex'),
    programHash: programHash(bytes),
    file,
    libraryPath,
    signatureFile,
    init,
    program,
    exit,
    storages,
    gpuSources,
    builtBy: await readBuiltBy(dir, libraryPath, file.daceVersion),
  };
}
