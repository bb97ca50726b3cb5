/**
 * Is a mode's sample fit to be summed up by its median? Three detectors, each on what the result records
 * (docs/profile.md, "When a run is noisy"):
 *
 * - multimodal calls: Hartigan's dip test on the log call times (dip.ts) at p < SIGNIFICANCE. A busy machine
 *   splits calls into those that ran undisturbed and those that waited for a core, two humps whose weights
 *   (and so the median) depend on what else ran;
 * - processes that disagree: the mode's fresh runner processes (settings.processes, calls in process order)
 *   have medians more than PROCESS_SPREAD apart. A process that runs slower for its whole life moves the
 *   pooled median without showing in a single process's spread;
 * - a warm-up that hit its cap: the runner extends the warm-up until the page faults per call settle, by at
 *   most settleCalls(warmup) calls; a process that used all of them and still faults unevenly in its timed
 *   calls, or that ended so while other processes settled, was timed before its steady state.
 *
 * Every detector takes the per-call columns as `ArrayLike<number>` and needs no more than what it is given:
 * a capped subsample works (the dip test thins large samples itself), and a sample that cannot be split by
 * process is simply not judged by process. Pure: the renderer runs it.
 */
import type { ModeResult, ProfileResult } from './result.js';
import { dipTestLogTimes, type DipTest } from './dip.js';
import { SIGNIFICANCE } from './significance.js';
import { quantile } from './stats.js';
import { formatNs } from '../view/format.js';

/** The warm-up's bound on page faults per call that counts as settled (native/src/call_loop.cc, FaultsSettled). */
export const SETTLED_FAULTS = 8;

/** How many untimed calls may follow the warm-up until the page faults per call settle (none without a
 * warm-up): hdiff (128×128×80, SCOPED) stops faulting after 10 to 12 calls; chain (N = 2,000,000, SCOPED)
 * faults on every call for good and spends the whole budget. */
export function settleCalls(warmup: number): number {
  return warmup > 0 ? Math.max(16, 3 * warmup) : 0;
}

/**
 * Processes whose medians differ by more than this factor disagree. Identical code in fresh processes on a
 * quiet machine stays well within it (the quiet vadv recording's processes: within 1.07×); a shared 2-core VM has
 * shown one process 1.4× slower than its twin for its whole life (docs/profile.md, Processes).
 */
export const PROCESS_SPREAD = 1.25;
/** Processes with fewer timed calls than this are not compared (their medians are noise themselves). */
const MIN_CALLS_PER_PROCESS = 5;

type NoiseKind = 'multimodal' | 'processes' | 'warmup';

export interface NoiseFinding {
  mode: string;
  kind: NoiseKind;
  /** multimodal: the dip test's p-value (an upper bound; 0.001 stands for "< 0.001"). */
  p?: number;
  /** processes: the fastest and slowest process medians (ns) and how many processes there were. */
  range?: { lo: number; hi: number; processes: number };
  /** "POOL: call times fall into separate groups (dip test p < 0.001)". */
  text: string;
}

export interface ModeNoise {
  mode: string;
  /** The dip test of the mode's log call times; p NaN when there were too few calls to test. */
  dip: DipTest;
  /** Median call time of each timing process; null when the sample cannot be split by process. */
  processMedians: number[] | null;
  /** Slowest process median / fastest; NaN when not judged. */
  processSpread: number;
  /** Timing processes whose warm-up used all its extra calls; null when the result does not record it. */
  warmupCapped: number | null;
  findings: NoiseFinding[];
}

export interface NoiseReport {
  noisy: boolean;
  modes: ModeNoise[];
  findings: NoiseFinding[];
}

interface RunShape {
  calls: number;
  processes: number;
  warmup: number;
}

const sortedCache = new WeakMap<object, Float64Array>();

/** An ascending copy of a per-call column, computed once per column object. */
export function sortedOf(values: ArrayLike<number>): Float64Array {
  const hit = sortedCache.get(values);
  if (hit) return hit;
  const sorted = Float64Array.from(values).sort();
  sortedCache.set(values, sorted);
  return sorted;
}

