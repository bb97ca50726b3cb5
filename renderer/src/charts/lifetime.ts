/**
 * Lifetime timeline: one bar per transient over the program steps (coloured by what the modes do with it),
 * and below it the bytes each mode holds at every step, with each mode's peak marked (AnalysisView.memory;
 * what each curve counts is spelled out in `MemoryCurve`).
 *
 * Rows are virtual: only the rows in view are drawn, and below one pixel per row several rows share a
 * pixel line (30k rows stay a few milliseconds per frame). Interactions: drag on the memory curve to zoom
 * the steps (double-click resets), wheel to scroll rows, ctrl+wheel to zoom steps, shift+wheel to pan,
 * alt+wheel or +/− for row height, ↑/↓ to walk the selection.
 */
import { FATES, formatBytes, formatCount, formatStepRange, num, ownedBytes, type AnalysisView, type StorageMemory, type ViewMode } from '../../../electron/engine/view/public.js';
import { drawXAxis, drawYAxis, yLabelWidth } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import { MODE_DASH, MODE_WIDTH, type ChartTheme } from './chart-theme.js';
import type { Fill, Painter } from './painter.js';
import { byteTicks, clamp, integerTicks } from './scales.js';
import { flowItems } from './legend.js';
import { fitText, textWidth } from './text.js';
import { aliasesByTarget, fateOf, indexOfId, sizeText, transientTooltip } from './transient-info.js';

export interface LifetimeData {
  view: AnalysisView;
  /** Storage whose rows and memory curves are drawn; default: the one with the highest peak. */
  storage?: string | null;
  /** `memory` (default): transients that hold memory; `all`: every transient. */
  rows?: 'memory' | 'all';
}

export interface LifetimeState {
  /** Visible step range [x0, x1) in step units (step s spans [s, s + 1)). */
  x0: number;
  x1: number;
  /** Row height in px; null = fit every row (at least 1 px, at most `MAX_ROW`). */
  rowHeight: number | null;
  /** Index of the row at the top of the bars area (fractional while scrolling). */
  scroll: number;
}

const MAX_ROW = 18;
const LABEL_ROW = 11;
/** Drawing order: thick lines first, so that thinner and dashed ones stay visible where curves coincide. */
const CURVE_ORDER: ViewMode[] = ['EXTERNAL', 'SCOPED', 'PERSISTENT', 'POOL'];
const LEGEND_ORDER: ViewMode[] = ['SCOPED', 'POOL', 'PERSISTENT', 'EXTERNAL'];

export interface LifetimeModel {
  view: AnalysisView;
  steps: number;
  /** Transient indices, one per row, in timeline order. */
  rows: Int32Array;
  /** Row position of each transient index (-1: not a row). */
  rowOf: Int32Array;
  storage: string | null;
  memory: StorageMemory | null;
  /** Per row: fate index (`FATES`) and the step span of its bar (-1: no bar). */
  fate: Uint8Array;
  span0: Int32Array;
  span1: Int32Array;
  curves: Array<{ mode: ViewMode; values: Float64Array; peak: number; peakStep: number }>;
  maxBytes: number;
  /** Per row position of a container that views or references alias: their live spans, flat [s0, s1, …]. */
  viewed: Map<number, number[]>;
}

const models = new WeakMap<LifetimeData, LifetimeModel>();

function defaultStorage(view: AnalysisView): string | null {
  let best: string | null = null;
  let bestPeak = -1;
  for (const m of view.memory) {
    const peak = m.curves ? Math.max(...m.curves.map((c) => num(c.peak.bytes))) : 0;
    if (peak > bestPeak) {
      best = m.storage;
      bestPeak = peak;
    }
  }
  return best;
}

