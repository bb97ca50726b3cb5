/**
 * Per-call time series: every timed call in order (processes one after another, separated), one dot per
 * call and a running median per mode, so that drift, warm-up left-overs and noisy processes show.
 * Hover shows every mode's time at that call. Drag on the plot zooms the calls; double-click resets.
 */
import { formatCount, formatNs } from '../../../electron/engine/view/public.js';
import { drawXAxis, drawYAxis, yLabelWidth } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import { MODE_DASH, type ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import { drawMarker } from './profile-distribution.js';
import { markerOf, profileSeries, timeDomain, type ProfileData, type Series } from './profile-data.js';
import { flowItems, type Flow } from './legend.js';
import { clamp, integerTicks, timeTicks } from './scales.js';
import { fitText, textWidth } from './text.js';

export interface SeriesState {
  /** Visible call range [c0, c1]; null = all calls. */
  c0: number | null;
  c1: number | null;
}

export interface SeriesLayout {
  series: Series[];
  left: number;
  right: number;
  top: number;
  bottom: number;
  calls: number;
  c0: number;
  c1: number;
  xOf: (call: number) => number;
  callAt: (x: number) => number;
  yOf: (ns: number) => number;
  theme: ChartTheme;
}

/** Running median over a centred window (odd `w`), edges shrink the window. */
export function runningMedian(xs: readonly number[], w: number): Float64Array {
  const out = new Float64Array(xs.length);
  const half = Math.floor(w / 2);
  const buf: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    buf.length = 0;
    for (let k = Math.max(0, i - half); k <= Math.min(xs.length - 1, i + half); k++) buf.push(xs[k]!);
    buf.sort((a, b) => a - b);
    const m = buf.length >> 1;
    out[i] = buf.length % 2 ? buf[m]! : (buf[m - 1]! + buf[m]!) / 2;
  }
  return out;
}

const medians = new WeakMap<Series, Float64Array>();
function medianOf(s: Series): Float64Array {
  let m = medians.get(s);
  if (!m) {
    // Within each process only: a window must not mix two processes.
    const calls = s.values;
    const per = Math.max(1, s.callsPerProcess);
    const w = Math.max(5, Math.round(per / 8) | 1);
    m = new Float64Array(calls.length);
    for (let start = 0; start < calls.length; start += per) m.set(runningMedian(calls.slice(start, start + per), w), start);
    medians.set(s, m);
  }
  return m;
}

/** One entry per series (display name and median), wrapped onto more lines rather than dropping any. */
function legendOf(series: Series[], t: ChartTheme, x0: number, maxX: number): { labels: string[]; flow: Flow } {
  const labels = series.map((s) => `${s.display} ${formatNs(s.q.p50)}`);
  const flow = flowItems(
    labels.map((l) => 18 + textWidth(l, t.font.small, true)),
    x0,
    maxX,
    16,
    12,
  );
  return { labels, flow };
}

function drawLegend(p: Painter, series: Series[], t: ChartTheme, lg: ReturnType<typeof legendOf>, y0: number): void {
  p.group('legend');
  series.forEach((s, k) => {
    const x = lg.flow.x[k]!;
    const y = y0 + 16 * lg.flow.line[k]!;
    p.line(x, y - 4, x + 14, y - 4, {
      stroke: t.modes[s.mode],
      strokeWidth: s.time === 'device' ? 1.5 : 2,
      dash: s.time === 'device' ? [1, 3] : s.layout === 'dace' ? [4, 2] : MODE_DASH[s.mode],
    });
    p.text(x + 18, y, fitText(lg.labels[k]!, t.font.small, lg.flow.width[k]! - 18, true), {
      color: t.modes[s.mode],
      size: t.font.small,
      weight: 600,
    });
  });
  p.endGroup();
}

