/**
 * The `codegen` bench section: what building the generated code as DaCe builds it changes, per example and
 * mode. For each of hdiff, vadv and chain, the same memory modes are profiled in two configurations:
 *
 *   reference  today's generator and build: DaCe's schedule resolution (a top-level map with no schedule
 *              is an OpenMP `parallel for`, maps inside it are Sequential, `collapse` only when the map sets
 *              it) and DaCe's default CPU flags: -std=c++20 plus compile/DACE_CXXFLAGS
 *              (-O3 -march=native -fno-math-errno -fno-trapping-math -fno-signed-zeros -freciprocal-math)
 *              and -fopenmp. This is what DaCe itself builds from these SDFGs, with our allocator
 *              instrumentation; a build by DaCe proper is not available on this machine.
 *   old        the configuration before: only maps marked CPU_Multicore run in parallel, with
 *              collapse(<all parameters>), every other map serially; -std=c++17 -O2 (-fopenmp for
 *              parallel maps). Produced by the same generator from the SDFG with those schedules written
 *              in (Default → Sequential, CPU_Multicore maps collapse = number of parameters).
 *
 * Two passes: with OpenMP's default thread count (the comparison as users see it), and with
 * OMP_NUM_THREADS=1, which leaves only what the flags and the loop structure do. On a machine whose cores
 * are shared with other work, OpenMP regions stall at every barrier while a thread waits for a core, so the
 * first pass measures the machine as much as the code: the load average is recorded next to it.
 *
 * Per example, mode and pass: old ÷ reference of the per-call time from the 10th percentile (the calls
 * nothing else disturbed) and from the median, each the median over alternating rounds. Above 1: the
 * reference is faster. POOL is SCOPED on the CPU and is not repeated.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DACE_CXXFLAGS } from '../electron/engine/compile/index.js';
import { examplesDir } from '../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../electron/engine/profile/profile.js';
import type { ProfileResult } from '../electron/engine/profile/result.js';
import { NodeRunnerHost } from '../electron/runner/host-node.js';
import type { BenchSection } from './section.js';

const EXAMPLES: Array<{ name: string; symbols: Record<string, bigint>; calls: number }> = [
  { name: 'hdiff', symbols: { I: 128n, J: 128n, K: 80n }, calls: 30 },
  { name: 'vadv', symbols: { I: 64n, J: 64n, K: 40n }, calls: 30 },
  { name: 'chain', symbols: { N: 1_000_000n }, calls: 30 },
];
type Config = 'old' | 'reference';
const CONFIGS: readonly Config[] = ['old', 'reference'];
/** OMP_NUM_THREADS of each pass; null: OpenMP's default (every core). */
const PASSES: ReadonlyArray<string | null> = [null, '1'];
const MODES = ['SCOPED', 'PERSISTENT', 'EXTERNAL'] as const;
/** Rounds per configuration, alternating which configuration goes first (this VM drifts over seconds). */
const ROUNDS = 2;
const OLD_CXXFLAGS = ['-std=c++17', '-O2'];

/** The SDFG JSON with the old generator's schedules made explicit (see the header). */
function oldSchedules(json: unknown): unknown {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'MapEntry' && o.attributes && typeof o.attributes === 'object') {
        const a = o.attributes as Record<string, unknown>;
        const schedule = typeof a.schedule === 'string' ? a.schedule : 'Default';
        const params = Array.isArray(a.params) ? a.params.length : 1;
        if (schedule === 'Default') a.schedule = 'Sequential';
        else if (schedule === 'CPU_Multicore' && params > 1) a.collapse = params;
      }
      for (const x of Object.values(o)) walk(x);
    }
  };
  const copy = structuredClone(json);
  walk(copy);
  return copy;
}

interface Row {
  example: string;
  mode: string;
  /** OMP_NUM_THREADS of the pass, or 'default'. */
  threads: string;
  /** Per configuration: median over rounds of each round's p10 and median per-call time (ns). */
  p10Ns: Record<Config, number>;
  medianNs: Record<Config, number>;
  /** old ÷ reference from p10 (primary) and from medians. */
  ratio: number;
  ratioMedian: number;
}

