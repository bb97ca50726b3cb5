/**
 * What every drawing function of a graph frame shares (draw.ts, draw-nodes.ts, draw-edges.ts): the context, the
 * palette, the level of detail and zoom of the frame, its state (hover, selection, marks), the text fitter, and
 * the frame's count of texts drawn; with the helpers that depend on the zoom (line widths and dashes in screen
 * pixels, text cut to a width).
 */
import { palette, type Palette, type ThemeName } from '../theme/index.js';
import type { DrawState, Viewport } from './draw.js';
import { TextFitter } from './fit-text.js';
import { lodFor, type Lod } from './lod.js';
import type { Ctx } from './shapes.js';
import type { Line } from './text.js';

export class Pen {
  pal: Palette;
  lod: Lod = lodFor(1);
  k = 1;
  texts = 0;
  ctx!: Ctx;
  state!: DrawState;
  vp!: Viewport;
  readonly fitter = new TextFitter();

  constructor(theme: ThemeName) {
    this.pal = palette(theme);
  }

  /** A new frame: its context, viewport and state. */
  begin(ctx: Ctx, vp: Viewport, state: DrawState): void {
    this.ctx = ctx;
    this.fitter.use(ctx);
    this.state = state;
    this.vp = vp;
    this.pal = palette(state.theme);
    this.k = vp.k;
    this.lod = lodFor(vp.k);
    this.texts = 0;
  }

  lw(px: number): number {
    return px / this.k;
  }

  /** Dashes in screen pixels: in graph units they shrink below a pixel when zoomed out, and a software
   * rasteriser then strokes thousands of sub-pixel dashes per line (the costliest part of a zoomed-out frame). */
  dash(...px: number[]): void {
    this.ctx.setLineDash(px.map((p) => p / this.k));
  }

  /** Draws one line in the current font, cut with an ellipsis to `maxWidth` (never squeezed). */
  text(line: Line, x: number, y: number, maxWidth?: number): void {
    const t = maxWidth === undefined ? line.text : this.fitter.fit(line.text, maxWidth);
    if (t === '') return;
    this.texts++;
    this.ctx.fillText(t, x, y);
  }
}
