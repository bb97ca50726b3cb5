/**
 * One row of the `coverage` bench section: what bench/coverage-file.ts (the process bench/coverage.ts forks per
 * corpus file) computes, here so that tests can check single rows without the corpus run. How a row is made:
 * bench/coverage-file.ts.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { detectTarget } from '../../electron/engine/analysis/target.js';
import { findUnsupported } from '../../electron/engine/codegen/index.js';
import type { UnsupportedFinding } from '../../electron/engine/codegen/types.js';
import { TlabError } from '../../electron/engine/errors.js';
import { accumulatedBeforeWritten } from '../../electron/engine/model/accumulate-first.js';
import { neverWrittenTransients } from '../../electron/engine/model/queries.js';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';
import { buildVariants } from '../../electron/engine/profile/build-variants.js';
import { planProfile } from '../../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../electron/engine/profile/profile.js';
import type { ProfileResult, VerificationDetail } from '../../electron/engine/profile/result.js';
import { PURE, libraryImplText, type LibraryImplChoice } from '../../electron/engine/sdfg/expand/impl.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { modeNumbers, type ModeNumbers } from './coverage-modes.js';

/** The size class: files of at most this many bytes on disk count towards its target. */
export const SMALL_BYTES = 2_000_000;
const FIRST_SYMBOL = 16n;
const RETRY_SYMBOL = 64n;
/**
 * Tried after RETRY_SYMBOL only while each run indexes past its arrays (the runner's out-of-bounds advice):
 * programs tiled by more than 64 (tiled_matmul tiles by 128), and DaCe's gpu-tb doc example, whose kernel
 * covers whole blocks of 32 and so fits N = 32 only.
 */
const OUT_OF_BOUNDS_SYMBOLS = [128n, 32n];
/** Timed calls per mode: few, since the row's question is whether every mode runs and verifies. Its per-mode
 * times (perMode) are then rough: TLAB_BENCH_COVERAGE_CALLS times more where they are to be quoted. */
export function timedCalls(): number {
  const raw = process.env.TLAB_BENCH_COVERAGE_CALLS;
  const v = raw === undefined ? 2 : Number(raw);
  if (!Number.isInteger(v) || v < 1) throw new Error(`TLAB_BENCH_COVERAGE_CALLS must be a positive integer, got ${raw}`);
  return v;
}
const BLAS: LibraryImplChoice = { default: 'blas', nodes: {} };

type CoverageStatus =
  | 'verifies' // built, ran and verified in every mode (CPU, or GPU through the host backend: see `backend`)
  | 'reads-uninitialised' // ran; verification correctly says the program reads transients it never writes
  | 'builds' // GPU: compiled with nvcc in every mode; the host backend could not run it (`detail` says why)
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
  /** Mode labels run and verified ('verifies', 'reads-uninitialised') or compiled with nvcc ('builds'). */
  modes: string[];
  /** The --default-symbol of the run that the row reports. */
  defaultSymbol: number | null;
  /** Where the reported modes ran: this CPU, or the GPU program on the host CUDA runtime. Absent: nothing ran. */
  backend?: 'cpu' | 'cuda-host';
  /** The `--library-impl` of the run the row reports (`pure`, or `blas` after a finding that pure cannot expand). */
  libraryImpl?: string;
  /** Symbols profile set from the program's own reads in place of the default symbol (the result's
   * `settings.derivedSymbols`: reads at indices fixed by the symbols stay in bounds; docs/profile.md). */
  derivedSymbols?: Record<string, number>;
  /** reads-uninitialised: the transients (`<sdfg index>:<name>`) read before anything writes them. */
  uninitialised?: string[];
  finding?: { element: string; message: string; jsonPath: string };
  /** 'verifies' and 'reads-uninitialised': each mode's median time per call, allocations and workspace bytes. */
  perMode?: ModeNumbers[];
  /** Why it failed, or a note (why a GPU row did not run; what failed at a smaller symbol value). */
  detail?: string;
  seconds: number;
}

type Base = Omit<CoverageRow, 'status' | 'modes' | 'defaultSymbol' | 'seconds'>;
type Row = Omit<CoverageRow, 'seconds'>;

function isNegativeExtent(err: unknown): boolean {
  return err instanceof TlabError && /negative (array extent|size)/.test(err.message);
}