/** Rows and numeric curves of the data (memoised per data object). */
export function lifetimeModel(data: LifetimeData): LifetimeModel {
  let m = models.get(data);
  if (m) return m;
  const { view } = data;
  const storage = data.storage === undefined || data.storage === null ? defaultStorage(view) : data.storage;
  const t = view.table;
  const storageIndex = storage === null ? -1 : t.dict.storage.indexOf(storage);
  const all = data.rows === 'all';
  const limit = all ? view.order.length : view.totals.holdingMemory;
  const rows: number[] = [];
  for (let k = 0; k < limit; k++) {
    const i = view.order[k]!;
    if (storage !== null && !all && t.effectiveStorage[i] !== storageIndex) continue;
    rows.push(i);
  }
  const rowOf = new Int32Array(t.count).fill(-1);
  rows.forEach((i, r) => (rowOf[i] = r));
  const memory = view.memory.find((x) => x.storage === storage) ?? null;
  const curves = (memory?.curves ?? []).map((c) => ({ mode: c.mode, values: Float64Array.from(c.bytes, num), peak: num(c.peak.bytes), peakStep: c.peak.step }));
  const maxBytes = Math.max(0, ...curves.map((c) => c.peak));
  const steps = view.analysis.steps.length;
  const fate = new Uint8Array(rows.length);
  const span0 = new Int32Array(rows.length);
  const span1 = new Int32Array(rows.length);
  const none = FATES.indexOf('none');
  const alias = FATES.indexOf('alias');
  rows.forEach((i, r) => {
    fate[r] = t.fate[i]!;
    const first = t.first[i]!;
    // Held but never live: over the whole call; holding nothing and never accessed: no bar.
    span0[r] = first >= 0 ? first : t.fate[i] === none || t.fate[i] === alias ? -1 : 0;
    span1[r] = first >= 0 ? t.last[i]! : Math.max(0, steps - 1);
  });
  // Where views and references reach a drawn container: hatched over its bar (they own no bytes themselves).
  const viewed = new Map<number, number[]>();
  for (const [target, aliases] of aliasesByTarget(view)) {
    const r = rowOf[target]!;
    if (r < 0) continue;
    const spans: number[] = [];
    for (const a of aliases) if (t.first[a]! >= 0) spans.push(t.first[a]!, t.last[a]!);
    if (spans.length) viewed.set(r, spans);
  }
  m = { view, steps, rows: Int32Array.from(rows), rowOf, storage, memory, fate, span0, span1, curves, maxBytes, viewed };
  models.set(data, m);
  return m;
}

export interface LifetimeLayout {
  model: LifetimeModel;
  width: number;
  height: number;
  /** Plot x range (shared by bars and curves). */
  left: number;
  right: number;
  barsTop: number;
  barsBottom: number;
  curveTop: number;
  curveBottom: number;
  rowHeight: number;
  /** Row height when every row fits. */
  fitRowHeight: number;
  state: LifetimeState;
  xOf: (step: number) => number;
  stepAt: (x: number) => number;
  yOf: (bytes: number) => number;
  visibleRows: number;
  header: LifetimeHeader;
  curveLegend: CurveLegend;
}

/**
 * Rows fit the bars area, between 1 px (below that the rows scroll, so that every bar stays visible) and
 * MAX_ROW. Zooming out may go down to the height at which every row fits, however thin (`fit`).
 */
function resolveRowHeight(model: LifetimeModel, state: LifetimeState, barsH: number): { rowHeight: number; fit: number } {
  const n = Math.max(1, model.rows.length);
  const fitAll = barsH / n;
  const fit = Math.min(MAX_ROW, fitAll);
  const auto = clamp(fitAll, Math.min(1, MAX_ROW), MAX_ROW);
  return { rowHeight: state.rowHeight === null ? auto : clamp(state.rowHeight, fit, 40), fit };
}

function layoutOf(model: LifetimeModel, f: FrameInput<LifetimeState>): LifetimeLayout {
  const { width, height, theme } = f;
  const state = f.state;
  const pad = 12;
  const hasCurves = model.curves.length > 0;
  const header = headerOf(model, width, theme);
  const barsTop = header.barsTop;
  const curveLegend = curveLegendOf(model, width, theme);
  const curveBottom = height - (hasCurves ? 40 : 8);
  const gaps = hasCurves ? 34 + LINE * Math.max(0, curveLegend.lines - 1) : 12;
  let curveH = hasCurves ? clamp(Math.round(height * 0.34), 70, 240) : 34;
  // Few rows: give the room they do not need to the curves (up to half the chart).
  const rowsNeed = Math.max(3, model.rows.length) * MAX_ROW + 4;
  const spare = curveBottom - curveH - gaps - barsTop - rowsNeed;
  if (hasCurves && spare > 0) curveH = Math.min(curveH + spare, Math.max(curveH, Math.round(height * 0.62)));
  const curveTop = curveBottom - curveH;
  const barsBottom = curveTop - gaps;
  const { rowHeight, fit } = resolveRowHeight(model, state, Math.max(1, barsBottom - barsTop));
  const yTicks = byteTicks(0, Math.max(1, model.maxBytes * 1.1), Math.max(2, Math.floor(curveH / 34)));
  const axisW = yLabelWidth(yTicks, theme.font.small) + 32;
  const labelW = rowHeight >= LABEL_ROW ? clamp(Math.round(width * 0.24), 120, 260) : 0;
  const left = pad + Math.max(axisW, labelW);
  const right = width - pad - 8;
  const span = Math.max(1e-9, state.x1 - state.x0);
  const xOf = (s: number): number => left + ((s - state.x0) / span) * (right - left);
  const stepAt = (x: number): number => state.x0 + ((x - left) / Math.max(1, right - left)) * span;
  const yMax = yTicks.values.length ? Math.max(model.maxBytes * 1.1, yTicks.values[yTicks.values.length - 1]!) : 1;
  const yOf = (b: number): number => curveBottom - (b / Math.max(1, yMax)) * (curveBottom - curveTop);
  return {
    model,
    width,
    height,
    left,
    right,
    barsTop,
    barsBottom,
    curveTop,
    curveBottom,
    rowHeight,
    fitRowHeight: fit,
    state,
    xOf,
    stepAt,
    yOf,
    visibleRows: Math.max(1, (barsBottom - barsTop) / rowHeight),
    header,
    curveLegend,
  };
}

