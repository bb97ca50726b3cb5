/**
 * Drawing the graph's edges (draw.ts's pass 2): culled to the viewport, grouped by style (memlet, empty,
 * interstate, the highlighted transient's, the hovered or selected element's) and stroked as one path per group,
 * arrows filled the same way; then their labels, placed greedily so that none covers another.
 */
import type { Pen } from './draw-pen.js';
import type { Scene, SceneEdge } from './scene.js';
import type { Ctx } from './shapes.js';
import { font, LINE_H } from './text.js';

export function edges(p: Pen, scene: Scene, open: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
  const ctx = p.ctx;
  const st = p.state;
  const hoverNode = st.hover;
  const selectedIdx = st.selected === null ? -1 : (scene.byId.get(st.selected) ?? -1);
  const selectedEdge = st.selected === null ? -1 : (scene.edgeById.get(st.selected) ?? -1);
  const groups: Record<'memlet' | 'empty' | 'interstate' | 'hot' | 'transient', number[]> = {
    memlet: [],
    empty: [],
    interstate: [],
    hot: [],
    transient: [],
  };
  scene.edges.forEach((e, k) => {
    if (e.owner >= 0 && !open[e.owner]) return;
    if (e.maxX < x0 || e.minX > x1 || e.maxY < y0 || e.minY > y1) return;
    const hot =
      k === st.hoverEdge ||
      k === selectedEdge ||
      (hoverNode >= 0 && (e.src === hoverNode || e.dst === hoverNode)) ||
      (selectedIdx >= 0 && (e.src === selectedIdx || e.dst === selectedIdx));
    if (hot) groups.hot.push(k);
    else if (e.edge.kind === 'interstate') groups.interstate.push(k);
    else if (st.transient !== null && e.edge.transient === st.transient) groups.transient.push(k);
    else if (e.edge.data === null) groups.empty.push(k);
    else groups.memlet.push(k);
  });
  const g = p.pal.graph;
  const stroke = (list: number[], colour: string, width: number, dash: number[] | null): void => {
    if (list.length === 0) return;
    ctx.beginPath();
    for (const k of list) trace(ctx, scene.edges[k]!.points, p.lod.curves);
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    if (dash) p.dash(...dash);
    ctx.stroke();
    if (dash) ctx.setLineDash([]);
    if (p.lod.arrows) {
      ctx.beginPath();
      for (const k of list) arrow(ctx, scene.edges[k]!.points);
      ctx.fillStyle = colour;
      ctx.fill();
    }
  };
  const thin = Math.max(1.1, p.lw(0.8));
  stroke(groups.empty, g.edge, thin, [4, 4]);
  stroke(groups.memlet, g.edge, thin, null);
  stroke(groups.interstate, g.interstate, Math.max(1.5, p.lw(0.9)), null);
  stroke(groups.transient, p.pal.accent, Math.max(2.2, p.lw(1.5)), null);
  stroke(groups.hot, p.pal.accent, Math.max(2, p.lw(1.5)), null);
  if (p.lod.memletLabels || p.lod.interstateLabels)
    edgeLabels(p, scene, [...groups.memlet, ...groups.transient, ...groups.hot, ...groups.interstate]);
  return groups.memlet.length + groups.empty.length + groups.interstate.length + groups.hot.length + groups.transient.length;
}

/** Memlet and interstate labels, greedily: a label that would cover one already drawn is left out (hover
 * shows every edge's full label). */
