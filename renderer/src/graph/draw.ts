/**
 * Canvas 2D drawing of a scene, in one pass per frame: culled to the viewport, with the level of detail of the
 * zoom, edges batched by style into one path each. Shapes follow SDFV so DaCe users read them at a glance:
 * states as rounded boxes, maps as trapezoids, tasklets as octagons, access nodes as ellipses, nested SDFGs as
 * double boxes. Nodes are drawn by draw-nodes.ts, edges by draw-edges.ts; this file runs the passes of a frame
 * and draws what marks the nodes on top (transient, search matches, hover, selection).
 */
import type { ThemeName } from '../theme/index.js';
import { edges } from './draw-edges.js';
import { frame, leaf, simpleBatch } from './draw-nodes.js';
import { Pen } from './draw-pen.js';
import type { TransientMarks } from './marks.js';
import type { Scene, SceneNode } from './scene.js';
import { nodeFill, roundRect, type Ctx } from './shapes.js';

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
  private readonly pen: Pen;

  constructor(theme: ThemeName) {
    this.pen = new Pen(theme);
  }

  draw(ctx: Ctx, scene: Scene | null, vp: Viewport, state: DrawState): DrawStats {
    const p = this.pen;
    p.begin(ctx, vp, state);
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    ctx.fillStyle = p.pal.background;
    ctx.fillRect(0, 0, vp.width, vp.height);
    if (!scene) return { nodes: 0, edges: 0, texts: 0 };
    ctx.setTransform(vp.dpr * vp.k, 0, 0, vp.dpr * vp.k, vp.dpr * vp.tx, vp.dpr * vp.ty);
    const x0 = -vp.tx / vp.k,
      y0 = -vp.ty / vp.k;
    const x1 = (vp.width - vp.tx) / vp.k,
      y1 = (vp.height - vp.ty) / vp.k;

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
        if (Math.min(n.w, n.h) * vp.k < p.lod.minFramePx) {
          leaves.push(i);
          i = n.end;
          continue;
        }
        frame(p, n);
        open[i] = 1;
        i++;
        continue;
      }
      leaves.push(i);
      i++;
    }

    // Pass 2: edges of drawn regions.
    const drawnEdges = edges(p, scene, open, x0, y0, x1, y1);

    // Pass 3: nodes, then what marks them (selection, hover, search, transient).
    // Nodes too small for their shape are plain rectangles, filled and outlined one batch per colour.
    const batches = new Map<string, number[]>();
    for (const li of leaves) {
      const n = nodes[li]!;
      if (Math.min(n.w, n.h) * vp.k >= p.lod.simpleShapePx) leaf(p, n);
      else {
        const key = nodeFill(n.node, p.pal, state.marks).join('|');
        const list = batches.get(key);
        if (list) list.push(li);
        else batches.set(key, [li]);
      }
    }
    for (const [key, list] of batches) simpleBatch(p, key, list, nodes);
    overlays(p, scene, open, leaves);
    return { nodes: leaves.length + open.reduce((s, v) => s + v, 0), edges: drawnEdges, texts: p.texts };
  }
}

function outline(p: Pen, n: SceneNode, colour: string, px: number): void {
  const ctx = p.ctx;
  const pad = p.lw(px) / 2 + 1;
  ctx.beginPath();
  if (
    n.expanded ||
    n.node.kind === 'state' ||
    n.node.kind === 'loop' ||
    n.node.kind === 'region' ||
    n.node.kind === 'conditional' ||
    n.node.kind === 'branch'
  )
    roundRect(ctx, n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad, 9);
  else if (n.node.kind === 'access') ctx.ellipse(n.x + n.w / 2, n.y + n.h / 2, n.w / 2 + pad, n.h / 2 + pad, 0, 0, 2 * Math.PI);
  else ctx.rect(n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad);
  ctx.lineWidth = p.lw(px);
  ctx.strokeStyle = colour;
  ctx.stroke();
}

function overlays(p: Pen, scene: Scene, open: Uint8Array, leaves: number[]): void {
  const st = p.state;
  const drawn = new Uint8Array(scene.nodes.length);
  for (const i of leaves) drawn[i] = 1;
  const visible = (i: number): boolean => open[i] === 1 || drawn[i] === 1;
  if (st.transient !== null) {
    for (const i of leaves) {
      const n = scene.nodes[i]!;
      const node = n.node;
      if (node.kind === 'access' && node.transient === st.transient) outline(p, n, p.pal.accent, 3);
      else if (node.summary?.transients.includes(st.transient)) outline(p, n, p.pal.accent, 1.5);
    }
  }
  for (const id of st.matches) {
    const i = scene.byId.get(id);
    if (i !== undefined && visible(i)) outline(p, scene.nodes[i]!, p.pal.match, 2.5);
  }
  if (st.hover >= 0 && visible(st.hover)) outline(p, scene.nodes[st.hover]!, p.pal.hover, 1.5);
  if (st.selected !== null) {
    const i = scene.byId.get(st.selected);
    if (i !== undefined && visible(i)) outline(p, scene.nodes[i]!, p.pal.accent, 2.5);
  }
}
