/**
 * Lifetime timeline: one bar per transient over the program steps (coloured by what the modes do with it),
 * and below it the bytes each mode holds at every step, with each mode's peak marked (AnalysisView.memory;
 * what each curve counts is spelled out in `MemoryCurve`).
 *
 * Rows are virtual: only the rows in view are drawn, and below one pixel per row several rows share a
 * pixel line (30k rows stay a few milliseconds per frame). Interactions: drag on the memory curve to zoom
 * the steps (double-click resets), wheel to scroll rows, ctrl+wheel to zoom steps, shift+wheel to pan,
 * alt+wheel or +/− for row height, ↑/↓ to walk the selection.
 *
 * This file is the chart (its ChartSpec: hits, tooltips, zoom, scroll, keys); the model and geometry are in
 * lifetime-model.ts, the drawing in lifetime-draw.ts.
 */
import { formatBytes, formatCount } from '../../../electron/engine/view/public.js';
import type { ChartSpec, Hit, TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import { clamp } from './scales.js';
import { indexOfId, transientTooltip } from './transient-info.js';
import { draw } from './lifetime-draw.js';
import {
  countFate,
  LEGEND_ORDER,
  lifetimeModel,
  maxScroll,
  rowAt,
  type LifetimeData,
  type LifetimeLayout,
  type LifetimeState,
} from './lifetime-model.js';

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
      return c ? [[mode, `${formatBytes(c.values[s])}${c.peakStep === s ? '  ▲ peak' : ''}`] as [string, string]] : [];
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
    return `Lifetimes of ${L.model.rows.length} transients over ${L.model.steps} step${L.model.steps === 1 ? '' : 's'} in ${L.model.storage ?? 'no storage'}${peaks ? `; ${peaks}` : ''}${viewed}${own}.`;
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
