/**
 * Test helpers: compile generated CUDA translation units with nvcc (compile only: no GPU is needed). Results are
 * cached by content (source, flags, runtime headers) under the system temp folder, so a rerun compiles only what
 * changed; at most two compilations run at a time (the machine has two shared cores).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_INCLUDE, run } from './compile.js';

/** nvcc, or null when the machine has none (the tests then say so and skip). */
export function findNvcc(): string | null {
  for (const p of [process.env.NVCC, '/usr/local/cuda/bin/nvcc', '/usr/bin/nvcc'].filter(Boolean) as string[]) if (existsSync(p)) return p;
  return null;
}

/** DaCe links the shared CUDA runtime; `--extended-lambda` for the kernel bodies (docs/gpu.md). */
const NVCC_FLAGS = [
  '-std=c++17',
  '-O1',
  '--extended-lambda',
  '--expt-relaxed-constexpr',
  '-shared',
  '-Xcompiler',
  '-fPIC',
  '-cudart',
  'shared',
  '-arch=sm_80',
];

const CACHE = join(tmpdir(), 'tlab-nvcc-test-cache');

function headersHash(): string {
  const h = createHash('sha256');
  for (const f of ['transient_runtime.h', 'transient_complex.h', 'transient_cuda_runtime.h'])
    h.update(readFileSync(join(RUNTIME_INCLUDE, f)));
  return h.digest('hex');
}

export interface NvccResult {
  ok: boolean;
  output: string;
  cached: boolean;
}

/** Compiles one .cu into a shared library (or answers from the cache). */
export async function nvccCompile(nvcc: string, source: string, dir: string, name: string): Promise<NvccResult> {
  mkdirSync(CACHE, { recursive: true });
  const key = createHash('sha256').update(source).update(NVCC_FLAGS.join(' ')).update(headersHash()).digest('hex');
  const hit = join(CACHE, `${key}.json`);
  if (existsSync(hit)) {
    const r = JSON.parse(readFileSync(hit, 'utf8')) as { ok: boolean; output: string };
    return { ...r, cached: true };
  }
  const cu = join(dir, `${name}.cu`);
  writeFileSync(cu, source);
  const r = await run(nvcc, [...NVCC_FLAGS, '-I', RUNTIME_INCLUDE, '-o', join(dir, `lib${name}.so`), cu]);
  const result = { ok: r.code === 0, output: r.output };
  writeFileSync(hit, JSON.stringify(result));
  return { ...result, cached: false };
}

/** The first error lines of an nvcc output. */
export function firstErrors(output: string, n = 3): string {
  return output
    .split('\n')
    .filter((l) => /error/.test(l))
    .slice(0, n)
    .join(' | ');
}
