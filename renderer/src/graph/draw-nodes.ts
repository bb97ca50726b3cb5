/**
 * Drawing the graph's nodes (draw.ts's pass 1 and 3): open elements as frames with their header band and
 * connectors, closed ones in their SDFV shapes with their lines of text, memory badge and open/close toggle, and
 * nodes too small for a shape as plain rectangles, batched per colour.
 */
import type { GraphNode } from '../../../electron/engine/view/public.js';
import { FONT_SANS, MODE_NAMES } from '../theme/index.js';
import type { Pen } from './draw-pen.js';
import { BADGE_H, connectorX, CONNECTOR_R, hasBadge, SCOPE_FOOTER_H, SCOPE_GAP } from './geometry.js';
import { HEADER_TITLE_PX } from './lod.js';
import { fateBytes } from './marks.js';
import { toggleRect, type SceneNode } from './scene.js';
import { nodeFill, roundRect, shapePath, trapezoid } from './shapes.js';
import { font, formatBytes, frameLines, LINE_H, nodeLines, type Line } from './text.js';

export function frame(p: Pen, n: SceneNode): void {
  const ctx = p.ctx;
  const node = n.node;
  const g = p.pal.graph;
  const [fill, border] = nodeFill(node, p.pal, p.state.marks);
  const ins = n.insets!;
  const isScope = node.kind === 'map' || node.kind === 'consume';
  ctx.lineWidth = 1.2;
  if (isScope) {
    // Entry trapezoid as header, exit trapezoid as footer, a faint band between.
    ctx.fillStyle = g.scopeInterior;
    ctx.fillRect(n.x, n.y, n.w, n.h);
    ctx.beginPath();
    trapezoid(ctx, n.x, n.y, n.w, ins.top - SCOPE_GAP, true);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.strokeStyle = border;
    ctx.stroke();
    ctx.beginPath();
    trapezoid(ctx, n.x, n.y + n.h - SCOPE_FOOTER_H, n.w, SCOPE_FOOTER_H, false);
    ctx.fill();
    ctx.stroke();
    p.dash(4, 4);
    ctx.beginPath();
    ctx.moveTo(n.x + 0.5, n.y + ins.top - SCOPE_GAP);
    ctx.lineTo(n.x + 0.5, n.y + n.h - SCOPE_FOOTER_H);
    ctx.moveTo(n.x + n.w - 0.5, n.y + ins.top - SCOPE_GAP);
    ctx.lineTo(n.x + n.w - 0.5, n.y + n.h - SCOPE_FOOTER_H);
    ctx.strokeStyle = border;
    ctx.stroke();
    ctx.setLineDash([]);
    if ('entryOut' in node) {
      connectors(p, n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
      connectors(p, n.boundary?.entryOut ?? node.entryOut, n.x, n.w, n.y + ins.top - SCOPE_GAP);
      connectors(p, n.boundary?.exitIn ?? node.exitIn, n.x, n.w, n.y + n.h - SCOPE_FOOTER_H);
      connectors(p, n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
    }
  } else {
    ctx.beginPath();
    if (node.kind === 'nested_sdfg') ctx.rect(n.x, n.y, n.w, n.h);
    else roundRect(ctx, n.x, n.y, n.w, n.h, 8);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.strokeStyle = border;
    if (node.kind === 'region' || node.kind === 'branch') p.dash(5, 3);
    ctx.stroke();
    ctx.setLineDash([]);
    if (node.kind === 'nested_sdfg') {
      ctx.beginPath();
      ctx.rect(n.x + 4, n.y + 4, n.w - 8, n.h - 8);
      ctx.stroke();
      connectors(p, n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
      connectors(p, n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
    }
    // Header band.
    ctx.beginPath();
    ctx.moveTo(n.x + 1, n.y + ins.top - 2);
    ctx.lineTo(n.x + n.w - 1, n.y + ins.top - 2);
    ctx.lineWidth = 0.8;
    ctx.strokeStyle = p.pal.grid;
    ctx.stroke();
  }
  frameHeader(p, n);
}

function frameHeader(p: Pen, n: SceneNode): void {
  const ctx = p.ctx;
  const lines = frameLines(n.node);
  const isScope = n.node.kind === 'map' || n.node.kind === 'consume';
  if (p.lod.text) {
    ctx.textAlign = isScope ? 'center' : 'left';
    ctx.textBaseline = 'middle';
    let y = n.y + 8;
    const x = isScope ? n.x + n.w / 2 : n.x + 12;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (i > 0 && !p.lod.detail) break;
      ctx.font = font(l.role);
      ctx.fillStyle = l.role === 'small' ? p.pal.textMuted : p.pal.text;
      p.text(l, x, y + LINE_H[l.role] / 2, n.w - 40);
      y += LINE_H[l.role];
    }
    if (hasBadge(n.node)) drawBadge(p, n.node, isScope ? n.x : n.x + 10, y + 1, isScope ? n.w : n.w - 20, isScope ? 'center' : 'left');
    toggle(p, n);
  } else if (n.w * p.k > 60) {
    // Zoomed out: the title stays readable at a fixed screen size so the big picture can be navigated. It is
    // drawn in screen space so that its font (and the width cache) does not change with every zoom step.
    const vp = p.vp;
    ctx.save();
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    ctx.font = `600 ${HEADER_TITLE_PX}px ${FONT_SANS}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillStyle = p.pal.text;
    p.text({ text: lines[0]!.text, role: 'title' }, n.x * vp.k + vp.tx + 6, n.y * vp.k + vp.ty + 4, n.w * vp.k - 12);
    ctx.restore();
  }
}

export function leaf(p: Pen, n: SceneNode): void {
  const ctx = p.ctx;
  const node = n.node;
  const [fill, border] = nodeFill(node, p.pal, p.state.marks);
  ctx.beginPath();
  shapePath(ctx, n);
  ctx.fillStyle = fill;
  ctx.fill();
  const mark = node.kind === 'access' && node.transient !== null ? p.state.marks.get(node.transient) : undefined;
  ctx.lineWidth =
    node.kind === 'access'
      ? node.transient === null
        ? 2.2
        : mark?.fate
          ? Math.max(2.5, p.lw(1.5))
          : 1.2
      : node.kind === 'state' && node.start
        ? 2
        : 1.2;
  ctx.strokeStyle = border;
  if (node.kind === 'unknown') p.dash(4, 3);
  ctx.stroke();
  ctx.setLineDash([]);
  if (node.kind === 'nested_sdfg') {
    ctx.beginPath();
    ctx.rect(n.x + 4, n.y + 4, n.w - 8, n.h - 8);
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  if ('inConnectors' in node) {
    connectors(p, n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
    connectors(p, n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
  }
  if (!p.lod.text) return;
  let lines = nodeLines(node);
  if (node.kind === 'access' && node.transient !== null && lines.length > 1) {
    const storage = mark?.storage ?? node.storage ?? '';
    lines = [lines[0]!, { text: mark ? `${mark.tag} · ${storage}` : storage, role: 'small' }];
  }
  const badge = hasBadge(node) ? BADGE_H : 0;
  let textH = 0;
  for (let i = 0; i < lines.length; i++) if (i === 0 || p.lod.detail) textH += LINE_H[lines[i]!.role];
  const top = n.y + (n.h - badge - textH) / 2;
  const colour = p.pal.text;
  const muted = mark?.fate ? p.pal.modes[mark.fate] : p.pal.textMuted;
  const inset = node.expand !== null ? 24 : 10;
  drawLines(
    p,
    lines,
    n.x + n.w / 2 - (node.expand !== null ? 8 : 0),
    top,
    colour,
    node.kind === 'access' ? muted : p.pal.textMuted,
    n.w - inset,
  );
  if (badge) drawBadge(p, node, n.x, n.y + n.h - BADGE_H - 2, n.w);
  toggle(p, n);
}

export function simpleBatch(p: Pen, key: string, list: number[], nodes: SceneNode[]): void {
  const ctx = p.ctx;
  const [fill, border] = key.split('|') as [string, string];
  ctx.beginPath();
  for (const i of list) {
    const n = nodes[i]!;
    ctx.rect(n.x, n.y, n.w, n.h);
  }
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = p.lw(0.6);
  ctx.strokeStyle = border;
  ctx.stroke();
}

function drawLines(p: Pen, lines: Line[], cx: number, top: number, color: string, muted: string, maxWidth: number): void {
  const ctx = p.ctx;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let y = top;
  let last = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (i > 0 && !p.lod.detail) break;
    const f = font(l.role);
    if (f !== last) {
      ctx.font = f;
      last = f;
    }
    ctx.fillStyle = l.role === 'small' ? muted : color;
    p.text(l, cx, y + LINE_H[l.role] / 2, maxWidth);
    y += LINE_H[l.role];
  }
}

function toggle(p: Pen, n: SceneNode): void {
  if (n.node.expand === null || !p.lod.text) return;
  const ctx = p.ctx;
  const [tx, ty, tw, th] = toggleRect(n);
  ctx.beginPath();
  roundRect(ctx, tx, ty, tw, th, 3);
  ctx.fillStyle = p.pal.surface;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = p.pal.border;
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(tx + 3.5, ty + th / 2);
  ctx.lineTo(tx + tw - 3.5, ty + th / 2);
  if (!n.expanded) {
    ctx.moveTo(tx + tw / 2, ty + 3.5);
    ctx.lineTo(tx + tw / 2, ty + th - 3.5);
  }
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = p.pal.textMuted;
  ctx.stroke();
}

/** "3 transients · 30.0 MiB" and a bar of bytes per mode fate, centred in [x, x + w] or left-aligned at x. */
function drawBadge(p: Pen, n: GraphNode, x: number, y: number, w: number, align: 'center' | 'left' = 'center'): void {
  const ids = n.summary?.transients ?? [];
  if (ids.length === 0 || !p.lod.detail) return;
  const ctx = p.ctx;
  const marks = p.state.marks;
  const fb = fateBytes(ids, marks);
  const bytes =
    marks.size === 0 ? '' : fb.total > 0 ? ` · ${formatBytes(fb.total)}${fb.unknown ? '+' : ''}` : fb.unknown ? ' · symbolic' : '';
  const label = `${ids.length} transient${ids.length === 1 ? '' : 's'}${bytes}`;
  ctx.font = font('small');
  const bw = Math.min(w - 16, Math.max(80, p.fitter.measure(label) + 16));
  const bx = align === 'center' ? x + (w - bw) / 2 : x;
  ctx.beginPath();
  roundRect(ctx, bx, y + 2, bw, BADGE_H - 5, 6);
  ctx.fillStyle = p.pal.graph.badge;
  ctx.fill();
  if (fb.total > 0) {
    let cx = bx + 4;
    const barW = bw - 8;
    for (const m of MODE_NAMES) {
      const v = fb.byFate[m];
      if (!v) continue;
      const seg = (barW * v) / fb.total;
      ctx.fillStyle = p.pal.modes[m];
      ctx.fillRect(cx, y + BADGE_H - 6, seg, 2.5);
      cx += seg;
    }
  }
  ctx.fillStyle = p.pal.graph.badgeText;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  p.text({ text: label, role: 'small' }, bx + bw / 2, y + BADGE_H / 2 - 1, bw - 6);
}

function connectors(p: Pen, names: string[], x: number, w: number, y: number): void {
  if (!p.lod.connectors || names.length === 0) return;
  const ctx = p.ctx;
  ctx.beginPath();
  for (let i = 0; i < names.length; i++) {
    const cx = connectorX(x, w, i, names.length);
    ctx.moveTo(cx + CONNECTOR_R, y);
    ctx.arc(cx, y, CONNECTOR_R, 0, 2 * Math.PI);
  }
  ctx.fillStyle = p.pal.surface;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = p.pal.graph.connector;
  ctx.stroke();
}
