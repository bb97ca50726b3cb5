/**
 * Stand-alone fuzz driver: `node dist/bench/fuzz-driver.js [options]`.
 *
 *   --cases N        cases to run (default 20000)
 *   --seed S         fast-check seed (default: time-based; printed so that a run can be repeated)
 *   --files LIST     comma-separated seed specs (corpus:NAME, example:NAME, fixture:NAME, or a path);
 *                    default: the property test's seeds; `--files all-small` takes every corpus file under 64 KB;
 *                    `--files bench` those of the bench section (both sets)
 *   --cli K          also replay every K-th case through `transient-lab analyze FILE --json` in a child process
 *                    and check its exit code (0, 2 or 3; 70 or a signal is a crash)
 *   --codegen        also run the generator stage on every case that analyses cleanly (what `profile` does
 *                    before compiling, bench/lib/fuzz-codegen.ts): for the CPU and the GPU target, the subset
 *                    check and, when it passes, the full source of every mode (EXTERNAL in both layouts)
 *   --compile K      also profile (g++, run, verify; bench/fuzz-compile.ts) the first K cases whose CPU
 *                    generation succeeds in every variant: exit 5 or 70 there is a generator bug
 *   --save DIR       write every crashing case's document to DIR (for replay and bug reports)
 *   --replay JSON    run the one case printed by an earlier run (`{"seed":…,"mutations":[…],…}`) and print
 *                    its outcome with the whole stack
 *
 * Prints throughput and the outcome counts, then each distinct crash (error and first engine frame) with
 * how often it occurred. Exit code 1 when any case crashed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { corpusDir, packageRoot } from '../electron/engine/paths.js';
import {
  TEST_SEEDS,
  caseArb,
  caseText,
  describeCrash,
  loadSeeds,
  runCase,
  type FrontEndOptions,
  type FuzzCase,
  type Seed,
} from './lib/fuzz-core.js';
import type { GeneratorReach } from './lib/fuzz-codegen.js';
import { fuzzCompile } from './fuzz-compile.js';

export interface FuzzCounts {
  cases: number;
  ok: number;
  tlab: number;
  crash: number;
  /** Cases that took longer than SLOW_MS (a sign of a near-hang). */
  slow: number;
  ms: number;
  casesPerSecond: number;
  /** Distinct crashes, most frequent first. */
  crashes: Array<{ what: string; count: number; example: string }>;
  slowest: { ms: number; example: string } | null;
  /** With the generator stage: mutants that reached it (findUnsupported passed for a target, or it crashed),
   * programs generated, variants refused with a TlabError, and internal errors (crashes of the stage). */
  generator: { reached: number; programs: number; refused: number; internal: number } | null;
}

const SLOW_MS = 1000;

export function smallCorpusSeeds(maxBytes = 64 * 1024): string[] {
  return readdirSync(corpusDir())
    .filter((f) => /\.sdfgz?$/.test(f) && statSync(join(corpusDir(), f)).size <= maxBytes)
    .sort()
    .map((f) => `corpus:${f}`);
}

/** The seed files of the bench section: the property test's and every small corpus file. */
export function benchSeeds(): string[] {
  return [...new Set([...TEST_SEEDS, ...smallCorpusSeeds()])];
}

const caseJson = (c: FuzzCase): string => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** Where in the generator stage an internal error happened: `gpu EXTERNAL/packed`, `cpu subset check`. */
function stageLabel(at: NonNullable<GeneratorReach['internal']>): string {
  return `${at.target} ${at.step}`;
}

