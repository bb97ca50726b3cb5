/**
 * The verdict of a profile result: the one module that decides what a result says, which the CLI
 * (profile/format.ts), the renderer (Profile and Compare tabs, the overview) and the reports
 * (report/verdict-paragraphs.ts, report/comparison.ts) all render. Pure: no Node, no DOM.
 *
 * - Noise first (profile/noise.ts): when a mode's calls fall into separate groups, its processes disagree or
 *   its warm-up hit the cap, the run is noisy, the verdict says so and why, and every comparison is made at
 *   p10 (the fastest tenth of the calls, what a call costs when nothing else gets in its way) with
 *   distribution-free intervals instead of at the median with Mann–Whitney (docs/profile.md, "When a run is
 *   noisy").
 * - The primary headline names the fastest of the modes that ran and how it compares with the runner-up in
 *   time, allocations and memory held for transients; the secondary lines are each EXTERNAL layout against
 *   POOL (else SCOPED), the comparison the tool exists for.
 * - A sample too small to ever reach the threshold says "too few calls to test" and how many would do.
 *
 * GPU results carry two times per call: the host's (`calls.totalNs`, device synchronised) and the device's
 * (`gpu.deviceNs`). Verdicts are on host time — what the calling program waits for, including the host side of
 * cudaMallocAsync/cudaFreeAsync — with the device-time verdict beside it (`device`).
 */
import { busySentence } from '../profile/busy.js';
import { modeNoise, resultNoise, type NoiseFinding, type NoiseReport } from '../profile/noise.js';
import type { ModeResult, ProfileResult } from '../profile/result.js';
import { intervalConfidence, mannWhitneyMinCalls, quantileMinCalls, SIGNIFICANCE } from '../profile/significance.js';
import { formatBytes, formatCount, formatNs, formatRatio } from './format.js';
import { isEmulatedResult } from './gpu.js';
import {
  compareTimes,
  deviceTimes,
  modeSample,
  pct,
  ROBUST_QUANTILE,
  type SameCodeSpread,
  type Statistic,
  type TimeComparison,
} from './time-comparison.js';

export type { Statistic, TimeComparison } from './time-comparison.js';

/** A GPU result: it names its device, or one of its modes has device times. */
export function isGpuResult(result: ProfileResult): boolean {
  return result.device !== undefined || result.modes.some((m) => deviceTimes(m) !== null);
}

/** The memory a mode holds for its transients: workspace and init allocations for the whole run, plus the
 * most bytes live at once inside a call (from the sampled call's allocation events). */
export interface HeldMemory {
  /** Σ workspace + init bytes + per-call peak; null when a part is not recorded. */
  bytes: number | null;
  workspace: number;
  init: number | null;
  perCallPeak: number | null;
  /** The sampled call overflowed its event buffer: the per-call peak is a lower bound. */
  lowerBound: boolean;
  /** "3.87 MiB (workspace)", "3.87 MiB (per-call peak)", "nothing", "an unknown amount (…)". */
  text: string;
}

/** The most bytes live at once in a sequence of allocation events (allocs add, frees subtract). */
function peakLive(m: ModeResult): number | null {
  if (m.summary.allocsPerCall === 0) return 0;
  const events = m.sampledCall?.events;
  if (!Array.isArray(events)) return null;
  let live = 0;
  let peak = 0;
  for (const e of events) {
    live += e.kind === 'alloc' ? e.bytes : -e.bytes;
    peak = Math.max(peak, live);
  }
  return peak;
}

