/**
 * Canvas 2D drawing of a scene, in one pass per frame: culled to the viewport, with the level of detail of the
 * zoom, edges batched by style into one path each. Shapes follow SDFV so DaCe users read them at a glance:
 * states as rounded boxes, maps as trapezoids, tasklets as octagons, access nodes as ellipses, nested SDFGs as
 * double boxes.
 */
import type { GraphNode } from '../../../electron/engine/view/public.js';
import { palette, type Palette, type ThemeName } from '../theme/index.js';
import { nodeFill, roundRect, shapePath, trapezoid, type Ctx } from './shapes.js';
import { TextFitter } from './fit-text.js';
import { BADGE_H, connectorX, CONNECTOR_R, hasBadge, SCOPE_FOOTER_H, SCOPE_GAP } from './geometry.js';
import { HEADER_TITLE_PX, lodFor, type Lod } from './lod.js';
import { fateBytes, type TransientMarks } from './marks.js';
import { toggleRect, type Scene, type SceneNode, type SceneEdge } from './scene.js';
import { font, formatBytes, frameLines, LINE_H, nodeLines, type Line } from './text.js';
import { FONT_SANS, MODE_NAMES } from '../theme/index.js';

export interface Viewport {
  /** Zoom: screen px per graph unit. */
  k: number;
  tx: number;
  ty: number;
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
}

export interface DrawState {
  theme: ThemeName;
  hover: number;
  hoverEdge: number;
  selected: string | null;
  matches: ReadonlySet<string>;
  transient: string | null;
  marks: TransientMarks;
}

export interface DrawStats {
  nodes: number;
  edges: number;
  texts: number;
}

export class GraphPainter {
  private pal: Palette;
  private lod: Lod = lodFor(1);
  private k = 1;
  private texts = 0;
  private ctx!: Ctx;
  private state!: DrawState;
  private vp!: Viewport;
  private readonly fitter = new TextFitter();

  constructor(theme: ThemeName) {
    this.pal = palette(theme);
  }

  draw(ctx: Ctx, scene: Scene | null, vp: Viewport, state: DrawState): DrawStats {
    this.ctx = ctx;
    this.fitter.use(ctx);
    this.state = state;
    this.vp = vp;
    this.pal = palette(state.theme);
    this.k = vp.k;
    this.lod = lodFor(vp.k);
    this.texts = 0;
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    ctx.fillStyle = this.pal.background;
    ctx.fillRect(0, 0, vp.width, vp.height);
    if (!scene) return { nodes: 0, edges: 0, texts: 0 };
    ctx.setTransform(vp.dpr * vp.k, 0, 0, vp.dpr * vp.k, vp.dpr * vp.tx, vp.dpr * vp.ty);
    const x0 = -vp.tx / vp.k, y0 = -vp.ty / vp.k;
    const x1 = (vp.width - vp.tx) / vp.k, y1 = (vp.height - vp.ty) / vp.k;

    // Pass 1: frames (background + header) and closed frames; collect the leaves to draw after the edges.
    const leaves: number[] = [];
    const open = new Uint8Array(scene.nodes.length);
    const nodes = scene.nodes;
    let i = 0;
    while (i < nodes.length) {
      const n = nodes[i]!;
      if (n.x > x1 || n.y > y1 || n.x + n.w < x0 || n.y + n.h < y0) {
        i = n.end;
        continue;
      }
      if (n.expanded) {
        if (Math.min(n.w, n.h) * vp.k < this.lod.minFramePx) {
          leaves.push(i);
          i = n.end;
          continue;
        }
        this.frame(n);
        open[i] = 1;
        i++;
        continue;
      }
      leaves.push(i);
      i++;
    }

    // Pass 2: edges of drawn regions.
    const drawnEdges = this.edges(scene, open, x0, y0, x1, y1);

    // Pass 3: nodes, then what marks them (selection, hover, search, transient).
    // Nodes too small for their shape are plain rectangles, filled and outlined one batch per colour.
    const batches = new Map<string, number[]>();
    for (const li of leaves) {
      const n = nodes[li]!;
      if (Math.min(n.w, n.h) * vp.k >= this.lod.simpleShapePx) this.leaf(n);
      else {
        const key = nodeFill(n.node, this.pal, state.marks).join('|');
        const list = batches.get(key);
        if (list) list.push(li);
        else batches.set(key, [li]);
      }
    }
    for (const [key, list] of batches) this.simpleBatch(key, list, nodes);
    this.overlays(scene, open, leaves);
    return { nodes: leaves.length + open.reduce((s, v) => s + v, 0), edges: drawnEdges, texts: this.texts };
  }

