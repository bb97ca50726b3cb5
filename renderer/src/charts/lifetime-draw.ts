/**
 * Drawing the lifetime timeline through the painter (Canvas2D or SVG), from its model and layout
 * (lifetime-model.ts): the header with the fate legend, the selection line, the bars (virtual rows; below a pixel
 * per row, bars on one pixel line merged), the row labels, and the memory curves with their peaks and legend.
 */
import { FATES, formatCount, formatStepRange, ownedBytes } from '../../../electron/engine/view/public.js';
import { drawXAxis, drawYAxis, yLabelWidth } from './axes.js';
import type { FrameInput } from './chart.js';
import { MODE_DASH, MODE_WIDTH, type ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import { byteTicks, clamp, integerTicks } from './scales.js';
import { fitText, textWidth } from './text.js';
import { fateOf, indexOfId, sizeText } from './transient-info.js';
import {
  CURVE_ORDER,
  CURVE_TITLE,
  LABEL_ROW,
  layoutOf,
  lifetimeModel,
  LINE,
  maxScroll,
  type LifetimeData,
  type LifetimeLayout,
  type LifetimeState,
} from './lifetime-model.js';

function drawHeader(p: Painter, L: LifetimeLayout, t: ChartTheme): void {
  const h = L.header;
  p.text(12, 22, 'Lifetimes', { color: t.text, size: t.font.title + 2, weight: 600 });
  p.text(h.subX, 22, h.sub, { color: t.muted, size: t.font.base });
  // Legend of bar colours (fates present): every one, wrapped when the width runs out.
  p.group('legend fates');
  for (const e of h.legend) {
    p.rect(e.x, e.y - 9, 10, 10, { fill: e.fill, stroke: e.stroke ?? undefined });
    p.text(e.x + 14, e.y, e.label, { color: t.muted, size: t.font.small });
  }
  p.endGroup();
}

/** The selected transient in words, under the legend: thin rows cannot carry its name. */
function drawSelection(p: Painter, L: LifetimeLayout, t: ChartTheme, selected: string | null): void {
  const i = indexOfId(L.model.view, selected);
  if (i < 0) return;
  const table = L.model.view.table;
  const live = table.first[i]! < 0 ? 'no live range' : formatStepRange(table.first[i]!, table.last[i]!);
  const inRows = L.model.rowOf[i]! >= 0 ? '' : ' · not among these rows';
  const text = `selected: ${table.name[i]} · ${sizeText(L.model.view, i)} · ${live} · ${t.fate[fateOf(L.model.view, i)].label}${inRows}`;
  p.text(L.width - 12, L.header.selectionY, fitText(text, t.font.small, L.width - 24 - textWidth('step', t.font.small) - 12, true), {
    color: t.accent,
    size: t.font.small,
    align: 'end',
    weight: 600,
  });
}

function drawBars(p: Painter, L: LifetimeLayout, t: ChartTheme, f: FrameInput<LifetimeState>): void {
  const { model } = L;
  const table = model.view.table;
  const n = model.rows.length;
  const first = Math.max(0, Math.floor(L.state.scroll));
  const last = Math.min(n - 1, Math.ceil(L.state.scroll + L.visibleRows));
  const rh = L.rowHeight;
  const barH = rh >= 4 ? Math.max(2, rh - Math.max(1, Math.round(rh * 0.22))) : Math.max(1, rh);
  const full = { first: 0, last: Math.max(0, model.steps - 1) };
  const yOfRow = (r: number): number => L.barsTop + (r - L.state.scroll) * rh;
  const hoverId = f.hover?.id ?? null;
  const selected = f.selected;

  // Step axis on top, grid through the bars.
  const ticks = integerTicks(Math.ceil(L.state.x0), Math.floor(L.state.x1 - 1e-9), Math.max(2, Math.floor((L.right - L.left) / 70)));
  drawXAxis(
    p,
    {
      scale: L.xOf,
      ticks,
      y: L.barsTop - 2,
      x0: L.left,
      x1: L.right,
      side: 'top',
      gridTo: L.barsBottom,
      labelOffset: (L.xOf(1) - L.xOf(0)) / 2,
    },
    t,
  );
  p.text(12, L.barsTop - 8, 'step', { color: t.muted, size: t.font.small });

  p.clip(L.left, L.barsTop, L.right - L.left, L.barsBottom - L.barsTop);
  p.group('bars');
  // Highlights behind the bars.
  for (const [id, color, alpha] of [
    [hoverId, t.hover, 0.14],
    [selected, t.accent, 0.2],
  ] as const) {
    if (!id) continue;
    const r = model.rowOf[indexOfId(model.view, id)] ?? -1;
    if (r >= first && r <= last) p.rect(L.left, yOfRow(r), L.right - L.left, Math.max(rh, 2), { fill: color, opacity: alpha });
  }
  // One pass over the visible rows collects each fate's rectangles; below a pixel per row, bars of rows on
  // the same pixel line that touch or overlap are merged, so a frame draws at most a few per pixel line.
  const bufs = FATES.map(() => [] as number[]);
  const open = FATES.map(() => ({ line: NaN, x0: 0, x1: 0 }));
  const merge = rh < 1;
  const flush = (k: number): void => {
    const o = open[k]!;
    if (!Number.isNaN(o.line)) bufs[k]!.push(o.x0, o.line, o.x1 - o.x0);
    o.line = NaN;
  };
  for (let r = first; r <= last; r++) {
    const s0 = model.span0[r]!;
    if (s0 < 0) continue;
    const k = model.fate[r]!;
    const x0 = Math.max(L.left - 2, L.xOf(s0));
    const x1 = Math.min(L.right + 2, L.xOf(model.span1[r]! + 1));
    if (x1 < L.left || x0 > L.right) continue;
    const y = yOfRow(r) + (rh - barH) / 2;
    if (merge) {
      const line = Math.floor(y);
      const o = open[k]!;
      if (line === o.line && x0 <= o.x1 + 1) {
        if (x1 > o.x1) o.x1 = x1;
        continue;
      }
      flush(k);
      o.line = line;
      o.x0 = x0;
      o.x1 = x1;
    } else bufs[k]!.push(x0, y, x1 - x0);
  }
  FATES.forEach((_, k) => flush(k));
  for (const fate of ['none', 'alias', 'init', 'workspace', 'scoped', 'persistent', 'external'] as const) {
    const k = FATES.indexOf(fate);
    const style = t.fate[fate];
    const b = bufs[k]!;
    const fill = { fill: style.fill, stroke: rh >= 4 && style.stroke ? style.stroke : undefined };
    for (let j = 0; j < b.length; j += 3) p.rect(b[j]!, b[j + 1]!, Math.max(1, b[j + 2]! - (rh >= 4 ? 1 : 0)), merge ? 1 : barH, fill);
  }
  // A container that views or references alias: hatched over the steps where they are live.
  if (model.viewed.size && rh >= 3) {
    p.group('viewed');
    for (let r = first; r <= last; r++) {
      const spans = model.viewed.get(r);
      if (!spans || model.span0[r]! < 0) continue;
      const y = yOfRow(r) + (rh - barH) / 2;
      for (let j = 0; j < spans.length; j += 2) {
        const x0 = Math.max(L.xOf(Math.max(spans[j]!, model.span0[r]!)), L.left - 2);
        const x1 = Math.min(L.xOf(Math.min(spans[j + 1]!, model.span1[r]!) + 1), L.right + 2);
        if (x1 > x0) p.rect(x0, y, Math.max(1, x1 - x0 - (rh >= 4 ? 1 : 0)), barH, { fill: t.viewed });
      }
    }
    p.endGroup();
  }
  for (const [id, color, w] of [
    [hoverId, t.hover, 1.5],
    [selected, t.accent, 2],
  ] as const) {
    if (!id) continue;
    const i = indexOfId(model.view, id);
    const r = i >= 0 ? model.rowOf[i]! : -1;
    if (r < first || r > last) continue;
    const s0 = table.first[i]! < 0 ? full.first : table.first[i]!;
    const s1 = table.first[i]! < 0 ? full.last : table.last[i]!;
    p.rect(L.xOf(s0) - 1, yOfRow(r) + (rh - barH) / 2 - 1, L.xOf(s1 + 1) - L.xOf(s0) + 1, barH + 2, { stroke: color, strokeWidth: w });
  }
  p.endGroup();
  p.unclip();

  // Row labels: name left, size right.
  if (rh >= LABEL_ROW) {
    const size = Math.min(t.font.base, rh - 2);
    const right = L.left - 8;
    p.clip(0, L.barsTop, L.left, L.barsBottom - L.barsTop);
    for (let r = first; r <= last; r++) {
      const i = model.rows[r]!;
      const yMid = yOfRow(r) + rh / 2;
      // Symbolic sizes can be long: they get at most 60 % of the gutter, the name the rest.
      const bytes = fitText(sizeText(model.view, i), size, (right - 12) * 0.6);
      const bw = textWidth(bytes, size);
      const isSel = table.id[i] === selected;
      p.text(right, yMid, bytes, { color: t.muted, size, align: 'end', baseline: 'middle' });
      const nameMax = right - bw - 10 - 12;
      p.text(12, yMid, fitText(table.name[i]!, size, nameMax, isSel), {
        color: fateOf(model.view, i) === 'none' || fateOf(model.view, i) === 'alias' ? t.muted : t.text,
        size,
        baseline: 'middle',
        weight: isSel ? 600 : 400,
      });
    }
    p.unclip();
  } else if (selected) {
    // Rows too thin to read: point at the selected one from the gutter.
    const i = indexOfId(model.view, selected);
    const r = i >= 0 ? model.rowOf[i]! : -1;
    if (r >= first && r <= last) {
      const y = yOfRow(r) + rh / 2;
      p.polygon([L.left - 10, L.left - 3, L.left - 10], [y - 5, y, y + 5], 3, { fill: t.accent });
      p.text(L.left - 14, y, fitText(table.name[i]!, t.font.small, L.left - 30), {
        color: t.text,
        size: t.font.small,
        align: 'end',
        baseline: 'middle',
        weight: 600,
      });
    }
  }

  // Scroll position when rows overflow.
  if (maxScroll(L) > 0) {
    const trackH = L.barsBottom - L.barsTop;
    const thumbH = Math.max(16, (trackH * L.visibleRows) / n);
    const thumbY = L.barsTop + ((trackH - thumbH) * L.state.scroll) / maxScroll(L);
    p.rect(L.right + 3, L.barsTop, 4, trackH, { fill: t.grid });
    p.rect(L.right + 3, thumbY, 4, thumbH, { fill: t.muted, opacity: 0.7 });
  }
  if (n === 0) {
    p.text((L.left + L.right) / 2, (L.barsTop + L.barsBottom) / 2, 'No transient holds memory here', {
      color: t.muted,
      size: t.font.base,
      align: 'middle',
      baseline: 'middle',
    });
  }
}

function drawCurves(p: Painter, L: LifetimeLayout, t: ChartTheme, f: FrameInput<LifetimeState>): void {
  const { model } = L;
  if (!model.curves.length) {
    const sym = model.memory?.symbolic;
    const msg = sym
      ? `Memory over steps needs sizes: ${formatCount(sym.count)} transient size${sym.count === 1 ? '' : 's'} depend on unknown symbols (e.g. ${sym.example.replace(/\*/g, '·')} B). Give symbol values.`
      : 'No memory-holding transients in this storage.';
    p.text(L.left, L.curveTop + 20, fitText(msg, t.font.base, L.right - L.left), { color: t.muted, size: t.font.base });
    return;
  }
  const curveH = L.curveBottom - L.curveTop;
  const yTicks = byteTicks(0, Math.max(1, model.maxBytes * 1.1), Math.max(2, Math.floor(curveH / 34)));
  drawYAxis(
    p,
    {
      scale: L.yOf,
      ticks: yTicks,
      x: L.left,
      y0: L.curveTop,
      y1: L.curveBottom,
      gridTo: L.right,
      title: `held (${yTicks.unit.name})`,
      titleX: L.left - yLabelWidth(yTicks, t.font.small) - 18,
    },
    t,
  );
  const xTicks = integerTicks(Math.ceil(L.state.x0), Math.floor(L.state.x1 - 1e-9), Math.max(2, Math.floor((L.right - L.left) / 70)));
  drawXAxis(
    p,
    {
      scale: L.xOf,
      ticks: xTicks,
      y: L.curveBottom,
      x0: L.left,
      x1: L.right,
      title: 'program step (state execution order)',
      labelOffset: (L.xOf(1) - L.xOf(0)) / 2,
    },
    t,
  );

  p.clip(L.left, L.curveTop - 10, L.right - L.left, L.curveBottom - L.curveTop + 10);
  // The hovered or selected transient's lifetime, at the height of its bytes (XProf's overlay).
  const table = model.view.table;
  for (const [id, color] of [
    [f.selected, t.accent],
    [f.hover?.id ?? null, t.hover],
  ] as const) {
    if (!id) continue;
    const i = indexOfId(model.view, id);
    if (i < 0 || model.rowOf[i]! < 0) continue;
    // A view or reference owns nothing: it has no height on the curve.
    const bytes = ownedBytes(table, i);
    if (!Number.isFinite(bytes) || bytes <= 0) continue;
    const s0 = table.first[i]! < 0 ? 0 : table.first[i]!;
    const s1 = table.first[i]! < 0 ? model.steps - 1 : table.last[i]!;
    p.rect(L.xOf(s0), Math.min(L.yOf(bytes), L.curveBottom - 2), L.xOf(s1 + 1) - L.xOf(s0), Math.max(2, L.curveBottom - L.yOf(bytes)), {
      fill: color,
      opacity: 0.3,
    });
  }
  if (f.hover?.key.startsWith('step:')) {
    const s = Number(f.hover.key.slice(5));
    p.rect(L.xOf(s), L.curveTop, L.xOf(s + 1) - L.xOf(s), curveH, { fill: t.hover, opacity: 0.15 });
  }
  p.group('curves');
  const n = model.steps;
  const xs = new Float64Array(2 * n);
  const ys = new Float64Array(2 * n);
  for (const mode of CURVE_ORDER) {
    const c = model.curves.find((x) => x.mode === mode);
    if (!c) continue;
    for (let s = 0; s < n; s++) {
      xs[2 * s] = L.xOf(s);
      xs[2 * s + 1] = L.xOf(s + 1);
      ys[2 * s] = ys[2 * s + 1] = L.yOf(c.values[s]!);
    }
    p.polyline(xs, ys, 2 * n, { stroke: t.modes[mode], strokeWidth: MODE_WIDTH[mode], dash: MODE_DASH[mode] });
  }
  p.endGroup();
  // Peaks: a marker above each mode's highest step.
  p.group('peaks');
  for (const mode of CURVE_ORDER) {
    const c = model.curves.find((x) => x.mode === mode);
    if (!c || c.peakStep < 0 || mode === 'POOL') continue;
    const x = (L.xOf(c.peakStep) + L.xOf(c.peakStep + 1)) / 2;
    const y = L.yOf(c.peak) - 4;
    p.polygon([x - 5, x + 5, x], [y - 8, y - 8, y], 3, { fill: t.modes[mode], stroke: t.background });
  }
  p.endGroup();
  p.unclip();
  drawCurveLegend(p, L, t);
}

function drawCurveLegend(p: Painter, L: LifetimeLayout, t: ChartTheme): void {
  const lg = L.curveLegend;
  const y0 = L.curveTop - 14 - LINE * (lg.lines - 1);
  p.text(12, y0 + 4, CURVE_TITLE, { color: t.text, size: t.font.base, weight: 600 });
  p.group('legend curves');
  for (const it of lg.items) {
    const y = y0 + LINE * it.line;
    const { x, mode } = it;
    p.line(x, y, x + 18, y, { stroke: t.modes[mode], strokeWidth: MODE_WIDTH[mode], dash: MODE_DASH[mode] });
    p.text(x + 22, y + 4, mode, { color: t.modes[mode], size: t.font.small, weight: 600 });
    const vx = x + 22 + textWidth(mode, t.font.small, true) + 5;
    p.text(vx, y + 4, fitText(it.value, t.font.small, it.x + it.width - vx, !it.same), {
      color: t.text,
      size: t.font.small,
      weight: it.same ? 400 : 600,
    });
  }
  p.endGroup();
}

/** Draws one frame; returns its layout (for hits, tooltips and interaction). */
export function draw(p: Painter, data: LifetimeData, f: FrameInput<LifetimeState>): LifetimeLayout {
  const model = lifetimeModel(data);
  const t = f.theme;
  const L = layoutOf(model, f);
  L.state = { ...f.state, scroll: clamp(f.state.scroll, 0, maxScroll(L)) };
  p.begin(f.width, f.height, t.background);
  drawHeader(p, L, t);
  drawSelection(p, L, t, f.selected);
  drawBars(p, L, t, f);
  drawCurves(p, L, t, f);
  if (f.interactive) {
    const hint = model.curves.length
      ? 'drag on the curve: zoom steps · double-click: reset · wheel: scroll rows · alt+wheel: row height'
      : 'wheel: scroll rows · alt+wheel: row height';
    const room = L.right - L.left - textWidth('program step (state execution order)', t.font.small) - 24;
    p.text(12, L.height - 8, fitText(hint, t.font.small, Math.max(0, room + L.left - 12)), { color: t.muted, size: t.font.small });
  }
  p.end();
  return L;
}
