/**
 * The Workload view (docs/memory-views.md, "Workload view"): one step's sequence as a timeline of program calls;
 * under it, on one byte scale, what each mode holds over that timeline — PERSISTENT's blocks stacked (every
 * program holds its own, the whole time), EXTERNAL's one shared band with each call's use inside it, POOL's
 * high-water line over the calls' peaks — each with its total in large type, EXTERNAL's the largest; then each
 * program's workspace need as a bar, the largest (the one that sizes the workspace) marked.
 *
 * Hover a call, a block or a bar: its figures. Click one: `onSelect(programKey)` (the window opens its graph).
 */
import {
  formatBytes,
  formatCount,
  formatNs,
  num,
  type JsonInt,
  type StorageTimeline,
  type WorkloadView,
} from '../../../electron/engine/view/public.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import type { ChartTheme } from './chart-theme.js';
import type { Painter } from './painter.js';
import { fitText, textWidth } from './text.js';

export interface WorkloadData {
  view: WorkloadView;
  /** Storage to draw; default: the first (the largest workspace). */
  storage?: string | null;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  hit: Hit;
}

export interface WorkloadLayout {
  boxes: Box[];
  timeline: StorageTimeline | null;
}

const PAD = 12;
const LANE_H = 34;
const ROW_H = 110;
const BAR_H = 20;
const BAR_GAP = 6;
/** Width of the mode labels left of the plots, and of the totals right of them. */
const LABEL_W = 112;
const TOTAL_W = 150;

const bytes = (v: JsonInt | null | undefined): number => (v === null || v === undefined ? NaN : num(v));
const shown = (v: JsonInt | null | undefined): string => (v === null || v === undefined ? 'symbolic' : formatBytes(v));

function timelineOf(data: WorkloadData): StorageTimeline | null {
  const ts = data.view.timelines;
  return ts.find((t) => t.storage === data.storage) ?? ts[0] ?? null;
}

function preferredHeight(data: WorkloadData): number {
  return 60 + LANE_H + 3 * (ROW_H + 14) + 40 + data.view.programs.length * (BAR_H + BAR_GAP) + 20;
}

/** A program's shade inside its mode's colour: alternate so that neighbouring blocks stay apart. */
const shade = (t: ChartTheme, k: number): string => (k % 2 === 0 ? t.modes.PERSISTENT : t.modeFill.PERSISTENT);