/** Runs `cases` generated cases in this process and counts the outcomes. */
export function fuzzFrontEnd(
  seeds: Seed[],
  cases: number,
  seed: number,
  onCrash?: (c: FuzzCase, what: string) => void,
  opts: FrontEndOptions = {},
): FuzzCounts {
  const sampled = fc.sample(caseArb(seeds.length), { numRuns: cases, seed });
  const counts = { ok: 0, tlab: 0, crash: 0 };
  const generator = opts.codegen ? { reached: 0, programs: 0, refused: 0, internal: 0 } : null;
  const crashes = new Map<string, { count: number; example: string }>();
  let slow = 0;
  let slowest: FuzzCounts['slowest'] = null;
  const started = performance.now();
  for (const c of sampled) {
    const t0 = performance.now();
    const outcome = runCase(seeds, c, opts);
    const ms = performance.now() - t0;
    if (ms > SLOW_MS) slow++;
    if (!slowest || ms > slowest.ms) slowest = { ms, example: caseJson(c) };
    counts[outcome.kind]++;
    const reach = outcome.generator;
    if (generator && reach) {
      if (reach.targets.length || reach.internal) generator.reached++;
      generator.programs += reach.programs;
      generator.refused += reach.refused;
      if (reach.internal) generator.internal++;
    }
    if (outcome.kind === 'crash') {
      const what = describeCrash(outcome.error);
      const hit = crashes.get(what);
      if (hit) hit.count++;
      else crashes.set(what, { count: 1, example: `${caseJson(c)}${reach?.internal ? ` (${stageLabel(reach.internal)})` : ''}` });
      onCrash?.(c, what);
    }
  }
  const ms = performance.now() - started;
  return {
    cases,
    ...counts,
    slow,
    ms,
    casesPerSecond: cases / (ms / 1000),
    crashes: [...crashes].map(([what, v]) => ({ what, ...v })).sort((a, b) => b.count - a.count),
    slowest,
    generator,
  };
}

