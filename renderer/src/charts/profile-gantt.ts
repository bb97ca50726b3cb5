/**
 * The sampled call's allocations, per mode: one row per transient, a bar from its allocation to its free
 * (the allocator calls themselves solid at the start, hatched at the end), on one time axis shared by
 * every mode. Modes that allocate nothing in the call say so in one line. Hover: bytes and durations;
 * click selects the transient everywhere. Drag on the axis area zooms time; double-click resets.
 */
import { formatBytes, formatNs } from '../../../electron/engine/view/public.js';
import { drawXAxis } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import { hostSeries, profileSeries, sampledCalls, type AllocSpan, type ProfileData, type SampledCall } from './profile-data.js';
import { clamp, timeTicks } from './scales.js';
import { fitText, textWidth, wrapText } from './text.js';

export interface GanttState {
  t0: number | null;
  t1: number | null;
}

interface PanelLayout {
  call: SampledCall;
  top: number;
  rowH: number;
}

export interface GanttLayout {
  panels: PanelLayout[];
  left: number;
  right: number;
  axisY: number;
  t0: number;
  t1: number;
  xOf: (ns: number) => number;
  tAt: (x: number) => number;
  theme: ChartTheme;
  empty: boolean;
}

const PANEL_HEAD = 22;
const MAX_ROW = 16;

const spanEnd = (s: AllocSpan, callEnd: number): number => (s.freeStart === null ? callEnd : s.freeStart + s.freeNs);

function extent(calls: SampledCall[]): number {
  let end = 1;
  for (const c of calls) {
    end = Math.max(end, c.callNs ?? 0);
    for (const s of c.spans) end = Math.max(end, s.allocStart + s.allocNs, s.freeStart !== null ? s.freeStart + s.freeNs : 0);
  }
  return end;
}

function rowsOf(call: SampledCall): AllocSpan[] {
  return [...call.spans].sort((a, b) => a.allocStart - b.allocStart);
}

function draw(p: Painter, data: ProfileData, f: FrameInput<GanttState>): GanttLayout {
  const t = f.theme;
  p.begin(f.width, f.height, t.background);
  p.text(12, 22, 'Allocations in one call', { color: t.text, size: t.font.title + 2, weight: 600 });
  const calls = sampledCalls(data);
  const withSpans = calls.filter((c) => c.spans.length > 0);
  const quiet = hostSeries(profileSeries(data)).filter((s) => !withSpans.some((c) => c.series.key === s.key));
  const sub = calls.length ? 'the sampled call of each mode · solid: allocator call · hatched: free' : '';
  const subX = 12 + textWidth('Allocations in one call', t.font.title + 2, true) + 10;
  p.text(subX, 22, fitText(sub, t.font.base, f.width - subX - 12), { color: t.muted, size: t.font.base });
  const labelW = Math.min(220, Math.max(110, f.width * 0.2));
  const left = 12 + labelW;
  const right = f.width - 16;
  const end = extent(withSpans);
  const t0 = clamp(f.state.t0 ?? 0, 0, end);
  const t1 = clamp(f.state.t1 ?? end, t0 + 1, end);
  const xOf = (ns: number): number => left + ((ns - t0) / (t1 - t0)) * (right - left);
  const tAt = (x: number): number => t0 + ((x - left) / Math.max(1, right - left)) * (t1 - t0);
  const empty = calls.length === 0;
  if (empty) {
    const msg = 'This result has no sampled allocation events: profile again with a version that records them.';
    wrapText(msg, t.font.base, f.width - 24).forEach((line, k) => p.text(12, 56 + 17 * k, line, { color: t.muted, size: t.font.base }));
    p.end();
    return { panels: [], left, right, axisY: 0, t0, t1, xOf, tAt, theme: t, empty };
  }
  // Quiet modes first, in one line each.
  let y = 40;
  for (const s of quiet) {
    const sampled = calls.some((c) => c.series.key === s.key);
    const why = sampled || s.m.summary.allocsPerCall === 0 ? 'no allocation in the call' : 'no sampled call recorded';
    p.rect(12, y + 3, 10, 10, { fill: t.modes[s.mode] });
    p.text(28, y + 12, fitText(`${s.display}: ${why}`, t.font.small, f.width - 40), { color: t.muted, size: t.font.small });
    y += 18;
  }
  const axisY = f.height - 40;
  const avail = axisY - y - 8;
  const totalRows = withSpans.reduce((n, c) => n + c.spans.length, 0);
  const rowH = clamp((avail - withSpans.length * PANEL_HEAD) / Math.max(1, totalRows), 3, MAX_ROW);
  const panels: PanelLayout[] = [];
  const ticks = timeTicks(t0, t1, Math.max(2, Math.floor((right - left) / 90)));
  drawXAxis(
    p,
    { scale: xOf, ticks, y: axisY, x0: left, x1: right, gridTo: y, title: `time since the call started (${ticks.unit.name})` },
    t,
  );
  for (const call of withSpans) {
    const s = call.series;
    const color = t.modes[s.mode];
    p.text(12, y + 15, call.label, { color, size: t.font.base, weight: 600 });
    const which = call.call !== null ? `call #${call.call} (nearest the median)` : 'call';
    const allocNs = call.spans.reduce((a, sp) => a + sp.allocNs, 0);
    const frees = call.spans.filter((sp) => sp.freeStart !== null);
    const freeNs = frees.reduce((a, sp) => a + sp.freeNs, 0);
    const count =
      `${call.spans.length} allocation${call.spans.length === 1 ? '' : 's'} (${formatNs(allocNs)}) · ${frees.length} free${frees.length === 1 ? '' : 's'} (${formatNs(freeNs)})` +
      ` · ${which}${call.callNs ? `: ${formatNs(call.callNs)}` : ''}${call.overflowed ? ' · event buffer overflowed: first events only' : ''}`;
    p.text(12 + textWidth(call.label, t.font.base, true) + 8, y + 15, count, { color: t.muted, size: t.font.small });
    const top = y + PANEL_HEAD;
    panels.push({ call, top, rowH });
    const rows = rowsOf(call);
    const callEnd = call.callNs ?? end;
    p.clip(left, top, right - left, rows.length * rowH);
    rows.forEach((sp, k) => {
      const ry = top + k * rowH;
      const bh = Math.max(2, rowH - (rowH >= 6 ? 3 : 1));
      const by = ry + (rowH - bh) / 2;
      const id = sp.transient;
      if (id === f.selected) p.rect(left, ry, right - left, rowH, { fill: t.accent, opacity: 0.18 });
      else if (id === f.hover?.id) p.rect(left, ry, right - left, rowH, { fill: t.hover, opacity: 0.12 });
      const a0 = xOf(sp.allocStart);
      const a1 = Math.max(a0 + 2, xOf(sp.allocStart + sp.allocNs));
      const e = spanEnd(sp, callEnd);
      const f0 = sp.freeStart === null ? xOf(e) : xOf(sp.freeStart);
      const f1 = Math.max(f0 + (sp.freeStart === null ? 0 : 2), xOf(e));
      p.rect(a1, by, Math.max(0, f0 - a1), bh, { fill: t.modeFill[s.mode], stroke: rowH >= 6 ? color : undefined });
      p.rect(a0, by, a1 - a0, bh, { fill: color });
      if (sp.freeStart !== null) p.rect(f0, by, f1 - f0, bh, { fill: { hatch: color, background: t.background }, stroke: color });
      if (id === f.selected) p.rect(a0 - 1, by - 1, f1 - a0 + 2, bh + 2, { stroke: t.accent, strokeWidth: 2 });
    });
    p.unclip();
    if (rowH >= 10) {
      rows.forEach((sp, k) => {
        const label = `${sp.transient.replace(/^0:/, '')}  ${formatBytes(sp.bytes)}`;
        p.text(left - 8, top + k * rowH + rowH / 2, fitText(label, Math.min(t.font.small, rowH - 1), labelW - 16), {
          color: sp.transient === f.selected ? t.text : t.muted,
          size: Math.min(t.font.small, rowH - 1),
          align: 'end',
          baseline: 'middle',
          weight: sp.transient === f.selected ? 600 : 400,
        });
      });
    }
    y = top + rows.length * rowH + 6;
  }
  p.end();
  return { panels, left, right, axisY, t0, t1, xOf, tAt, theme: t, empty };
}