/**
 * The runner's advice after an out-of-bounds access (electron/runner/overrun.ts): larger sizes may fit the
 * tiling. Not when host code touched device memory (the host runtime's fault line): no size fixes that.
 */
function wantsLargerSymbols(message: string): boolean {
  return message.includes('try larger symbol values') && !message.includes('host code accessed device array');
}

function describeError(err: unknown): string {
  if (err instanceof TlabError) return [err.message, ...(err.details ?? []).slice(0, 2)].join(' | ');
  return err instanceof Error ? err.message : String(err);
}

async function profileOnce(
  path: string,
  target: 'cpu' | 'gpu',
  defaultSymbol: bigint,
  libraryImpl: LibraryImplChoice,
): Promise<ProfileResult> {
  return profile(path, {
    ...DEFAULT_PROFILE_OPTIONS,
    runner: new NodeRunnerHost(),
    layout: 'both',
    calls: timedCalls(),
    warmup: 0,
    processes: 1,
    defaultSymbol,
    timeoutMs: 120_000,
    libraryImpl,
    ...(target === 'gpu' ? { gpu: 'host' as const } : {}),
  });
}

/**
 * The transients a reads-uninitialised row names: those the poisoned calls point at that nothing in the program
 * writes, or that it only ever accumulates into (certainly read before written), else every candidate
 * verification lists.
 */
function readBeforeWritten(problems: readonly VerificationDetail[], culprits: ReadonlySet<string>): string[] {
  const candidates = [...new Set(problems.flatMap((d) => d.transients ?? []))];
  const certain = candidates.filter((t) => culprits.has(t));
  return (certain.length ? certain : candidates).sort();
}

type Attempt = { r: ProfileResult } | { err: unknown };

async function attempt(path: string, target: 'cpu' | 'gpu', sym: bigint, libraryImpl: LibraryImplChoice): Promise<Attempt> {
  try {
    return { r: await profileOnce(path, target, sym, libraryImpl) };
  } catch (err) {
    return { err };
  }
}

/** A run that ended in a row, or the reason the host backend could not run a GPU program (then nvcc decides). */
type RunOutcome = { row: Row } | { notRun: string };

/** Profiles at 16, then 64 (then 128 and 32: OUT_OF_BOUNDS_SYMBOLS) while the failure may depend on the sizes. */
async function runRow(
  path: string,
  base: Base,
  target: 'cpu' | 'gpu',
  libraryImpl: LibraryImplChoice,
  culprits: ReadonlySet<string>,
): Promise<RunOutcome> {
  const ran = { backend: target === 'gpu' ? ('cuda-host' as const) : ('cpu' as const), libraryImpl: libraryImplText(libraryImpl) };
  /** What failed at the symbol values tried before (a negative extent is not worth saying). */
  const earlier: string[] = [];
  let lastFailure = '';
  let lastSymbol = FIRST_SYMBOL;
  const symbols = [FIRST_SYMBOL, RETRY_SYMBOL, ...OUT_OF_BOUNDS_SYMBOLS];
  for (const [i, sym] of symbols.entries()) {
    if (i >= 2 && !wantsLargerSymbols(lastFailure)) break;
    const lastTry = i === symbols.length - 1;
    lastSymbol = sym;
    const failedAt = (detail: string): RunOutcome =>
      target === 'gpu'
        ? { notRun: `at ${sym}: ${detail}` }
        : { row: { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail } };
    const outcome = await attempt(path, target, sym, libraryImpl);
    if ('err' in outcome) {
      const err = outcome.err;
      // Unsupported and build failures do not depend on the symbol value; anything else may (sizes, tiles).
      const symbolFree = err instanceof TlabError && (err.kind === 'unsupported' || err.kind === 'build');
      lastFailure = describeError(err);
      if (!lastTry && !symbolFree) {
        if (!isNegativeExtent(err)) earlier.push(`at ${sym}: ${lastFailure.split(' | ')[0]!}`);
        continue;
      }
      return failedAt(lastFailure);
    }
    const r = outcome.r;
    const tried = earlier.length ? { detail: earlier.join('; ') } : {};
    const modes = r.modes.map((m) => m.label);
    const perMode = modeNumbers(r);
    const derived = r.settings.derivedSymbols;
    const advice = derived ? { derivedSymbols: Object.fromEntries(Object.entries(derived).map(([k, v]) => [k, Number(v)])) } : {};
    if (r.verification.ok)
      return { row: { ...base, ...ran, ...tried, ...advice, status: 'verifies', modes, defaultSymbol: Number(sym), perMode } };
    const problems = r.verification.details.filter((d) => d.kind !== 'note');
    if (problems.length && problems.every((d) => d.kind === 'uninitialised-read')) {
      const uninitialised = readBeforeWritten(problems, culprits);
      const row: Row = {
        ...base,
        ...ran,
        ...advice,
        status: 'reads-uninitialised',
        modes,
        defaultSymbol: Number(sym),
        uninitialised,
        perMode,
      };
      return { row: { ...row, detail: problems[0]!.message } };
    }
    lastFailure = problems[0]?.message ?? 'verification failed';
    if (sym === FIRST_SYMBOL) {
      earlier.push(`at ${sym}: ${lastFailure}`);
      continue;
    }
    // Modes that ran and disagree are a failure on either backend, never a reason to fall back to nvcc.
    return { row: { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail: lastFailure } };
  }
  return target === 'gpu'
    ? { notRun: earlier.join('; ') || `at ${lastSymbol}: ${lastFailure}` }
    : { row: { ...base, status: 'failed', modes: [], defaultSymbol: Number(lastSymbol), detail: lastFailure } };
}

