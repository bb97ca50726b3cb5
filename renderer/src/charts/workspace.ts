/**
 * Workspace map: where every transient of the EXTERNAL set sits in the caller's workspace (offset, up) and
 * when it is live (steps, across), in DaCe's back-to-back layout (hatched) and in our lifetime-packed one
 * (solid), side by side on the same byte scale, so that the saving is a height you can see. The totals,
 * the lower bound (peak live bytes: no layout can be smaller) and the saving sit above in large type.
 *
 * Interactions: ctrl+wheel zooms the offsets around the pointer, shift+wheel pans them, 0 resets.
 */
import {
  formatBytes,
  formatBytesExpr,
  formatCount,
  formatPercent,
  formatRatio,
  formatStepRange,
  num,
  type AnalysisView,
  type StorageWorkspace,
  type WorkspaceRects,
} from '../../../electron/engine/view/public.js';
import { drawXAxis, drawYAxis, yLabelWidth } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Fill, Painter } from './painter.js';
import { byteTicks, clamp, integerTicks } from './scales.js';
import { flowItems } from './legend.js';
import { fitText, textWidth } from './text.js';
import { aliasesByTarget, indexOfId, transientTooltip } from './transient-info.js';

export interface WorkspaceData {
  view: AnalysisView;
  /** Storage to map; default: the storage with the largest DaCe workspace. */
  storage?: string | null;
}

export interface WorkspaceState {
  /** Visible offset range in bytes; null = [0, the larger total]. */
  y0: number | null;
  y1: number | null;
}

type Which = 'dace' | 'packed';

interface Panel {
  which: Which;
  x0: number;
  x1: number;
  rects: WorkspaceRects | null;
  total: number;
}

export interface WorkspaceLayout {
  view: AnalysisView;
  ws: StorageWorkspace | null;
  width: number;
  height: number;
  top: number;
  bottom: number;
  panels: Panel[];
  steps: number;
  yMin: number;
  yMax: number;
  yOf: (bytes: number) => number;
  bytesAt: (y: number) => number;
  xOf: (panel: Panel, step: number) => number;
  theme: ChartTheme;
}

function defaultWorkspaceStorage(view: AnalysisView): string | null {
  let best: string | null = null;
  let size = -1;
  for (const w of view.workspace) {
    const b = Math.max(num(w.dace.bytes), num(w.packed?.bytes ?? null));
    const v = Number.isFinite(b) ? b : 0;
    if (v > size) {
      best = w.storage;
      size = v;
    }
  }
  return best;
}

function workspaceOf(data: WorkspaceData): StorageWorkspace | null {
  const storage = data.storage ?? defaultWorkspaceStorage(data.view);
  return data.view.workspace.find((w) => w.storage === storage) ?? null;
}

const fills = (t: ChartTheme): Record<Which, Fill> => ({
  dace: { hatch: t.modes.EXTERNAL, background: t.modeFill.EXTERNAL },
  packed: t.modes.EXTERNAL,
});

/** Top reasons memory-holding transients are not EXTERNAL-eligible (for the empty state). */
function topReasons(view: AnalysisView, k: number): Array<[string, number]> {
  const counts = new Map<string, number>();
  const t = view.table;
  for (let i = 0; i < t.count; i++) {
    if (t.reason[i]! < 0 || (t.eligible[i]! & 2) !== 0 || view.table.first[i]! < 0) continue;
    const r = t.dict.reason[t.reason[i]!]!.replace(/'[^']*'/g, "'…'");
    counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, k);
}