function hit(L: GanttLayout, x: number, y: number): Hit | null {
  for (const panel of L.panels) {
    const rows = rowsOf(panel.call);
    const k = Math.floor((y - panel.top) / panel.rowH);
    if (k < 0 || k >= rows.length) continue;
    if (x < 0) return null;
    return { id: rows[k]!.transient, key: `${panel.call.series.key}|${k}` };
  }
  return null;
}

function tooltip(_data: ProfileData, L: GanttLayout, h: Hit): TooltipContent | null {
  const [r, label, k] = h.key.split('|');
  const panel = L.panels.find((p) => p.call.series.key === `${r}|${label}`);
  if (!panel) return null;
  const sp = rowsOf(panel.call)[Number(k)];
  if (!sp) return null;
  const end = sp.freeStart ?? panel.call.callNs ?? NaN;
  return {
    title: sp.transient,
    swatch: L.theme.modes[panel.call.series.mode],
    rows: [
      ['mode', panel.call.label],
      ['bytes', formatBytes(sp.bytes)],
      ['allocated at', `${formatNs(sp.allocStart)} (took ${formatNs(sp.allocNs)})`],
      ['freed at', sp.freeStart === null ? 'not within the call' : `${formatNs(sp.freeStart)} (took ${formatNs(sp.freeNs)})`],
      ['held for', formatNs(end - sp.allocStart - sp.allocNs)],
    ],
  };
}

export const ganttChart: ChartSpec<ProfileData, GanttState, GanttLayout> = {
  name: 'tlab-profile-gantt',
  initialState: () => ({ t0: null, t1: null }),
  preferredHeight(data) {
    const calls = sampledCalls(data).filter((c) => c.spans.length);
    const rows = calls.reduce((n, c) => n + c.spans.length, 0);
    const quiet = hostSeries(profileSeries(data)).length - calls.length;
    return clamp(40 + quiet * 18 + calls.length * PANEL_HEAD + rows * MAX_ROW + 56, 140, 720);
  },
  draw,
  hit,
  tooltip,
  describe(data) {
    const calls = sampledCalls(data);
    return calls.length
      ? `Allocations of the sampled call: ${calls.map((c) => `${c.label} ${c.spans.length}`).join(', ')}.`
      : 'No sampled allocation events.';
  },
  brushArea(L) {
    return L.empty || !L.panels.length ? null : { x0: L.left, y0: L.panels[0]!.top - 4, x1: L.right, y1: L.axisY };
  },
  brushed(_data, L, _s, range) {
    if (!range) return { t0: null, t1: null };
    const a = L.tAt(range[0]);
    const b = L.tAt(range[1]);
    return b - a > 1 ? { t0: a, t1: b } : { t0: L.t0, t1: L.t1 };
  },
};