export function heldMemory(m: ModeResult): HeldMemory {
  const workspace = Object.values(m.workspaceBytes).reduce((s, b) => s + b, 0);
  const recorded = typeof m.initBytes === 'number' && Number.isFinite(m.initBytes) ? m.initBytes : null;
  // Only PERSISTENT moves transients to init; the other modes hold there only what the file makes Persistent,
  // which an older result without `initBytes` does not say: 0 is then the best reading, not a guess at PERSISTENT.
  const init = recorded ?? (m.mode === 'PERSISTENT' ? null : 0);
  const perCallPeak = peakLive(m);
  const lowerBound = m.sampledCall?.overflowed === true;
  const bytes = init === null || perCallPeak === null ? null : workspace + init + perCallPeak;
  const parts: Array<[string, string]> = [];
  if (workspace > 0) parts.push(['workspace', formatBytes(workspace)]);
  if (init) parts.push(['init', formatBytes(init)]);
  if (perCallPeak) parts.push(['per-call peak', `${lowerBound ? '≥ ' : ''}${formatBytes(perCallPeak)}`]);
  let text: string;
  if (bytes === null) text = init === null ? 'an unknown amount (this result has no init sizes)' : 'an unknown amount (no sampled call)';
  else if (parts.length === 0) text = 'nothing';
  else if (parts.length === 1) text = `${parts[0]![1]} (${parts[0]![0]})`;
  else text = `${formatBytes(bytes)} (${parts.map(([what, b]) => `${what} ${b}`).join(' + ')})`;
  return { bytes, workspace, init, perCallPeak, lowerBound, text };
}

export interface Headline {
  /** `winner`: the fastest mode against the runner-up; `pair`: an EXTERNAL layout against POOL (or SCOPED). */
  kind: 'winner' | 'pair';
  /** Mode labels compared, e.g. `EXTERNAL (packed)` and `POOL`; null when the result lacks one. */
  subject: string | null;
  baseline: string | null;
  /** null when there is nothing to compare (`text` says why). On a GPU result: host time per call. */
  time: TimeComparison | null;
  /** Which time `time` compares: null on CPU (the only time there is), 'host' on a GPU result. */
  /** GPU results: host time (device synchronised), or `emulated` host time (`--gpu host`); null on CPU. */
  basis: 'host' | 'emulated' | null;
  /** GPU results: the same comparison on device time (CUDA events); null on CPU or when a side lacks it. */
  device: TimeComparison | null;
  /** Allocations per call the subject saves (negative: adds), from the timed calls. */
  allocsSaved: number | null;
  /** Memory each side holds for its transients. */
  memory: { subject: HeldMemory; baseline: HeldMemory } | null;
  /** Total workspace of the subject (Σ over storages), bytes; null when it has none. */
  workspaceBytes: number | null;
  workspaceByStorage: Record<string, number>;
  /** `winner` without a clear winner: the modes within the noise of the fastest, fastest first; else []. */
  tied: string[];
  /** Subject and baseline ran the same library (`sameCodeAs`): their difference is not their modes'. For `winner`,
   * every mode that ran did. */
  sameCode: boolean;
  /** The parts, in order, for layouts that set them apart: `big` is the headline's large words ("PERSISTENT
   * 1.09× faster per call"), `detail` the line under them (against what, and the test's evidence). */
  parts: {
    title: string;
    big: string;
    detail: string;
    time: string;
    allocs: string;
    memory: string | null;
    basis: string | null;
    device: string | null;
  };
  /** The whole sentence. */
  text: string;
}

function allocsText(saved: number, subject: ModeResult, baseline: ModeResult): string {
  const count = (x: number): string => (Number.isInteger(x) ? formatCount(x) : x.toFixed(1));
  // A DaCe-built library records no allocation events: its counts are not measurements (docs/dace-folders.md).
  if (subject.allocationsMeasured === false || baseline.allocationsMeasured === false) return 'allocations per call not measured';
  if (Math.abs(saved) < 0.05) return `the same allocations per call (${count(subject.summary.allocsPerCall)})`;
  const n = Math.abs(saved);
  const noun = n === 1 ? 'allocation' : 'allocations';
  return `${count(n)} ${saved > 0 ? 'fewer' : 'more'} ${noun} per call (${count(baseline.summary.allocsPerCall)} → ${count(subject.summary.allocsPerCall)})`;
}

function memoryText(s: HeldMemory, b: HeldMemory): string {
  return `holds ${s.text} vs ${b.text} for transients`;
}

const HOST_BASIS = 'host time per call (device synchronised before the clock stops)';
const EMULATED_BASIS = 'host time per call of the CUDA code emulated on this CPU (--gpu host): not device time';

/** How a result's times read: a CPU run, a GPU run (host and device times), or the host emulation of a GPU run,
 * whose times are all host times (its CUDA events read the host clock) and are never called device times. */
type TimeBasis = boolean | 'emulated';