/** A GPU program the host backend could not run: compile every mode with nvcc, through the path `build` uses. */
async function nvccRow(path: string, base: Base, libraryImpl: LibraryImplChoice, notRun: string): Promise<Row> {
  const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-coverage-'));
  const why = `not run: the host backend (--gpu host) could not run it: ${notRun}`;
  try {
    for (const sym of [FIRST_SYMBOL, RETRY_SYMBOL]) {
      try {
        const plan = await planProfile(path, { ...DEFAULT_PROFILE_OPTIONS, layout: 'both', calls: 1, defaultSymbol: sym, libraryImpl });
        const built = await buildVariants(plan.variants, { runDir: dir, sdfgFile: path });
        return {
          ...base,
          status: 'builds',
          modes: built.map((b) => b.label),
          defaultSymbol: Number(sym),
          detail: `compiled with nvcc only; ${why}`,
        };
      } catch (err) {
        if (sym === FIRST_SYMBOL && isNegativeExtent(err)) continue;
        return { ...base, status: 'failed', modes: [], defaultSymbol: Number(sym), detail: `nvcc: ${describeError(err)}; ${why}` };
      }
    }
    throw new Error('unreachable');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The subset check, and the library implementation the row runs with: pure, or blas where pure's findings are
 * all library nodes and blas has none (DaCe's Potrf has no pure expansion: the finding says use blas).
 */
function subsetCheck(file: SdfgFile, target: 'cpu' | 'gpu'): { findings: UnsupportedFinding[]; libraryImpl: LibraryImplChoice } {
  const findings = findUnsupported(file, target, PURE);
  if (findings.length && findings.every((f) => f.element.startsWith('library node')) && !findUnsupported(file, target, BLAS).length)
    return { findings: [], libraryImpl: BLAS };
  return { findings, libraryImpl: PURE };
}

export async function coverageOf(path: string): Promise<CoverageRow> {
  const started = performance.now();
  const bytes = (await stat(path)).size;
  const base = { file: basename(path), bytes, small: bytes <= SMALL_BYTES, target: null as 'cpu' | 'gpu' | null };
  const done = (row: Row): CoverageRow => ({ ...row, seconds: (performance.now() - started) / 1000 });
  let file;
  try {
    file = await readSdfgFile(path);
  } catch (err) {
    return done({ ...base, status: 'unreadable', modes: [], defaultSymbol: null, detail: describeError(err) });
  }
  const target = detectTarget(file, null).target;
  const withTarget = { ...base, target };
  const { findings, libraryImpl } = subsetCheck(file, target);
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
  // Certain culprits: never written, or only ever accumulated into (profile/verify-culprits.ts).
  const certain = new Set([...neverWrittenTransients(file), ...accumulatedBeforeWritten(file)]);
  const outcome = await runRow(path, withTarget, target, libraryImpl, certain);
  if ('row' in outcome) return done(outcome.row);
  return done(await nvccRow(path, withTarget, libraryImpl, outcome.notRun));
}
