/** Canvas2D backend of the painter: device-pixel sharp, with fill/stroke state cached across marks. */
import { FONT_MONO, FONT_SANS } from '../theme/index.js';
import { HATCH_GAP, HATCH_WIDTH, baselineShift, isHatch, type Fill, type Painter, type ShapeStyle, type TextStyle } from './painter.js';

const ALIGN: Record<NonNullable<TextStyle['align']>, CanvasTextAlign> = { start: 'left', middle: 'center', end: 'right' };

export class CanvasPainter implements Painter {
  readonly kind = 'canvas' as const;
  private readonly patterns = new Map<string, CanvasPattern | string>();
  private lastFill: string | CanvasPattern | null = null;
  private lastStroke: string | null = null;
  private lastFont = '';

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    /** Device pixels per CSS pixel. */
    private readonly dpr: number = 1,
  ) {}

  begin(width: number, height: number, background: string | null): void {
    const { ctx, dpr } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.lastFill = null;
    this.lastStroke = null;
    this.lastFont = '';
    if (background) {
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, width, height);
    }
  }

  private fill(f: Fill): void {
    const style = isHatch(f) ? this.pattern(f.hatch, f.background ?? null) : f;
    if (style !== this.lastFill) {
      this.ctx.fillStyle = style;
      this.lastFill = style;
    }
  }

  private stroke(style: ShapeStyle): void {
    const { ctx } = this;
    if (style.stroke !== this.lastStroke) {
      ctx.strokeStyle = style.stroke!;
      this.lastStroke = style.stroke!;
    }
    ctx.lineWidth = style.strokeWidth ?? 1;
    ctx.setLineDash(style.dash ? [...style.dash] : []);
  }

  private pattern(color: string, background: string | null): CanvasPattern | string {
    const key = `${color}|${background ?? ''}|${this.dpr}`;
    let p = this.patterns.get(key);
    if (p) return p;
    const size = Math.round(HATCH_GAP * 2 * this.dpr);
    const tile = document.createElement('canvas');
    tile.width = size;
    tile.height = size;
    const t = tile.getContext('2d');
    if (!t) return color;
    if (background) {
      t.fillStyle = background;
      t.fillRect(0, 0, size, size);
    }
    t.strokeStyle = color;
    t.lineWidth = HATCH_WIDTH * this.dpr;
    t.beginPath();
    // Three strokes so that the tile repeats seamlessly along its diagonal.
    for (const o of [-size, 0, size]) {
      t.moveTo(o, size);
      t.lineTo(o + size, 0);
    }
    t.stroke();
    p = this.ctx.createPattern(tile, 'repeat') ?? color;
    if (typeof p !== 'string') p.setTransform(new DOMMatrix().scale(1 / this.dpr));
    this.patterns.set(key, p);
    return p;
  }

  private alpha(style: { opacity?: number }): void {
    this.ctx.globalAlpha = style.opacity ?? 1;
  }

  rect(x: number, y: number, w: number, h: number, style: ShapeStyle): void {
    if (w <= 0 || h <= 0) return;
    this.alpha(style);
    if (style.fill) {
      this.fill(style.fill);
      this.ctx.fillRect(x, y, w, h);
    }
    if (style.stroke) {
      this.stroke(style);
      const s = (style.strokeWidth ?? 1) / 2;
      this.ctx.strokeRect(x + s, y + s, Math.max(0, w - 2 * s), Math.max(0, h - 2 * s));
    }
  }

  line(x1: number, y1: number, x2: number, y2: number, style: ShapeStyle): void {
    const { ctx } = this;
    this.alpha(style);
    this.stroke(style);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  }

  private trace(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number): void {
    const { ctx } = this;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      if (i === 0) ctx.moveTo(xs[i]!, ys[i]!);
      else ctx.lineTo(xs[i]!, ys[i]!);
    }
  }

  polyline(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, style: ShapeStyle): void {
    if (n < 2 || !style.stroke) return;
    this.alpha(style);
    this.stroke(style);
    this.ctx.lineJoin = 'round';
    this.trace(xs, ys, n);
    this.ctx.stroke();
  }

  polygon(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, style: ShapeStyle): void {
    if (n < 3) return;
    this.alpha(style);
    this.trace(xs, ys, n);
    this.ctx.closePath();
    if (style.fill) {
      this.fill(style.fill);
      this.ctx.fill();
    }
    if (style.stroke) {
      this.stroke(style);
      this.ctx.stroke();
    }
  }

  circle(cx: number, cy: number, r: number, style: ShapeStyle): void {
    const { ctx } = this;
    this.alpha(style);
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    if (style.fill) {
      this.fill(style.fill);
      ctx.fill();
    }
    if (style.stroke) {
      this.stroke(style);
      ctx.stroke();
    }
  }

  text(x: number, y: number, text: string, style: TextStyle): void {
    const { ctx } = this;
    this.alpha(style);
    const font = `${style.weight ?? 400} ${style.size}px ${style.mono ? FONT_MONO : FONT_SANS}`;
    if (font !== this.lastFont) {
      ctx.font = font;
      this.lastFont = font;
    }
    this.fill(style.color);
    ctx.textAlign = ALIGN[style.align ?? 'start'];
    ctx.textBaseline = 'alphabetic';
    const shift = baselineShift(style.baseline) * style.size;
    if (style.rotate) {
      ctx.save();
      ctx.translate(x, y);
      ctx.rotate((style.rotate * Math.PI) / 180);
      ctx.fillText(text, 0, shift);
      ctx.restore();
      // restore() brings back the fill and font of before save(): forget the cache.
      this.lastFill = null;
      this.lastFont = '';
    } else ctx.fillText(text, x, y + shift);
  }

  clip(x: number, y: number, w: number, h: number): void {
    const { ctx } = this;
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, h);
    ctx.clip();
  }

  unclip(): void {
    this.ctx.restore();
    this.lastFill = null;
    this.lastStroke = null;
    this.lastFont = '';
  }

  group(): void {}
  endGroup(): void {}

  end(): void {
    this.ctx.globalAlpha = 1;
  }
}