const bigWords = (t: TimeComparison): string =>
  t.verdict === 'faster' || t.verdict === 'slower'
    ? t.claim
    : t.verdict === 'no-difference'
      ? t.statistic === 'p10'
        ? 'No clear difference at p10'
        : 'No significant difference per call'
      : 'Too few calls to test';

/** `subject` against `baseline`: time (on `statistic`), allocations, memory; on a GPU also device time. */
export function headlineFor(
  subject: ModeResult,
  baseline: ModeResult,
  opts: { gpu?: TimeBasis; statistic?: Statistic; spread?: SameCodeSpread | null } = {},
): Headline {
  const statistic = opts.statistic ?? 'median';
  const gpu = opts.gpu ?? false;
  const time = compareTimes(modeSample(subject), modeSample(baseline), statistic, opts.spread);
  const ds = deviceTimes(subject);
  const db = deviceTimes(baseline);
  const device = ds && db && gpu !== 'emulated' ? compareTimes(ds, db, statistic) : null;
  const allocsSaved = baseline.summary.allocsPerCall - subject.summary.allocsPerCall;
  const memory = { subject: heldMemory(subject), baseline: heldMemory(baseline) };
  const workspace = Object.values(subject.workspaceBytes);
  const title = `${subject.label} vs ${baseline.label}`;
  const allocs = allocsText(allocsSaved, subject, baseline);
  const memText = memoryText(memory.subject, memory.baseline);
  const basis = gpu === 'emulated' ? EMULATED_BASIS : gpu ? HOST_BASIS : null;
  const deviceText =
    gpu === 'emulated'
      ? null
      : gpu
        ? device
          ? `device time (CUDA events): ${device.text}`
          : 'device time: not recorded for both modes'
        : null;
  const hostWords = gpu === 'emulated' ? 'in emulated host time' : 'in host time';
  const timeText = gpu ? time.text.replace(/ (per call|at p10)/, ` $1 ${hostWords}`) : time.text;
  return {
    kind: 'pair',
    subject: subject.label,
    baseline: baseline.label,
    time,
    basis: gpu === 'emulated' ? 'emulated' : gpu ? 'host' : null,
    device,
    allocsSaved,
    memory,
    workspaceBytes: workspace.length ? workspace.reduce((s, b) => s + b, 0) : null,
    workspaceByStorage: { ...subject.workspaceBytes },
    tied: [],
    sameCode: false,
    parts: { title, big: bigWords(time), detail: time.evidence, time: timeText, allocs, memory: memText, basis, device: deviceText },
    text: `${title}: ${[timeText, ...(deviceText ? [deviceText] : []), allocs, memText].join(', ')}`,
  };
}

function unavailable(kind: Headline['kind'], text: string, subject: string | null, baseline: string | null): Headline {
  return {
    kind,
    subject,
    baseline,
    time: null,
    basis: null,
    device: null,
    allocsSaved: null,
    memory: null,
    workspaceBytes: null,
    workspaceByStorage: {},
    tied: [],
    sameCode: false,
    parts: { title: text, big: text, detail: '', time: '', allocs: '', memory: null, basis: null, device: null },
    text,
  };
}

const list = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** The library a mode ran, named by the first mode that ran it (`sameCodeAs`). A result written before that field
 * knows only what its note says: on CPU, POOL generated SCOPED's code. */
function codeOf(result: ProfileResult, m: ModeResult, depth = 0): string {
  if (m.sameCodeAs) {
    // The named mode may itself be known to share another's code (a hand-edited or older result): follow it.
    const named = result.modes.find((x) => x.label === m.sameCodeAs);
    return named && named !== m && depth < result.modes.length ? codeOf(result, named, depth + 1) : m.sameCodeAs;
  }
  if (m.mode === 'POOL' && result.notes.some((n) => n.startsWith('POOL generated the same code as SCOPED')))
    return result.modes.find((x) => x.mode === 'SCOPED')?.label ?? m.label;
  return m.label;
}

/** Whether two modes of `result` ran the same library: then a time difference between them is the machine's and the
 * run order's, never their modes'. */
export function sameCode(result: ProfileResult, a: ModeResult, b: ModeResult): boolean {
  return codeOf(result, a) === codeOf(result, b);
}

