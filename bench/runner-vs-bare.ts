/**
 * The `runner-vs-bare` bench section: does the runner time a generated library the way a plain C program
 * calling it would? Every mode of hdiff, vadv and chain is built once, then timed by the profiler's runner
 * (a NodeRunnerHost job exactly like a profile's timing process) and by bench/driver/bare-driver.cc, a small
 * C++ program that dlopen()s the same library and calls the same `__tlab_*` exports. The section reports
 * the runner/bare ratio of the median and of the 90th percentile per mode (goal: within 5%) and the faults
 * per call of both.
 *
 * This VM is shared and noisy: runner and bare processes alternate within each round, the order of modes and
 * of runner/bare rotates between rounds, and the per-round ratios are reported next to the pooled ones so the
 * spread is visible. TLAB_BENCH_RVB_ROUNDS / _CALLS override the rounds and timed calls per process.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCompiler, runProcess } from '../electron/engine/compile/compiler.js';
import { examplesDir, packageRoot } from '../electron/engine/paths.js';
import { buildVariants } from '../electron/engine/profile/build-variants.js';
import type { NumberColumns } from '../electron/engine/profile/columns.js';
import { prepareInputs } from '../electron/engine/profile/inputs.js';
import { planProfile } from '../electron/engine/profile/plan.js';
import { jobInputs, makeRunJob, settleCalls } from '../electron/engine/profile/rounds.js';
import type { RunJob, VariantJob } from '../electron/engine/profile/runner-host.js';
import { quantile } from '../electron/engine/profile/stats.js';
import { NodeRunnerHost } from '../electron/runner/host-node.js';
import type { BenchSection } from './section.js';

const ALL_EXAMPLES: Array<{ file: string; symbols: Record<string, bigint> }> = [
  { file: 'hdiff.sdfg', symbols: { I: 128n, J: 128n, K: 80n } },
  { file: 'vadv.sdfg', symbols: { I: 128n, J: 128n, K: 80n } },
  { file: 'chain.sdfg', symbols: { N: 2_000_000n } },
];
/** TLAB_BENCH_RVB_EXAMPLES=chain,hdiff limits the section to those examples (a quick check on a busy machine). */
const EXAMPLES = (() => {
  const only = process.env.TLAB_BENCH_RVB_EXAMPLES?.split(',')
    .map((s) => s.trim().replace(/\.sdfg$/, ''))
    .filter(Boolean);
  if (!only?.length) return ALL_EXAMPLES;
  const unknown = only.filter((n) => !ALL_EXAMPLES.some((e) => e.file === `${n}.sdfg`));
  if (unknown.length)
    throw new Error(
      `TLAB_BENCH_RVB_EXAMPLES: unknown example(s) ${unknown.join(', ')}; known: ${ALL_EXAMPLES.map((e) => e.file.replace(/\.sdfg$/, '')).join(', ')}`,
    );
  return ALL_EXAMPLES.filter((e) => only.includes(e.file.replace(/\.sdfg$/, '')));
})();
const ROUNDS = Number(process.env.TLAB_BENCH_RVB_ROUNDS ?? 3);
const CALLS = Number(process.env.TLAB_BENCH_RVB_CALLS ?? 30);
const WARMUP = 5;
const GOAL = 1.05;

/** The two per-call columns (columns.ts) both sides measure. */
interface Series extends Pick<NumberColumns, 'totalNs' | 'minorFaults'> {
  /** Untimed calls before the timed ones (warm-up plus settling), per process. */
  warmupCalls: number[];
}

interface Distribution {
  medianNs: number;
  p90Ns: number;
  faultsPerCall: number;
  calls: number;
  warmupCalls: number[];
}

function distribution(s: Series): Distribution {
  const sorted = [...s.totalNs].sort((a, b) => a - b);
  return {
    medianNs: quantile(sorted, 0.5),
    p90Ns: quantile(sorted, 0.9),
    faultsPerCall: s.minorFaults.reduce((a, b) => a + b, 0) / Math.max(1, s.minorFaults.length),
    calls: s.totalNs.length,
    warmupCalls: s.warmupCalls,
  };
}