function draw(p: Painter, data: ProfileData, f: FrameInput<SeriesState>): SeriesLayout {
  const t = f.theme;
  const series = profileSeries(data).filter((s) => s.sorted.length > 0);
  p.begin(f.width, f.height, t.background);
  p.text(12, 22, 'Every call', { color: t.text, size: t.font.title + 2, weight: 600 });
  const calls = Math.max(0, ...series.map((s) => s.sorted.length));
  const c0 = clamp(f.state.c0 ?? 0, 0, Math.max(0, calls - 1));
  const c1 = clamp(f.state.c1 ?? calls - 1, c0 + 1, Math.max(c0 + 1, calls - 1));
  // Slow outliers do not stretch the axis (timeDomain); they sit on its top edge, counted.
  const { lo, hi } = timeDomain(series);
  const legend = legendOf(series, t, 12 + textWidth('Every call', t.font.title + 2, true) + 14, f.width - 12);
  const top = 58 + 16 * Math.max(0, legend.flow.lines - 1);
  const bottom = f.height - 44;
  const yTicks = timeTicks(lo * 0.95, hi * 1.02, Math.max(2, Math.floor((bottom - top) / 40)));
  const yLo = Math.min(lo * 0.95, yTicks.values[0] ?? lo);
  const yHi = hi * 1.02;
  const left = 12 + yLabelWidth(yTicks, t.font.small) + 34;
  const right = f.width - 16;
  const xOf = (c: number): number => left + ((c - c0) / Math.max(1, c1 - c0)) * (right - left);
  const callAt = (x: number): number => c0 + ((x - left) / Math.max(1, right - left)) * (c1 - c0);
  const yOf = (ns: number): number => bottom - ((ns - yLo) / (yHi - yLo)) * (bottom - top);
  const L: SeriesLayout = { series, left, right, top, bottom, calls, c0, c1, xOf, callAt, yOf, theme: t };
  drawLegend(p, series, t, legend, 22);
  drawYAxis(
    p,
    {
      scale: yOf,
      ticks: yTicks,
      x: left,
      y0: top,
      y1: bottom,
      gridTo: right,
      title: `time per call (${yTicks.unit.name})`,
      titleX: left - yLabelWidth(yTicks, t.font.small) - 20,
    },
    t,
  );
  const xTicks = integerTicks(Math.ceil(c0), Math.floor(c1), Math.max(2, Math.floor((right - left) / 70)));
  drawXAxis(p, { scale: xOf, ticks: xTicks, y: bottom, x0: left, x1: right, title: 'timed call (processes one after another)' }, t);
  p.clip(left, top - 4, right - left, bottom - top + 8);
  // Process boundaries.
  const per = series[0]?.callsPerProcess ?? 0;
  if (per > 0 && calls > per) {
    for (let b = per, k = 2; b < calls; b += per, k++) {
      const x = xOf(b - 0.5);
      p.line(x, top - 4, x, bottom, { stroke: t.axis, dash: [3, 3] });
      // A label that would run past the plot (a narrow last process when zoomed) is left out, not cut.
      if (x + 4 + textWidth(`process ${k}`, t.font.small - 1) <= right)
        p.text(x + 4, top + 6, `process ${k}`, { color: t.muted, size: t.font.small - 1, baseline: 'top' });
    }
    p.text(Math.max(left, xOf(-0.5)) + 4, top + 6, 'process 1', { color: t.muted, size: t.font.small - 1, baseline: 'top' });
  }
  if (f.hover?.key.startsWith('call:')) {
    const c = Number(f.hover.key.slice(5));
    p.line(xOf(c), top, xOf(c), bottom, { stroke: t.hover, strokeWidth: 1.5 });
  }
  let beyond = 0;
  for (const s of series) {
    const color = t.modes[s.mode];
    const xs = s.values;
    const marker = markerOf(s.result);
    const from = Math.max(0, Math.floor(c0));
    const to = Math.min(xs.length - 1, Math.ceil(c1));
    for (let c = from; c <= to; c++) {
      const v = xs[c]!;
      if (v > yHi) {
        // Beyond the axis: an arrow on its top edge, at the call, in the mode's colour.
        beyond++;
        const x = xOf(c);
        p.polygon([x - 3.5, x + 3.5, x], [top + 2, top + 2, top - 4], 3, { fill: color, opacity: 0.8 });
      } else drawMarker(p, marker, xOf(c), yOf(v), s.time === 'device' ? 1.2 : 1.7, color, s.time === 'device' ? 0.3 : 0.45);
    }
  }
  for (const s of series) {
    const med = medianOf(s);
    const per2 = Math.max(1, s.callsPerProcess);
    for (let start = 0; start < med.length; start += per2) {
      const end = Math.min(med.length, start + per2);
      const n = end - start;
      const px = new Float64Array(n);
      const py = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        px[k] = xOf(start + k);
        py[k] = yOf(Math.min(med[start + k]!, yHi));
      }
      p.polyline(px, py, n, { stroke: t.background, strokeWidth: 4, opacity: 0.8 });
      // Device time (GPU results): a thin dotted line beside the host's.
      p.polyline(px, py, n, {
        stroke: t.modes[s.mode],
        strokeWidth: s.time === 'device' ? 1.5 : 2,
        dash: s.time === 'device' ? [1, 3] : s.layout === 'dace' ? [4, 2] : MODE_DASH[s.mode],
      });
    }
  }
  p.unclip();
  if (beyond) {
    p.group('overflow');
    p.line(left, top, right, top, { stroke: t.muted, dash: [3, 3] });
    p.text(right, top - 8, `▲ ${formatCount(beyond)} slower call${beyond === 1 ? '' : 's'} beyond the axis`, {
      color: t.muted,
      size: t.font.small,
      align: 'end',
    });
    p.endGroup();
  }
  if (f.interactive)
    p.text(
      12,
      f.height - 8,
      fitText('dots: calls · lines: running median per process · drag: zoom · double-click: reset', t.font.small, right - left),
      { color: t.muted, size: t.font.small },
    );
  p.end();
  return L;
}

export const seriesChart: ChartSpec<ProfileData, SeriesState, SeriesLayout> = {
  name: 'tlab-profile-series',
  initialState: () => ({ c0: null, c1: null }),
  preferredHeight: () => 320,
  draw,
  hit(L, x, y) {
    if (x < L.left || x > L.right || y < L.top || y > L.bottom) return null;
    const c = Math.round(L.callAt(x));
    return c >= 0 && c < L.calls ? { id: null, key: `call:${c}` } : null;
  },
  tooltip(_data, L, h: Hit): TooltipContent | null {
    const c = Number(h.key.slice(5));
    const per = L.series[0]?.callsPerProcess ?? 1;
    return {
      title: `call ${formatCount(c)} (process ${Math.floor(c / Math.max(1, per)) + 1}, call ${(c % Math.max(1, per)) + 1})`,
      rows: L.series.map((s) => [s.display, s.values[c] !== undefined ? formatNs(s.values[c]) : '–'] as [string, string]),
    };
  },
  describe(_data, L) {
    return `Time of each of ${L.calls} timed calls per mode.`;
  },
  brushArea(L) {
    return { x0: L.left, y0: L.top, x1: L.right, y1: L.bottom };
  },
  brushed(_data, L, _s, range) {
    if (!range) return { c0: null, c1: null };
    const a = Math.floor(L.callAt(range[0]));
    const b = Math.ceil(L.callAt(range[1]));
    return b - a >= 2 ? { c0: a, c1: b } : { c0: L.c0, c1: L.c1 };
  },
};
