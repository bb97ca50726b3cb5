/**
 * Where a call's time goes, per mode: compute, allocation and free (means per call, so that the parts add
 * up), and beside it the allocation part alone on its own scale, since it is often under a percent of the
 * call and would not show at all on the first.
 */
import { formatCount, formatNs, formatPercent } from '../../../electron/engine/view/public.js';
import { drawXAxis } from './axes.js';
import type { ChartSpec, FrameInput, Hit } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Fill, Painter } from './painter.js';
import { seriesTooltip } from './profile-distribution.js';
import { hostSeries, profileSeries, type ProfileData, type Series } from './profile-data.js';
import { timeTicks } from './scales.js';
import { fitMiddle, textWidth } from './text.js';

export interface BreakdownLayout {
  series: Series[];
  top: number;
  rowH: number;
  theme: ChartTheme;
}

const ROW = 34;
const HEADER = 72;
const FOOTER = 44;

type Part = 'compute' | 'alloc' | 'free';

function partFill(t: ChartTheme, s: Series, part: Part): Fill {
  const c = t.modes[s.mode];
  if (part === 'compute') return s.layout === 'dace' ? { hatch: c, background: t.modeFill[s.mode] } : t.modeFill[s.mode];
  if (part === 'alloc') return c;
  return { hatch: c, background: t.background };
}

function legend(p: Painter, t: ChartTheme, x: number, y: number): void {
  const items: Array<[Part, string]> = [
    ['compute', 'compute (rest of the call)'],
    ['alloc', 'allocation'],
    ['free', 'free'],
  ];
  const sample = { mode: 'SCOPED', layout: null } as unknown as Series;
  for (const [part, label] of items) {
    p.rect(x, y - 10, 12, 12, { fill: partFill(t, sample, part), stroke: t.modes.SCOPED });
    p.text(x + 17, y, label, { color: t.muted, size: t.font.small });
    x += 17 + textWidth(label, t.font.small) + 16;
  }
}

