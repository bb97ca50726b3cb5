/**
 * The `constructs` bench section (issue 22, "Generated code stays fast"): for each construct the generator newly
 * covers, our per-call time (SCOPED and EXTERNAL packed, DaCe's flags) against a straightforward hand-written C++
 * loop nest of the same computation, built with the same flags and timed through the same runner as a DaCe
 * build folder (bench/lib/construct-row.ts says how, bench/lib/constructs.ts holds the constructs), and, where
 * that loop nest fuses what the SDFG keeps apart, against a second one with the SDFG's own containers and loops
 * ("same structure"). Outputs of all are compared before any time is. A construct we run more than SLOW_RATIO ×
 * slower (median and p10 both, in some mode) than the same-structure loop nest, or the fused one where there is
 * no other, is flagged SLOW.
 *
 * DaCe's own build of each construct is not timed: DaCe is not installed here (each row says so).
 * OMP_NUM_THREADS is 1 unless TLAB_BENCH_CONSTRUCTS_THREADS says otherwise: on a machine whose cores are shared,
 * OpenMP barriers measure the machine more than the code (bench/codegen.ts). TLAB_BENCH_CONSTRUCTS=NAME,… keeps
 * those constructs; TLAB_BENCH_CONSTRUCTS_CALLS sets the timed calls per mode (default 20).
 */
import { cpus, loadavg } from 'node:os';
import { HAND_CXXFLAGS, measureConstruct, SLOW_RATIO, type ConstructRow } from './lib/construct-row.js';
import { CONSTRUCTS } from './lib/constructs.js';
import type { BenchSection } from './section.js';

/** Constructs of issue 22 without a row, and why. */
const NOT_TIMED: Record<string, string> = {
  stencil: "DaCe's Stencil library node has no expansion in our generator (electron/engine/sdfg/expand): a finding, nothing to time",
  'structure members':
    "not timed: the hand-written loop nest runs as a DaCe build folder, whose call passes the SDFG's arguments as the generator flattens a structure (A.b.0.c, A.w, …), while a structure program's DaCe signature takes the structure pointers (t_A *A) that only our trampolines build",
};

const ms = (ns: number): string => (ns / 1e6).toFixed(2);

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return v;
}

export const constructsSection: BenchSection = {
  name: 'constructs',
  description:
    "each construct issue 22 newly covers: our per-call time against a hand-written C++ loop nest (same flags, same runner); DaCe's build where available",
  async run() {
    const only = process.env.TLAB_BENCH_CONSTRUCTS?.split(',').filter(Boolean);
    const chosen = only?.length ? CONSTRUCTS.filter((c) => only.includes(c.name)) : CONSTRUCTS;
    if (only?.length && chosen.length !== only.length)
      throw new Error(
        `bench constructs: TLAB_BENCH_CONSTRUCTS names unknown constructs; known: ${CONSTRUCTS.map((c) => c.name).join(', ')}`,
      );
    const calls = positiveInt('TLAB_BENCH_CONSTRUCTS_CALLS', 20);
    const threads = String(positiveInt('TLAB_BENCH_CONSTRUCTS_THREADS', 1));
    const saved = process.env.OMP_NUM_THREADS;
    // The runner child inherits the environment; libgomp reads it when the library loads.
    process.env.OMP_NUM_THREADS = threads;
    const loadBefore = loadavg()[0]!;
    const rows: ConstructRow[] = [];
    try {
      for (const c of chosen) rows.push(await measureConstruct(c, { calls }));
    } finally {
      if (saved === undefined) delete process.env.OMP_NUM_THREADS;
      else process.env.OMP_NUM_THREADS = saved;
    }
    const loadAfter = loadavg()[0]!;
    const slow = rows.filter((r) => r.slow);
    const lines = [
      `ours: SCOPED and EXTERNAL (packed); hand-written: the same computation as a plain loop nest, ${HAND_CXXFLAGS.join(' ')}, run as a DaCe build folder by the same runner`,
      `OMP_NUM_THREADS=${threads}; ${calls} timed calls per mode; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${cpus().length} cores (shared: times are noisy)`,
      'ratios: our median ÷ the hand-written median (p10 ÷ p10), SCOPED and EXTERNAL; "fused": the plain loop nest, "same": the loop nest with the SDFG\'s own containers and loops (SLOW is judged against it where there is one)',
      `${'construct'.padEnd(18)} ${'sizes'.padEnd(22)} ${'SCOPED ms'.padStart(10)} ${'EXT ms'.padStart(8)} ${'hand ms'.padStart(8)} ${'fused ratio (p10)'.padStart(24)} ${'same ms'.padStart(8)} ${'same ratio (p10)'.padStart(24)}  outputs`,
      ...rows.map((r) => {
        const sizes = Object.entries(r.symbols)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ');
        const fmt = (rs: ConstructRow['ratios']) => rs.map((x) => `${x.median.toFixed(2)}(${x.p10.toFixed(2)})`).join(' ');
        const same = r.sameStructure;
        const agree = Object.values(r.outputs).every((o) => o === 'bitwise') ? 'bitwise' : 'within tolerance';
        return `${r.construct.padEnd(18)} ${sizes.slice(0, 22).padEnd(22)} ${ms(r.ours[0]!.medianNs).padStart(10)} ${ms(r.ours[1]?.medianNs ?? NaN).padStart(8)} ${ms(r.handWritten.medianNs).padStart(8)} ${fmt(r.ratios).padStart(24)} ${(same ? ms(same.timing.medianNs) : '-').padStart(8)} ${(same ? fmt(same.ratios) : '-').padStart(24)}  ${agree}${r.slow ? `  SLOW (> ${SLOW_RATIO}× the ${r.judgedAgainst} loop nest)` : ''}`;
      }),
      slow.length
        ? `SLOW: ${slow.map((r) => `${r.construct} ${r.worstRatio.toFixed(1)}× (${r.judgedAgainst})`).join(', ')} slower than the hand-written loop nest (README.md, Benchmarks, says why where known)`
        : `no construct above ${SLOW_RATIO}× its hand-written loop nest (same structure where there is one)`,
      "DaCe's own build: not measured (DaCe is not installed on this machine)",
      ...Object.entries(NOT_TIMED).map(([k, why]) => `not timed: ${k}: ${why}`),
    ];
    return {
      result: {
        description: this.description,
        cxxflags: HAND_CXXFLAGS,
        ompNumThreads: threads,
        calls,
        slowRatio: SLOW_RATIO,
        loadAverage: { before: loadBefore, after: loadAfter, cores: cpus().length },
        rows,
        notTimed: NOT_TIMED,
      },
      summary: lines,
    };
  },
};