  // -------------------------------------------------------------------------------------------------------

  private lw(px: number): number {
    return px / this.k;
  }

  /** Dashes in screen pixels: in graph units they shrink below a pixel when zoomed out, and a software
   * rasteriser then strokes thousands of sub-pixel dashes per line (the costliest part of a zoomed-out frame). */
  private dash(...px: number[]): void {
    this.ctx.setLineDash(px.map((p) => p / this.k));
  }

  /** Draws one line in the current font, cut with an ellipsis to `maxWidth` (never squeezed). */
  private text(line: Line, x: number, y: number, maxWidth?: number): void {
    const t = maxWidth === undefined ? line.text : this.fitter.fit(line.text, maxWidth);
    if (t === '') return;
    this.texts++;
    this.ctx.fillText(t, x, y);
  }

  private lines(lines: Line[], cx: number, top: number, color: string, muted: string, maxWidth: number): void {
    const ctx = this.ctx;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    let y = top;
    let last = '';
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (i > 0 && !this.lod.detail) break;
      const f = font(l.role);
      if (f !== last) {
        ctx.font = f;
        last = f;
      }
      ctx.fillStyle = l.role === 'small' ? muted : color;
      this.text(l, cx, y + LINE_H[l.role] / 2, maxWidth);
      y += LINE_H[l.role];
    }
  }

  private toggle(n: SceneNode): void {
    if (n.node.expand === null || !this.lod.text) return;
    const ctx = this.ctx;
    const [tx, ty, tw, th] = toggleRect(n);
    ctx.beginPath();
    roundRect(ctx, tx, ty, tw, th, 3);
    ctx.fillStyle = this.pal.surface;
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = this.pal.border;
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(tx + 3.5, ty + th / 2);
    ctx.lineTo(tx + tw - 3.5, ty + th / 2);
    if (!n.expanded) {
      ctx.moveTo(tx + tw / 2, ty + 3.5);
      ctx.lineTo(tx + tw / 2, ty + th - 3.5);
    }
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = this.pal.textMuted;
    ctx.stroke();
  }

  /** "3 transients · 30.0 MiB" and a bar of bytes per mode fate, centred in [x, x + w] or left-aligned at x. */
  private badge(n: GraphNode, x: number, y: number, w: number, align: 'center' | 'left' = 'center'): void {
    const ids = n.summary?.transients ?? [];
    if (ids.length === 0 || !this.lod.detail) return;
    const ctx = this.ctx;
    const marks = this.state.marks;
    const fb = fateBytes(ids, marks);
    const bytes = marks.size === 0 ? '' : fb.total > 0 ? ` · ${formatBytes(fb.total)}${fb.unknown ? '+' : ''}` : fb.unknown ? ' · symbolic' : '';
    const label = `${ids.length} transient${ids.length === 1 ? '' : 's'}${bytes}`;
    ctx.font = font('small');
    const bw = Math.min(w - 16, Math.max(80, this.fitter.measure(label) + 16));
    const bx = align === 'center' ? x + (w - bw) / 2 : x;
    ctx.beginPath();
    roundRect(ctx, bx, y + 2, bw, BADGE_H - 5, 6);
    ctx.fillStyle = this.pal.graph.badge;
    ctx.fill();
    if (fb.total > 0) {
      let cx = bx + 4;
      const barW = bw - 8;
      for (const m of MODE_NAMES) {
        const v = fb.byFate[m];
        if (!v) continue;
        const seg = (barW * v) / fb.total;
        ctx.fillStyle = this.pal.modes[m];
        ctx.fillRect(cx, y + BADGE_H - 6, seg, 2.5);
        cx += seg;
      }
    }
    ctx.fillStyle = this.pal.graph.badgeText;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    this.text({ text: label, role: 'small' }, bx + bw / 2, y + BADGE_H / 2 - 1, bw - 6);
  }

  private connectors(names: string[], x: number, w: number, y: number): void {
    if (!this.lod.connectors || names.length === 0) return;
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i < names.length; i++) {
      const cx = connectorX(x, w, i, names.length);
      ctx.moveTo(cx + CONNECTOR_R, y);
      ctx.arc(cx, y, CONNECTOR_R, 0, 2 * Math.PI);
    }
    ctx.fillStyle = this.pal.surface;
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = this.pal.graph.connector;
    ctx.stroke();
  }

  private frame(n: SceneNode): void {
    const ctx = this.ctx;
    const node = n.node;
    const g = this.pal.graph;
    const [fill, border] = nodeFill(node, this.pal, this.state.marks);
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
      this.dash(4, 4);
      ctx.beginPath();
      ctx.moveTo(n.x + 0.5, n.y + ins.top - SCOPE_GAP);
      ctx.lineTo(n.x + 0.5, n.y + n.h - SCOPE_FOOTER_H);
      ctx.moveTo(n.x + n.w - 0.5, n.y + ins.top - SCOPE_GAP);
      ctx.lineTo(n.x + n.w - 0.5, n.y + n.h - SCOPE_FOOTER_H);
      ctx.strokeStyle = border;
      ctx.stroke();
      ctx.setLineDash([]);
      if ('entryOut' in node) {
        this.connectors(n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
        this.connectors(n.boundary?.entryOut ?? node.entryOut, n.x, n.w, n.y + ins.top - SCOPE_GAP);
        this.connectors(n.boundary?.exitIn ?? node.exitIn, n.x, n.w, n.y + n.h - SCOPE_FOOTER_H);
        this.connectors(n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
      }
    } else {
      ctx.beginPath();
      if (node.kind === 'nested_sdfg') ctx.rect(n.x, n.y, n.w, n.h);
      else roundRect(ctx, n.x, n.y, n.w, n.h, 8);
      ctx.fillStyle = fill;
      ctx.fill();
      ctx.strokeStyle = border;
      if (node.kind === 'region' || node.kind === 'branch') this.dash(5, 3);
      ctx.stroke();
      ctx.setLineDash([]);
      if (node.kind === 'nested_sdfg') {
        ctx.beginPath();
        ctx.rect(n.x + 4, n.y + 4, n.w - 8, n.h - 8);
        ctx.stroke();
        this.connectors(n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
        this.connectors(n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
      }
      // Header band.
      ctx.beginPath();
      ctx.moveTo(n.x + 1, n.y + ins.top - 2);
      ctx.lineTo(n.x + n.w - 1, n.y + ins.top - 2);
      ctx.lineWidth = 0.8;
      ctx.strokeStyle = this.pal.grid;
      ctx.stroke();
    }
    this.frameHeader(n);
  }

  private frameHeader(n: SceneNode): void {
    const ctx = this.ctx;
    const lines = frameLines(n.node);
    const isScope = n.node.kind === 'map' || n.node.kind === 'consume';
    if (this.lod.text) {
      ctx.textAlign = isScope ? 'center' : 'left';
      ctx.textBaseline = 'middle';
      let y = n.y + 8;
      const x = isScope ? n.x + n.w / 2 : n.x + 12;
      for (let i = 0; i < lines.length; i++) {
        const l = lines[i]!;
        if (i > 0 && !this.lod.detail) break;
        ctx.font = font(l.role);
        ctx.fillStyle = l.role === 'small' ? this.pal.textMuted : this.pal.text;
        this.text(l, x, y + LINE_H[l.role] / 2, n.w - 40);
        y += LINE_H[l.role];
      }
      if (hasBadge(n.node)) this.badge(n.node, isScope ? n.x : n.x + 10, y + 1, isScope ? n.w : n.w - 20, isScope ? 'center' : 'left');
      this.toggle(n);
    } else if (n.w * this.k > 60) {
      // Zoomed out: the title stays readable at a fixed screen size so the big picture can be navigated. It is
      // drawn in screen space so that its font (and the width cache) does not change with every zoom step.
      const vp = this.vp;
      ctx.save();
      ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
      ctx.font = `600 ${HEADER_TITLE_PX}px ${FONT_SANS}`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillStyle = this.pal.text;
      this.text({ text: lines[0]!.text, role: 'title' }, n.x * vp.k + vp.tx + 6, n.y * vp.k + vp.ty + 4, n.w * vp.k - 12);
      ctx.restore();
    }
  }

  private simpleBatch(key: string, list: number[], nodes: SceneNode[]): void {
    const ctx = this.ctx;
    const [fill, border] = key.split('|') as [string, string];
    ctx.beginPath();
    for (const i of list) {
      const n = nodes[i]!;
      ctx.rect(n.x, n.y, n.w, n.h);
    }
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = this.lw(0.6);
    ctx.strokeStyle = border;
    ctx.stroke();
  }

  private leaf(n: SceneNode): void {
    const ctx = this.ctx;
    const node = n.node;
    const [fill, border] = nodeFill(node, this.pal, this.state.marks);
    ctx.beginPath();
    shapePath(ctx, n);
    ctx.fillStyle = fill;
    ctx.fill();
    const mark = node.kind === 'access' && node.transient !== null ? this.state.marks.get(node.transient) : undefined;
    ctx.lineWidth = node.kind === 'access' ? (node.transient === null ? 2.2 : mark?.fate ? Math.max(2.5, this.lw(1.5)) : 1.2) : node.kind === 'state' && node.start ? 2 : 1.2;
    ctx.strokeStyle = border;
    if (node.kind === 'unknown') this.dash(4, 3);
    ctx.stroke();
    ctx.setLineDash([]);
    if (node.kind === 'nested_sdfg') {
      ctx.beginPath();
      ctx.rect(n.x + 4, n.y + 4, n.w - 8, n.h - 8);
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    if ('inConnectors' in node) {
      this.connectors(n.ports?.in ?? node.inConnectors, n.x, n.w, n.y);
      this.connectors(n.ports?.out ?? node.outConnectors, n.x, n.w, n.y + n.h);
    }
    if (!this.lod.text) return;
    let lines = nodeLines(node);
    if (node.kind === 'access' && node.transient !== null && lines.length > 1) {
      const storage = mark?.storage ?? node.storage ?? '';
      lines = [lines[0]!, { text: mark ? `${mark.tag} · ${storage}` : storage, role: 'small' }];
    }
    const badge = hasBadge(node) ? BADGE_H : 0;
    let textH = 0;
    for (let i = 0; i < lines.length; i++) if (i === 0 || this.lod.detail) textH += LINE_H[lines[i]!.role];
    const top = n.y + (n.h - badge - textH) / 2;
    const colour = this.pal.text;
    const muted = mark?.fate ? this.pal.modes[mark.fate] : this.pal.textMuted;
    const inset = node.expand !== null ? 24 : 10;
    this.lines(lines, n.x + n.w / 2 - (node.expand !== null ? 8 : 0), top, colour, node.kind === 'access' ? muted : this.pal.textMuted, n.w - inset);
    if (badge) this.badge(node, n.x, n.y + n.h - BADGE_H - 2, n.w);
    this.toggle(n);
  }

  // -------------------------------------------------------------------------------------------------------
  // Edges
  // -------------------------------------------------------------------------------------------------------

  private trace(ctx: Ctx, pts: Float64Array, curves: boolean): void {
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

  private arrow(ctx: Ctx, pts: Float64Array): void {
    const n = pts.length;
    const ex = pts[n - 2]!, ey = pts[n - 1]!;
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

  private edges(scene: Scene, open: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
    const ctx = this.ctx;
    const st = this.state;
    const hoverNode = st.hover;
    const selectedIdx = st.selected === null ? -1 : scene.byId.get(st.selected) ?? -1;
    const selectedEdge = st.selected === null ? -1 : scene.edgeById.get(st.selected) ?? -1;
    const groups: Record<'memlet' | 'empty' | 'interstate' | 'hot' | 'transient', number[]> = { memlet: [], empty: [], interstate: [], hot: [], transient: [] };
    scene.edges.forEach((e, k) => {
      if (e.owner >= 0 && !open[e.owner]) return;
      if (e.maxX < x0 || e.minX > x1 || e.maxY < y0 || e.minY > y1) return;
      const hot = k === st.hoverEdge || k === selectedEdge || (hoverNode >= 0 && (e.src === hoverNode || e.dst === hoverNode)) || (selectedIdx >= 0 && (e.src === selectedIdx || e.dst === selectedIdx));
      if (hot) groups.hot.push(k);
      else if (e.edge.kind === 'interstate') groups.interstate.push(k);
      else if (st.transient !== null && e.edge.transient === st.transient) groups.transient.push(k);
      else if (e.edge.data === null) groups.empty.push(k);
      else groups.memlet.push(k);
    });
    const g = this.pal.graph;
    const stroke = (list: number[], colour: string, width: number, dash: number[] | null): void => {
      if (list.length === 0) return;
      ctx.beginPath();
      for (const k of list) this.trace(ctx, scene.edges[k]!.points, this.lod.curves);
      ctx.lineWidth = width;
      ctx.strokeStyle = colour;
      if (dash) this.dash(...dash);
      ctx.stroke();
      if (dash) ctx.setLineDash([]);
      if (this.lod.arrows) {
        ctx.beginPath();
        for (const k of list) this.arrow(ctx, scene.edges[k]!.points);
        ctx.fillStyle = colour;
        ctx.fill();
      }
    };
    const thin = Math.max(1.1, this.lw(0.8));
    stroke(groups.empty, g.edge, thin, [4, 4]);
    stroke(groups.memlet, g.edge, thin, null);
    stroke(groups.interstate, g.interstate, Math.max(1.5, this.lw(0.9)), null);
    stroke(groups.transient, this.pal.accent, Math.max(2.2, this.lw(1.5)), null);
    stroke(groups.hot, this.pal.accent, Math.max(2, this.lw(1.5)), null);
    if (this.lod.memletLabels || this.lod.interstateLabels) this.edgeLabels(scene, [...groups.memlet, ...groups.transient, ...groups.hot, ...groups.interstate]);
    return groups.memlet.length + groups.empty.length + groups.interstate.length + groups.hot.length + groups.transient.length;
  }

  /** Memlet and interstate labels, greedily: a label that would cover one already drawn is left out (hover
   * shows every edge's full label). */
  private edgeLabels(scene: Scene, list: number[]): void {
    const placed: number[] = [];
    const free = (x0: number, y0: number, x1: number, y1: number): boolean => {
      for (let i = 0; i < placed.length; i += 4) if (x0 < placed[i + 2]! && x1 > placed[i]! && y0 < placed[i + 3]! && y1 > placed[i + 1]!) return false;
      return true;
    };
    // Interstate labels have room reserved by the layout: they go first.
    const order = [...list].sort((a, b) => (scene.edges[a]!.edge.kind === 'interstate' ? 0 : 1) - (scene.edges[b]!.edge.kind === 'interstate' ? 0 : 1));
    for (const k of order) {
      if (placed.length > 4 * 400) break;
      const e = scene.edges[k]!;
      const label = e.edge.label;
      if (label === '') continue;
      if (e.edge.kind === 'interstate') {
        if (!this.lod.interstateLabels || Number.isNaN(e.labelX)) continue;
        this.labelPlate(label.split('; ').slice(0, 4), e.labelX, e.labelY, 'mono', this.pal.graph.edgeLabel, placed, free);
      } else if (this.lod.memletLabels) {
        const [mx, my] = midpoint(e);
        this.labelPlate([label], mx, my, 'small', this.pal.graph.edgeLabel, placed, free);
      }
    }
  }

  private labelPlate(
    lines: string[],
    cx: number,
    cy: number,
    role: 'mono' | 'small',
    colour: string,
    placed: number[],
    free: (x0: number, y0: number, x1: number, y1: number) => boolean,
  ): void {
    const ctx = this.ctx;
    ctx.font = font(role);
    const lh = LINE_H[role];
    const h = lines.length * lh;
    const shown = lines.map((l) => this.fitter.fit(l, 300));
    let w = 0;
    for (const l of shown) w = Math.max(w, this.fitter.measure(l));
    const x0 = cx - w / 2 - 3, y0 = cy - h / 2, x1 = cx + w / 2 + 3, y1 = cy + h / 2;
    if (!free(x0, y0, x1, y1)) return;
    placed.push(x0, y0, x1, y1);
    ctx.fillStyle = this.pal.background;
    ctx.globalAlpha = 0.85;
    ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = colour;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    shown.forEach((l, i) => this.text({ text: l, role }, cx, cy - h / 2 + lh * (i + 0.5)));
  }

  // -------------------------------------------------------------------------------------------------------
  // Overlays
  // -------------------------------------------------------------------------------------------------------

  private outline(n: SceneNode, colour: string, px: number): void {
    const ctx = this.ctx;
    const pad = this.lw(px) / 2 + 1;
    ctx.beginPath();
    if (n.expanded || n.node.kind === 'state' || n.node.kind === 'loop' || n.node.kind === 'region' || n.node.kind === 'conditional' || n.node.kind === 'branch') roundRect(ctx, n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad, 9);
    else if (n.node.kind === 'access') ctx.ellipse(n.x + n.w / 2, n.y + n.h / 2, n.w / 2 + pad, n.h / 2 + pad, 0, 0, 2 * Math.PI);
    else ctx.rect(n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad);
    ctx.lineWidth = this.lw(px);
    ctx.strokeStyle = colour;
    ctx.stroke();
  }

  private overlays(scene: Scene, open: Uint8Array, leaves: number[]): void {
    const st = this.state;
    const drawn = new Uint8Array(scene.nodes.length);
    for (const i of leaves) drawn[i] = 1;
    const visible = (i: number): boolean => open[i] === 1 || drawn[i] === 1;
    if (st.transient !== null) {
      for (const i of leaves) {
        const n = scene.nodes[i]!;
        const node = n.node;
        if (node.kind === 'access' && node.transient === st.transient) this.outline(n, this.pal.accent, 3);
        else if (node.summary?.transients.includes(st.transient)) this.outline(n, this.pal.accent, 1.5);
      }
    }
    for (const id of st.matches) {
      const i = scene.byId.get(id);
      if (i !== undefined && visible(i)) this.outline(scene.nodes[i]!, this.pal.match, 2.5);
    }
    if (st.hover >= 0 && visible(st.hover)) this.outline(scene.nodes[st.hover]!, this.pal.hover, 1.5);
    if (st.selected !== null) {
      const i = scene.byId.get(st.selected);
      if (i !== undefined && visible(i)) this.outline(scene.nodes[i]!, this.pal.accent, 2.5);
    }
  }
}

/** A point halfway along an edge, where its label goes. */
export function midpoint(e: SceneEdge): [number, number] {
  const p = e.points;
  const n = p.length / 2;
  if (n % 2 === 1) return [p[n - 1]!, p[n]!];
  const a = n / 2 - 1;
  return [(p[2 * a]! + p[2 * a + 2]!) / 2, (p[2 * a + 1]! + p[2 * a + 3]!) / 2];
}
