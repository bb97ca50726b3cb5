/**
 * SVG backend of the painter: builds one standalone SVG document as a string. No DOM, so it runs in Node
 * (CLI reports, PDF through print) as well as in the browser; presentation attributes only (no style
 * attributes), so a strict CSP that forbids inline styles still lets it show.
 */
import { FONT_MONO, FONT_SANS } from '../theme/index.js';
import { HATCH_GAP, HATCH_WIDTH, baselineShift, isHatch, type Fill, type Painter, type ShapeStyle, type TextStyle } from './painter.js';

let documents = 0;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Coordinates with at most two decimals: smaller files, no visible difference. */
const n = (v: number): string => String(Math.round(v * 100) / 100);
const ANCHOR: Record<NonNullable<TextStyle['align']>, string> = { start: 'start', middle: 'middle', end: 'end' };

export class SvgPainter implements Painter {
  readonly kind = 'svg' as const;
  private readonly prefix: string;
  private width = 0;
  private height = 0;
  private defs: string[] = [];
  private body: string[] = [];
  private patterns = new Map<string, string>();
  private clips = 0;
  /** Open `<g>` elements, so that `end` can close what a chart left open. */
  private open = 0;

  /** `idPrefix` keeps pattern and clip ids unique when several charts share one HTML page. */
  constructor(idPrefix?: string) {
    this.prefix = idPrefix ?? `tl${++documents}`;
  }

  begin(width: number, height: number, background: string | null): void {
    this.width = width;
    this.height = height;
    this.defs = [];
    this.body = [];
    this.patterns.clear();
    this.clips = 0;
    this.open = 0;
    if (background) this.body.push(`<rect width="${n(width)}" height="${n(height)}" fill="${esc(background)}"/>`);
  }

  private fillAttr(f: Fill | undefined): string {
    if (!f) return ' fill="none"';
    if (!isHatch(f)) return ` fill="${esc(f)}"`;
    const key = `${f.hatch}|${f.background ?? ''}`;
    let id = this.patterns.get(key);
    if (!id) {
      id = `${this.prefix}-h${this.patterns.size}`;
      this.patterns.set(key, id);
      const s = HATCH_GAP * 2;
      const bg = f.background ? `<rect width="${s}" height="${s}" fill="${esc(f.background)}"/>` : '';
      this.defs.push(
        `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${s}" height="${s}">${bg}` +
          `<path d="M${-s},${s} L0,0 M0,${s} L${s},0 M${s},${s} L${2 * s},0" stroke="${esc(f.hatch)}" stroke-width="${HATCH_WIDTH}"/></pattern>`,
      );
    }
    return ` fill="url(#${id})"`;
  }

  private strokeAttr(style: ShapeStyle): string {
    if (!style.stroke) return '';
    let a = ` stroke="${esc(style.stroke)}"`;
    if ((style.strokeWidth ?? 1) !== 1) a += ` stroke-width="${n(style.strokeWidth!)}"`;
    if (style.dash?.length) a += ` stroke-dasharray="${style.dash.map(n).join(' ')}"`;
    return a;
  }

  private opacityAttr(style: { opacity?: number }): string {
    return style.opacity !== undefined && style.opacity < 1 ? ` opacity="${n(style.opacity)}"` : '';
  }

  rect(x: number, y: number, w: number, h: number, style: ShapeStyle): void {
    if (w <= 0 || h <= 0) return;
    let [rx, ry, rw, rh] = [x, y, w, h];
    if (style.stroke) {
      // Inside the box, as the canvas backend strokes it.
      const s = (style.strokeWidth ?? 1) / 2;
      [rx, ry, rw, rh] = [x + s, y + s, Math.max(0, w - 2 * s), Math.max(0, h - 2 * s)];
    }
    this.body.push(
      `<rect x="${n(rx)}" y="${n(ry)}" width="${n(rw)}" height="${n(rh)}"${this.fillAttr(style.fill)}${this.strokeAttr(style)}${this.opacityAttr(style)}/>`,
    );
  }

  line(x1: number, y1: number, x2: number, y2: number, style: ShapeStyle): void {
    this.body.push(`<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}"${this.strokeAttr(style)}${this.opacityAttr(style)}/>`);
  }

  private points(xs: ArrayLike<number>, ys: ArrayLike<number>, count: number): string {
    const parts = new Array<string>(count);
    for (let i = 0; i < count; i++) parts[i] = `${n(xs[i]!)},${n(ys[i]!)}`;
    return parts.join(' ');
  }

  polyline(xs: ArrayLike<number>, ys: ArrayLike<number>, count: number, style: ShapeStyle): void {
    if (count < 2 || !style.stroke) return;
    this.body.push(
      `<polyline points="${this.points(xs, ys, count)}" fill="none" stroke-linejoin="round"${this.strokeAttr(style)}${this.opacityAttr(style)}/>`,
    );
  }

  polygon(xs: ArrayLike<number>, ys: ArrayLike<number>, count: number, style: ShapeStyle): void {
    if (count < 3) return;
    this.body.push(
      `<polygon points="${this.points(xs, ys, count)}"${this.fillAttr(style.fill)}${this.strokeAttr(style)}${this.opacityAttr(style)}/>`,
    );
  }

  circle(cx: number, cy: number, r: number, style: ShapeStyle): void {
    this.body.push(
      `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"${this.fillAttr(style.fill)}${this.strokeAttr(style)}${this.opacityAttr(style)}/>`,
    );
  }

  text(x: number, y: number, text: string, style: TextStyle): void {
    const shift = baselineShift(style.baseline) * style.size;
    const family = style.mono ? FONT_MONO : FONT_SANS;
    const anchor = ANCHOR[style.align ?? 'start'];
    const transform = style.rotate ? ` transform="rotate(${n(style.rotate)} ${n(x)} ${n(y)})"` : '';
    this.body.push(
      `<text x="${n(x)}" y="${n(y + shift)}" font-family="${esc(family)}" font-size="${n(style.size)}"` +
        `${style.weight && style.weight !== 400 ? ` font-weight="${style.weight}"` : ''}` +
        `${anchor !== 'start' ? ` text-anchor="${anchor}"` : ''} fill="${esc(style.color)}"${transform}${this.opacityAttr(style)}>${esc(text)}</text>`,
    );
  }

  clip(x: number, y: number, w: number, h: number): void {
    const id = `${this.prefix}-c${this.clips++}`;
    this.defs.push(`<clipPath id="${id}"><rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"/></clipPath>`);
    this.body.push(`<g clip-path="url(#${id})">`);
    this.open++;
  }

  unclip(): void {
    if (this.open > 0) {
      this.body.push('</g>');
      this.open--;
    }
  }

  group(name: string): void {
    this.body.push(`<g class="${esc(name)}">`);
    this.open++;
  }

  endGroup(): void {
    this.unclip();
  }

  end(): void {
    while (this.open > 0) this.unclip();
  }

  /** The SVG document drawn since `begin`. */
  toString(): string {
    const defs = this.defs.length ? `<defs>${this.defs.join('')}</defs>` : '';
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${n(this.width)}" height="${n(this.height)}" viewBox="0 0 ${n(this.width)} ${n(this.height)}">` +
      `${defs}${this.body.join('')}</svg>`
    );
  }
}
