/**
 * The lifetime timeline's model and geometry, apart from its drawing (lifetime-draw.ts) and its interaction
 * (lifetime.ts): which transients are rows and in what order, their bars' step spans and fates, each mode's bytes
 * per step, and where everything goes at a given size — header and legends, bars, curves, row height, scroll —
 * and which row a point falls on. Pure: no painter is touched here.
 */
import {
  FATES,
  formatBytes,
  formatCount,
  num,
  ownedBytes,
  type AnalysisView,
  type StorageMemory,
  type ViewMode,
} from '../../../electron/engine/view/public.js';
import { yLabelWidth } from './axes.js';
import type { FrameInput } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Fill } from './painter.js';
import { byteTicks, clamp } from './scales.js';
import { flowItems } from './legend.js';
import { fitText, textWidth } from './text.js';
import { aliasesByTarget } from './transient-info.js';

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

/** Row height ceiling in px; rows at least LABEL_ROW tall carry their name and size. */
const MAX_ROW = 18;
export const LABEL_ROW = 11;
/** Drawing order: thick lines first, so that thinner and dashed ones stay visible where curves coincide. */
export const CURVE_ORDER: ViewMode[] = ['EXTERNAL', 'SCOPED', 'PERSISTENT', 'POOL'];
export const LEGEND_ORDER: ViewMode[] = ['SCOPED', 'POOL', 'PERSISTENT', 'EXTERNAL'];

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
  const curves = (memory?.curves ?? []).map((c) => ({
    mode: c.mode,
    values: Float64Array.from(c.bytes, num),
    peak: num(c.peak.bytes),
    peakStep: c.peak.step,
  }));
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

export function layoutOf(model: LifetimeModel, f: FrameInput<LifetimeState>): LifetimeLayout {
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

export function countFate(model: LifetimeModel, fate: (typeof FATES)[number]): number {
  const k = FATES.indexOf(fate);
  let n = 0;
  for (const f of model.fate) if (f === k) n++;
  return n;
}

export const maxScroll = (L: LifetimeLayout): number => Math.max(0, L.model.rows.length - L.visibleRows);

const FATE_ORDER = ['external', 'persistent', 'scoped', 'init', 'workspace', 'none', 'alias'] as const;
export const LINE = 16;

/** Where the header's parts go: the fate legend right of the title when it fits whole, else on its own lines. */
interface LifetimeHeader {
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
  const sub = fitText(
    `${model.storage ?? 'no storage holds memory'} · ${formatCount(n)} transient${n === 1 ? '' : 's'} · ${formatCount(model.steps)} step${model.steps === 1 ? '' : 's'}`,
    t.font.base,
    width - subX - 12,
  );
  const present = new Set<number>(model.fate);
  const entries: Array<{ fill: Fill; stroke: string | null; label: string }> = FATE_ORDER.filter((k) => present.has(FATES.indexOf(k))).map(
    (k) => t.fate[k],
  );
  // The hatch drawn over a container's bar where a view or reference aliases it.
  if (model.viewed.size)
    entries.push({ fill: { hatch: t.muted, background: t.background }, stroke: t.muted, label: 'aliased by a view or reference' });
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
    legend = entries.map((entry, k) => ({
      ...entry,
      label: fitText(entry.label, t.font.small, flow.width[k]! - 14),
      x: flow.x[k]!,
      y: 23 + LINE * (flow.line[k]! + 1),
    }));
    lastY = 22 + LINE * flow.lines;
  }
  const selectionY = lastY + LINE;
  return { sub, subX, legend, selectionY, barsTop: selectionY + 22 };
}

export const CURVE_TITLE = 'Memory over steps';

/** The curves' legend (mode, peak) right of its title, wrapped onto more lines rather than dropping a mode. */
interface CurveLegend {
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
  return {
    items: rows.map((r, k) => ({ ...r, x: flow.x[k]!, line: flow.line[k]!, width: flow.width[k]! })),
    lines: Math.max(1, flow.lines),
  };
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