function countFate(model: LifetimeModel, fate: (typeof FATES)[number]): number {
  const k = FATES.indexOf(fate);
  let n = 0;
  for (const f of model.fate) if (f === k) n++;
  return n;
}

const maxScroll = (L: LifetimeLayout): number => Math.max(0, L.model.rows.length - L.visibleRows);

const FATE_ORDER = ['external', 'persistent', 'scoped', 'init', 'workspace', 'none', 'alias'] as const;
const LINE = 16;

/** Where the header's parts go: the fate legend right of the title when it fits whole, else on its own lines. */
export interface LifetimeHeader {
  sub: string;
  subX: number;
  legend: Array<{ fill: Fill; stroke: string | null; label: string; x: number; y: number }>;
  /** Baseline of the selection line (reserved, so that selecting never moves the chart). */
  selectionY: number;
  barsTop: number;
}

function headerOf(model: LifetimeModel, width: number, t: ChartTheme): LifetimeHeader {
  const n = model.rows.length;
  const title = 'Lifetimes';
  const subX = 12 + textWidth(title, t.font.title + 2, true) + 10;
  const sub = fitText(`${model.storage ?? 'no storage holds memory'} · ${formatCount(n)} transient${n === 1 ? '' : 's'} · ${formatCount(model.steps)} steps`, t.font.base, width - subX - 12);
  const present = new Set<number>(model.fate);
  const entries: Array<{ fill: Fill; stroke: string | null; label: string }> = FATE_ORDER.filter((k) => present.has(FATES.indexOf(k))).map((k) => t.fate[k]);
  // The hatch drawn over a container's bar where a view or reference aliases it.
  if (model.viewed.size) entries.push({ fill: { hatch: t.muted, background: t.background }, stroke: t.muted, label: 'aliased by a view or reference' });
  const widths = entries.map((e) => textWidth(e.label, t.font.small) + 14);
  const total = widths.reduce((a, w) => a + w, 0) + 10 * Math.max(0, entries.length - 1);
  const minX = subX + textWidth(sub, t.font.base) + 16;
  let legend: LifetimeHeader['legend'];
  let lastY = 22;
  if (width - 12 - total >= minX) {
    let x = width - 12 - total;
    legend = entries.map((entry, k) => {
      const e = { ...entry, x, y: 23 };
      x += widths[k]! + 10;
      return e;
    });
  } else {
    // Not on the title line: wrap under it, abbreviating only what is wider than a whole line.
    const flow = flowItems(widths, 12, width - 12, 10);
    legend = entries.map((entry, k) => ({ ...entry, label: fitText(entry.label, t.font.small, flow.width[k]! - 14), x: flow.x[k]!, y: 23 + LINE * (flow.line[k]! + 1) }));
    lastY = 22 + LINE * flow.lines;
  }
  const selectionY = lastY + LINE;
  return { sub, subX, legend, selectionY, barsTop: selectionY + 22 };
}

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
  p.text(L.width - 12, L.header.selectionY, fitText(text, t.font.small, L.width - 24 - textWidth('step', t.font.small) - 12, true), { color: t.accent, size: t.font.small, align: 'end', weight: 600 });
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
  drawXAxis(p, { scale: L.xOf, ticks, y: L.barsTop - 2, x0: L.left, x1: L.right, side: 'top', gridTo: L.barsBottom, labelOffset: (L.xOf(1) - L.xOf(0)) / 2 }, t);
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
      p.text(L.left - 14, y, fitText(table.name[i]!, t.font.small, L.left - 30), { color: t.text, size: t.font.small, align: 'end', baseline: 'middle', weight: 600 });
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
    p.text((L.left + L.right) / 2, (L.barsTop + L.barsBottom) / 2, 'No transient holds memory here', { color: t.muted, size: t.font.base, align: 'middle', baseline: 'middle' });
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
  drawYAxis(p, { scale: L.yOf, ticks: yTicks, x: L.left, y0: L.curveTop, y1: L.curveBottom, gridTo: L.right, title: `held (${yTicks.unit.name})`, titleX: L.left - yLabelWidth(yTicks, t.font.small) - 18 }, t);
  const xTicks = integerTicks(Math.ceil(L.state.x0), Math.floor(L.state.x1 - 1e-9), Math.max(2, Math.floor((L.right - L.left) / 70)));
  drawXAxis(p, { scale: L.xOf, ticks: xTicks, y: L.curveBottom, x0: L.left, x1: L.right, title: 'program step (state execution order)', labelOffset: (L.xOf(1) - L.xOf(0)) / 2 }, t);

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
    p.rect(L.xOf(s0), Math.min(L.yOf(bytes), L.curveBottom - 2), L.xOf(s1 + 1) - L.xOf(s0), Math.max(2, L.curveBottom - L.yOf(bytes)), { fill: color, opacity: 0.3 });
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