/** Both configurations of one example, in alternating rounds. */
async function measure(dir: string, ex: (typeof EXAMPLES)[number], threads: string): Promise<Row[]> {
  const refPath = join(examplesDir(), `${ex.name}.sdfg`);
  const oldPath = join(dir, `${ex.name}.sdfg`);
  await writeFile(oldPath, JSON.stringify(oldSchedules(JSON.parse(await readFile(refPath, 'utf8')))));
  const run = (path: string, cxxflags: readonly string[] | null): Promise<ProfileResult> =>
    profile(path, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      modes: [...MODES],
      layout: 'packed',
      calls: ex.calls,
      warmup: 3,
      processes: 1,
      symbols: new Map(Object.entries(ex.symbols)),
      cxxflags,
    });
  const samples = new Map<string, Record<Config, { p10: number[]; median: number[] }>>(
    MODES.map((m) => [m, { old: { p10: [], median: [] }, reference: { p10: [], median: [] } }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
    for (const c of order) {
      const result = c === 'old' ? await run(oldPath, OLD_CXXFLAGS) : await run(refPath, null);
      if (!result.verification.ok) throw new Error(`bench codegen: ${ex.name} (${c}) failed verification`);
      for (const m of result.modes) {
        samples.get(m.mode)![c].p10.push(m.summary.p10Ns);
        samples.get(m.mode)![c].median.push(m.summary.medianNs);
      }
    }
  }
  return MODES.map((mode) => {
    const s = samples.get(mode)!;
    const p10 = { old: med(s.old.p10), reference: med(s.reference.p10) };
    const median = { old: med(s.old.median), reference: med(s.reference.median) };
    return {
      example: ex.name,
      mode,
      threads,
      p10Ns: p10,
      medianNs: median,
      ratio: p10.old / p10.reference,
      ratioMedian: median.old / median.reference,
    };
  });
}

const med = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (ns: number): string => `${(ns / 1e6).toFixed(2)} ms`;

export const codegenSection: BenchSection = {
  name: 'codegen',
  description: "per-call time of the old build (-O2, serial Default maps) against DaCe's flags and schedules, per example and mode",
  async run() {
    // TLAB_BENCH_CODEGEN=hdiff,chain limits the section to those examples (a quick check on a busy machine).
    const only = process.env.TLAB_BENCH_CODEGEN?.split(',').filter(Boolean);
    const examples = only?.length ? EXAMPLES.filter((e) => only.includes(e.name)) : EXAMPLES;
    if (only?.length && examples.length !== only.length)
      throw new Error(`bench codegen: TLAB_BENCH_CODEGEN names unknown examples; known: ${EXAMPLES.map((e) => e.name).join(', ')}`);
    const loadBefore = loadavg()[0]!;
    const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-codegen-'));
    const rows: Row[] = [];
    try {
      for (const threads of PASSES) {
        const saved = process.env.OMP_NUM_THREADS;
        // The runner child inherits the environment; libgomp reads it when the library loads.
        if (threads === null) delete process.env.OMP_NUM_THREADS;
        else process.env.OMP_NUM_THREADS = threads;
        try {
          for (const ex of examples) rows.push(...(await measure(dir, ex, threads ?? 'default')));
        } finally {
          if (saved === undefined) delete process.env.OMP_NUM_THREADS;
          else process.env.OMP_NUM_THREADS = saved;
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const loadAfter = loadavg()[0]!;
    const lines = [
      `reference: DaCe's schedules (top-level Default maps → OpenMP parallel for) and flags (-std=c++20 ${DACE_CXXFLAGS.join(' ')} -fopenmp)`,
      `old: Default maps serial, CPU_Multicore maps collapse(all), ${OLD_CXXFLAGS.join(' ')}`,
      `ratio: old ÷ reference per-call p10 (median); > 1: the reference is faster. Load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${cpus().length} cores`,
      `${'example'.padEnd(8)} ${'mode'.padEnd(11)} ${'threads'.padEnd(8)} ${'old p10'.padStart(10)} ${'ref p10'.padStart(10)} ${'old÷ref'.padStart(15)}`,
      ...rows.map(
        (r) =>
          `${r.example.padEnd(8)} ${r.mode.padEnd(11)} ${r.threads.padEnd(8)} ${ms(r.p10Ns.old).padStart(10)} ${ms(r.p10Ns.reference).padStart(10)} ${`${r.ratio.toFixed(2)}× (${r.ratioMedian.toFixed(2)}×)`.padStart(15)}`,
      ),
    ];
    return {
      result: {
        description: this.description,
        reference: { schedules: 'DaCe (analysis/defaults.ts)', cxxflags: ['-std=c++20', ...DACE_CXXFLAGS, '-fopenmp'] },
        old: {
          schedules: 'Default → Sequential, CPU_Multicore collapse(all parameters)',
          cxxflags: [...OLD_CXXFLAGS, '-fopenmp (parallel maps only)'],
        },
        passes: PASSES.map((t) => ({ OMP_NUM_THREADS: t ?? 'default' })),
        rounds: ROUNDS,
        loadAverage: { before: loadBefore, after: loadAfter, cores: cpus().length },
        examples: examples.map((e) => ({
          name: e.name,
          symbols: Object.fromEntries(Object.entries(e.symbols).map(([k, v]) => [k, Number(v)])),
          calls: e.calls,
        })),
        rows,
      },
      summary: lines,
    };
  },
};
