/**
 * The `workload` bench section (docs/workload.md, "Measured"): `profile` of the bundled workload
 * (assets/examples/workload-dycore.json: hdiff, vsmooth, vadv, chain, hdiff) through the engine and the workload
 * runner, as `npm run demo:workload` runs it. Records the EXTERNAL footprint (one shared workspace) against
 * PERSISTENT's sum, each mode's time per step, and the runner's own cost per program call in the sequence:
 *
 * - `loopOverheadNsPerCall`: (Σ step wall − Σ call times) / calls over the real programs' timed steps: what the
 *   sequence loop adds between the calls (event sums, the progress page, one getrusage per step);
 * - `emptyOverheadNsPerCall`: the same loop around empty functions (measureSequenceOverheadNs, in each timing
 *   child after its steps; the least of them): the loop's whole cost per call over a bare C loop calling the
 *   same functions (a call instruction each). Goal: < 2 µs.
 *
 * Knobs: TLAB_BENCH_WL_STEPS (timed steps per process, default 10), TLAB_BENCH_WL_PROCESSES (default 2),
 * TLAB_BENCH_WL_SYMBOLS (e.g. `I=64,J=64,K=40`, default the workload's own).
 */
import { join } from 'node:path';
import { examplesDir } from '../electron/engine/paths.js';
import { formatBytes, formatNs } from '../electron/engine/view/format.js';
import { profileWorkload } from '../electron/engine/workload/profile.js';
import { NodeWorkloadHost } from '../electron/runner/workload-host.js';
import type { BenchSection } from './section.js';

const STEPS = Number(process.env.TLAB_BENCH_WL_STEPS ?? 10);
const PROCESSES = Number(process.env.TLAB_BENCH_WL_PROCESSES ?? 2);
const SYMBOLS = new Map(
  (process.env.TLAB_BENCH_WL_SYMBOLS ?? '')
    .split(',')
    .filter((s) => s.includes('='))
    .map((s) => [s.split('=')[0]!.trim(), BigInt(s.split('=')[1]!.trim())] as [string, bigint]),
);
const GOAL_NS = 2000;

export const workloadSection: BenchSection = {
  name: 'workload',
  description: `profile workload-dycore.json (${STEPS} timed steps × ${PROCESSES} processes per mode): EXTERNAL vs PERSISTENT footprint, time per step, the sequence loop's cost per call`,
  async run() {
    const path = join(examplesDir(), 'workload-dycore.json');
    const host = new NodeWorkloadHost();
    let loopGap = 0;
    let loopCalls = 0;
    const empty: number[] = [];
    const wrapped = {
      verify: host.verify.bind(host),
      time: async (...args: Parameters<NodeWorkloadHost['time']>) => {
        // The addon is loaded in the runner only: the child measures the empty loop after its steps.
        const t = await host.time({ ...args[0], calibrateSteps: 200_000 }, args[1]);
        if (t.emptyOverheadNsPerCall !== undefined) empty.push(t.emptyOverheadNsPerCall);
        loopGap += t.stepNs.reduce((s, x) => s + x, 0) - t.callNs.reduce((s, x) => s + x, 0);
        loopCalls += t.callNs.length;
        return t;
      },
    };
    const { result } = await profileWorkload(path, {
      modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
      layout: 'packed',
      steps: 1,
      warmup: 2,
      calls: STEPS,
      processes: PROCESSES,
      symbols: SYMBOLS,
      defaultSymbol: null,
      seed: 0n,
      keepOutputs: false,
      timeoutMs: 3_600_000,
      cxxflags: null,
      host: wrapped,
    });
    const emptyOverheadNsPerCall = empty.length ? Math.min(...empty) : NaN;
    const loopOverheadNsPerCall = loopCalls ? loopGap / loopCalls : NaN;
    const total = (label: string) => Object.values(result.footprint[label] ?? {}).reduce((s, b) => s + b, 0);
    const external = total('EXTERNAL (packed)');
    const persistent = total('PERSISTENT');
    const perStep = Object.fromEntries(
      Object.entries(result.perStep).map(([l, s]) => [l, { medianNs: s.medianNs, p10Ns: s.p10Ns, p90Ns: s.p90Ns, allocs: s.allocs }]),
    );
    const summary = [
      `footprint: EXTERNAL (packed) ${formatBytes(external)} (one shared workspace) vs PERSISTENT ${formatBytes(persistent)} (sum over programs): ${(persistent / external).toFixed(2)}×`,
      ...Object.entries(result.perStep).map(
        ([l, s]) =>
          `${l}: ${formatNs(s.medianNs)} per step (p10 ${formatNs(s.p10Ns)}, p90 ${formatNs(s.p90Ns)}), ${s.allocs.toFixed(1)} allocations per step, footprint ${formatBytes(total(l))}`,
      ),
      `sequence loop per call: ${formatNs(loopOverheadNsPerCall)} between real calls, ${formatNs(emptyOverheadNsPerCall)} around empty functions (goal < ${formatNs(GOAL_NS)})`,
      `verdict: ${result.verdict}`,
    ];
    return {
      result: {
        steps: STEPS,
        processes: PROCESSES,
        footprint: result.footprint,
        externalBytes: external,
        persistentBytes: persistent,
        perStep,
        loopOverheadNsPerCall,
        emptyOverheadNsPerCall,
        overheadGoalNs: GOAL_NS,
        overheadMet: emptyOverheadNsPerCall < GOAL_NS && loopOverheadNsPerCall < GOAL_NS,
        verdict: result.verdict,
      },
      summary,
    };
  },
};
