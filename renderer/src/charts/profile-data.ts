/**
 * Profile results as the profile charts read them: one series per (result, mode label), in mode order,
 * with its quantiles and per-call means; and the sampled call's allocation spans for the Gantt chart.
 * Several results (compare) are simply more series on the same axes.
 *
 * A GPU result (profile@1's GPU additions) gives every mode two series: `host` (calls.totalNs, the device
 * synchronised before the clock stops; allocation and free are host time around the API calls) and `device`
 * (gpu.deviceNs, CUDA events). The time charts draw both on one axis; the breakdown and the Gantt, which split
 * host time, take the host series only. CPU results have one series per mode with `time: null`, as before.
 */
import {
  isGpuResult,
  quantile,
  type AllocationEvent,
  type ModeResult,
  type ProfileResult,
  type SampledCall as ResultSampledCall,
} from '../../../electron/engine/view/public.js';
import type { ModeName } from '../theme/index.js';
import type { ChartTheme } from './chart-theme.js';
import type { Fill } from './painter.js';

export interface ProfileData {
  /** One result, or several to compare (the first is the reference). Labels name them in legends. */
  results: Array<{ label: string; result: ProfileResult }>;
  /** The time axis of the distribution chart; when absent, log where the medians differ tenfold
   * (`mediansDifferTenfold`), else linear. Compare passes the user's choice. */
  timeScale?: 'linear' | 'log';
}

/**
 * The medians of every mode of every result differ tenfold or more. On a linear axis the faster modes' boxes
 * would then squash into a few pixels at its left end (channel_flow on a busy machine: SCOPED 352 ms against
 * EXTERNAL 752 µs), so the distribution chart reads them on a log axis.
 */
export function mediansDifferTenfold(results: ProfileData['results']): boolean {
  const medians = results.flatMap((r) => r.result.modes.map((m) => m.summary.medianNs)).filter((x) => Number.isFinite(x) && x > 0);
  return medians.length > 1 && Math.max(...medians) >= 10 * Math.min(...medians);
}

export interface Series {
  /** Unique: `<result index>|<mode label>`. */
  key: string;
  result: number;
  resultLabel: string;
  /** Mode label as the profiler writes it: `EXTERNAL (packed)`. */
  label: string;
  /** Label with the result's when several results are shown. */
  display: string;
  mode: ModeName;
  layout: 'dace' | 'packed' | null;
  m: ModeResult;
  /** null: a CPU result's only time; 'host' / 'device': the two times of a GPU result. */
  time: 'host' | 'device' | null;
  /** The per-call times this series draws, in call order: `m.calls.totalNs`, or `m.gpu.deviceNs`. */
  values: readonly number[];
  sorted: Float64Array;
  q: { min: number; p10: number; p25: number; p50: number; p75: number; p90: number; max: number };
  mean: { total: number; alloc: number; free: number; compute: number };
  callsPerProcess: number;
  processes: number;
}

const MODE_RANK: Record<ModeName, number> = { SCOPED: 0, PERSISTENT: 1, POOL: 2, EXTERNAL: 3 };
const LAYOUT_RANK = { dace: 0, packed: 1 } as const;

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

const cache = new WeakMap<ProfileData, Series[]>();

export function profileSeries(data: ProfileData): Series[] {
  let out = cache.get(data);
  if (out) return out;
  out = [];
  const many = data.results.length > 1;
  const gpus = data.results.map(({ result }) => isGpuResult(result));
  // CPU and GPU results together: CPU series say so, so that "POOL" of each is never mistaken for the other.
  const mixed = gpus.includes(true) && gpus.includes(false);
  data.results.forEach(({ label: resultLabel, result }, r) => {
    const gpu = gpus[r]!;
    for (const m of result.modes) {
      const total = mean(m.calls.totalNs);
      const alloc = mean(m.calls.allocNs);
      const free = mean(m.calls.freeNs);
      const times: Array<['host' | 'device' | null, readonly number[]]> = gpu
        ? [
            ['host', m.calls.totalNs],
            ['device', m.gpu?.deviceNs ?? []],
          ]
        : [[null, m.calls.totalNs]];
      for (const [time, values] of times) {
        const sorted = Float64Array.from(values).sort();
        const arr = Array.from(sorted);
        // A sampled result keeps evenly spaced rows of many more calls: its summary's quantiles are exact over all.
        const exact = m.sampling && time !== 'device' ? m.summary : null;
        const label = time ? `${m.label} · ${time}` : mixed ? `${m.label} · CPU` : m.label;
        out.push({
          key: time === 'device' ? `${r}|${m.label}|device` : `${r}|${m.label}`,
          result: r,
          resultLabel,
          label: m.label,
          display: many ? `${label} · ${resultLabel}` : label,
          mode: m.mode,
          layout: m.layout,
          m,
          time,
          values,
          sorted,
          q: {
            min: arr[0] ?? NaN,
            p10: exact?.p10Ns ?? quantile(arr, 0.1),
            p25: quantile(arr, 0.25),
            p50: exact?.medianNs ?? quantile(arr, 0.5),
            p75: quantile(arr, 0.75),
            p90: exact?.p90Ns ?? quantile(arr, 0.9),
            max: arr[arr.length - 1] ?? NaN,
          },
          mean: { total, alloc, free, compute: Math.max(0, total - alloc - free) },
          // Rows per process in `values` (docs/profile-schema.md, "Sampling").
          callsPerProcess: m.sampling?.keptPerProcess ?? result.settings.calls,
          processes: result.settings.processes,
        });
      }
    }
  });
  const rank = (s: Series): number => MODE_RANK[s.mode] * 10 + (s.layout ? LAYOUT_RANK[s.layout] * 2 : 0) + (s.time === 'device' ? 1 : 0);
  out.sort((a, b) => rank(a) - rank(b) || a.result - b.result);
  cache.set(data, out);
  return out;
}

