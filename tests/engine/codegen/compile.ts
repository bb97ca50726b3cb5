/** Test helpers: compile generated translation units with g++ (at most two at a time: the machine has two cores). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../../electron/engine/paths.js';

export const RUNTIME_INCLUDE = resolve(packageRoot(), 'native', 'include');

/** TLAB_STREAM_BLOCK_BYTES as transient_stream.h defines it: the bytes of a block a stream's queue adds. */
export function streamBlockBytes(): number {
  const m = /#define TLAB_STREAM_BLOCK_BYTES (\d+)/.exec(readFileSync(join(RUNTIME_INCLUDE, 'transient_stream.h'), 'utf8'));
  if (!m) throw new Error('native/include/transient_stream.h does not define TLAB_STREAM_BLOCK_BYTES');
  return Number(m[1]);
}

const scratchDirs: string[] = [];

/** Removes every folder made by scratchDir (call from afterAll: vitest workers do not always exit normally). */
export function removeScratchDirs(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A temporary folder, removed by removeScratchDirs. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tlab-codegen-${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}

export interface CompileResult {
  ok: boolean;
  output: string;
  library: string;
}

export function run(cmd: string, args: string[], timeoutMs = 600_000): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** Compiles one translation unit into a shared library (C++20, as DaCe and the build stage compile it).
 * `extra` adds flags, e.g. `-fsanitize=address` for a driver built with the same. */
/** `libs`: linker flags, after the source (blas expansions link OpenBLAS). */
export async function compileLibrary(
  source: string,
  dir: string,
  name: string,
  opt = '-O2',
  extra: string[] = [],
  libs: string[] = [],
): Promise<CompileResult> {
  const cpp = join(dir, `${name}.cpp`);
  const library = join(dir, `lib${name}.so`);
  writeFileSync(cpp, source);
  const r = await run('g++', [
    '-std=c++20',
    opt,
    ...extra,
    '-shared',
    '-fPIC',
    '-fopenmp',
    '-I',
    RUNTIME_INCLUDE,
    '-o',
    library,
    cpp,
    ...libs,
  ]);
  return { ok: r.code === 0, output: r.output, library };
}

/** Runs `jobs` with at most `limit` in flight. */
export async function inParallel<T, R>(items: T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
