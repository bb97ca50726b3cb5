/**
 * Per-call time distribution per mode on one axis: a box (25–75 %), whiskers (10–90 %, the profiler's own
 * p10/p90), the median (labelled), and every timed call as a dot. Several results (compare) put their
 * rows for one mode next to each other, told apart by marker (filled, hollow, square).
 */
import { formatCount, formatNs, formatPercent } from '../../../electron/engine/view/public.js';
import { drawXAxis } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import {
  jitter,
  markerOf,
  mediansDifferTenfold,
  profileSeries,
  seriesFill,
  timeDomain,
  type ProfileData,
  type Series,
} from './profile-data.js';
import { logTimeTicks, timeTicks } from './scales.js';
import { fitMiddle, fitText, textWidth, wrapParts } from './text.js';

export interface DistributionLayout {
  series: Series[];
  top: number;
  rowH: number;
  left: number;
  right: number;
  width: number;
  height: number;
  lo: number;
  hi: number;
  xOf: (ns: number) => number;
  /** The time axis is logarithmic (chosen, or the medians differ tenfold). */
  log: boolean;
  theme: ChartTheme;
}

const ROW = 36;
const HEADER = 46;
const FOOTER = 44;

/**
 * Axis range: from the fastest call to the robust reach of the slowest mode (`timeDomain`), so that a tail
 * of slow calls does not squash every median into one pixel; calls beyond it are counted at the right edge.
 */
export function distributionDomain(series: readonly Series[], log = false): [number, number] {
  const { lo, hi } = timeDomain(series);
  if (log) {
    // A log axis pads by a factor, and starts above zero (a call of 0 ns, if any, sits at the left edge).
    const l = Math.max(1, lo);
    const h = Math.max(l * 1.01, hi);
    const pad = (h / l) ** 0.04;
    return [l / pad, h * pad];
  }
  const pad = (hi - lo) * 0.04 || Math.abs(hi) * 0.05 || 1;
  return [Math.max(0, lo - pad), hi + pad];
}

/** Calls of `s` slower than `hi`. */
function callsBeyond(s: Series, hi: number): number {
  let n = 0;
  for (const v of s.values) if (v > hi) n++;
  return n;
}

export function drawMarker(
  p: Painter,
  kind: ReturnType<typeof markerOf>,
  x: number,
  y: number,
  r: number,
  color: string,
  opacity: number,
): void {
  if (kind === 'dot') p.circle(x, y, r, { fill: color, opacity });
  else if (kind === 'ring') p.circle(x, y, r, { stroke: color, strokeWidth: 1, opacity });
  else p.rect(x - r, y - r, 2 * r, 2 * r, { fill: color, opacity });
}