/** Mode colour; EXTERNAL's `dace` layout hatched, `packed` solid. */
export function seriesFill(t: ChartTheme, s: Pick<Series, 'mode' | 'layout'> & { time?: Series['time'] }): Fill {
  if (s.time === 'device') return t.background;
  return s.layout === 'dace' ? { hatch: t.modes[s.mode], background: t.modeFill[s.mode] } : t.modes[s.mode];
}

/** The series whose parts split host time: CPU series and a GPU result's host series (breakdown, Gantt). */
export function hostSeries(series: readonly Series[]): Series[] {
  return series.filter((s) => s.time !== 'device');
}

/** Marker shape per result in a comparison: filled, hollow, then square. */
export type Marker = 'dot' | 'ring' | 'square';
export const markerOf = (result: number): Marker => (['dot', 'ring', 'square'] as const)[result % 3]!;

/** A deterministic jitter in [-0.5, 0.5) per index (dots of a strip plot stay put across frames). */
export function jitter(i: number): number {
  let x = (i + 1) * 2654435761;
  x ^= x >>> 13;
  x = Math.imul(x, 1597334677);
  x ^= x >>> 16;
  return ((x >>> 0) % 1000) / 1000 - 0.5;
}

/**
 * One transient's allocation in the sampled call: allocated at `allocStart` (taking `allocNs`), freed at
 * `freeStart` (taking `freeNs`), times in ns from the start of the call.
 */
export interface AllocSpan {
  transient: string;
  bytes: number;
  allocStart: number;
  allocNs: number;
  /** null: not freed within the call. */
  freeStart: number | null;
  freeNs: number;
}

export interface SampledCall {
  label: string;
  series: Series;
  /** Index of the sampled call among the mode's timed calls (the one nearest the median). */
  call: number | null;
  /** Duration of the sampled call. */
  callNs: number | null;
  /** The call overflowed the event buffer: only its first events are known. */
  overflowed: boolean;
  spans: AllocSpan[];
}

/** One allocation event of the sampled call, as `transient-lab/profile@1` records it per mode
 * (`modes[].sampledCall.events[]`, docs/profile-schema.md). */
export type AllocEvent = AllocationEvent;

/** `modes[].sampledCall` of profile@1, read defensively: absent in results written before it existed (read as
 * null), and only its events are relied on. */
interface WithSample {
  sampledCall?: (Partial<ResultSampledCall> & Pick<ResultSampledCall, 'events'>) | null;
}

/** Pairs each alloc with the next free of the same transient (a transient allocated twice gets two spans). */
export function spansOf(events: readonly AllocEvent[]): AllocSpan[] {
  const open = new Map<string, AllocSpan[]>();
  const spans: AllocSpan[] = [];
  const ordered = [...events].sort((a, b) => a.startNs - b.startNs);
  for (const e of ordered) {
    if (e.kind === 'alloc') {
      const s: AllocSpan = {
        transient: e.transient,
        bytes: e.bytes,
        allocStart: e.startNs,
        allocNs: e.durationNs,
        freeStart: null,
        freeNs: 0,
      };
      spans.push(s);
      const list = open.get(e.transient);
      if (list) list.push(s);
      else open.set(e.transient, [s]);
    } else {
      const s = open.get(e.transient)?.shift();
      if (s) {
        s.freeStart = e.startNs;
        s.freeNs = e.durationNs;
      }
    }
  }
  return spans;
}

/** The sampled call of every series that has one (runner-recorded allocation events). */
export function sampledCalls(data: ProfileData): SampledCall[] {
  const out: SampledCall[] = [];
  for (const s of hostSeries(profileSeries(data))) {
    const sample = (s.m as ModeResult & WithSample).sampledCall;
    if (!sample) continue;
    out.push({
      label: s.display,
      series: s,
      call: sample.call ?? null,
      callNs: sample.totalNs ?? null,
      overflowed: sample.overflowed ?? false,
      spans: spansOf(sample.events),
    });
  }
  return out;
}

/**
 * How far a series' time axis reaches before a call counts as an outlier: the median plus `OUTLIER_SPREAD`
 * times the spread of the fast side (median − p10, at least 2 % of the median), never past its slowest call.
 * The fast side is what a program does when nothing interrupts it; the slow tail (page faults, a descheduled
 * thread, a first touch) can be half the calls and milliseconds long, and must not squash the medians into
 * one pixel. For normal noise the reach is ~10 σ, so nothing ordinary is ever beyond it.
 */
const OUTLIER_SPREAD = 8;

function robustHigh(s: Pick<Series, 'q'>): number {
  const { p10, p50, max } = s.q;
  const spread = Math.max(p50 - p10, Math.abs(p50) * 0.02);
  return Math.min(max, p50 + OUTLIER_SPREAD * spread);
}

/**
 * A time axis over every series that outliers do not stretch: from the fastest call to the largest robust
 * reach (`robustHigh`). Calls beyond `hi` are drawn by the charts as a marked overflow with their count.
 */
export function timeDomain(series: readonly Series[]): { lo: number; hi: number; beyond: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    if (!s.sorted.length) continue;
    lo = Math.min(lo, s.q.min);
    hi = Math.max(hi, robustHigh(s));
  }
  if (!Number.isFinite(lo)) return { lo: 0, hi: 1, beyond: 0 };
  let beyond = 0;
  for (const s of series) for (const v of s.values) if (v > hi) beyond++;
  return { lo, hi, beyond };
}
