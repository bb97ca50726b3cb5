/**
 * The `coverage` bench section (issue 22's target): for every corpus file, its size class (≤ 2 MB on disk or
 * not), its target, and either the modes it builds, runs and verifies in (CPU on this CPU; GPU through issue 25's
 * host backend, `profile --gpu host`, or with nvcc only where the host backend cannot run it, the row saying
 * why), or the first finding that keeps it outside the generator's subset (element and construct), or why it
 * failed. One child process per file (bench/coverage-file.ts), two at a time, each under a time limit.
 *
 * A row that ran carries each mode's median time per call, allocations per call and workspace bytes (`perMode`);
 * the summary prints them as a table for files over 2 MB and for the programs issue 22 names (coverage-modes.ts).
 *
 * TLAB_BENCH_COVERAGE_LIMIT_S sets the per-file limit (default 300 s); TLAB_BENCH_COVERAGE_CALLS the timed calls
 * per mode (default 2: enough to verify, too few for times to quote); TLAB_BENCH_COVERAGE=WORD,… keeps only
 * the files whose names contain one of the words (a quick check of a few files).
 */
import { fork } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '../electron/engine/paths.js';
import { modeTables } from './lib/coverage-modes.js';
import { SMALL_BYTES, timedCalls, type CoverageRow } from './lib/coverage-row.js';
import type { BenchSection } from './section.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const PARALLEL = 2;

function limitSeconds(): number {
  const raw = process.env.TLAB_BENCH_COVERAGE_LIMIT_S;
  const v = raw === undefined ? 300 : Number(raw);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`TLAB_BENCH_COVERAGE_LIMIT_S must be a positive number of seconds, got ${raw}`);
  return v;
}

/** One file in its own process; a crash or the time limit becomes the row's status. */
function coverInChild(path: string, limitS: number, bytes: () => number): Promise<CoverageRow> {
  return new Promise((resolvePromise) => {
    const started = performance.now();
    // detached: the child leads its own process group, so the limit ends its compilers and runners too.
    const child = fork(join(HERE, 'coverage-file.js'), [path], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true });
    let row: CoverageRow | null = null;
    let stderr = '';
    let timedOut = false;
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    let target: CoverageRow['target'] = null;
    child.on('message', (m: CoverageRow | { partial: true; target: CoverageRow['target'] }) => {
      if ('partial' in m) target = m.target;
      else row = m;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limitS * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const size = bytes();
      const seconds = (performance.now() - started) / 1000;
      const fallback = (status: CoverageRow['status'], detail: string): CoverageRow => ({
        file: path.split('/').pop()!,
        bytes: size,
        small: size <= SMALL_BYTES,
        target,
        status,
        modes: [],
        defaultSymbol: null,
        detail,
        seconds,
      });
      if (row) resolvePromise(row);
      else if (timedOut)
        resolvePromise(
          fallback('timeout', `${target ? 'inside the subset; ' : ''}not done after ${limitS} s (TLAB_BENCH_COVERAGE_LIMIT_S)`),
        );
      else
        resolvePromise(
          fallback('failed', `coverage process exited with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').pop() ?? ''}`),
        );
    });
  });
}