const CURVE_TITLE = 'Memory over steps';

/** The curves' legend (mode, peak) right of its title, wrapped onto more lines rather than dropping a mode. */
export interface CurveLegend {
  items: Array<{ mode: ViewMode; value: string; same: boolean; x: number; line: number; width: number }>;
  lines: number;
}

function curveLegendOf(model: LifetimeModel, width: number, t: ChartTheme): CurveLegend {
  const scoped = model.curves.find((c) => c.mode === 'SCOPED');
  const rows = LEGEND_ORDER.flatMap((mode) => {
    const c = model.curves.find((k) => k.mode === mode);
    if (!c) return [];
    const same = mode === 'POOL' && !!scoped && c.values.every((v, s) => v === scoped.values[s]);
    return [{ mode, same, value: same ? '= SCOPED' : `peak ${formatBytes(c.peak)}` }];
  });
  const widths = rows.map((r) => 22 + textWidth(r.mode, t.font.small, true) + 5 + textWidth(r.value, t.font.small, !r.same));
  const x0 = 12 + textWidth(CURVE_TITLE, t.font.base, true) + 16;
  const flow = flowItems(widths, x0, width - 20, 18, Math.min(x0, 12 + 24));
  return { items: rows.map((r, k) => ({ ...r, x: flow.x[k]!, line: flow.line[k]!, width: flow.width[k]! })), lines: Math.max(1, flow.lines) };
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
    p.text(vx, y + 4, fitText(it.value, t.font.small, it.x + it.width - vx, !it.same), { color: t.text, size: t.font.small, weight: it.same ? 400 : 600 });
  }
  p.endGroup();
}

function draw(p: Painter, data: LifetimeData, f: FrameInput<LifetimeState>): LifetimeLayout {
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
    const hint = model.curves.length ? 'drag on the curve: zoom steps · double-click: reset · wheel: scroll rows · alt+wheel: row height' : 'wheel: scroll rows · alt+wheel: row height';
    const room = L.right - L.left - textWidth('program step (state execution order)', t.font.small) - 24;
    p.text(12, L.height - 8, fitText(hint, t.font.small, Math.max(0, room + L.left - 12)), { color: t.muted, size: t.font.small });
  }
  p.end();
  return L;
}