function draw(p: Painter, data: WorkloadData, f: FrameInput<null>): WorkloadLayout {
  const t = f.theme;
  const { width, height } = f;
  const v = data.view;
  const tl = timelineOf(data);
  const boxes: Box[] = [];
  p.begin(width, height, t.background);
  const title = v.kind === 'workload' ? `Workload · ${v.name}` : `Program · ${v.name}`;
  p.text(PAD, 22, title, { color: t.text, size: t.font.title + 2, weight: 600 });
  const sub = `${formatCount(v.calls.length)} call${v.calls.length === 1 ? '' : 's'} per step × ${formatCount(v.steps)} step${v.steps === 1 ? '' : 's'}${tl ? ` · ${tl.storage}` : ''} · ${v.basis === 'measured' ? 'measured' : 'from the analysis (no timing)'}`;
  const subX = PAD + textWidth(title, t.font.title + 2, true) + 10;
  p.text(subX, 22, fitText(sub, t.font.base, width - subX - PAD), { color: t.muted, size: t.font.base });
  if (!tl || v.calls.length === 0) {
    p.text(PAD, 60, 'No transient holds memory in this workload.', { color: t.text, size: t.font.base + 1 });
    p.end();
    return { boxes, timeline: tl };
  }
  const x0 = PAD + LABEL_W;
  const x1 = Math.max(x0 + 60, width - PAD - TOTAL_W);
  const n = v.calls.length;
  const cw = (x1 - x0) / n;
  const xOf = (i: number): number => x0 + i * cw;
  const hovered = f.hover?.id ?? null;

  // The sequence: one block per call.
  let y = 40;
  p.text(PAD, y + LANE_H / 2, 'calls', { color: t.muted, size: t.font.base, baseline: 'middle' });
  p.group('calls');
  v.calls.forEach((c, i) => {
    const on = hovered === c.program || f.selected === c.program;
    p.rect(xOf(i) + 1, y, cw - 2, LANE_H, { fill: on ? t.hover : t.palette.surfaceAlt, stroke: on ? t.accent : t.axis });
    const label = fitText(c.program, t.font.base, cw - 10, true);
    p.text(xOf(i) + cw / 2, y + LANE_H / 2, label, { color: t.text, size: t.font.base, weight: 600, align: 'middle', baseline: 'middle' });
    boxes.push({ x: xOf(i), y, w: cw, h: LANE_H, hit: { id: c.program, key: `call:${i}` } });
  });
  p.endGroup();
  if (f.interactive) p.text(x1 + 10, y + LANE_H / 2, 'click a call: its graph', { color: t.muted, size: t.font.small, baseline: 'middle' });
  y += LANE_H + 18;

  // One byte scale for the three modes, so that their heights compare.
  const peaks = v.calls.map((c) => bytes(c.peak[tl.storage]));
  const top = Math.max(
    1,
    bytes(tl.persistent.total) || 0,
    bytes(tl.external.band) || 0,
    ...tl.pool.highWater.map((b) => bytes(b) || 0),
    tl.pool.measured ?? 0,
  );
  const rowTop = (k: number): number => y + k * (ROW_H + 14);
  const hOf = (b: number): number => (Number.isFinite(b) ? (b / top) * ROW_H : 0);

  const rowLabel = (k: number, mode: 'PERSISTENT' | 'EXTERNAL' | 'POOL', what: string): void => {
    p.text(PAD, rowTop(k) + 14, mode, { color: t.modes[mode], size: t.font.base, weight: 600 });
    p.text(PAD, rowTop(k) + 30, fitText(what, t.font.small, LABEL_W - 8), { color: t.muted, size: t.font.small });
    p.line(x0, rowTop(k) + ROW_H, x1, rowTop(k) + ROW_H, { stroke: t.axis });
  };
  const total = (k: number, mode: 'PERSISTENT' | 'EXTERNAL' | 'POOL', value: string, note: string, size: number): void => {
    p.text(x1 + 10, rowTop(k) + ROW_H / 2, fitText(value, size, TOTAL_W - 10, true), {
      color: t.modes[mode],
      size,
      weight: 600,
      baseline: 'middle',
    });
    p.text(x1 + 10, rowTop(k) + ROW_H / 2 + size * 0.5 + 10, fitText(note, t.font.small, TOTAL_W - 10), {
      color: t.muted,
      size: t.font.small,
    });
  };

  // PERSISTENT: every program's block for the whole step, stacked.
  rowLabel(0, 'PERSISTENT', 'each its own');
  p.group('persistent');
  let acc = 0;
  tl.persistent.blocks.forEach((b, k) => {
    const h = hOf(bytes(b.bytes));
    const yb = rowTop(0) + ROW_H - hOf(acc) - h;
    acc += bytes(b.bytes) || 0;
    if (h <= 0) return;
    const on = hovered === b.program || f.selected === b.program;
    p.rect(x0, yb, x1 - x0, h, { fill: shade(t, k), stroke: on ? t.accent : t.background, strokeWidth: on ? 2 : 0.75 });
    if (h >= 13) {
      p.text(x0 + 6, yb + h / 2, fitText(b.program, t.font.small, x1 - x0 - 12), {
        color: k % 2 === 0 ? t.background : t.text,
        size: t.font.small,
        weight: 600,
        baseline: 'middle',
      });
    }
    boxes.push({ x: x0, y: yb, w: x1 - x0, h, hit: { id: b.program, key: `persistent:${b.program}` } });
  });
  p.endGroup();
  total(0, 'PERSISTENT', shown(tl.persistent.total), `sum of ${formatCount(tl.persistent.blocks.length)} programs`, t.font.big - 6);

  // EXTERNAL: one band, the largest need; each call's use inside it.
  rowLabel(1, 'EXTERNAL', 'one shared band');
  const band = bytes(tl.external.band);
  const bh = hOf(band);
  p.group('external');
  if (bh > 0) p.rect(x0, rowTop(1) + ROW_H - bh, x1 - x0, bh, { fill: t.modeFill.EXTERNAL, stroke: t.modes.EXTERNAL, strokeWidth: 1.5 });
  tl.external.use.forEach((u, i) => {
    const h = hOf(bytes(u));
    const c = v.calls[i]!;
    const on = hovered === c.program || f.selected === c.program;
    if (h > 0)
      p.rect(xOf(i) + 3, rowTop(1) + ROW_H - h, cw - 6, h, { fill: t.modes.EXTERNAL, stroke: on ? t.accent : undefined, strokeWidth: 2 });
    boxes.push({ x: xOf(i), y: rowTop(1), w: cw, h: ROW_H, hit: { id: c.program, key: `external:${i}` } });
  });
  p.endGroup();
  const sized = tl.external.sizedBy ? `sized by ${tl.external.sizedBy}` : 'nothing moves to it';
  total(1, 'EXTERNAL', shown(tl.external.band), sized, t.font.big);

  // POOL: each call's peak, faint; the pool's reserve (running maximum) as a line.
  rowLabel(2, 'POOL', 'high-water');
  p.group('pool');
  const base = rowTop(2) + ROW_H;
  peaks.forEach((b, i) => {
    const h = hOf(b);
    if (h > 0) p.rect(xOf(i) + 3, base - h, cw - 6, h, { fill: t.modeFill.POOL });
    boxes.push({ x: xOf(i), y: rowTop(2), w: cw, h: ROW_H, hit: { id: v.calls[i]!.program, key: `pool:${i}` } });
  });
  const xs: number[] = [];
  const ys: number[] = [];
  tl.pool.highWater.forEach((b, i) => {
    if (!Number.isFinite(bytes(b))) return;
    const yy = base - hOf(bytes(b));
    xs.push(xOf(i), xOf(i + 1));
    ys.push(yy, yy);
  });
  if (xs.length) p.polyline(xs, ys, xs.length, { stroke: t.modes.POOL, strokeWidth: 2.5 });
  if (tl.pool.measured !== null) {
    const yy = base - hOf(tl.pool.measured);
    p.line(x0, yy, x1, yy, { stroke: t.modes.POOL, dash: [6, 4], strokeWidth: 1.5 });
    p.text(x0 + 4, yy - 4, `measured ${formatBytes(tl.pool.measured)}`, { color: t.modes.POOL, size: t.font.small });
  }
  p.endGroup();
  const poolValue = tl.pool.measured !== null ? tl.pool.measured : tl.pool.peak;
  total(2, 'POOL', shown(poolValue), tl.pool.measured !== null ? 'measured high-water' : 'largest peak of a call', t.font.big - 6);

  // Workspace need per program, the largest marked.
  y = rowTop(3) + 6;
  p.text(PAD, y, 'Workspace need per program (EXTERNAL)', { color: t.text, size: t.font.title, weight: 600 });
  y += 12;
  const needs = v.programs.map((pr) => bytes(pr.workspace[tl.storage] ?? 0));
  const most = Math.max(1, ...needs.filter(Number.isFinite));
  p.group('needs');
  v.programs.forEach((pr, k) => {
    const yb = y + k * (BAR_H + BAR_GAP);
    const b = needs[k]!;
    const largest = pr.key === tl.external.sizedBy;
    const on = hovered === pr.key || f.selected === pr.key;
    p.text(PAD, yb + BAR_H / 2, fitText(pr.key, t.font.base, LABEL_W - 8, largest), {
      color: t.text,
      size: t.font.base,
      weight: largest ? 600 : 400,
      baseline: 'middle',
    });
    const w = Number.isFinite(b) ? (b / most) * (x1 - x0) : 0;
    p.rect(x0, yb, Math.max(1, w), BAR_H, {
      fill: largest ? t.modes.EXTERNAL : t.modeFill.EXTERNAL,
      stroke: on ? t.accent : t.modes.EXTERNAL,
      strokeWidth: on ? 2 : 1,
    });
    const label = `${shown(pr.workspace[tl.storage] ?? 0)}${largest ? ' · sizes the workspace' : ''}`;
    const inside = w > textWidth(label, t.font.small, largest) + 16;
    p.text(inside ? x0 + w - 6 : x0 + w + 6, yb + BAR_H / 2, label, {
      color: inside ? (largest ? t.background : t.text) : t.text,
      size: t.font.small,
      weight: largest ? 600 : 400,
      align: inside ? 'end' : 'start',
      baseline: 'middle',
    });
    boxes.push({ x: PAD, y: yb, w: x1 - PAD, h: BAR_H, hit: { id: pr.key, key: `need:${pr.key}` } });
  });
  p.endGroup();
  p.end();
  return { boxes, timeline: tl };
}