async function inParallel<T, R>(items: T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await job(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** How the row ran: `cuda-host` for GPU programs on the host backend, `blas` where pure could not expand a node,
 * the symbols profile derived from the program's reads in place of the default symbol. */
function how(r: CoverageRow): string {
  const parts = [
    r.backend === 'cuda-host' ? 'on the host backend (cuda-host)' : '',
    r.libraryImpl === 'blas' ? 'with --library-impl blas' : '',
    r.derivedSymbols
      ? `with symbols derived from its reads ${Object.entries(r.derivedSymbols)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}`
      : '',
  ];
  return parts.filter(Boolean).join(' ');
}

function outcome(r: CoverageRow): string {
  const ran = how(r) ? ` ${how(r)}` : '';
  switch (r.status) {
    case 'verifies':
      return `builds, runs, verifies in ${r.modes.length} modes at ${r.defaultSymbol}${ran}${r.detail ? `; ${r.detail}` : ''}`;
    case 'reads-uninitialised':
      return `builds and runs in ${r.modes.length} modes at ${r.defaultSymbol}${ran}; reads transients it never writes (diagnosed): ${(r.uninitialised ?? []).join(', ')}`;
    case 'builds':
      return `builds in ${r.modes.length} modes (nvcc) at ${r.defaultSymbol}; ${r.detail ?? ''}`;
    case 'finding':
      return `outside: ${r.finding!.element}: ${r.finding!.message}`;
    default:
      return `${r.status.toUpperCase()}: ${r.detail ?? ''}`;
  }
}

export const coverageSection: BenchSection = {
  name: 'coverage',
  description:
    'every corpus file: size class, target, and the modes it builds/runs/verifies in (GPU programs on the host backend, cuda-host) or its first finding',
  async run() {
    const limitS = limitSeconds();
    // Checked here so that a bad value stops the section instead of failing every row.
    const calls = timedCalls();
    const only = process.env.TLAB_BENCH_COVERAGE?.split(',').filter(Boolean);
    const dir = corpusDir();
    const names = readdirSync(dir)
      .filter((f) => /\.sdfgz?$/.test(f))
      .filter((f) => !only?.length || only.some((w) => f.includes(w)))
      .sort();
    const started = performance.now();
    const rows = await inParallel(names, PARALLEL, (name) => {
      const path = join(dir, name);
      return coverInChild(path, limitS, () => statSync(path).size);
    });
    const small = rows.filter((r) => r.small);
    const count = (rs: CoverageRow[], ...statuses: CoverageRow['status'][]) => rs.filter((r) => statuses.includes(r.status)).length;
    const cpu = (rs: CoverageRow[]) => rs.filter((r) => r.target === 'cpu');
    const gpu = (rs: CoverageRow[]) => rs.filter((r) => r.target === 'gpu');
    const counts = {
      files: rows.length,
      small: small.length,
      // The issue's measure: files ≤ 2 MB that generate, compile, run and verify in every mode, CPU programs on
      // this CPU, GPU programs on the host backend (cuda-host); a program correctly diagnosed as reading
      // transients it never writes counts (it ran in every mode and verification said why its outputs vary).
      smallVerify: count(small, 'verifies', 'reads-uninitialised'),
      smallCpuVerify: count(cpu(small), 'verifies', 'reads-uninitialised'),
      smallGpuHostVerify: count(gpu(small), 'verifies', 'reads-uninitialised'),
      // Of smallVerify, those whose outputs agree bitwise (or within tolerance) in every mode, and those diagnosed.
      smallVerifiedBitwise: count(small, 'verifies'),
      smallDiagnosedUninitialised: count(small, 'reads-uninitialised'),
      // GPU programs the host backend could not run, compiled with nvcc in every mode (each row says why).
      smallGpuBuild: count(gpu(small), 'builds'),
      smallInsideSubset: small.filter((r) => r.status !== 'finding' && r.status !== 'unreadable').length,
      smallOutside: count(small, 'finding'),
      smallFailed: count(small, 'failed', 'timeout'),
      allCpuVerify: count(cpu(rows), 'verifies', 'reads-uninitialised'),
      allGpuHostVerify: count(gpu(rows), 'verifies', 'reads-uninitialised'),
      allGpuBuild: count(gpu(rows), 'builds'),
    };
    const lines = [
      `${'file'.padEnd(58)} ${'size'.padEnd(6)} ${'tgt'.padEnd(4)} ${'s'.padStart(6)}  outcome`,
      ...rows.map(
        (r) =>
          `${r.file.slice(0, 58).padEnd(58)} ${(r.small ? '≤2MB' : '>2MB').padEnd(6)} ${(r.target ?? '-').padEnd(4)} ${r.seconds.toFixed(0).padStart(6)}  ${outcome(r).slice(0, 200)}`,
      ),
      `${counts.small} of ${counts.files} files are ≤ 2 MB; of those ${counts.smallVerify} build and run in every mode ` +
        `(${counts.smallCpuVerify} CPU programs, ${counts.smallGpuHostVerify} GPU programs on the host backend): ` +
        `${counts.smallVerifiedBitwise} verify, ${counts.smallDiagnosedUninitialised} are diagnosed as reading transients they never write; ` +
        `${counts.smallGpuBuild} GPU programs build with nvcc but do not run on the host backend; ` +
        `${counts.smallOutside} are outside the subset, ${counts.smallFailed} inside it fail or time out`,
      `all sizes: ${counts.allCpuVerify} CPU verify, ${counts.allGpuHostVerify} GPU verify on the host backend, ${counts.allGpuBuild} GPU build only; ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s, ${PARALLEL} files at a time, ${limitS} s limit per file`,
      // Per-mode numbers of the large programs and those issue 22 names.
      ...(modeTables(rows, SMALL_BYTES).length
        ? [`per mode, over ${calls} timed call${calls === 1 ? '' : 's'} per mode (TLAB_BENCH_COVERAGE_CALLS):`]
        : []),
      ...modeTables(rows, SMALL_BYTES),
    ];
    return {
      result: {
        description: this.description,
        smallBytes: SMALL_BYTES,
        limitSeconds: limitS,
        callsPerMode: calls,
        ...(only?.length ? { only } : {}),
        counts,
        files: rows,
      },
      summary: lines,
    };
  },
};