/**
 * The tables' "vs SCOPED" cell: `base`'s time over `m`'s on the verdict's statistic ("1.08×"), or "same code" where
 * the two ran one library (a ratio there would credit the mode with the machine's noise).
 */
export function ratioText(result: ProfileResult, base: ModeResult, m: ModeResult, statistic: Statistic): string {
  if (m !== base && sameCode(result, m, base)) return 'same code';
  const figure = (x: ModeResult): number => (statistic === 'p10' ? x.summary.p10Ns : x.summary.medianNs);
  return `${(figure(base) / figure(m)).toFixed(2)}×`;
}

/** The widest ratio between two timed modes of one library in `result` (its A/A control), or null without twins. */
export function sameCodeSpread(result: ProfileResult, statistic: Statistic): SameCodeSpread | null {
  const figure = (m: ModeResult): number => (statistic === 'p10' ? m.summary.p10Ns : m.summary.medianNs);
  const ran = result.modes.filter((m) => m.calls.totalNs.length > 0 && Number.isFinite(figure(m)) && figure(m) > 0);
  let best: SameCodeSpread | null = null;
  for (let i = 0; i < ran.length; i++)
    for (let j = i + 1; j < ran.length; j++) {
      const a = ran[i]!;
      const b = ran[j]!;
      if (!sameCode(result, a, b)) continue;
      const r = Math.max(figure(a) / figure(b), figure(b) / figure(a));
      if (!best || r > best.ratio) best = { ratio: r, between: `${a.label} and ${b.label}` };
    }
  return best;
}

/** Every mode that ran built the same library: there is nothing here for a memory mode to change. */
function sameCodeHeadline(ranked: ModeResult[], statistic: Statistic, gpu: TimeBasis, figure: (m: ModeResult) => number): Headline {
  const fastest = ranked[0]!;
  const slowest = ranked[ranked.length - 1]!;
  const h = headlineFor(fastest, slowest, { gpu, statistic });
  const at = statistic === 'p10' ? ' at p10' : '';
  const spread = `${fastest.label} ${formatNs(figure(fastest))} to ${slowest.label} ${formatNs(figure(slowest))}${statistic === 'p10' ? ' at p10' : ' median'}`;
  const detail = `every mode generated the same program (the memory modes change nothing in it), so their times differ only by the machine and the order of the runs: ${spread}`;
  return {
    ...h,
    kind: 'winner',
    tied: ranked.map((m) => m.label),
    sameCode: true,
    parts: { ...h.parts, title: `Fastest mode${at}`, big: 'All modes run the same code', detail, allocs: '', memory: null, device: null },
    text: `All modes run the same code: ${detail}`,
  };
}

/** The fastest mode that ran against the runner-up, or why there is none. The runner-up is the fastest mode that
 * ran other code: a mode with the fastest's library is its twin, not a rival. */