function hit(layout: WorkloadLayout, x: number, y: number): Hit | null {
  for (let k = layout.boxes.length - 1; k >= 0; k--) {
    const b = layout.boxes[k]!;
    if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return b.hit;
  }
  return null;
}

function tooltip(data: WorkloadData, layout: WorkloadLayout, h: Hit): TooltipContent | null {
  const v = data.view;
  const tl = layout.timeline;
  if (!tl || !h.id) return null;
  const program = v.programs.find((p) => p.key === h.id);
  if (!program) return null;
  const [part, at] = h.key.split(':');
  const call = part === 'call' || part === 'external' || part === 'pool' ? v.calls[Number(at)] : undefined;
  const rows: Array<[string, string]> = [];
  if (call) {
    rows.push(['position', `${call.position}`]);
    const syms = Object.entries(call.symbols).map(([k, s]) => `${k}=${s}`);
    if (syms.length) rows.push(['symbols', syms.join(', ')]);
    rows.push(['workspace use', shown(call.workspace[tl.storage] ?? 0)]);
    if (Object.keys(call.peak).length) rows.push(['peak live (SCOPED)', shown(call.peak[tl.storage] ?? 0)]);
  }
  rows.push(['workspace need', shown(program.workspace[tl.storage] ?? 0)]);
  rows.push(['PERSISTENT holds', shown(program.persistent[tl.storage] ?? 0)]);
  rows.push(['called at', program.positions.join(', ')]);
  for (const [label, s] of Object.entries(program.measured ?? {})) rows.push([`${label} per call`, formatNs(s.medianNs)]);
  return {
    title: `${program.key} (${program.file})`,
    swatch: undefined,
    rows,
    note:
      program.key === tl.external.sizedBy ? 'Its need sizes the shared workspace. Click to open its graph.' : 'Click to open its graph.',
  };
}

function describe(data: WorkloadData, layout: WorkloadLayout): string {
  const tl = layout.timeline;
  if (!tl) return `Workload ${data.view.name}: no transient holds memory.`;
  return `Workload ${data.view.name}, ${tl.storage}: ${data.view.calls.length} calls; EXTERNAL shares ${shown(tl.external.band)}${tl.external.sizedBy ? ` (sized by ${tl.external.sizedBy})` : ''}; PERSISTENT holds ${shown(tl.persistent.total)}; POOL peaks at ${shown(tl.pool.peak)}.`;
}

export const workloadChart: ChartSpec<WorkloadData, null, WorkloadLayout> = {
  name: 'tlab-workload',
  initialState: () => null,
  preferredHeight,
  draw,
  hit,
  tooltip,
  describe,
};