/** The calls of each timing process, when the column holds exactly calls × processes values in process order. */
function byProcess(values: ArrayLike<number>, run: RunShape): Float64Array[] | null {
  if (run.processes < 2 || run.calls <= 0 || values.length !== run.calls * run.processes) return null;
  const column = Float64Array.from(values);
  return Array.from({ length: run.processes }, (_, p) => column.subarray(p * run.calls, (p + 1) * run.calls));
}

const median = (xs: Float64Array): number =>
  quantile(
    Array.from(xs).sort((a, b) => a - b),
    0.5,
  );
const pText = (p: number): string => (p <= 0.001 ? 'p < 0.001' : `p ≤ ${p}`);

/** Timing processes that used the whole warm-up extension and were still not in one steady state. */
function unsettledWarmups(m: ModeResult, run: RunShape): { capped: number; unsettled: number } | null {
  const w = m.warmupCalls;
  if (!Array.isArray(w) || !w.length || run.warmup <= 0) return null;
  const cap = run.warmup + settleCalls(run.warmup);
  const capped = w.map((c) => c >= cap);
  const count = capped.filter(Boolean).length;
  if (!count) return { capped: 0, unsettled: 0 };
  // Capped in some processes and not in others: the mode's processes ended in different states.
  if (count < w.length) return { capped: count, unsettled: count };
  // Capped everywhere: a program that faults on every call for good (its steady state) spends the whole
  // budget too; it is unsettled only where the timed calls still fault unevenly.
  const faults = byProcess(m.calls.minorFaults, run) ?? [Float64Array.from(m.calls.minorFaults)];
  const uneven = faults.filter((f) => {
    if (!f.length) return false;
    const s = Array.from(f).sort((a, b) => a - b);
    const mid = quantile(s, 0.5);
    return quantile(s, 0.9) - quantile(s, 0.1) > Math.max(SETTLED_FAULTS, 0.1 * mid);
  }).length;
  return { capped: count, unsettled: uneven };
}

/** The three detectors on one mode. */
export function modeNoise(m: ModeResult, run: RunShape): ModeNoise {
  const findings: NoiseFinding[] = [];
  const dip = dipTestLogTimes(m.calls.totalNs);
  if (dip.p < SIGNIFICANCE) {
    findings.push({
      mode: m.label,
      kind: 'multimodal',
      p: dip.p,
      text: `${m.label}: call times fall into separate groups (dip test ${pText(dip.p)})`,
    });
  }
  let processMedians: number[] | null = null;
  let processSpread = NaN;
  // A sampled mode keeps the same number of evenly spaced calls of each process, in process order.
  const kept = m.sampling ? { ...run, calls: m.sampling.keptPerProcess } : run;
  const parts = kept.calls >= MIN_CALLS_PER_PROCESS ? byProcess(m.calls.totalNs, kept) : null;
  if (parts) {
    processMedians = parts.map(median);
    const lo = Math.min(...processMedians);
    const hi = Math.max(...processMedians);
    processSpread = lo > 0 ? hi / lo : NaN;
    if (processSpread > PROCESS_SPREAD) {
      findings.push({
        mode: m.label,
        kind: 'processes',
        range: { lo, hi, processes: parts.length },
        text: `${m.label}: its ${parts.length} processes disagree (medians ${formatNs(lo)} to ${formatNs(hi)})`,
      });
    }
  }
  const warm = unsettledWarmups(m, run);
  if (warm && warm.unsettled > 0) {
    const of = m.warmupCalls!.length;
    findings.push({
      mode: m.label,
      kind: 'warmup',
      text: `${m.label}: warm-up hit its cap of ${run.warmup + settleCalls(run.warmup)} calls in ${warm.capped} of ${of} process${of === 1 ? '' : 'es'} without the page faults settling`,
    });
  }
  return { mode: m.label, dip, processMedians, processSpread, warmupCapped: warm ? warm.capped : null, findings };
}

const reportCache = new WeakMap<ProfileResult, NoiseReport>();

/** The detectors on every mode of a result (computed once per result object). */
export function resultNoise(result: ProfileResult): NoiseReport {
  const hit = reportCache.get(result);
  if (hit) return hit;
  const run = { calls: result.settings.calls, processes: result.settings.processes, warmup: result.settings.warmup };
  const modes = result.modes.map((m) => modeNoise(m, run));
  const findings = modes.flatMap((m) => m.findings);
  const report = { noisy: findings.length > 0, modes, findings };
  reportCache.set(result, report);
  return report;
}
