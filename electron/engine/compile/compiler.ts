/**
 * Finding the C++ compiler and whether it can do OpenMP. Both answers are cached per process; the OpenMP
 * probe is also cached on disk (keyed by the compiler's version text) because a probe compile costs about
 * a second and the answer only changes when the compiler does.
 */
import { makeDirectory } from '../files.js';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { TlabError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { withFileErrors } from '../io/fs-errors.js';
import { cacheRoot } from './cache-dir.js';

export interface CompilerInfo {
  /** argv prefix that runs the compiler (`$CXX` may be e.g. `ccache g++`). */
  command: string[];
  /** Short name for people: `g++`, `clang++`, or the basename of `$CXX`. */
  name: string;
  /** Version number when it can be read (`12.2.0`), else ''. */
  version: string;
  /** First line of `--version`: part of every cache key, so a compiler upgrade rebuilds everything. */
  versionLine: string;
}

export interface ExecResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  error: NodeJS.ErrnoException | null;
}

/** Runs argv (never through a shell); resolves with whatever happened instead of throwing. */
export function runProcess(argv: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<ExecResult> {
  const [cmd, ...args] = argv;
  return new Promise((resolve) => {
    execFile(
      cmd!,
      args,
      { cwd: opts.cwd, timeout: opts.timeoutMs ?? 0, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({
          code,
          signal: err?.signal ?? null,
          stdout: String(stdout),
          stderr: String(stderr),
          error: err && typeof err.code === 'string' ? err : null,
        });
      },
    );
  });
}

let compilerPromise: Promise<CompilerInfo> | null = null;

/** `$CXX`, then g++, then clang++. The answer is cached for the process; `$CXX` is read on first use. */
export function findCompiler(): Promise<CompilerInfo> {
  compilerPromise ??= detectCompiler().catch((err: unknown) => {
    compilerPromise = null;
    throw err;
  });
  return compilerPromise;
}

async function detectCompiler(): Promise<CompilerInfo> {
  const candidates: string[][] = [];
  const fromEnv = process.env.CXX?.trim();
  if (fromEnv) candidates.push(fromEnv.split(/\s+/));
  candidates.push(['g++'], ['clang++']);
  const tried: string[] = [];
  for (const command of candidates) {
    const res = await runProcess([...command, '--version'], { timeoutMs: 30_000 });
    if (res.code !== 0) {
      tried.push(
        `${command.join(' ')}: ${res.error?.code === 'ENOENT' ? 'not found' : (res.stderr.trim().split('\n')[0] ?? `exit ${res.code}`)}`,
      );
      continue;
    }
    const versionLine = res.stdout.split('\n')[0]?.trim() ?? '';
    const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionLine)?.[1] ?? '';
    const exe = basename(command[command.length - 1]!);
    const name = /clang/i.test(versionLine) ? 'clang++' : /\bg\+\+|gcc|GCC/.test(versionLine) ? 'g++' : exe;
    return { command, name, version, versionLine };
  }
  throw new TlabError('build', 'no C++ compiler found: set $CXX or install g++ or clang++', { details: tried });
}

let nvccPromise: Promise<CompilerInfo> | null = null;

/**
 * nvcc, for GPU programs: `$NVCC`, then `nvcc` on the PATH, then `$CUDA_HOME/bin/nvcc` and
 * `/usr/local/cuda/bin/nvcc`. Cached like findCompiler. Its `versionLine` is the release line (`Cuda compilation
 * tools, release 13.0, V13.0.88`) followed by the host compiler nvcc drives (`g++ --version`'s first line, or
 * `-ccbin`'s): both change the library, so both belong in the cache key.
 */
export function findNvcc(): Promise<CompilerInfo> {
  nvccPromise ??= detectNvcc().catch((err: unknown) => {
    nvccPromise = null;
    throw err;
  });
  return nvccPromise;
}