function winnerHeadline(result: ProfileResult, statistic: Statistic, gpu: TimeBasis, spread: SameCodeSpread | null): Headline {
  const figure = (m: ModeResult): number => (statistic === 'p10' ? m.summary.p10Ns : m.summary.medianNs);
  const ran = result.modes.filter((m) => m.calls.totalNs.length > 0 && Number.isFinite(figure(m)));
  if (ran.length < 2)
    return unavailable(
      'winner',
      ran.length ? `Only ${ran[0]!.label} was timed: nothing to compare it with` : 'No mode was timed',
      ran[0]?.label ?? null,
      null,
    );
  const ranked = [...ran].sort((a, b) => figure(a) - figure(b));
  const fastest = ranked[0]!;
  const runnerUp = ranked.find((m) => !sameCode(result, m, fastest));
  if (!runnerUp) return sameCodeHeadline(ranked, statistic, gpu, figure);
  const twins = ranked.filter((m) => m !== fastest && sameCode(result, m, fastest)).map((m) => m.label);
  const twinText = twins.length ? `; ${list(twins)} ran the same code as ${fastest.label}` : '';
  const h = headlineFor(fastest, runnerUp, { gpu, statistic, spread });
  const t = h.time!;
  const at = statistic === 'p10' ? ' at p10' : '';
  if (t.verdict === 'too-few-calls') {
    const text = `Too few calls to test which mode is fastest: ${t.evidence}`;
    // The window still shows the lowest time measured under the big words, said to be untested: a run of a few
    // calls is often all someone wants before a longer one, and its number belongs on the screen.
    const lowest = `lowest ${statistic === 'p10' ? 'p10' : 'median'} measured: ${fastest.label} ${formatNs(figure(fastest))} (untested)${twinText}`;
    return {
      ...h,
      kind: 'winner',
      parts: {
        ...h.parts,
        title: `Fastest mode${at}`,
        big: 'Too few calls to test',
        detail: `${t.evidence} · ${lowest}`,
        allocs: '',
        memory: null,
      },
      text,
    };
  }
  if (t.verdict !== 'faster') {
    // No clear winner: every mode the test cannot tell from the fastest stands with it.
    const tied = ranked
      .filter((m, i) => i === 0 || compareTimes(modeSample(m), modeSample(fastest), statistic, spread).verdict !== 'slower')
      .map((m) => m.label);
    const pairName = runnerUp === ranked[1] ? 'the two fastest' : `${fastest.label} and ${runnerUp.label}`;
    const detail = `${list(tied)} are within the noise of each other (${pairName}: ${t.evidence})${twinText}`;
    return {
      ...h,
      kind: 'winner',
      tied,
      parts: { ...h.parts, title: `Fastest mode${at}`, big: 'No clear winner', detail, allocs: '', memory: null },
      text: `No clear winner${at}: ${detail}`,
    };
  }
  const timeText = gpu ? `${t.claim} ${gpu === 'emulated' ? 'in emulated host time' : 'in host time'}` : t.claim;
  const text = `${fastest.label} is fastest${at}: ${timeText} than the runner-up, ${runnerUp.label} (${t.evidence})${h.parts.device ? `; ${h.parts.device}` : ''}; ${h.parts.allocs}; ${h.parts.memory}${twinText}`;
  const detail = `than the runner-up, ${runnerUp.label} (${t.evidence})${twinText}`;
  return {
    ...h,
    kind: 'winner',
    parts: { ...h.parts, title: `Fastest mode${at}: ${fastest.label}`, big: `${fastest.label} ${t.claim}`, detail },
    text,
  };
}

/** The EXTERNAL variants of a result, the packed layout first (the one this tool adds). */
function externals(result: ProfileResult): ModeResult[] {
  const rank = (m: ModeResult): number => (m.layout === 'packed' ? 0 : m.layout === 'dace' ? 1 : 2);
  return result.modes.filter((m) => m.mode === 'EXTERNAL').sort((a, b) => rank(a) - rank(b));
}

/** The baseline EXTERNAL is judged against: POOL, else SCOPED (on CPU the two run the same code). */
function baselineOf(result: ProfileResult): ModeResult | null {
  return result.modes.find((m) => m.mode === 'POOL') ?? result.modes.find((m) => m.mode === 'SCOPED') ?? null;
}

/** One line per EXTERNAL variant (packed first) against POOL (or SCOPED when POOL was not run). */
function pairHeadlines(result: ProfileResult, statistic: Statistic, gpu: TimeBasis, spread: SameCodeSpread | null): Headline[] {
  const base = baselineOf(result);
  const ext = externals(result);
  if (!ext.length)
    return [unavailable('pair', 'No EXTERNAL run in this result: nothing to compare against POOL', null, base?.label ?? null)];
  if (!base)
    return [unavailable('pair', `${ext[0]!.label} was run without POOL or SCOPED: nothing to compare it with`, ext[0]!.label, null)];
  return ext.map((e) => {
    const h = headlineFor(e, base, { gpu, statistic, spread });
    if (!sameCode(result, e, base)) return h;
    const text = `${e.label} runs the same code as ${base.label}: the same library, so the memory mode changes nothing in this program`;
    return { ...h, sameCode: true, parts: { ...h.parts, big: 'Same code', detail: text, allocs: '', memory: null, device: null }, text };
  });
}

/** "Busy machine: …" from the share of cores other processes kept busy before timing (machine.othersBusy). */
function busyText(result: ProfileResult): string | null {
  const s = busySentence(result.machine.othersBusy, result.machine.cores);
  return s ? `Busy machine: ${s}` : null;
}