/** Builds the bare driver with the compiler the libraries are built with. */
async function buildDriver(dir: string): Promise<string> {
  const compiler = await findCompiler();
  const out = join(dir, 'bare-driver');
  const src = join(packageRoot(), 'bench', 'driver', 'bare-driver.cc');
  const r = await runProcess(
    [...compiler.command, '-std=c++17', '-O2', '-I', join(packageRoot(), 'native', 'include'), src, '-o', out, '-ldl'],
    { timeoutMs: 120_000 },
  );
  if (r.code !== 0) throw new Error(`bench: cannot build ${src}: ${r.stderr}`);
  return out;
}

async function runBare(
  driver: string,
  dir: string,
  v: VariantJob,
  argFiles: Array<{ bytes: number; path: string }>,
  tag: string,
): Promise<Series> {
  const spec = join(dir, `${tag}.spec`);
  const out = join(dir, `${tag}.out`);
  await writeFile(
    spec,
    [
      `lib ${v.libPath}`,
      `init ${v.initSymbols.join(' ')}`,
      ...argFiles.map((a) => `arg ${a.bytes} ${a.path}`),
      ...v.externals.map((e) => `external ${e.storage}`),
      `warmup ${WARMUP}`,
      `settle ${settleCalls(WARMUP)}`,
      `calls ${CALLS}`,
    ].join('\n') + '\n',
  );
  const r = await runProcess([driver, spec, out], { timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`bench: bare driver failed on ${v.label} (${r.signal ?? `exit ${r.code}`}): ${r.stderr}`);
  const lines = (await readFile(out, 'utf8')).trim().split('\n');
  const warmup = lines.pop()?.match(/^warmup (\d+)$/);
  if (!warmup) throw new Error(`bench: the bare driver's output ${out} does not end with its warm-up count`);
  const rows = lines.map((line) => line.split(' ').map(Number));
  return { totalNs: rows.map((r) => r[0]!), minorFaults: rows.map((r) => r[1]!), warmupCalls: [Number(warmup[1])] };
}

async function runRunner(job: RunJob, v: VariantJob): Promise<Series> {
  // Exactly a profile's timing process: one fresh child, this one mode, no verification.
  const [r] = await new NodeRunnerHost().run({ ...job, variants: [v], skipVerification: true }, { timeoutMs: 600_000 });
  // Every call is kept at the bench's call counts (≤ MAX_KEPT_CALLS).
  return {
    totalNs: Array.from(r!.timing.totalNs),
    minorFaults: Array.from(r!.timing.kept.minorFaults),
    warmupCalls: r!.timing.warmupCalls,
  };
}

const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);