function edgeLabels(p: Pen, scene: Scene, list: number[]): void {
  const placed: number[] = [];
  const free = (x0: number, y0: number, x1: number, y1: number): boolean => {
    for (let i = 0; i < placed.length; i += 4)
      if (x0 < placed[i + 2]! && x1 > placed[i]! && y0 < placed[i + 3]! && y1 > placed[i + 1]!) return false;
    return true;
  };
  // Interstate labels have room reserved by the layout: they go first.
  const order = [...list].sort(
    (a, b) => (scene.edges[a]!.edge.kind === 'interstate' ? 0 : 1) - (scene.edges[b]!.edge.kind === 'interstate' ? 0 : 1),
  );
  for (const k of order) {
    if (placed.length > 4 * 400) break;
    const e = scene.edges[k]!;
    const label = e.edge.label;
    if (label === '') continue;
    if (e.edge.kind === 'interstate') {
      if (!p.lod.interstateLabels || Number.isNaN(e.labelX)) continue;
      labelPlate(p, label.split('; ').slice(0, 4), e.labelX, e.labelY, 'mono', p.pal.graph.edgeLabel, placed, free);
    } else if (p.lod.memletLabels) {
      const [mx, my] = midpoint(e);
      labelPlate(p, [label], mx, my, 'small', p.pal.graph.edgeLabel, placed, free);
    }
  }
}

function labelPlate(
  p: Pen,
  lines: string[],
  cx: number,
  cy: number,
  role: 'mono' | 'small',
  colour: string,
  placed: number[],
  free: (x0: number, y0: number, x1: number, y1: number) => boolean,
): void {
  const ctx = p.ctx;
  ctx.font = font(role);
  const lh = LINE_H[role];
  const h = lines.length * lh;
  const shown = lines.map((l) => p.fitter.fit(l, 300));
  let w = 0;
  for (const l of shown) w = Math.max(w, p.fitter.measure(l));
  const x0 = cx - w / 2 - 3,
    y0 = cy - h / 2,
    x1 = cx + w / 2 + 3,
    y1 = cy + h / 2;
  if (!free(x0, y0, x1, y1)) return;
  placed.push(x0, y0, x1, y1);
  ctx.fillStyle = p.pal.background;
  ctx.globalAlpha = 0.85;
  ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  shown.forEach((l, i) => p.text({ text: l, role }, cx, cy - h / 2 + lh * (i + 0.5)));
}

function trace(ctx: Ctx, pts: Float64Array, curves: boolean): void {
  ctx.moveTo(pts[0]!, pts[1]!);
  const n = pts.length / 2;
  if (!curves || n < 3) {
    for (let j = 2; j < pts.length; j += 2) ctx.lineTo(pts[j]!, pts[j + 1]!);
    return;
  }
  for (let j = 1; j < n - 1; j++) {
    const mx = (pts[2 * j]! + pts[2 * j + 2]!) / 2;
    const my = (pts[2 * j + 1]! + pts[2 * j + 3]!) / 2;
    ctx.quadraticCurveTo(pts[2 * j]!, pts[2 * j + 1]!, j === n - 2 ? pts[2 * j + 2]! : mx, j === n - 2 ? pts[2 * j + 3]! : my);
  }
}

function arrow(ctx: Ctx, pts: Float64Array): void {
  const n = pts.length;
  const ex = pts[n - 2]!,
    ey = pts[n - 1]!;
  let j = n - 4;
  while (j >= 0 && Math.hypot(pts[j]! - ex, pts[j + 1]! - ey) < 0.5) j -= 2;
  if (j < 0) return;
  const a = Math.atan2(ey - pts[j + 1]!, ex - pts[j]!);
  const s = 7;
  ctx.moveTo(ex, ey);
  ctx.lineTo(ex - s * Math.cos(a - 0.4), ey - s * Math.sin(a - 0.4));
  ctx.lineTo(ex - s * Math.cos(a + 0.4), ey - s * Math.sin(a + 0.4));
  ctx.closePath();
}

/** A point halfway along an edge, where its label goes. */
function midpoint(e: SceneEdge): [number, number] {
  const p = e.points;
  const n = p.length / 2;
  if (n % 2 === 1) return [p[n - 1]!, p[n]!];
  const a = n / 2 - 1;
  return [(p[2 * a]! + p[2 * a + 2]!) / 2, (p[2 * a + 1]! + p[2 * a + 3]!) / 2];
}
