/**
 * The verdict line of a workload profile: the noise-aware comparison of `profile` (docs/profile.md, "The
 * verdict", "When a run is noisy") applied to step times. Noise: the dip test on each mode's log step times and
 * the spread of its timing processes' medians; a noisy run is compared at p10 with distribution-free intervals,
 * a clean one at the median with Mann–Whitney. The winner is the fastest mode when the test separates it from the
 * runner-up; otherwise no mode wins on time, and the line names the one that holds the least for transients among
 * those the test cannot tell apart. Either way it says what the named mode saves.
 */
import { dipTestLogTimes } from '../profile/dip.js';
import { PROCESS_SPREAD } from '../profile/noise.js';
import { SIGNIFICANCE } from '../profile/significance.js';
import { quantile } from '../profile/stats.js';
import { formatBytes, formatCount, formatRatio } from '../view/format.js';
import { compareTimes, type Sample, type Statistic } from '../view/time-comparison.js';
import type { BytesPerStorage, StepSummary } from './result.js';

export interface WorkloadVerdictInput {
  /** Timed labels, in canonical order. */
  labels: string[];
  perStep: Record<string, StepSummary>;
  footprint: Record<string, BytesPerStorage>;
  /** label → each timing process's step times. */
  samples: Record<string, { runs: Float64Array[] }>;
}

export interface WorkloadVerdict {
  statistic: Statistic;
  /** The mode that wins on time, or null when the test cannot separate the fastest from the runner-up. */
  winner: string | null;
  text: string;
  /** One line per noise finding ("SCOPED: step times fall into separate groups (dip test p < 0.001)"). */
  noise: string[];
}

const MIN_STEPS_PER_PROCESS = 5;

const total = (b: BytesPerStorage | undefined): number => Object.values(b ?? {}).reduce((s, x) => s + x, 0);
const list = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const median = (xs: ArrayLike<number>): number => quantile(Float64Array.from(xs).sort(), 0.5);

function noiseOf(label: string, runs: Float64Array[]): string[] {
  const out: string[] = [];
  const all = runs.flatMap((r) => [...r]);
  const dip = dipTestLogTimes(all);
  if (dip.p < SIGNIFICANCE)
    out.push(`${label}: step times fall into separate groups (dip test ${dip.p <= 0.001 ? 'p < 0.001' : `p ≤ ${dip.p.toFixed(3)}`})`);
  const judged = runs.filter((r) => r.length >= MIN_STEPS_PER_PROCESS);
  if (judged.length >= 2) {
    const medians = judged.map(median);
    const lo = Math.min(...medians);
    const hi = Math.max(...medians);
    if (lo > 0 && hi / lo > PROCESS_SPREAD)
      out.push(`${label}: its ${judged.length} processes disagree (medians ${formatRatio(hi / lo)} apart)`);
  }
  return out;
}

function sampleOf(label: string, input: WorkloadVerdictInput): Sample {
  const s = input.perStep[label]!;
  return { calls: input.samples[label]!.runs.flatMap((r) => [...r]), median: s.medianNs, p10: s.p10Ns };
}

/** "holds 30.5 MiB vs 131 MiB for transients (saves 100 MiB), 12 fewer allocations per step (12 → 0)". */
function savings(a: string, b: string, input: WorkloadVerdictInput): string {
  const ma = total(input.footprint[a]);
  const mb = total(input.footprint[b]);
  const memory =
    ma < mb
      ? `holds ${formatBytes(ma)} vs ${formatBytes(mb)} for transients (saves ${formatBytes(mb - ma)})`
      : ma > mb
        ? `holds ${formatBytes(ma)} vs ${formatBytes(mb)} for transients (${formatBytes(ma - mb)} more)`
        : `holds the same ${formatBytes(ma)} for transients`;
  const aa = input.perStep[a]!.allocs;
  const ab = input.perStep[b]!.allocs;
  const allocs =
    aa < ab
      ? `${formatCount(Math.round(ab - aa))} fewer allocations per step (${formatCount(Math.round(ab))} → ${formatCount(Math.round(aa))})`
      : aa > ab
        ? `${formatCount(Math.round(aa - ab))} more allocations per step (${formatCount(Math.round(ab))} → ${formatCount(Math.round(aa))})`
        : `the same allocations per step (${formatCount(Math.round(aa))})`;
  return `${memory}, ${allocs}`;
}

export function workloadVerdict(input: WorkloadVerdictInput): WorkloadVerdict {
  const ran = input.labels.filter((l) => input.perStep[l] && input.perStep[l].samples > 0);
  const noise = ran.flatMap((l) => noiseOf(l, input.samples[l]!.runs));
  const statistic: Statistic = noise.length ? 'p10' : 'median';
  const prefix = noise.length ? 'Noisy run: compared at p10 (the fastest tenth of the steps), not at the median. ' : '';
  if (ran.length < 2) {
    const only = ran[0] ?? null;
    return {
      statistic,
      winner: only,
      noise,
      text: `${prefix}${only ? `Only ${only} was timed: nothing to compare it with` : 'No mode was timed'}`,
    };
  }
  const figure = (l: string) => (statistic === 'p10' ? input.perStep[l]!.p10Ns : input.perStep[l]!.medianNs);
  const ranked = [...ran].sort((a, b) => figure(a) - figure(b));
  const [fastest, runnerUp] = ranked as [string, string];
  // compareTimes speaks of calls; a workload's samples are steps.
  const perStep = (text: string) => text.replace(/per call/g, 'per step').replace(/timed calls/g, 'timed steps');
  const t = compareTimes(sampleOf(fastest, input), sampleOf(runnerUp, input), statistic);
  if (t.verdict === 'faster') {
    return {
      statistic,
      winner: fastest,
      noise,
      text: `${prefix}${fastest} wins: ${perStep(t.claim)} than the runner-up, ${runnerUp} (${perStep(t.evidence)}); ${savings(fastest, runnerUp, input)}.`,
    };
  }
  // No winner on time: among the modes the test cannot tell from the fastest, the one holding the least.
  const tied = ranked.filter(
    (l, i) => i === 0 || compareTimes(sampleOf(l, input), sampleOf(fastest, input), statistic).verdict !== 'slower',
  );
  const leanest = [...tied].sort(
    (a, b) => total(input.footprint[a]) - total(input.footprint[b]) || input.perStep[a]!.allocs - input.perStep[b]!.allocs,
  )[0]!;
  const largest = [...ran].sort((a, b) => total(input.footprint[b]) - total(input.footprint[a]))[0]!;
  const why =
    t.verdict === 'too-few-calls'
      ? `too few steps to test (${perStep(t.evidence)})`
      : `${list(tied)} are within the noise of each other in time per step (${perStep(t.evidence)})`;
  const saves = leanest === largest ? '' : `; against ${largest}, it ${savings(leanest, largest, input)}`;
  return {
    statistic,
    winner: null,
    noise,
    text: `${prefix}No mode wins on time: ${why}. ${leanest} holds the least for transients among them${saves}.`,
  };
}
