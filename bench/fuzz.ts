/**
 * The `fuzz` bench section: structurally mutated corpus files through parse → analyse → analyze's outputs
 * (and, for a part of them, the code generator's front end, and the CLI in a child process). Reports the
 * throughput and how many cases were clean: succeeded, refused with a TlabError, or crashed (the goal is 0).
 * A fresh fast-check seed every run, printed, so that a crash can be replayed with bench/fuzz-driver.ts.
 */
import fc from 'fast-check';
import { caseArb, loadSeeds } from './lib/fuzz-core.js';
import { benchSeeds, fuzzCli, fuzzFrontEnd } from './fuzz-driver.js';
import type { BenchSection } from './section.js';

const CASES = 30_000;
const CODEGEN_CASES = 5_000;
const CLI_CASES = 60;

export const fuzzSection: BenchSection = {
  name: 'fuzz',
  description: `${CASES} mutated corpus files through parse + analyse (+ ${CODEGEN_CASES} through codegen, ${CLI_CASES} through the CLI)`,
  async run() {
    const specs = benchSeeds();
    const seeds = loadSeeds(specs);
    const seed = Date.now() % 2 ** 31;
    const front = fuzzFrontEnd(seeds, CASES, seed);
    const codegen = fuzzFrontEnd(seeds, CODEGEN_CASES, seed + 1, undefined, true);
    const cli = fuzzCli(seeds, fc.sample(caseArb(seeds.length), { numRuns: CLI_CASES, seed: seed + 2 }));
    const line = (what: string, c: typeof front): string =>
      `${what}: ${c.cases} cases, ${c.casesPerSecond.toFixed(0)} cases/s; ok ${c.ok}, TlabError ${c.tlab}, crashed ${c.crash}` +
      `${c.slow ? `, ${c.slow} slower than 1 s` : ''}; slowest ${c.slowest ? c.slowest.ms.toFixed(0) : '-'} ms`;
    const summary = [
      `seed files: ${seeds.length}; fast-check seed ${seed} (replay a case: node dist/bench/fuzz-driver.js --files bench --replay '<case>' [--codegen])`,
      line('parse + analyse', front),
      line('  + codegen front', codegen),
      `CLI analyze: ${cli.runs} runs, exit codes ${JSON.stringify(cli.exitCodes)}, crashed ${cli.crashes.length}`,
      ...[...front.crashes, ...codegen.crashes].slice(0, 10).map((c) => `  CRASH ${c.count}× ${c.what}\n    ${c.example}`),
      ...cli.crashes.slice(0, 5).map((c) => `  CLI CRASH ${c}`),
    ];
    const strip = (c: typeof front) => ({ ...c, crashes: c.crashes.slice(0, 20) });
    return {
      result: {
        description: this.description,
        seedFiles: specs,
        fastCheckSeed: seed,
        parseAnalyse: strip(front),
        codegen: strip(codegen),
        cli: { runs: cli.runs, exitCodes: cli.exitCodes, crashed: cli.crashes.length, crashes: cli.crashes.slice(0, 20) },
        clean: front.crash + codegen.crash + cli.crashes.length === 0,
      },
      summary,
    };
  },
};