/** "Noisy run: …; compared at p10 …" from the findings, grouped by detector so that five modes read as one clause. */
function noiseSentence(findings: readonly NoiseFinding[]): string | null {
  if (!findings.length) return null;
  const modes = (kind: NoiseFinding['kind']) => [...new Set(findings.filter((f) => f.kind === kind).map((f) => f.mode))];
  const clauses: string[] = [];
  const split = modes('multimodal');
  if (split.length) {
    const worst = Math.max(...findings.filter((f) => f.kind === 'multimodal').map((f) => f.p ?? SIGNIFICANCE));
    clauses.push(
      `call times fall into separate groups in ${list(split)} (Hartigan’s dip test, ${worst <= 0.001 ? 'p < 0.001' : `p < ${SIGNIFICANCE}`})`,
    );
  }
  const procs = findings.filter((f) => f.kind === 'processes' && f.range);
  if (procs.length === 1) {
    const { lo, hi, processes } = procs[0]!.range!;
    clauses.push(`the ${processes} processes of ${procs[0]!.mode} disagree (medians ${formatNs(lo)} to ${formatNs(hi)})`);
  } else if (procs.length > 1) {
    const worst = Math.max(...procs.map((f) => f.range!.hi / f.range!.lo));
    clauses.push(`the processes of ${list(procs.map((f) => f.mode))} disagree (medians up to ${formatRatio(worst)} apart)`);
  }
  const warm = modes('warmup');
  if (warm.length) clauses.push(`the warm-up of ${list(warm)} hit its cap before the page faults settled`);
  return `Noisy run: ${clauses.join('; ')}. Compared at p10 (the fastest tenth of the calls), not at the median`;
}

/** How a difference is decided, in one sentence, for the statistic a comparison was made on. */
export function significanceSentence(statistic: Statistic): string {
  if (statistic === 'p10') {
    return `A noisy sample is compared at p10 (the fastest tenth of its calls): a difference is claimed only when the two p10s' distribution-free ${pct(intervalConfidence())} intervals do not overlap, which equal p10s do in at most ${SIGNIFICANCE * 100} % of runs; with fewer than ${quantileMinCalls(ROBUST_QUANTILE, intervalConfidence())} timed calls per mode no interval is bounded, and nothing is claimed.`;
  }
  return `A difference is claimed only when a two-sided Mann–Whitney test over every timed call gives p < ${SIGNIFICANCE}; with fewer than ${mannWhitneyMinCalls(SIGNIFICANCE)} timed calls per mode no sample can reach that, and the verdict says there are too few calls to test.`;
}

export interface Verdict {
  /** The noise detectors on every mode. */
  noise: NoiseReport;
  /** The figure every comparison of this verdict is made on: p10 when the run is noisy. */
  statistic: Statistic;
  /** Why the run is noisy and what is compared instead, as the headline's first sentence; null when clean. */
  noiseText: string | null;
  /** Other processes kept the cores busy while it ran (machine.othersBusy): the headline says so above the
   * verdict, since the detectors above may not see it in a short run; null when quiet or not recorded. */
  busyText: string | null;
  /** The fastest mode against the runner-up (or no clear winner, or too few calls). */
  primary: Headline;
  /** Each EXTERNAL layout against POOL (or SCOPED). */
  secondary: Headline[];
  /** The headline: noiseText, then the primary sentence. */
  text: string;
}

const verdictCache = new WeakMap<ProfileResult, Verdict>();

/** The verdict of one result (computed once per result object). */
export function profileVerdict(result: ProfileResult): Verdict {
  const hit = verdictCache.get(result);
  if (hit) return hit;
  const noise = resultNoise(result);
  const statistic: Statistic = noise.noisy ? 'p10' : 'median';
  const gpu: TimeBasis = isGpuResult(result) && isEmulatedResult(result) ? 'emulated' : isGpuResult(result);
  const noiseText = noiseSentence(noise.findings);
  const spread = sameCodeSpread(result, statistic);
  const primary = winnerHeadline(result, statistic, gpu, spread);
  const verdict = {
    noise,
    statistic,
    noiseText,
    busyText: busyText(result),
    primary,
    secondary: pairHeadlines(result, statistic, gpu, spread),
    text: noiseText ? `${noiseText}. ${primary.text}` : primary.text,
  };
  verdictCache.set(result, verdict);
  return verdict;
}