/** The row under y in the bars area; below a pixel per row, the row of that pixel line whose bar covers x. */
export function rowAt(L: LifetimeLayout, x: number, y: number): number {
  const { model } = L;
  const rh = L.rowHeight;
  const r = Math.floor((y - L.barsTop) / rh + L.state.scroll);
  if (rh >= 1 || r < 0 || r >= model.rows.length) return r >= 0 && r < model.rows.length ? r : -1;
  const s = Math.floor(L.stepAt(x));
  const lo = Math.max(0, r);
  const hi = Math.min(model.rows.length - 1, Math.floor((y + 1 - L.barsTop) / rh + L.state.scroll));
  const t = model.view.table;
  let best = -1;
  let bestBytes = -1;
  for (let k = lo; k <= hi; k++) {
    const i = model.rows[k]!;
    const covers = model.span0[k]! >= 0 && model.span0[k]! <= s && s <= model.span1[k]!;
    const b = ownedBytes(t, i);
    if (covers && (Number.isFinite(b) ? b : 0) > bestBytes) {
      best = k;
      bestBytes = Number.isFinite(b) ? b : 0;
    }
  }
  return best >= 0 ? best : r;
}

function hit(L: LifetimeLayout, x: number, y: number): Hit | null {
  if (x < 0 || x > L.width) return null;
  if (y >= L.barsTop && y < L.barsBottom) {
    const r = rowAt(L, x, y);
    if (r < 0) return null;
    const i = L.model.rows[r]!;
    return { id: L.model.view.table.id[i]!, key: `row:${r}` };
  }
  if (L.model.curves.length && y >= L.curveTop - 4 && y <= L.curveBottom && x >= L.left && x <= L.right) {
    const s = Math.floor(L.stepAt(x));
    if (s >= 0 && s < L.model.steps) return { id: null, key: `step:${s}` };
  }
  return null;
}

function tooltip(data: LifetimeData, L: LifetimeLayout, h: Hit): TooltipContent | null {
  const model = L.model;
  if (h.id) {
    const i = indexOfId(model.view, h.id);
    return i < 0 ? null : transientTooltip(model.view, i, chartThemeOf(L));
  }
  if (h.key.startsWith('step:')) {
    const s = Number(h.key.slice(5));
    let live = 0;
    for (let r = 0; r < model.rows.length; r++) if (model.span0[r]! >= 0 && model.span0[r]! <= s && s <= model.span1[r]!) live++;
    const rows: Array<[string, string]> = LEGEND_ORDER.flatMap((mode) => {
      const c = model.curves.find((k) => k.mode === mode);
      return c ? [[mode, `${formatBytes(c.values[s]!)}${c.peakStep === s ? '  ▲ peak' : ''}`] as [string, string]] : [];
    });
    rows.push(['live here', `${formatCount(live)} transient${live === 1 ? '' : 's'}`]);
    return {
      title: `step ${s} · ${model.view.analysis.steps[s]?.label ?? ''}`,
      rows,
      note: `Bytes each mode holds in ${model.storage} while this step runs (one instance per transient). SCOPED and POOL hold a transient while it is live; PERSISTENT holds the eligible ones all call; EXTERNAL holds the packed workspace all call plus what still allocates.`,
    };
  }
  void data;
  return null;
}

// Layouts are plain data; the tooltip needs the theme the frame was drawn with.
const themes = new WeakMap<LifetimeLayout, ChartTheme>();
const chartThemeOf = (L: LifetimeLayout): ChartTheme => themes.get(L)!;

function initialState(data: LifetimeData): LifetimeState {
  const steps = data.view.analysis.steps.length;
  return { x0: 0, x1: Math.max(1, steps), rowHeight: null, scroll: 0 };
}

function zoomX(L: LifetimeLayout, s: LifetimeState, at: number, factor: number): LifetimeState {
  const steps = Math.max(1, L.model.steps);
  const center = clamp(L.stepAt(at), 0, steps);
  const span = clamp((s.x1 - s.x0) * factor, Math.min(1, steps), steps);
  let x0 = center - ((center - s.x0) / (s.x1 - s.x0)) * span;
  x0 = clamp(x0, 0, steps - span);
  return { ...s, x0, x1: x0 + span };
}

function scrollTo(L: LifetimeLayout, s: LifetimeState, row: number): LifetimeState {
  return { ...s, scroll: clamp(row, 0, maxScroll(L)) };
}

