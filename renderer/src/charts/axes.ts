/** Axes drawn through the painter: ticks, labels that never overlap, grid lines and titles. */
import type { ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import type { Ticks } from './scales.js';
import { textWidth } from './text.js';

export interface XAxis {
  /** Pixel position of a value. */
  scale: (v: number) => number;
  ticks: Ticks;
  /** Baseline of the axis line. */
  y: number;
  x0: number;
  x1: number;
  /** Labels below (default) or above the line. */
  side?: 'bottom' | 'top';
  /** Grid lines from the axis to this y. */
  gridTo?: number;
  title?: string;
  /** Shift labels from their tick (e.g. half a step, to centre them on the step the tick starts). */
  labelOffset?: number;
}

export function drawXAxis(p: Painter, a: XAxis, t: ChartTheme): void {
  const size = t.font.small;
  const below = (a.side ?? 'bottom') === 'bottom';
  p.group('axis x');
  p.line(a.x0, a.y, a.x1, a.y, { stroke: t.axis });
  let lastRight = -Infinity;
  a.ticks.values.forEach((v, i) => {
    const at = a.scale(v);
    const x = at + (a.labelOffset ?? 0);
    if (x < a.x0 - 0.5 || x > a.x1 + 0.5) return;
    if (at >= a.x0 - 0.5 && at <= a.x1 + 0.5) {
      if (a.gridTo !== undefined) p.line(at, a.y, at, a.gridTo, { stroke: t.grid });
      p.line(at, a.y, at, a.y + (below ? 4 : -4), { stroke: t.axis });
    }
    const label = a.ticks.labels[i]!;
    const w = textWidth(label, size);
    const left = Math.max(a.x0, Math.min(a.x1 - w, x - w / 2));
    if (left < lastRight + 6) return;
    lastRight = left + w;
    p.text(left, below ? a.y + 6 : a.y - 6, label, { color: t.muted, size, baseline: below ? 'top' : 'bottom' });
  });
  if (a.title) {
    p.text(a.x1, below ? a.y + 22 : a.y - 20, a.title, { color: t.muted, size, align: 'end', baseline: below ? 'top' : 'bottom' });
  }
  p.endGroup();
}

export interface YAxis {
  scale: (v: number) => number;
  ticks: Ticks;
  /** x of the axis line; labels go to its left. */
  x: number;
  y0: number;
  y1: number;
  /** Grid lines from the axis to this x. */
  gridTo?: number;
  /** Written upwards left of the labels. */
  title?: string;
  titleX?: number;
}

export function drawYAxis(p: Painter, a: YAxis, t: ChartTheme): void {
  const size = t.font.small;
  const top = Math.min(a.y0, a.y1);
  const bottom = Math.max(a.y0, a.y1);
  p.group('axis y');
  p.line(a.x, top, a.x, bottom, { stroke: t.axis });
  let lastTop = Infinity;
  a.ticks.values.forEach((v, i) => {
    const y = a.scale(v);
    if (y < top - 0.5 || y > bottom + 0.5) return;
    if (a.gridTo !== undefined) p.line(a.x, y, a.gridTo, y, { stroke: t.grid });
    p.line(a.x - 4, y, a.x, y, { stroke: t.axis });
    if (y + size / 2 > lastTop - 2) return;
    lastTop = y - size / 2;
    p.text(a.x - 6, y, a.ticks.labels[i]!, { color: t.muted, size, align: 'end', baseline: 'middle' });
  });
  if (a.title) {
    p.text(a.titleX ?? a.x - 40, (top + bottom) / 2, a.title, { color: t.muted, size, align: 'middle', baseline: 'middle', rotate: -90 });
  }
  p.endGroup();
}

/** Width the labels of `ticks` need left of a y axis. */
export function yLabelWidth(ticks: Ticks, size: number): number {
  return Math.max(0, ...ticks.labels.map((l) => textWidth(l, size)));
}
