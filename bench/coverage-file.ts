/**
 * One corpus file for the `coverage` bench section (bench/coverage.ts forks this per file, so a hang or a crash
 * costs one row and the parent can enforce a time limit): parse, pick the target, check the subset, then
 *
 *   CPU  profile every mode (SCOPED, PERSISTENT, POOL, EXTERNAL dace and packed) through the engine path
 *        `profile` uses, with verification, a few calls, every symbol 16 (64 where sizes go negative at 16 or
 *        where the run at 16 fails: tiled programs assume sizes that are multiples of their tiles);
 *   GPU  plan and compile every mode with nvcc through the path `build` uses; nothing runs (no GPU here, and GPU
 *        programs run only once the host backend of issue 25 exists).
 *
 * Usage: node dist/bench/coverage-file.js FILE   (posts one CoverageRow to the parent, or prints it as JSON)
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectTarget } from '../electron/engine/analysis/target.js';
import { findUnsupported } from '../electron/engine/codegen/index.js';
import { TlabError } from '../electron/engine/errors.js';
import { buildVariants } from '../electron/engine/profile/build-variants.js';
import { planProfile } from '../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../electron/engine/profile/profile.js';
import type { ProfileResult } from '../electron/engine/profile/result.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../electron/runner/host-node.js';

/** The size class: files of at most this many bytes on disk count towards its target. */
export const SMALL_BYTES = 2_000_000;
const FIRST_SYMBOL = 16n;
const RETRY_SYMBOL = 64n;
const CALLS = 2;

export type CoverageStatus =
  | 'verifies' // CPU: built, ran and verified in every mode
  | 'reads-uninitialised' // CPU: ran; verification correctly says the program reads transients it never writes
  | 'builds' // GPU: generated and compiled in every mode; not run
  | 'finding' // outside the subset: the first finding
  | 'failed' // inside the subset but generation, build, run or verification failed
  | 'unreadable' // the parser refused the file
  | 'timeout'; // the per-file limit ran out (set by the parent)

export interface CoverageRow {
  file: string;
  bytes: number;
  /** At most SMALL_BYTES on disk. */
  small: boolean;
  target: 'cpu' | 'gpu' | null;
  status: CoverageStatus;
  /** Mode labels built (GPU) or run and verified (CPU). */
  modes: string[];
  /** The --default-symbol of the run that the row reports. */
  defaultSymbol: number | null;
  finding?: { element: string; message: string; jsonPath: string };
  /** Why it failed, or a note (GPU rows: why nothing ran). */
  detail?: string;
  seconds: number;
}

const GPU_NOT_RUN = 'compiled with nvcc only: GPU programs run through the host backend of issue 25 (not here: no GPU)';

function isNegativeExtent(err: unknown): boolean {
  return err instanceof TlabError && /negative (array extent|size)/.test(err.message);
}

async function profileCpu(path: string, defaultSymbol: bigint): Promise<ProfileResult> {
  return profile(path, {
    ...DEFAULT_PROFILE_OPTIONS,
    runner: new NodeRunnerHost(),
    layout: 'both',
    calls: CALLS,
    warmup: 0,
    processes: 1,
    defaultSymbol,
    timeoutMs: 120_000,
  });
}

function describeError(err: unknown): string {
  if (err instanceof TlabError) return [err.message, ...(err.details ?? []).slice(0, 2)].join(' | ');
  return err instanceof Error ? err.message : String(err);
}

async function cpuRow(
  path: string,
  base: Omit<CoverageRow, 'status' | 'modes' | 'defaultSymbol' | 'seconds'>,
): Promise<Omit<CoverageRow, 'seconds'>> {
  let firstFailure: string | null = null;
  for (const sym of [FIRST_SYMBOL, RETRY_SYMBOL]) {
    let r: ProfileResult;
    try {
      r = await profileCpu(path, sym);
    } catch (err) {
      // Unsupported and build failures do not depend on the symbol value; anything else may (sizes, tiles).
      const symbolFree = err instanceof TlabError && (err.kind === 'unsupported' || err.kind === 'build');
      if (sym === FIRST_SYMBOL && !symbolFree) {
        firstFailure = isNegativeExtent(err) ? null : describeError(err);
        continue;
      }
      return { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail: describeError(err) };
    }
    const at16 = firstFailure ? { detail: `at ${FIRST_SYMBOL}: ${firstFailure}` } : {};
    if (r.verification.ok) return { ...base, ...at16, status: 'verifies', modes: r.modes.map((m) => m.label), defaultSymbol: Number(sym) };
    const problems = r.verification.details.filter((d) => d.kind !== 'note');
    if (problems.length && problems.every((d) => d.kind === 'uninitialised-read'))
      return {
        ...base,
        status: 'reads-uninitialised',
        modes: r.modes.map((m) => m.label),
        defaultSymbol: Number(sym),
        detail: problems[0]!.message,
      };
    if (sym === FIRST_SYMBOL) {
      firstFailure = problems[0]?.message ?? 'verification failed';
      continue;
    }
    return { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail: problems[0]?.message ?? 'verification failed' };
  }
  throw new Error('unreachable');
}

async function gpuRow(
  path: string,
  base: Omit<CoverageRow, 'status' | 'modes' | 'defaultSymbol' | 'seconds'>,
): Promise<Omit<CoverageRow, 'seconds'>> {
  const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-coverage-'));
  try {
    for (const sym of [FIRST_SYMBOL, RETRY_SYMBOL]) {
      try {
        const plan = await planProfile(path, { ...DEFAULT_PROFILE_OPTIONS, layout: 'both', calls: 1, defaultSymbol: sym });
        const built = await buildVariants(plan.variants, { runDir: dir, sdfgFile: path });
        return { ...base, status: 'builds', modes: built.map((b) => b.label), defaultSymbol: Number(sym), detail: GPU_NOT_RUN };
      } catch (err) {
        if (sym === FIRST_SYMBOL && isNegativeExtent(err)) continue;
        return { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail: describeError(err) };
      }
    }
    throw new Error('unreachable');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function coverageOf(path: string): Promise<CoverageRow> {
  const started = performance.now();
  const bytes = (await stat(path)).size;
  const base = { file: basename(path), bytes, small: bytes <= SMALL_BYTES, target: null as 'cpu' | 'gpu' | null };
  const done = (row: Omit<CoverageRow, 'seconds'>): CoverageRow => ({ ...row, seconds: (performance.now() - started) / 1000 });
  let file;
  try {
    file = await readSdfgFile(path);
  } catch (err) {
    return done({ ...base, status: 'unreadable', modes: [], defaultSymbol: null, detail: describeError(err) });
  }
  const target = detectTarget(file, null).target;
  const withTarget = { ...base, target };
  const findings = findUnsupported(file, target);
  if (findings.length) {
    const f = findings[0]!;
    return done({
      ...withTarget,
      status: 'finding',
      modes: [],
      defaultSymbol: null,
      finding: { element: f.element, message: f.message, jsonPath: f.jsonPath },
    });
  }
  // What is known before the long part, so that a row cut off by the time limit still says target and size.
  process.send?.({ partial: true, target });
  return done(target === 'gpu' ? await gpuRow(path, withTarget) : await cpuRow(path, withTarget));
}

const path = process.argv[2];
if (path && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  coverageOf(path).then(
    (row) => (process.send ? process.send(row) : process.stdout.write(`${JSON.stringify(row)}\n`)),
    (err: unknown) => {
      process.stderr.write(`coverage: ${path}: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