/** Draws the totals in large type; returns how much lower than one row they end. */
function drawNumbers(p: Painter, ws: StorageWorkspace, t: ChartTheme, width: number): number {
  const blocks: Array<{ label: string; value: string; color: string; size: number }> = [];
  const packed = ws.packed ? num(ws.packed.bytes) : NaN;
  const dace = num(ws.dace.bytes);
  blocks.push({
    label: 'packed workspace',
    value: ws.packed ? formatBytes(packed) : 'needs sizes',
    color: t.modes.EXTERNAL,
    size: t.font.big,
  });
  blocks.push({
    label: "DaCe's layout",
    value: Number.isFinite(dace) ? formatBytes(dace) : formatBytesExpr(ws.dace.bytesExpr),
    color: t.text,
    size: t.font.big - 6,
  });
  if (ws.savings) {
    const s = num(ws.savings.bytes);
    blocks.push(
      s >= 0
        ? {
            label: 'saved by packing',
            value: `${formatBytes(s)} (${formatPercent(ws.savings.fraction)})`,
            color: t.text,
            size: t.font.big - 6,
          }
        : { label: 'packing costs (alignment)', value: `${formatBytes(-s)} more`, color: t.text, size: t.font.big - 6 },
    );
  }
  if (ws.packed) {
    const lb = num(ws.packed.lowerBound);
    blocks.push({
      label: 'lower bound (peak live)',
      value: `${formatBytes(lb)}${lb > 0 ? ` · packed ${formatRatio(packed / lb)}` : ''}`,
      color: t.muted,
      size: t.font.big - 10,
    });
  }
  // Every number is shown: blocks that do not fit the width wrap onto another row (the caller moves down).
  const widths = blocks.map((b) => Math.max(textWidth(b.value, b.size, true), textWidth(b.label, t.font.small)));
  const flow = flowItems(widths, 12, width - 12, 28);
  blocks.forEach((b, k) => {
    const y = 44 + NUMBERS_ROW * flow.line[k]!;
    const w = flow.width[k]!;
    p.text(flow.x[k]!, y, fitText(b.label, t.font.small, w), { color: t.muted, size: t.font.small });
    p.text(flow.x[k]!, y + 4 + b.size * 0.9 + 2, fitText(b.value, b.size, w, true), { color: b.color, size: b.size, weight: 600 });
  });
  return NUMBERS_ROW * Math.max(0, flow.lines - 1);
}

/** Height of one row of numbers (label and value in large type). */
const NUMBERS_ROW = 50;