export interface ResultChange {
  /** Mode label (`POOL`, `EXTERNAL (packed)`, …). */
  mode: string;
  /** Result label of the reference and of the one compared with it. */
  reference: string;
  other: string;
  time: TimeComparison;
  /** Allocations per call: other − reference. */
  allocsDelta: number;
  /** Both results ran on a GPU: the same comparison on device time; null otherwise. */
  device: TimeComparison | null;
  /** One result ran on a CPU and the other on a GPU: `time` compares their host times, which then measure
   * different machines doing different work; the renderer and the reports say so. */
  crossTarget: boolean;
  /** What makes either side noisy (then `time` is at p10), labelled with its result; [] when both are clean. */
  noise: string[];
  /** "POOL: after 1.12× slower per call (p = 0.003) than before". */
  text: string;
}

/**
 * Per mode label present in the first result and another: does the other differ beyond the noise? The first
 * result is the reference (before, machine A). A mode that is noisy in either result is compared at p10.
 */
export function compareResults(results: ReadonlyArray<{ label: string; result: ProfileResult }>): ResultChange[] {
  if (results.length < 2) return [];
  const [ref, ...others] = results;
  const shape = (r: ProfileResult) => ({ calls: r.settings.calls, processes: r.settings.processes, warmup: r.settings.warmup });
  const out: ResultChange[] = [];
  for (const m of ref!.result.modes) {
    for (const o of others) {
      const om = o.result.modes.find((x) => x.label === m.label);
      if (!om) continue;
      const noise = [
        ...modeNoise(m, shape(ref!.result)).findings.map((f) => `${ref!.label}: ${f.text}`),
        ...modeNoise(om, shape(o.result)).findings.map((f) => `${o.label}: ${f.text}`),
      ];
      const statistic: Statistic = noise.length ? 'p10' : 'median';
      const time = compareTimes(modeSample(om), modeSample(m), statistic);
      const allocsDelta = om.summary.allocsPerCall - m.summary.allocsPerCall;
      const dr = deviceTimes(m);
      const dof = deviceTimes(om);
      // Emulated times are host times: never compared as device times, and a device run against an emulated
      // one compares different machines doing different work, as a CPU run against a GPU run does.
      const emulated = isEmulatedResult(ref!.result) || isEmulatedResult(o.result);
      const device = dr && dof && !emulated ? compareTimes(dof, dr, statistic) : null;
      const kind = (r: ProfileResult) => (isEmulatedResult(r) ? 'GPU-emulated-on-CPU' : isGpuResult(r) ? 'GPU' : 'CPU');
      const crossTarget = kind(ref!.result) !== kind(o.result);
      const what = time.verdict === 'faster' || time.verdict === 'slower' ? `${time.text} than ${ref!.label}` : time.text;
      const extra = crossTarget
        ? ` (host times of a ${kind(o.result)} run against a ${kind(ref!.result)} run)`
        : device
          ? `; device time: ${device.text}`
          : '';
      const noisy = noise.length ? ` — noisy (${noise.join('; ')}), so compared at p10` : '';
      out.push({
        mode: m.label,
        reference: ref!.label,
        other: o.label,
        time,
        allocsDelta,
        device,
        crossTarget,
        noise,
        text: `${m.label}: ${o.label} ${what}${extra}${noisy}`,
      });
    }
  }
  return out;
}

/** The verification badge: one short line, and whether it is good news. */
export function verificationBadge(result: ProfileResult): { ok: boolean; text: string; details: string[] } {
  const v = result.verification;
  // Nothing compared is not "identical": say so, with the verifier's reason (no silent degradation).
  if (v.ok && v.vacuous) {
    const note = v.details.find((d) => d.kind === 'note' && d.message.startsWith('nothing was compared'));
    return { ok: true, text: 'Verified: no outputs to compare across modes', details: note ? [note.message] : [] };
  }
  if (v.ok) {
    const how = v.tolerance !== undefined ? `within a relative tolerance of ${v.tolerance}` : 'bitwise identical';
    return { ok: true, text: `Verified: all modes ${how}`, details: [] };
  }
  const details = v.details.filter((d) => d.kind !== 'note').map((d) => d.message);
  return { ok: false, text: `Verification failed: ${details.length} problem${details.length === 1 ? '' : 's'}`, details };
}
