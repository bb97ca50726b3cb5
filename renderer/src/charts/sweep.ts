/**
 * Sizing across problem sizes (docs/advise.md, "Sweeps and closed forms"): the EXTERNAL workspace need of one
 * storage as a function of the swept symbol, packed (solid) and DaCe's layout (dashed), every measured point
 * marked, and the closed form in large type where the engine has one. A geometric sweep (64, 128, … 4096) gets a
 * log₂ x axis, so that its points are evenly spaced.
 */
import { formatBytes, num, type AdviceSweepView, type JsonInt } from '../../../electron/engine/view/public.js';
import { drawXAxis, drawYAxis, yLabelWidth } from './axes.js';
import type { ChartSpec, FrameInput, Hit, TooltipContent } from './chart.js';
import { MODE_DASH } from './chart-theme.js';
import type { Painter } from './painter.js';
import { byteTicks } from './scales.js';
import { fitText } from './text.js';

export interface SweepData {
  sweep: AdviceSweepView;
  storage?: string | null;
}

export interface SweepLayout {
  points: Array<{ x: number; y: number; i: number; layout: 'packed' | 'dace' }>;
}

const PAD = 12;

const seriesOf = (d: SweepData) => d.sweep.storages.find((s) => s.storage === d.storage) ?? d.sweep.storages[0] ?? null;

function draw(p: Painter, data: SweepData, f: FrameInput<null>): SweepLayout {
  const t = f.theme;
  const { width, height } = f;
  p.begin(width, height, t.background);
  const s = seriesOf(data);
  const sym = data.sweep.symbol;
  p.text(PAD, 20, `Workspace need as ${sym} grows${s ? ` · ${s.storage}` : ''}`, { color: t.text, size: t.font.title + 1, weight: 600 });
  const points: SweepLayout['points'] = [];
  if (!s) {
    p.text(PAD, 50, 'Nothing moves to a workspace at any of these values.', { color: t.muted, size: t.font.base });
    p.end();
    return { points };
  }
  const form = s.packed.closedForm;
  p.text(
    PAD,
    48,
    fitText(
      form ? `packed = ${form} B` : 'no closed form: no one polynomial fits every point',
      form ? t.font.big - 6 : t.font.base,
      width - 2 * PAD,
      !!form,
    ),
    {
      color: form ? t.modes.EXTERNAL : t.muted,
      size: form ? t.font.big - 6 : t.font.base,
      weight: form ? 600 : 400,
    },
  );
  if (s.dace.closedForm) {
    p.text(PAD, 68, fitText(`DaCe's layout = ${s.dace.closedForm} B`, t.font.base, width - 2 * PAD), { color: t.muted, size: t.font.base });
  }
  const xsRaw = data.sweep.values.map((v) => num(v));
  const geometric = xsRaw.every((x) => x > 0) && xsRaw[xsRaw.length - 1]! / xsRaw[0]! >= 8;
  const fx = (x: number): number => (geometric ? Math.log2(x) : x);
  const lo = fx(Math.min(...xsRaw));
  const hi = fx(Math.max(...xsRaw));
  const all = [...s.packed.bytes, ...s.dace.bytes].map((b) => (b === null ? NaN : num(b))).filter(Number.isFinite);
  const yMax = Math.max(1, ...all) * 1.05;
  const yt = byteTicks(0, yMax, 4);
  const left = PAD + yLabelWidth(yt, t.font.small) + 30;
  const right = width - PAD - 10;
  const top = 84;
  const bottom = height - 34;
  const xOf = (x: number): number => left + (hi === lo ? 0.5 : (fx(x) - lo) / (hi - lo)) * (right - left);
  const yOf = (b: number): number => bottom - (b / yMax) * (bottom - top);
  drawYAxis(p, { scale: yOf, ticks: yt, x: left, y0: top, y1: bottom, gridTo: right, title: yt.unit.name, titleX: PAD + 6 }, t);
  const labels = xsRaw.map((x) => String(x));
  drawXAxis(
    p,
    {
      scale: (i) => xOf(xsRaw[i]!),
      ticks: { unit: yt.unit, values: xsRaw.map((_, i) => i), labels },
      y: bottom,
      x0: left,
      x1: right,
      title: sym,
    },
    t,
  );
  for (const layout of ['dace', 'packed'] as const) {
    const ys = s[layout].bytes.map((b) => (b === null ? NaN : num(b)));
    const px: number[] = [];
    const py: number[] = [];
    ys.forEach((b, i) => {
      if (!Number.isFinite(b)) return;
      px.push(xOf(xsRaw[i]!));
      py.push(yOf(b));
      points.push({ x: xOf(xsRaw[i]!), y: yOf(b), i, layout });
    });
    const color = layout === 'packed' ? t.modes.EXTERNAL : t.muted;
    p.polyline(px, py, px.length, {
      stroke: color,
      strokeWidth: layout === 'packed' ? 3 : 1.5,
      dash: layout === 'dace' ? [6, 4] : MODE_DASH.EXTERNAL,
    });
    px.forEach((x, k) =>
      p.circle(x, py[k]!, layout === 'packed' ? 4 : 3, { fill: layout === 'packed' ? color : t.background, stroke: color }),
    );
  }
  p.end();
  return { points };
}

function hit(layout: SweepLayout, x: number, y: number): Hit | null {
  let best: SweepLayout['points'][number] | null = null;
  let d = 100;
  for (const q of layout.points) {
    const dd = (q.x - x) ** 2 + (q.y - y) ** 2;
    if (dd < d) {
      d = dd;
      best = q;
    }
  }
  return best ? { id: null, key: `${best.layout}:${best.i}` } : null;
}

function tooltip(data: SweepData, _l: SweepLayout, h: Hit): TooltipContent | null {
  const s = seriesOf(data);
  const [layout, at] = h.key.split(':') as ['packed' | 'dace', string];
  const i = Number(at);
  if (!s) return null;
  const shown = (b: JsonInt | null | undefined): string => (b === null || b === undefined ? 'symbolic' : formatBytes(b));
  return {
    title: `${data.sweep.symbol} = ${data.sweep.values[i]}`,
    rows: [
      ['packed', shown(s.packed.bytes[i])],
      ["DaCe's layout", shown(s.dace.bytes[i])],
    ],
    note: layout === 'packed' ? 'lifetime-packed slots (solid)' : "DaCe's back-to-back layout (dashed)",
  };
}

export const sweepChart: ChartSpec<SweepData, null, SweepLayout> = {
  name: 'tlab-sweep',
  initialState: () => null,
  preferredHeight: () => 260,
  draw,
  hit,
  tooltip,
  describe: (data) => {
    const s = seriesOf(data);
    return s
      ? `Workspace need of ${s.storage} at ${data.sweep.symbol} = ${data.sweep.values.join(', ')}${s.packed.closedForm ? `: ${s.packed.closedForm} bytes` : ''}.`
      : 'No workspace at any value of the sweep.';
  },
};
