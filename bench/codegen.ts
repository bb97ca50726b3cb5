/**
 * The `codegen` bench section: what building the generated code as DaCe builds it changes, per example and
 * mode. For each of hdiff, vadv and chain, the same memory modes are profiled in three configurations:
 *
 *   reference  today's generator and build: DaCe's schedule resolution (a top-level map with no schedule
 *              is an OpenMP `parallel for`, maps inside it are Sequential, `collapse` only when the map sets
 *              it) and DaCe's default CPU flags: -std=c++20 plus build/DACE_CXXFLAGS
 *              (-O3 -march=native -fno-math-errno -fno-trapping-math -fno-signed-zeros -freciprocal-math)
 *              and -fopenmp. This is what DaCe itself builds from these SDFGs, with our allocator
 *              instrumentation; a build by DaCe proper is not available on this machine.
 *   old        the configuration before: only maps marked CPU_Multicore run in parallel, with
 *              collapse(<all parameters>), every other map serially; -std=c++17 -O2 (-fopenmp for
 *              parallel maps). Produced by the same generator from the SDFG with those schedules written
 *              in (Default → Sequential, CPU_Multicore maps collapse = number of parameters).
 *   flags      the old schedules with DaCe's flags: separates what the flags do from what the schedules do.
 *
 * Per example and mode: old ÷ reference and flags ÷ reference of the per-call time, from the 10th
 * percentile (the calls nothing else disturbed; this shared VM's load moves medians by tens of percent) and
 * from the median, each the median over alternating rounds. Above 1: the reference is faster. POOL is
 * SCOPED on the CPU and is not repeated. The machine's load average is recorded next to the numbers.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DACE_CXXFLAGS } from '../electron/engine/build/index.js';
import { examplesDir } from '../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../electron/engine/profile/profile.js';
import type { ProfileResult } from '../electron/engine/profile/result.js';
import { NodeRunnerHost } from '../electron/runner/host-node.js';
import type { BenchSection } from './run.js';

const EXAMPLES: Array<{ name: string; symbols: Record<string, bigint>; calls: number }> = [
  { name: 'hdiff', symbols: { I: 128n, J: 128n, K: 80n }, calls: 30 },
  { name: 'vadv', symbols: { I: 64n, J: 64n, K: 40n }, calls: 30 },
  { name: 'chain', symbols: { N: 1_000_000n }, calls: 30 },
];
type Config = 'old' | 'flags' | 'reference';
const CONFIGS: readonly Config[] = ['old', 'flags', 'reference'];
const MODES = ['SCOPED', 'PERSISTENT', 'EXTERNAL'] as const;
/** Rounds per configuration, alternating which configuration goes first (this VM drifts over seconds). */
const ROUNDS = 2;
const OLD_CXXFLAGS = ['-std=c++17', '-O2'];

/** The SDFG JSON with the old generator's schedules made explicit (see the header). */
export function oldSchedules(json: unknown): unknown {
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
  /** Per configuration: median over rounds of each round's p10 and median per-call time (ns). */
  p10Ns: Record<Config, number>;
  medianNs: Record<Config, number>;
  /** old ÷ reference and flags ÷ reference, from p10 (primary) and from medians. */
  ratio: { old: number; flags: number; oldMedian: number; flagsMedian: number };
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
    const loadBefore = loadavg()[0]!;
    const dir = await mkdtemp(join(tmpdir(), 'tlab-bench-codegen-'));
    const rows: Row[] = [];
    try {
      for (const ex of EXAMPLES) {
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
        const runConfig = (c: Config) => (c === 'old' ? run(oldPath, OLD_CXXFLAGS) : c === 'flags' ? run(oldPath, null) : run(refPath, null));
        const samples = new Map<string, Record<Config, { p10: number[]; median: number[] }>>(
          MODES.map((m) => [m, { old: { p10: [], median: [] }, flags: { p10: [], median: [] }, reference: { p10: [], median: [] } }]),
        );
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
          for (const c of order) {
            const result = await runConfig(c);
            if (!result.verification.ok) throw new Error(`bench codegen: ${ex.name} (${c}) failed verification`);
            for (const m of result.modes) {
              samples.get(m.mode)![c].p10.push(m.summary.p10Ns);
              samples.get(m.mode)![c].median.push(m.summary.medianNs);
            }
          }
        }
        for (const mode of MODES) {
          const s = samples.get(mode)!;
          const p10 = { old: med(s.old.p10), flags: med(s.flags.p10), reference: med(s.reference.p10) };
          const median = { old: med(s.old.median), flags: med(s.flags.median), reference: med(s.reference.median) };
          rows.push({
            example: ex.name,
            mode,
            p10Ns: p10,
            medianNs: median,
            ratio: { old: p10.old / p10.reference, flags: p10.flags / p10.reference, oldMedian: median.old / median.reference, flagsMedian: median.flags / median.reference },
          });
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const loadAfter = loadavg()[0]!;
    const lines = [
      `reference: DaCe's schedules (top-level Default maps → OpenMP parallel for) and flags (-std=c++20 ${DACE_CXXFLAGS.join(' ')} -fopenmp)`,
      `old: Default maps serial, CPU_Multicore maps collapse(all), ${OLD_CXXFLAGS.join(' ')}; flags: old schedules, DaCe's flags`,
      `ratios: per-call p10 (median) of old or flags ÷ reference; > 1: the reference is faster. Load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${cpus().length} cores`,
      `${'example'.padEnd(8)} ${'mode'.padEnd(11)} ${'old p10'.padStart(10)} ${'flags p10'.padStart(10)} ${'ref p10'.padStart(10)} ${'old÷ref'.padStart(15)} ${'flags÷ref'.padStart(15)}`,
      ...rows.map(
        (r) =>
          `${r.example.padEnd(8)} ${r.mode.padEnd(11)} ${ms(r.p10Ns.old).padStart(10)} ${ms(r.p10Ns.flags).padStart(10)} ${ms(r.p10Ns.reference).padStart(10)} ${`${r.ratio.old.toFixed(2)}× (${r.ratio.oldMedian.toFixed(2)}×)`.padStart(15)} ${`${r.ratio.flags.toFixed(2)}× (${r.ratio.flagsMedian.toFixed(2)}×)`.padStart(15)}`,
      ),
    ];
    return {
      result: {
        description: this.description,
        reference: { schedules: 'DaCe (analysis/defaults.ts)', cxxflags: ['-std=c++20', ...DACE_CXXFLAGS, '-fopenmp'] },
        old: { schedules: 'Default → Sequential, CPU_Multicore collapse(all parameters)', cxxflags: [...OLD_CXXFLAGS, '-fopenmp (parallel maps only)'] },
        flagsOnly: { schedules: 'as old', cxxflags: ['-std=c++20', ...DACE_CXXFLAGS, '-fopenmp (parallel maps only)'] },
        rounds: ROUNDS,
        loadAverage: { before: loadBefore, after: loadAfter, cores: cpus().length },
        examples: EXAMPLES.map((e) => ({ name: e.name, symbols: Object.fromEntries(Object.entries(e.symbols).map(([k, v]) => [k, Number(v)])), calls: e.calls })),
        rows,
      },
      summary: lines,
    };
  },
};