function draw(p: Painter, data: WorkspaceData, f: FrameInput<WorkspaceState>): WorkspaceLayout {
  const t = f.theme;
  const { width, height } = f;
  const ws = workspaceOf(data);
  const steps = Math.max(1, data.view.analysis.steps.length);
  p.begin(width, height, t.background);
  p.text(12, 22, 'Workspace', { color: t.text, size: t.font.title + 2, weight: 600 });
  const memberIds = ws ? Object.keys(data.view.analysis.layouts.dace[ws.storage]?.offsets ?? {}) : [];
  const members = memberIds.length;
  const sub = ws
    ? `${ws.storage} · ${formatCount(members)} transient${members === 1 ? '' : 's'} in the EXTERNAL workspace · ${formatCount(steps)} step${steps === 1 ? '' : 's'}`
    : '';
  const subX = 12 + textWidth('Workspace', t.font.title + 2, true) + 10;
  p.text(subX, 22, fitText(sub, t.font.base, width - subX - 12), { color: t.muted, size: t.font.base });
  const base: Omit<WorkspaceLayout, 'panels' | 'yOf' | 'bytesAt' | 'xOf' | 'yMin' | 'yMax' | 'top' | 'bottom'> = {
    view: data.view,
    ws,
    width,
    height,
    steps,
    theme: t,
  };
  if (!ws) {
    const reasons = topReasons(data.view, 3);
    p.text(12, 60, 'No transient is eligible for EXTERNAL: there is no workspace to lay out.', { color: t.text, size: t.font.base + 1 });
    reasons.forEach(([r, c], k) =>
      p.text(24, 84 + k * 18, fitText(`${formatCount(c)} × ${r}`, t.font.base, width - 36), { color: t.muted, size: t.font.base }),
    );
    p.end();
    return { ...base, panels: [], top: 0, bottom: 0, yMin: 0, yMax: 1, yOf: () => 0, bytesAt: () => 0, xOf: () => 0 };
  }
  const extra = drawNumbers(p, ws, t, width);
  if (!ws.dace.rects && !ws.packed) {
    // Symbolic sizes: nothing to draw to scale; list the members and what their sizes depend on.
    const msg = 'Sizes depend on symbols without values: give them values (symbols panel) to lay out the workspace.';
    p.text(12, 112 + extra, fitText(msg, t.font.base, width - 24), { color: t.text, size: t.font.base });
    const rowH = 18;
    const y0 = 140 + extra;
    const max = Math.max(0, Math.floor((height - y0 - 10) / rowH));
    // Columns in proportion to the width: name, size expression, live range.
    const c1 = 28 + Math.round((width - 40) * 0.3);
    const c2 = 28 + Math.round((width - 40) * 0.78);
    memberIds.slice(0, max).forEach((id, k) => {
      const row = indexOfId(data.view, id);
      if (row < 0) return;
      const y = y0 + k * rowH;
      p.rect(12, y - 10, 10, 10, { fill: fills(t).dace, stroke: t.modes.EXTERNAL });
      p.text(28, y, fitText(data.view.table.name[row]!, t.font.base, c1 - 28 - 8), { color: t.text, size: t.font.base });
      p.text(c1, y, fitText(formatBytesExpr(data.view.table.bytesExpr[row]!), t.font.base, c2 - c1 - 8), {
        color: t.muted,
        size: t.font.base,
      });
      p.text(c2, y, fitText(formatStepRange(data.view.table.first[row]!, data.view.table.last[row]!), t.font.base, width - 12 - c2), {
        color: t.muted,
        size: t.font.base,
      });
    });
    if (members > max) p.text(28, y0 + max * rowH, `… and ${formatCount(members - max)} more`, { color: t.muted, size: t.font.base });
    p.end();
    return { ...base, panels: [], top: 0, bottom: 0, yMin: 0, yMax: 1, yOf: () => 0, bytesAt: () => 0, xOf: () => 0 };
  }

  const top = 118 + extra;
  const bottom = height - 40;
  const totals = [num(ws.dace.bytes), num(ws.packed?.bytes ?? null)].filter(Number.isFinite);
  const full = Math.max(1, ...totals);
  const yMin = clamp(f.state.y0 ?? 0, 0, full);
  const yMax = clamp(f.state.y1 ?? full * 1.04, yMin + 1, full * 1.04);
  const yTicks = byteTicks(yMin, yMax, Math.max(2, Math.floor((bottom - top) / 40)));
  const axisW = yLabelWidth(yTicks, t.font.small) + 34;
  const gap = 36;
  const left = 12 + axisW;
  const pw = (width - 12 - left - gap) / 2;
  const panels: Panel[] = [
    { which: 'dace', x0: left, x1: left + pw, rects: ws.dace.rects, total: num(ws.dace.bytes) },
    { which: 'packed', x0: left + pw + gap, x1: width - 12, rects: ws.packed?.rects ?? null, total: num(ws.packed?.bytes ?? null) },
  ];
  const yOf = (b: number): number => bottom - ((b - yMin) / (yMax - yMin)) * (bottom - top);
  const bytesAt = (y: number): number => yMin + ((bottom - y) / (bottom - top)) * (yMax - yMin);
  const xOf = (panel: Panel, s: number): number => panel.x0 + (s / steps) * (panel.x1 - panel.x0);
  const L: WorkspaceLayout = { ...base, panels, top, bottom, yMin, yMax, yOf, bytesAt, xOf };

  drawYAxis(
    p,
    {
      scale: yOf,
      ticks: yTicks,
      x: left,
      y0: top,
      y1: bottom,
      title: `offset (${yTicks.unit.name})`,
      titleX: left - yLabelWidth(yTicks, t.font.small) - 20,
    },
    t,
  );
  const fill = fills(t);
  const selectedRow = indexOfId(data.view, f.selected);
  const hoverRow = indexOfId(data.view, f.hover?.id);
  for (const panel of panels) {
    const title =
      panel.which === 'dace'
        ? "DaCe's layout: back to back, in declaration order"
        : `packed: lifetime-aware, ${ws.packed?.alignment ?? 64} B aligned`;
    p.rect(panel.x0, top - 24, 12, 12, { fill: fill[panel.which], stroke: t.modes.EXTERNAL });
    p.text(panel.x0 + 18, top - 14, fitText(title, t.font.base, panel.x1 - panel.x0 - 18, true), {
      color: t.text,
      size: t.font.base,
      weight: 600,
    });
    for (const v of yTicks.values) {
      const y = yOf(v);
      if (y >= top && y <= bottom) p.line(panel.x0, y, panel.x1, y, { stroke: t.grid });
    }
    const xt = integerTicks(0, steps - 1, Math.max(2, Math.floor((panel.x1 - panel.x0) / 60)));
    drawXAxis(
      p,
      {
        scale: (s) => xOf(panel, s),
        ticks: xt,
        y: bottom,
        x0: panel.x0,
        x1: panel.x1,
        title: 'program step',
        labelOffset: (xOf(panel, 1) - xOf(panel, 0)) / 2,
      },
      t,
    );
    if (!panel.rects) {
      const msg = panel.which === 'dace' ? `${formatBytesExpr(ws.dace.bytesExpr)}: sizes depend on symbols` : 'sizes depend on symbols';
      p.text((panel.x0 + panel.x1) / 2, (top + bottom) / 2 - 8, fitText(msg, t.font.base, panel.x1 - panel.x0 - 8), {
        color: t.muted,
        size: t.font.base,
        align: 'middle',
      });
      p.text((panel.x0 + panel.x1) / 2, (top + bottom) / 2 + 12, 'give symbol values to draw the map', {
        color: t.muted,
        size: t.font.small,
        align: 'middle',
      });
      continue;
    }
    p.clip(panel.x0, top, panel.x1 - panel.x0, bottom - top);
    p.group(`rects ${panel.which}`);
    const r = panel.rects;
    const aliases = aliasesByTarget(data.view);
    const marks: Array<[number, string, number]> = [];
    for (let k = 0; k < r.row.length; k++) {
      const off = num(r.offset[k]);
      const size = num(r.size[k]);
      const x0 = xOf(panel, r.first[k]!);
      const x1 = xOf(panel, r.last[k]! + 1);
      const yTop = yOf(off + size);
      const yBot = yOf(off);
      const h = Math.max(1, yBot - yTop);
      const big = h > 3 && x1 - x0 > 3;
      p.rect(x0, yBot - h, x1 - x0, h, { fill: fill[panel.which], stroke: big ? t.background : undefined, strokeWidth: 0.75 });
      // A block that views or references alias: hatched over the steps where they are live (they get no block).
      const by = aliases.get(r.row[k]!);
      if (by) {
        p.group('viewed');
        for (const a of by) {
          const s0 = data.view.table.first[a]!;
          if (s0 < 0) continue;
          const v0 = xOf(panel, Math.max(s0, r.first[k]!));
          const v1 = xOf(panel, Math.min(data.view.table.last[a]!, r.last[k]!) + 1);
          if (v1 > v0) p.rect(v0, yBot - h, v1 - v0, h, { fill: t.viewed });
        }
        p.endGroup();
      }
      if (r.row[k] === selectedRow) marks.push([k, t.accent, 2.5]);
      else if (r.row[k] === hoverRow) marks.push([k, t.hover, 1.5]);
      const name = data.view.table.name[r.row[k]!]!;
      if (h >= 16 && x1 - x0 > 40) {
        const label = fitText(name, t.font.small, x1 - x0 - 10);
        if (label) {
          const lw = textWidth(label, t.font.small);
          const ly = (Math.max(top, yBot - h) + Math.min(bottom, yBot)) / 2;
          if (panel.which === 'dace') p.rect(x0 + 3, ly - 8, lw + 6, 16, { fill: t.background, opacity: 0.85 });
          p.text(x0 + 6, ly, label, {
            color: panel.which === 'dace' ? t.text : t.background,
            size: t.font.small,
            baseline: 'middle',
            weight: 600,
          });
        }
      }
    }
    for (const [k, color, w] of marks) {
      const off = num(r.offset[k]);
      const size = num(r.size[k]);
      const yTop = yOf(off + size);
      const h = Math.max(3, yOf(off) - yTop);
      p.rect(xOf(panel, r.first[k]!) - 1, yOf(off) - h - 1, xOf(panel, r.last[k]! + 1) - xOf(panel, r.first[k]!) + 2, h + 2, {
        stroke: color,
        strokeWidth: w,
      });
    }
    p.endGroup();
    // Totals and, in the packed map, the lower bound.
    const lines: Array<[number, string, string, readonly number[] | undefined]> = [];
    const bound = ws.packed ? num(ws.packed.lowerBound) : NaN;
    if (panel.which === 'packed' && bound === panel.total)
      lines.push([panel.total, `total ${formatBytes(panel.total)} = lower bound`, t.text, [4, 3]]);
    else {
      lines.push([panel.total, `total ${formatBytes(panel.total)}`, t.text, [4, 3]]);
      if (panel.which === 'packed' && Number.isFinite(bound)) lines.push([bound, `lower bound ${formatBytes(bound)}`, t.accent, [2, 3]]);
    }
    // Above its line, or below it where the plot's top edge (the larger total sits there) or another label
    // leaves no room: a label is never cut by the plot's clip.
    const placed: number[] = [];
    p.group('totals');
    for (const [b, label, color, dash] of lines) {
      const y = yOf(b);
      if (y < top || y > bottom) continue;
      p.line(panel.x0, y, panel.x1, y, { stroke: color, dash, strokeWidth: 1.25 });
      const free = (ly: number): boolean => ly - 11 >= top && ly + 3 <= bottom && placed.every((o) => Math.abs(o - ly) >= 14);
      const ly = [y - 4, y + 13, y - 18, y + 27].find(free) ?? clamp(y - 4, top + 11, bottom - 3);
      placed.push(ly);
      const text = fitText(label, t.font.small, panel.x1 - panel.x0 - 10, true);
      const w = textWidth(text, t.font.small, true);
      p.rect(panel.x1 - w - 8, ly - 11, w + 6, 14, { fill: t.background, opacity: 0.85 });
      p.text(panel.x1 - 5, ly, text, { color, size: t.font.small, align: 'end', weight: 600 });
    }
    p.endGroup();
    p.unclip();
  }
  p.end();
  return L;
}