/** Replays cases through the built CLI; returns exit-code counts and the cases that crashed it. */
export function fuzzCli(seeds: Seed[], cases: FuzzCase[]): { runs: number; exitCodes: Record<string, number>; crashes: string[] } {
  const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
  const dir = mkdtempSync(join(tmpdir(), 'tlab-fuzz-'));
  const exitCodes: Record<string, number> = {};
  const crashes: string[] = [];
  let runs = 0;
  try {
    for (const c of cases) {
      const text = caseText(seeds, c);
      if (text === null) continue;
      const file = join(dir, 'case.sdfg');
      writeFileSync(file, text);
      const args = [main, 'analyze', file, '--json'];
      if (c.defaultSymbol !== null) args.push('--default-symbol', String(c.defaultSymbol));
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60_000 });
      runs++;
      const code = r.signal ? `signal ${r.signal}` : String(r.status);
      exitCodes[code] = (exitCodes[code] ?? 0) + 1;
      if (r.signal || (r.status !== 0 && r.status !== 2 && r.status !== 3))
        crashes.push(`${code}: ${caseJson(c)}: ${r.stderr.split('\n').slice(0, 3).join(' | ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, exitCodes, crashes };
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

function parseCase(text: string): FuzzCase {
  return JSON.parse(text, (_k, v: unknown) => (typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v)) as FuzzCase;
}

const HELP = `Usage: node dist/bench/fuzz-driver.js [options]

Mutates real SDFG files structurally and runs them through parse + analyse (and optionally the code
generator and the CLI); every case must succeed or end in a clear error (TlabError).

  --cases N        cases to run (default 20000)
  --seed S         fast-check seed (default: time-based; printed so that a run can be repeated)
  --files LIST     seed files: corpus:NAME, example:NAME, fixture:NAME or paths, comma-separated;
                   all-small = every corpus file under 64 KB; bench = the bench section's set
  --codegen        also generate every mode and layout for the CPU and the GPU target when the subset
                   check passes (source text, not compiled); any other error is an internal error
  --cli K          also replay every K-th case through \`transient-lab analyze FILE --json\`
  --compile K      also profile the first K cases the CPU generator turns into every variant
                   (g++ -O1, one call per mode); exit 5 (compiler rejected the code) or 70 is a bug
  --save DIR       write the documents of crashing cases to DIR
  --replay JSON    run one case printed by an earlier run, with the whole stack if it crashes

Exit code 1 when any case crashed.`;

function main(argv: string[]): number {
  if (argv.includes('--help')) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const cases = Number(option(argv, 'cases') ?? 20_000);
  const seed = Number(option(argv, 'seed') ?? Date.now() % 2 ** 31);
  const filesOpt = option(argv, 'files');
  const specs =
    filesOpt === undefined
      ? TEST_SEEDS
      : filesOpt === 'all-small'
        ? smallCorpusSeeds()
        : filesOpt === 'bench'
          ? benchSeeds()
          : filesOpt.split(',');
  const cliEvery = Number(option(argv, 'cli') ?? 0);
  const saveDir = option(argv, 'save');
  const seeds = loadSeeds(specs);
  const replay = option(argv, 'replay');
  if (replay !== undefined) {
    Error.stackTraceLimit = 100_000;
    const t0 = performance.now();
    const outcome = runCase(seeds, parseCase(replay), { codegen: argv.includes('--codegen') });
    const ms = (performance.now() - t0).toFixed(0);
    if (outcome.kind === 'ok') process.stdout.write(`ok (${ms} ms)\n`);
    else if (outcome.kind === 'tlab') process.stdout.write(`TlabError (${ms} ms): ${outcome.error.describe()}\n`);
    else {
      const at = outcome.generator?.internal;
      if (at) process.stdout.write(`internal error of the generator stage (${stageLabel(at)})\n`);
      // Stack overflows repeat a few frames thousands of times: show each distinct frame once.
      const lines = ((outcome.error as Error)?.stack ?? String(outcome.error)).split('\n');
      process.stdout.write(`CRASH (${ms} ms): ${[...new Set(lines)].join('\n')}\n`);
    }
    return outcome.kind === 'crash' ? 1 : 0;
  }
  process.stdout.write(`fuzz: ${cases} cases over ${seeds.length} seed files, fast-check seed ${seed}\n`);
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  let saved = 0;
  const counts = fuzzFrontEnd(
    seeds,
    cases,
    seed,
    (c) => {
      if (!saveDir || saved >= 200) return;
      const text = caseText(seeds, c);
      if (text !== null) writeFileSync(join(saveDir, `crash-${++saved}.sdfg`), text);
    },
    { codegen: argv.includes('--codegen') },
  );
  process.stdout.write(
    `in-process: ${counts.casesPerSecond.toFixed(0)} cases/s; ok ${counts.ok}, TlabError ${counts.tlab}, crashed ${counts.crash}, slower than ${SLOW_MS} ms ${counts.slow}` +
      '\n',
  );
  const g = counts.generator;
  if (g)
    process.stdout.write(
      `generator: ${g.reached} mutants reached it, ${g.programs} programs generated, ${g.refused} variants refused (TlabError), internal errors ${g.internal}\n`,
    );
  if (counts.slowest) process.stdout.write(`  slowest case: ${counts.slowest.ms.toFixed(0)} ms: ${counts.slowest.example}\n`);
  for (const c of counts.crashes) process.stdout.write(`  ${c.count}× ${c.what}\n     e.g. ${c.example}\n`);
  let cliCrashes = 0;
  if (cliEvery > 0) {
    const sampled = fc.sample(caseArb(seeds.length), { numRuns: cases, seed }).filter((_, i) => i % cliEvery === 0);
    const cli = fuzzCli(seeds, sampled);
    cliCrashes = cli.crashes.length;
    process.stdout.write(`CLI: ${cli.runs} runs; exit codes ${JSON.stringify(cli.exitCodes)}\n`);
    for (const c of cli.crashes.slice(0, 20)) process.stdout.write(`  ${c}\n`);
  }
  const compileLimit = Number(option(argv, 'compile') ?? 0);
  let compileFailures = 0;
  if (compileLimit > 0) {
    const sampled = fc.sample(caseArb(seeds.length), { numRuns: cases, seed });
    const check = fuzzCompile(seeds, sampled, compileLimit, (line) => process.stdout.write(`${line}\n`));
    compileFailures = check.failures.length;
    process.stdout.write(
      `compile + run: ${check.runs} mutants profiled; exit codes ${JSON.stringify(check.exitCodes)}; generator bugs (exit 5/70) ${check.failures.length}, runs that failed (exit 6) ${check.runFailures.length}\n`,
    );
    for (const f of [...check.failures, ...check.runFailures]) process.stdout.write(`  ${f}\n`);
  }
  return counts.crash + cliCrashes + compileFailures > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