function draw(p: Painter, data: ProfileData, f: FrameInput<null>): BreakdownLayout {
  const t = f.theme;
  const series = hostSeries(profileSeries(data)).filter((s) => s.sorted.length > 0);
  p.begin(f.width, f.height, t.background);
  p.text(12, 22, 'Where the time goes', { color: t.text, size: t.font.title + 2, weight: 600 });
  p.text(12 + textWidth('Where the time goes', t.font.title + 2, true) + 10, 22, 'mean per call', { color: t.muted, size: t.font.base });
  legend(p, t, 12, 44);
  // Narrow charts: names give up room first (abbreviated), and the right column takes what its labels need.
  const labelW = Math.min(
    240,
    Math.round(f.width * 0.28),
    Math.max(90, ...series.map((s) => textWidth(s.display, t.font.base, true) + 24)),
  );
  const x0 = 12 + labelW;
  const gap = 28;
  const afLabel = (s: Series): string => {
    const af = s.mean.alloc + s.mean.free;
    const share = s.mean.total > 0 ? af / s.mean.total : 0;
    return af > 0
      ? `${formatNs(af)} · ${formatPercent(share)} · ${formatCount(s.m.summary.allocsPerCall)}/call`
      : `none · ${formatCount(s.m.summary.allocsPerCall)} allocs`;
  };
  const textRoom = Math.max(60, ...series.map((s) => textWidth(afLabel(s), t.font.small) + 10));
  const rightW = Math.max(textRoom + 40, textWidth('allocation + free only (own scale)', t.font.small, true), (f.width - x0 - 12) * 0.4);
  const split = f.width - 12 - rightW;
  const leftW = Math.max(10, split - gap - x0 - 64);
  const top = HEADER;
  const rowH = ROW;
  const bottom = top + rowH * series.length;
  const maxTotal = Math.max(1, ...series.map((s) => s.mean.total));
  const maxAF = Math.max(1, ...series.map((s) => s.mean.alloc + s.mean.free));
  const xa = (ns: number): number => x0 + (ns / maxTotal) * leftW;
  const xb = (ns: number): number => split + (ns / maxAF) * (rightW - textRoom);
  p.text(x0, top - 8, 'whole call', { color: t.text, size: t.font.small, weight: 600 });
  p.text(split, top - 8, 'allocation + free only (own scale)', { color: t.text, size: t.font.small, weight: 600 });
  const ta = timeTicks(0, maxTotal, Math.max(2, Math.floor(leftW / 90)));
  const tb = timeTicks(0, maxAF, Math.max(2, Math.floor((rightW - textRoom) / 90)));
  drawXAxis(p, { scale: xa, ticks: ta, y: bottom + 4, x0, x1: x0 + leftW, gridTo: top, title: `mean time per call (${ta.unit.name})` }, t);
  drawXAxis(
    p,
    { scale: xb, ticks: tb, y: bottom + 4, x0: split, x1: split + rightW - textRoom, gridTo: top, title: `(${tb.unit.name})` },
    t,
  );
  series.forEach((s, i) => {
    const y0 = top + i * rowH;
    const mid = y0 + rowH / 2;
    const bh = rowH * 0.56;
    const color = t.modes[s.mode];
    if (f.hover?.key === s.key) p.rect(0, y0, f.width, rowH, { fill: t.hover, opacity: 0.1 });
    p.rect(12, mid - 6, 12, 12, { fill: partFill(t, s, 'compute'), stroke: color });
    p.text(30, mid, fitMiddle(s.display, t.font.base, labelW - 24, true), {
      color: t.text,
      size: t.font.base,
      baseline: 'middle',
      weight: 600,
    });
    let at = 0;
    for (const part of ['compute', 'alloc', 'free'] as Part[]) {
      const v = s.mean[part];
      if (!(v > 0)) continue;
      p.rect(xa(at), mid - bh / 2, Math.max(part === 'compute' ? 0 : 1, xa(at + v) - xa(at)), bh, {
        fill: partFill(t, s, part),
        stroke: color,
        strokeWidth: 1,
      });
      at += v;
    }
    p.text(xa(at) + 6, mid, formatNs(s.mean.total), { color: t.text, size: t.font.small, baseline: 'middle', weight: 600 });
    const af = s.mean.alloc + s.mean.free;
    if (af > 0) {
      p.rect(xb(0), mid - bh / 2, Math.max(1, xb(s.mean.alloc) - xb(0)), bh, { fill: partFill(t, s, 'alloc'), stroke: color });
      p.rect(xb(s.mean.alloc), mid - bh / 2, Math.max(1, xb(af) - xb(s.mean.alloc)), bh, { fill: partFill(t, s, 'free'), stroke: color });
    }
    const label = afLabel(s);
    p.text(af > 0 ? xb(af) + 6 : split, mid, label, { color: af > 0 ? t.text : t.muted, size: t.font.small, baseline: 'middle' });
  });
  p.end();
  return { series, top, rowH, theme: t };
}

export const breakdownChart: ChartSpec<ProfileData, null, BreakdownLayout> = {
  name: 'tlab-profile-breakdown',
  initialState: () => null,
  preferredHeight: (data) => HEADER + FOOTER + Math.max(1, hostSeries(profileSeries(data)).length) * ROW,
  draw,
  hit(L, _x, y): Hit | null {
    const s = L.series[Math.floor((y - L.top) / L.rowH)];
    return s ? { id: null, key: s.key } : null;
  },
  tooltip(_data, L, h) {
    const s = L.series.find((x) => x.key === h.key);
    if (!s) return null;
    const base = seriesTooltip(s);
    return {
      title: s.display,
      swatch: L.theme.modes[s.mode],
      rows: [
        ['compute', `${formatNs(s.mean.compute)} per call`],
        ['allocation', `${formatNs(s.mean.alloc)} per call`],
        ['free', `${formatNs(s.mean.free)} per call`],
        ['whole call', `${formatNs(s.mean.total)} (mean)`],
        ...base.rows.filter(([k]) => k === 'allocations/call' || k === 'page faults/call'),
      ],
      note: 'Means, so that the parts add up to the call; allocation and free are the instrumented allocator calls (page faults they cause later count as compute).',
    };
  },
  describe(_data, L) {
    return `Mean time per call split into compute, allocation and free, per mode: ${L.series.map((s) => `${s.display} ${formatNs(s.mean.alloc + s.mean.free)} of ${formatNs(s.mean.total)}`).join(', ')}.`;
  },
};
