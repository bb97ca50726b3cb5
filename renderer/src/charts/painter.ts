/**
 * The painter: the one drawing vocabulary every chart speaks, with two backends.
 * - CanvasPainter (painter-canvas.ts): immediate Canvas2D, for the app (30k bars in a frame);
 * - SvgPainter (painter-svg.ts): an SVG document as a string, for reports, print and PDF (vectors), and for
 *   Node (no DOM needed) and tests.
 * Charts lay out in CSS pixels with `textWidth` (text.ts), never with a backend's own text metrics, so both
 * backends give the same picture.
 */

/** Diagonal hatching (the `dace` layout, free times): lines of `color` over `background` (or nothing). */
export interface Hatch {
  hatch: string;
  background?: string;
}

export type Fill = string | Hatch;

export interface ShapeStyle {
  fill?: Fill;
  stroke?: string;
  strokeWidth?: number;
  /** Dash pattern in px (SVG stroke-dasharray / canvas setLineDash). */
  dash?: readonly number[];
  opacity?: number;
}

export interface TextStyle {
  color: string;
  size: number;
  /** 400 regular, 600 semibold (widths: text.ts `bold`). */
  weight?: 400 | 600;
  align?: 'start' | 'middle' | 'end';
  baseline?: 'top' | 'middle' | 'alphabetic' | 'bottom';
  mono?: boolean;
  /** Rotation in degrees around (x, y); -90 writes upwards (y-axis titles). */
  rotate?: number;
  opacity?: number;
}

export interface Painter {
  readonly kind: 'canvas' | 'svg';
  /** Starts a picture of `width` × `height` CSS px, filled with `background` (null: transparent). */
  begin(width: number, height: number, background: string | null): void;
  rect(x: number, y: number, w: number, h: number, style: ShapeStyle): void;
  line(x1: number, y1: number, x2: number, y2: number, style: ShapeStyle): void;
  /** An open polyline through `n` points (stroke only). */
  polyline(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, style: ShapeStyle): void;
  /** A closed polygon through `n` points (fill and/or stroke). */
  polygon(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, style: ShapeStyle): void;
  circle(cx: number, cy: number, r: number, style: ShapeStyle): void;
  text(x: number, y: number, text: string, style: TextStyle): void;
  /** Restricts drawing to a rectangle until the matching `unclip`. */
  clip(x: number, y: number, w: number, h: number): void;
  unclip(): void;
  /** Names a group of marks (SVG `<g class>`; ignored on canvas): reports and tests find parts by it. */
  group(name: string): void;
  endGroup(): void;
  end(): void;
}

export const isHatch = (f: Fill | undefined): f is Hatch => typeof f === 'object' && f !== null;

/** Hatch geometry shared by both backends: 45° lines every `HATCH_GAP` px, `HATCH_WIDTH` px wide. */
export const HATCH_GAP = 5;
export const HATCH_WIDTH = 1.5;

/**
 * Offset from the requested baseline to the alphabetic one, in em: both backends draw alphabetic text at
 * `y + baselineShift(style) * size`, so vertical placement is the same in canvas, SVG and PDF viewers
 * (SVG's dominant-baseline is not honoured everywhere).
 */
export function baselineShift(baseline: TextStyle['baseline']): number {
  switch (baseline) {
    case 'top':
      return 0.8;
    case 'middle':
      return 0.36;
    case 'bottom':
      return -0.22;
    default:
      return 0;
  }
}