function hit(L: WorkspaceLayout, x: number, y: number): Hit | null {
  if (y < L.top || y > L.bottom) return null;
  for (const panel of L.panels) {
    if (x < panel.x0 || x > panel.x1 || !panel.rects) continue;
    const r = panel.rects;
    const b = L.bytesAt(y);
    const s = ((x - panel.x0) / (panel.x1 - panel.x0)) * L.steps;
    const tol = L.bytesAt(L.bottom - 3) - L.bytesAt(L.bottom);
    let best = -1;
    let bestSize = Infinity;
    for (let k = 0; k < r.row.length; k++) {
      const off = num(r.offset[k]);
      const size = num(r.size[k]);
      if (s < r.first[k]! || s >= r.last[k]! + 1) continue;
      // Tiny buffers get at least a few pixels of grab.
      if (b < off - tol || b > off + Math.max(size, tol)) continue;
      if (size < bestSize) {
        best = k;
        bestSize = size;
      }
    }
    if (best >= 0) return { id: L.view.table.id[r.row[best]!]!, key: `${panel.which}:${best}` };
  }
  return null;
}

function tooltip(_data: WorkspaceData, L: WorkspaceLayout, h: Hit): TooltipContent | null {
  if (!h.id || !L.ws) return null;
  const row = indexOfId(L.view, h.id);
  if (row < 0) return null;
  const extra: Array<[string, string]> = [];
  for (const panel of L.panels) {
    const r = panel.rects;
    const k = r ? r.row.indexOf(row) : -1;
    if (r && k >= 0)
      extra.push([
        `offset (${panel.which === 'dace' ? 'DaCe' : 'packed'})`,
        `${formatBytes(num(r.offset[k]))} (${formatCount(r.offset[k])} B)`,
      ]);
  }
  return transientTooltip(L.view, row, L.theme, extra);
}