function draw(p: Painter, data: ProfileData, f: FrameInput<null>): DistributionLayout {
  const t = f.theme;
  const series = profileSeries(data).filter((s) => s.sorted.length > 0);
  p.begin(f.width, f.height, t.background);
  p.text(12, 22, 'Time per call', { color: t.text, size: t.font.title + 2, weight: 600 });
  const first = series[0];
  const sub = first
    ? [
        `${formatCount(first.sorted.length)} calls per mode (${first.processes} process${first.processes === 1 ? '' : 'es'} × ${first.callsPerProcess})`,
        'box 25–75 %, whiskers 10–90 %',
        'dots: every call',
      ]
    : ['no timed calls'];
  // What does not fit beside the title goes on a line under it, left of the "median" column label.
  const subX = 12 + textWidth('Time per call', t.font.title + 2, true) + 10;
  const [line1, line2] = wrapParts(sub, ' · ', t.font.base, f.width - 12 - subX, f.width - 36 - textWidth('median', t.font.small));
  p.text(subX, 22, line1, { color: t.muted, size: t.font.base });
  if (line2) p.text(12, 38, line2, { color: t.muted, size: t.font.base });
  const labelW = Math.min(260, Math.max(90, ...series.map((s) => textWidth(s.display, t.font.base, true) + 24)));
  const left = 12 + labelW;
  const medianW = 74;
  const log = data.timeScale ? data.timeScale === 'log' : mediansDifferTenfold(data.results);
  const [lo, hi] = distributionDomain(series, log);
  // The overflow gutter: a marker and "N beyond" per row whose slowest calls are off the axis.
  const beyondOf = series.map((s) => callsBeyond(s, hi));
  const maxBeyond = Math.max(0, ...beyondOf);
  const overflowW = maxBeyond ? textWidth(`${formatCount(maxBeyond)} beyond`, t.font.small) + 18 : 0;
  const right = f.width - 12 - medianW - overflowW;
  const [llo, lhi] = [Math.log10(lo), Math.log10(hi)];
  const xOf = log
    ? (ns: number): number => left + ((Math.log10(Math.max(ns, lo)) - llo) / (lhi - llo)) * (right - left)
    : (ns: number): number => left + ((ns - lo) / (hi - lo)) * (right - left);
  const top = HEADER;
  const rowH = Math.max(22, Math.min(ROW, (f.height - HEADER - FOOTER) / Math.max(1, series.length)));
  const L: DistributionLayout = { series, top, rowH, left, right, width: f.width, height: f.height, lo, hi, xOf, log, theme: t };
  const bottom = top + rowH * series.length;
  const ticks = log ? logTimeTicks(lo, hi) : timeTicks(lo, hi, Math.max(2, Math.floor((right - left) / 90)));
  const total = beyondOf.reduce((a, b) => a + b, 0);
  const what = log ? 'time per call (log scale)' : `time per call (${ticks.unit.name})`;
  const title = total ? `${what} · ${formatCount(total)} slower call${total === 1 ? '' : 's'} beyond the axis` : what;
  drawXAxis(
    p,
    { scale: xOf, ticks, y: bottom + 4, x0: left, x1: right, gridTo: top, title: fitText(title, t.font.small, f.width - 24) },
    t,
  );
  if (total) p.line(right, top, right, bottom + 4, { stroke: t.muted, dash: [3, 3] });
  p.text(f.width - 12, top - 8, 'median', { color: t.muted, size: t.font.small, align: 'end' });

  series.forEach((s, i) => {
    const y0 = top + i * rowH;
    const mid = y0 + rowH / 2;
    const color = t.modes[s.mode];
    if (f.hover?.key === s.key) p.rect(0, y0, f.width, rowH, { fill: t.hover, opacity: 0.1 });
    // Label with a swatch of the mode (hatched for the dace layout).
    p.rect(12, mid - 6, 12, 12, { fill: seriesFill(t, s), stroke: color });
    p.text(30, mid, fitMiddle(s.display, t.font.base, labelW - 24, true), {
      color: t.text,
      size: t.font.base,
      baseline: 'middle',
      weight: 600,
    });
    p.clip(left, y0, right - left, rowH);
    // Every call, jittered vertically in the upper part of the row.
    const marker = markerOf(s.result);
    const calls = s.values;
    for (let k = 0; k < calls.length; k++) {
      const v = calls[k]!;
      if (v > hi) continue;
      drawMarker(p, marker, xOf(v), mid + jitter(k) * rowH * 0.6, 1.8, color, 0.4);
    }
    // Whiskers, box, median.
    const bh = Math.min(14, rowH * 0.42);
    p.line(xOf(s.q.p10), mid, xOf(s.q.p25), mid, { stroke: color, strokeWidth: 1.5 });
    p.line(xOf(s.q.p75), mid, xOf(s.q.p90), mid, { stroke: color, strokeWidth: 1.5 });
    p.line(xOf(s.q.p10), mid - bh / 3, xOf(s.q.p10), mid + bh / 3, { stroke: color, strokeWidth: 1.5 });
    p.line(xOf(s.q.p90), mid - bh / 3, xOf(s.q.p90), mid + bh / 3, { stroke: color, strokeWidth: 1.5 });
    p.rect(xOf(s.q.p25), mid - bh / 2, Math.max(2, xOf(s.q.p75) - xOf(s.q.p25)), bh, {
      // Device time (GPU results): a hollow box beside the host's filled one.
      fill:
        s.time === 'device' ? t.background : s.layout === 'dace' ? { hatch: color, background: t.modeFill[s.mode] } : t.modeFill[s.mode],
      stroke: color,
      strokeWidth: 1.5,
      opacity: 0.92,
    });
    p.line(xOf(s.q.p50), mid - bh / 2 - 3, xOf(s.q.p50), mid + bh / 2 + 3, { stroke: t.text, strokeWidth: 2.5 });
    p.unclip();
    const beyond = beyondOf[i]!;
    if (beyond) {
      // Clipped, not dropped: an arrow at the axis end and the count of calls past it.
      p.group('overflow');
      p.polygon([right + 2, right + 9, right + 2], [mid - 5, mid, mid + 5], 3, { fill: color });
      p.text(right + 12, mid, `${formatCount(beyond)} beyond`, { color: t.muted, size: t.font.small, baseline: 'middle' });
      p.endGroup();
    }
    p.text(f.width - 12, mid, formatNs(s.q.p50), { color: t.text, size: t.font.base, align: 'end', baseline: 'middle', weight: 600 });
  });
  p.end();
  return L;
}

function hit(L: DistributionLayout, _x: number, y: number): Hit | null {
  const i = Math.floor((y - L.top) / L.rowH);
  const s = L.series[i];
  return s ? { id: null, key: s.key } : null;
}

export function seriesTooltip(s: Series): TooltipContent {
  const sum = s.m.summary;
  return {
    title: s.display,
    rows: [
      ['median', formatNs(s.q.p50)],
      ['p10 … p90', `${formatNs(s.q.p10)} … ${formatNs(s.q.p90)}`],
      ['fastest … slowest', `${formatNs(s.q.min)} … ${formatNs(s.q.max)}`],
      ['mean', formatNs(sum.meanNs)],
      ['calls', `${formatCount(s.sorted.length)} (${s.processes} × ${s.callsPerProcess})`],
      ['allocations/call', formatCount(sum.allocsPerCall)],
      ['alloc + free', `${formatNs(s.mean.alloc + s.mean.free)} per call (${formatPercent(sum.allocShare)})`],
      ['page faults/call', formatCount(sum.minorFaultsPerCall)],
      ['init / first call', `${formatNs(s.m.initNs)} / ${formatNs(s.m.firstCallNs)}`],
    ],
    note: s.m.eventsOverflowed ? 'The allocation event buffer overflowed: alloc/free times are lower bounds.' : undefined,
  };
}

export const distributionChart: ChartSpec<ProfileData, null, DistributionLayout> = {
  name: 'tlab-profile-distribution',
  initialState: () => null,
  preferredHeight: (data) => HEADER + FOOTER + Math.max(1, profileSeries(data).length) * ROW,
  draw,
  hit,
  tooltip(_data, L, h) {
    const s = L.series.find((x) => x.key === h.key);
    if (!s) return null;
    const c = seriesTooltip(s);
    return { ...c, swatch: L.theme.modes[s.mode] };
  },
  describe(_data, L) {
    return `Time per call per mode${L.log ? ' (log scale)' : ''}: ${L.series.map((s) => `${s.display} median ${formatNs(s.q.p50)}`).join(', ')}.`;
  },
};
