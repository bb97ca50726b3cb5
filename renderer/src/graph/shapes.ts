/**
 * The shapes of graph elements, as SDFV draws them (states rounded boxes, maps trapezoids, tasklets octagons,
 * access nodes ellipses, nested SDFGs double boxes), and their colours in a palette.
 */
import type { GraphNode } from '../../../electron/engine/view/public.js';
import { storageFamily, type Palette } from '../theme/index.js';
import type { TransientMarks } from './marks.js';
import type { SceneNode } from './scene.js';

export type Ctx = CanvasRenderingContext2D;

export function roundRect(ctx: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  const rr = Math.min(r, w / 2, h / 2);
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

function octagon(ctx: Ctx, x: number, y: number, w: number, h: number): void {
  const c = Math.min(10, h / 3, w / 4);
  ctx.moveTo(x + c, y);
  ctx.lineTo(x + w - c, y);
  ctx.lineTo(x + w, y + c);
  ctx.lineTo(x + w, y + h - c);
  ctx.lineTo(x + w - c, y + h);
  ctx.lineTo(x + c, y + h);
  ctx.lineTo(x, y + h - c);
  ctx.lineTo(x, y + c);
  ctx.closePath();
}

/** Map entry: wide at the bottom. `up = false` draws the exit (wide at the top). */
export function trapezoid(ctx: Ctx, x: number, y: number, w: number, h: number, up: boolean): void {
  const s = Math.min(h * 0.6, w / 4);
  if (up) {
    ctx.moveTo(x + s, y);
    ctx.lineTo(x + w - s, y);
    ctx.lineTo(x + w, y + h);
    ctx.lineTo(x, y + h);
  } else {
    ctx.moveTo(x, y);
    ctx.lineTo(x + w, y);
    ctx.lineTo(x + w - s, y + h);
    ctx.lineTo(x + s, y + h);
  }
  ctx.closePath();
}

export function nodeFill(n: GraphNode, p: Palette, marks: TransientMarks): [string, string] {
  const g = p.graph;
  switch (n.kind) {
    case 'state':
      return [g.state, g.stateBorder];
    case 'region':
      return [g.region, g.regionBorder];
    case 'loop':
      return [g.loop, g.loopBorder];
    case 'conditional':
      return [g.region, g.regionBorder];
    case 'branch':
      return [g.branch, g.regionBorder];
    case 'break':
    case 'continue':
    case 'return':
      return [g.jump, g.regionBorder];
    case 'access': {
      if (n.transient === null) return [g.access, g.accessBorder];
      const mark = marks.get(n.transient);
      return [p.storage[storageFamily(mark?.storage ?? n.storage ?? 'Default')], mark?.fate ? p.modes[mark.fate] : g.accessBorder];
    }
    case 'tasklet':
      return [g.tasklet, g.taskletBorder];
    case 'map':
    case 'consume':
      return [g.map, g.mapBorder];
    case 'nested_sdfg':
      return [g.nested, g.nestedBorder];
    case 'library':
      return [g.library, g.libraryBorder];
    case 'unknown':
      return [g.unknown, g.regionBorder];
  }
}

/** The outline of a closed node, as a path (not stroked). */
export function shapePath(ctx: Ctx, sn: SceneNode): void {
  const { x, y, w, h } = sn;
  const n = sn.node;
  switch (n.kind) {
    case 'access':
      ctx.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, 2 * Math.PI);
      break;
    case 'tasklet':
      octagon(ctx, x, y, w, h);
      break;
    case 'map':
    case 'consume':
      trapezoid(ctx, x, y, w, h, true);
      break;
    case 'nested_sdfg':
    case 'library':
    case 'unknown':
      ctx.rect(x, y, w, h);
      break;
    case 'break':
    case 'continue':
    case 'return':
      roundRect(ctx, x, y, w, h, h / 2);
      break;
    default:
      roundRect(ctx, x, y, w, h, 7);
  }
}