export const workspaceChart: ChartSpec<WorkspaceData, WorkspaceState, WorkspaceLayout> = {
  name: 'tlab-workspace',
  initialState: () => ({ y0: null, y1: null }),
  preferredHeight: () => 420,
  draw,
  hit,
  tooltip,
  describe(_data, L) {
    if (!L.ws) return 'No transient is eligible for EXTERNAL: no workspace.';
    const p = L.ws.packed ? formatBytes(num(L.ws.packed.bytes)) : 'symbolic';
    const d = L.ws.dace.bytes !== null ? formatBytes(num(L.ws.dace.bytes)) : formatBytesExpr(L.ws.dace.bytesExpr);
    const rows = new Set(L.panels.flatMap((panel) => panel.rects?.row ?? []));
    const viewed = [...aliasesByTarget(L.view).keys()].filter((r) => rows.has(r)).length;
    return `Workspace of ${L.ws.storage}: packed ${p}, DaCe's layout ${d}${viewed ? `; ${viewed} block${viewed === 1 ? '' : 's'} hatched where views or references alias them` : ''}.`;
  },
  wheel(_data, L, s, e) {
    if (!L.panels.length || (!e.ctrl && !e.shift)) return null;
    const lo = s.y0 ?? L.yMin;
    const hi = s.y1 ?? L.yMax;
    const full = Math.max(...L.panels.map((p) => (Number.isFinite(p.total) ? p.total : 0)), 1) * 1.04;
    if (e.ctrl) {
      const at = clamp(L.bytesAt(e.y), lo, hi);
      const span = clamp((hi - lo) * Math.exp(e.dy * 0.0025), 64, full);
      const y0 = clamp(at - ((at - lo) / (hi - lo)) * span, 0, full - span);
      return { y0, y1: y0 + span };
    }
    const d = ((e.dx || e.dy) / Math.max(1, L.bottom - L.top)) * (hi - lo);
    const y0 = clamp(lo - d, 0, full - (hi - lo));
    return { y0, y1: y0 + (hi - lo) };
  },
  key(_data, _L, _f, key) {
    return key === '0' ? { state: { y0: null, y1: null } } : null;
  },
};