export const lifetimeChart: ChartSpec<LifetimeData, LifetimeState, LifetimeLayout> = {
  name: 'tlab-lifetime',
  initialState,
  carryState(data, prev) {
    const fresh = initialState(data);
    // Same program (same steps): keep the zoom and row height, e.g. after editing a symbol.
    return prev.x1 <= fresh.x1 ? { ...fresh, x0: prev.x0, x1: prev.x1, rowHeight: prev.rowHeight, scroll: prev.scroll } : fresh;
  },
  preferredHeight(data) {
    const n = lifetimeModel(data).rows.length;
    return clamp(54 + n * 16 + 34 + 200 + 40, 320, 640);
  },
  draw(p, data, f) {
    const L = draw(p, data, f);
    themes.set(L, f.theme);
    return L;
  },
  hit,
  tooltip,
  describe(data, L) {
    const peaks = L.model.curves.map((c) => `${c.mode} peak ${formatBytes(c.peak)}`).join(', ');
    const aliases = countFate(L.model, 'alias');
    const viewed = L.model.viewed.size ? `; ${L.model.viewed.size} hatched where views or references alias them` : '';
    const own = aliases ? `; ${aliases} views or references drawn as aliases (no bytes of their own)` : '';
    return `Lifetimes of ${L.model.rows.length} transients over ${L.model.steps} steps in ${L.model.storage ?? 'no storage'}${peaks ? `; ${peaks}` : ''}${viewed}${own}.`;
  },
  brushArea(L) {
    return L.model.curves.length ? { x0: L.left, y0: L.curveTop, x1: L.right, y1: L.curveBottom } : null;
  },
  brushed(_data, L, s, range) {
    if (!range) return { ...s, x0: 0, x1: Math.max(1, L.model.steps) };
    const a = Math.floor(clamp(L.stepAt(range[0]), 0, L.model.steps));
    const b = Math.ceil(clamp(L.stepAt(range[1]), 0, L.model.steps));
    return b - a >= 1 ? { ...s, x0: a, x1: b } : s;
  },
  wheel(_data, L, s, e) {
    if (e.ctrl) return zoomX(L, s, e.x, Math.exp(e.dy * 0.0025));
    if (e.shift) {
      const span = s.x1 - s.x0;
      const d = ((e.dx || e.dy) / Math.max(1, L.right - L.left)) * span;
      const x0 = clamp(s.x0 + d, 0, Math.max(0, L.model.steps - span));
      return x0 === s.x0 ? null : { ...s, x0, x1: x0 + span };
    }
    if (e.alt) {
      const h = clamp(L.rowHeight * Math.exp(-e.dy * 0.003), L.fitRowHeight, 40);
      return { ...s, rowHeight: h };
    }
    if (e.y < L.barsTop || e.y > L.barsBottom || maxScroll(L) === 0) return null;
    const scroll = clamp(s.scroll + e.dy / L.rowHeight, 0, maxScroll(L));
    return scroll === s.scroll ? null : { ...s, scroll };
  },
  key(_data, L, f, key) {
    const s = f.state;
    const rows = L.model.rows;
    const table = L.model.view.table;
    const sel = indexOfId(L.model.view, f.selected);
    const cur = sel >= 0 ? L.model.rowOf[sel]! : -1;
    const page = Math.max(1, Math.floor(L.visibleRows) - 1);
    const go = (r: number): { state: LifetimeState; select: string } | null => {
      if (!rows.length) return null;
      const row = clamp(r, 0, rows.length - 1);
      const state = row < s.scroll || row >= s.scroll + L.visibleRows - 1 ? scrollTo(L, s, row - L.visibleRows / 2) : s;
      return { state, select: table.id[rows[row]!]! };
    };
    switch (key) {
      case 'ArrowDown':
        return go(cur < 0 ? Math.ceil(s.scroll) : cur + 1);
      case 'ArrowUp':
        return go(cur < 0 ? Math.ceil(s.scroll) : cur - 1);
      case 'PageDown':
        return { state: scrollTo(L, s, s.scroll + page) };
      case 'PageUp':
        return { state: scrollTo(L, s, s.scroll - page) };
      case 'Home':
        return go(0);
      case 'End':
        return go(rows.length - 1);
      case '+':
      case '=':
        return { state: { ...s, rowHeight: clamp(L.rowHeight * 1.5, L.fitRowHeight, 40) } };
      case '-': {
        return { state: { ...s, rowHeight: Math.max(L.fitRowHeight, L.rowHeight / 1.5) } };
      }
      case '0':
        return { state: initialState({ view: L.model.view }) };
      default:
        return null;
    }
  },
  reveal(_data, L, s, id) {
    const i = indexOfId(L.model.view, id);
    const r = i >= 0 ? L.model.rowOf[i]! : -1;
    if (r < 0 || (r >= s.scroll && r < s.scroll + L.visibleRows - 1)) return null;
    return scrollTo(L, s, r - L.visibleRows / 2);
  },
};