export const runnerVsBareSection: BenchSection = {
  name: 'runner-vs-bare',
  description: `the runner against a bare C driver on the same libraries (${EXAMPLES.map((e) => e.file.replace(/\.sdfg$/, '')).join(', ')}; ${ROUNDS} rounds × ${CALLS} calls per process)`,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-rvb-'));
    try {
      const driver = await buildDriver(dir);
      const rows: Array<{
        example: string;
        mode: string;
        runner: Distribution;
        bare: Distribution;
        medianRatio: number;
        p90Ratio: number;
        roundMedianRatios: number[];
        roundP90Ratios: number[];
      }> = [];
      for (const example of EXAMPLES) {
        const path = join(examplesDir(), example.file);
        const plan = await planProfile(path, {
          modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
          layout: 'both',
          calls: CALLS,
          symbols: new Map(Object.entries(example.symbols)),
          defaultSymbol: null,
        });
        const built = await buildVariants(plan.variants, { runDir: dir, sdfgFile: path });
        const prepared = await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map() });
        const job = makeRunJob(built, jobInputs(prepared), { calls: CALLS, warmup: WARMUP, sdfgFile: path });
        const argFiles: Array<{ bytes: number; path: string }> = [];
        for (const [i, p] of prepared.entries()) {
          const file = join(dir, `${plan.name}-arg${i}.bin`);
          await writeFile(file, p.bytes);
          argFiles.push({ bytes: p.bytes.byteLength, path: file });
        }
        const runner: Series[][] = job.variants.map(() => []);
        const bare: Series[][] = job.variants.map(() => []);
        for (let round = 0; round < ROUNDS; round++) {
          // Rotate which mode goes first, and alternate whether the runner or the driver goes first.
          const order = job.variants.map((_, i) => (i + round) % job.variants.length);
          for (const [k, i] of order.entries()) {
            const v = job.variants[i]!;
            const runnerFirst = (round + k) % 2 === 0;
            for (const which of runnerFirst ? ['runner', 'bare'] : ['bare', 'runner']) {
              if (which === 'runner') runner[i]!.push(await runRunner(job, v));
              else bare[i]!.push(await runBare(driver, dir, v, argFiles, `${plan.name}-${i}-${round}`));
            }
          }
        }
        for (const [i, v] of job.variants.entries()) {
          const pooled = (s: Series[]): Series => ({
            totalNs: s.flatMap((x) => x.totalNs),
            minorFaults: s.flatMap((x) => x.minorFaults),
            warmupCalls: s.flatMap((x) => x.warmupCalls),
          });
          const r = distribution(pooled(runner[i]!));
          const b = distribution(pooled(bare[i]!));
          const perRound = runner[i]!.map((rs, k) => [distribution(rs), distribution(bare[i]![k]!)] as const);
          rows.push({
            example: plan.name,
            mode: v.label,
            runner: r,
            bare: b,
            medianRatio: r.medianNs / b.medianNs,
            p90Ratio: r.p90Ns / b.p90Ns,
            roundMedianRatios: perRound.map(([x, y]) => x.medianNs / y.medianNs),
            roundP90Ratios: perRound.map(([x, y]) => x.p90Ns / y.p90Ns),
          });
        }
      }
      const within = rows.filter((r) => Math.abs(r.medianRatio - 1) <= GOAL - 1 && Math.abs(r.p90Ratio - 1) <= GOAL - 1).length;
      const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
      const lines = [
        `${'example / mode'.padEnd(26)} ${'runner median'.padStart(13)} ${'bare median'.padStart(12)} ${'ratio'.padStart(6)} ${'runner p90'.padStart(11)} ${'bare p90'.padStart(10)} ${'ratio'.padStart(6)} ${'faults/call r / b'.padStart(19)}  ${'warm-up r / b'.padEnd(17)} rounds (median ratio)`,
        ...rows.map(
          (r) =>
            `${`${r.example} ${r.mode}`.padEnd(26)} ${fmt(r.runner.medianNs).padStart(13)} ${fmt(r.bare.medianNs).padStart(12)} ${r.medianRatio.toFixed(3).padStart(6)} ${fmt(r.runner.p90Ns).padStart(11)} ${fmt(r.bare.p90Ns).padStart(10)} ${r.p90Ratio.toFixed(3).padStart(6)} ${`${r.runner.faultsPerCall.toFixed(1)} / ${r.bare.faultsPerCall.toFixed(1)}`.padStart(19)}  ${`${r.runner.warmupCalls.join(',')} / ${r.bare.warmupCalls.join(',')}`.padEnd(17)} ${range(r.roundMedianRatios)}`,
        ),
        `${within} of ${rows.length} modes within ${((GOAL - 1) * 100).toFixed(0)}% on both median and p90 (runner ÷ bare; ${ROUNDS} interleaved rounds × ${CALLS} calls each side, pooled)`,
      ];
      return {
        result: {
          description: this.description,
          rounds: ROUNDS,
          callsPerProcess: CALLS,
          warmup: WARMUP,
          goalRatio: GOAL,
          withinGoal: within,
          rows,
        },
        summary: lines,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
