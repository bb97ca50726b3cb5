/**
 * The `fuzz` bench section: structurally mutated corpus files through parse → analyse → analyze's outputs,
 * a part of them on through the generator stage (bench/lib/fuzz-codegen.ts: every mode and layout, CPU and GPU
 * target, full source text), and a few through the CLI in a child process. Reports the throughput and how
 * many cases were clean: succeeded, refused with a TlabError, or crashed; for the generator stage how many
 * mutants reached it and its internal errors (the goal for both is 0).
 * A fresh fast-check seed every run, printed, so that a crash can be replayed with bench/fuzz-driver.ts.
 *
 * TLAB_FUZZ_CASES / TLAB_FUZZ_CODEGEN_CASES / TLAB_FUZZ_CLI_CASES override the case counts (e.g.
 * TLAB_FUZZ_CODEGEN_CASES=100000 for the long generator run); TLAB_FUZZ_SEED fixes the seed.
 */
import fc from 'fast-check';
import { caseArb, loadSeeds } from './lib/fuzz-core.js';
import { benchSeeds, fuzzCli, fuzzFrontEnd, type FuzzCounts } from './fuzz-driver.js';
import type { BenchSection } from './section.js';

function count(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name}: expected a whole number of cases, got '${text}'`);
  return n;
}

const CASES = count('TLAB_FUZZ_CASES', 30_000);
const CODEGEN_CASES = count('TLAB_FUZZ_CODEGEN_CASES', 5_000);
const CLI_CASES = count('TLAB_FUZZ_CLI_CASES', 60);

export const fuzzSection: BenchSection = {
  name: 'fuzz',
  description: `${CASES} mutated corpus files through parse + analyse (+ ${CODEGEN_CASES} through the generator: every mode and layout, CPU and GPU; ${CLI_CASES} through the CLI)`,
  async run() {
    const specs = benchSeeds();
    const seeds = loadSeeds(specs);
    const seed = process.env.TLAB_FUZZ_SEED ? count('TLAB_FUZZ_SEED', 0) : Date.now() % 2 ** 31;
    const front = fuzzFrontEnd(seeds, CASES, seed);
    const codegen = fuzzFrontEnd(seeds, CODEGEN_CASES, seed + 1, undefined, { codegen: true });
    const cli = fuzzCli(seeds, fc.sample(caseArb(seeds.length), { numRuns: CLI_CASES, seed: seed + 2 }));
    const line = (what: string, c: FuzzCounts): string =>
      `${what}: ${c.cases} cases, ${c.casesPerSecond.toFixed(0)} cases/s; ok ${c.ok}, TlabError ${c.tlab}, crashed ${c.crash}` +
      `${c.slow ? `, ${c.slow} slower than 1 s` : ''}; slowest ${c.slowest ? c.slowest.ms.toFixed(0) : '-'} ms`;
    const g = codegen.generator!;
    const summary = [
      `seed files: ${seeds.length}; fast-check seed ${seed} (replay a case: node dist/bench/fuzz-driver.js --files bench --replay '<case>' [--codegen])`,
      line('parse + analyse', front),
      line('  + generator', codegen),
      `  generator: ${g.reached} codegen mutants (passed the subset check for CPU or GPU), ${g.programs} programs generated, ${g.refused} variants refused with a TlabError, internal errors ${g.internal}`,
      `CLI analyze: ${cli.runs} runs, exit codes ${JSON.stringify(cli.exitCodes)}, crashed ${cli.crashes.length}`,
      ...[...front.crashes, ...codegen.crashes].slice(0, 10).map((c) => `  CRASH ${c.count}× ${c.what}\n    ${c.example}`),
      ...cli.crashes.slice(0, 5).map((c) => `  CLI CRASH ${c}`),
    ];
    const strip = (c: FuzzCounts) => ({ ...c, crashes: c.crashes.slice(0, 20) });
    return {
      result: {
        description: this.description,
        seedFiles: specs,
        fastCheckSeed: seed,
        parseAnalyse: strip(front),
        codegen: strip(codegen),
        codegenMutants: g.reached,
        codegenPrograms: g.programs,
        codegenInternalErrors: g.internal,
        cli: { runs: cli.runs, exitCodes: cli.exitCodes, crashed: cli.crashes.length, crashes: cli.crashes.slice(0, 20) },
        clean: front.crash + codegen.crash + cli.crashes.length === 0,
      },
      summary,
    };
  },
};