async function detectNvcc(): Promise<CompilerInfo> {
  const candidates: string[][] = [];
  const fromEnv = process.env.NVCC?.trim();
  if (fromEnv) candidates.push(fromEnv.split(/\s+/));
  candidates.push(['nvcc']);
  const cudaHome = (process.env.CUDA_HOME ?? process.env.CUDA_PATH)?.trim();
  if (cudaHome) candidates.push([join(cudaHome, 'bin', 'nvcc')]);
  candidates.push(['/usr/local/cuda/bin/nvcc']);
  const tried: string[] = [];
  for (const command of candidates) {
    const res = await runProcess([...command, '--version'], { timeoutMs: 30_000 });
    if (res.code !== 0) {
      tried.push(
        `${command.join(' ')}: ${res.error?.code === 'ENOENT' ? 'not found' : (res.stderr.trim().split('\n')[0] ?? `exit ${res.code}`)}`,
      );
      continue;
    }
    const release =
      res.stdout
        .split('\n')
        .find((l) => /release \d/.test(l))
        ?.trim() ??
      res.stdout.trim().split('\n').pop() ??
      '';
    const version = /release (\d+\.\d+)/.exec(release)?.[1] ?? '';
    // nvcc compiles the host side with gcc/g++ from the PATH unless -ccbin says otherwise.
    const host = await runProcess(['g++', '--version'], { timeoutMs: 30_000 });
    const hostLine = host.code === 0 ? (host.stdout.split('\n')[0]?.trim() ?? '') : 'no g++';
    return { command, name: 'nvcc', version, versionLine: `${release} / host ${hostLine}` };
  }
  throw new TlabError('build', 'no CUDA compiler found: a GPU program needs nvcc (set $NVCC or $CUDA_HOME, or put nvcc on the PATH)', {
    details: tried,
  });
}

const OPENMP_PROBE = `#include <omp.h>
extern "C" int tlab_probe(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n + omp_get_max_threads();
}
`;

const openmpMemo = new Map<string, Promise<boolean>>();

/** Whether `compiler` builds a shared library with -fopenmp. Cached in memory and in the cache folder. */
export function probeOpenMP(compiler: CompilerInfo): Promise<boolean> {
  const key = createHash('sha256').update(compiler.command.join(' ')).update('\0').update(compiler.versionLine).digest('hex');
  let memo = openmpMemo.get(key);
  if (!memo) {
    memo = probeOpenMPUncached(compiler, key);
    openmpMemo.set(key, memo);
  }
  return memo;
}

async function probeOpenMPUncached(compiler: CompilerInfo, key: string): Promise<boolean> {
  const probeDir = join(cacheRoot(), 'probes');
  const recordPath = join(probeDir, `openmp-${key.slice(0, 32)}.json`);
  try {
    const rec = JSON.parse(await readFile(recordPath, 'utf8')) as { versionLine?: unknown; openmp?: unknown };
    if (rec.versionLine === compiler.versionLine && typeof rec.openmp === 'boolean') return rec.openmp;
  } catch {
    // No record yet, or an unreadable one: probe again.
  }
  const dir = await withFileErrors('build', 'create a folder in', tmpdir(), () => mkdtemp(join(tmpdir(), 'tlab-omp-')));
  try {
    await writeFileAtomic(join(dir, 'probe.cpp'), OPENMP_PROBE, { kind: 'build' });
    const res = await runProcess(
      [...compiler.command, '-std=c++20', '-shared', '-fPIC', '-fopenmp', '-o', join(dir, 'probe.so'), join(dir, 'probe.cpp')],
      { timeoutMs: 120_000 },
    );
    const openmp = res.code === 0;
    try {
      await makeDirectory(probeDir);
      await writeFileAtomic(recordPath, JSON.stringify({ versionLine: compiler.versionLine, openmp }), { kind: 'build' });
    } catch {
      // A read-only cache only costs a probe per process.
    }
    return openmp;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
