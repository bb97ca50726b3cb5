/**
 * What a chart module is (`ChartSpec`), how the app and reports mount one (`mountChart`), and how a chart
 * becomes a standalone SVG without any DOM (`renderChartSVG`).
 *
 * A spec is pure: `draw` paints through a Painter and returns its layout; `hit` answers "what is under this
 * point" from that layout; interactions return a new state. The host owns the DOM: a canvas (or inline
 * SVG) for the picture, an SVG overlay for d3's brush, a tooltip, pointer and keyboard events, the
 * selection callbacks, and the coalesced frame (frame.ts).
 */
import { brushX, select, type BrushBehavior } from 'd3';
import type { ThemeName } from '../theme/index.js';
import { chartTheme, type ChartTheme } from './chart-theme.js';
import { cancelDraw, requestDraw } from './frame.js';
import type { Painter } from './painter.js';
import { CanvasPainter } from './painter-canvas.js';
import { SvgPainter } from './painter-svg.js';

/** What is under the pointer: a transient (`id`) or another part of the chart (`key`). */
export interface Hit {
  id: string | null;
  key: string;
}

export interface TooltipContent {
  title: string;
  /** Colour swatch next to the title (mode colour). */
  swatch?: string;
  rows: Array<[string, string]>;
  note?: string;
}

export interface FrameInput<S> {
  width: number;
  height: number;
  theme: ChartTheme;
  state: S;
  selected: string | null;
  hover: Hit | null;
  /** False when drawing for print/SVG export: no hover marks, no interaction hints. */
  interactive: boolean;
}

interface WheelInput {
  x: number;
  y: number;
  dx: number;
  dy: number;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

export interface ChartSpec<D, S, L> {
  /** CSS class of the chart's root element; also names the chart in messages. */
  name: string;
  initialState(data: D): S;
  /** New data, old state: keep what still applies (zoom on the same steps…). Default: start over. */
  carryState?(data: D, prev: S): S;
  /** Height the chart wants at `width` when the container does not fix one. */
  preferredHeight(data: D, width: number): number;
  draw(p: Painter, data: D, f: FrameInput<S>): L;
  hit(layout: L, x: number, y: number): Hit | null;
  tooltip(data: D, layout: L, hit: Hit): TooltipContent | null;
  /** One-sentence summary for screen readers (aria-label). */
  describe(data: D, layout: L): string;
  /** Where d3's x brush works (zooms), in chart pixels; null = no brush. */
  brushArea?(layout: L): { x0: number; y0: number; x1: number; y1: number } | null;
  /** A brushed pixel range, or null (double-click) to reset. */
  brushed?(data: D, layout: L, state: S, range: [number, number] | null): S;
  wheel?(data: D, layout: L, state: S, e: WheelInput): S | null;
  /** Keyboard: a new state and/or a selection (`undefined` = unchanged). */
  key?(data: D, layout: L, f: FrameInput<S>, key: string): { state?: S; select?: string | null } | null;
  /** State that shows transient `id` (e.g. scrolls its row into view), or null when already visible. */
  reveal?(data: D, layout: L, state: S, id: string): S | null;
}

export interface ChartOptions<D> {
  data: D;
  theme?: ThemeName;
  /** `canvas` (default, fast) or `svg` (vectors: reports, print). */
  backend?: 'canvas' | 'svg';
  /** Fixed height in px; default: the container's height, or the chart's preferred height when it has none. */
  height?: number;
  selectedTransient?: string | null;
  onHover?: (id: string | null) => void;
  onSelect?: (id: string | null) => void;
}

export interface ChartHandle<D> {
  readonly element: HTMLElement;
  /** Changes options; redraws in the next frame. */
  update(options: Partial<ChartOptions<D>>): void;
  /** The chart as it is now (size, zoom, selection) as a standalone SVG document. */
  toSVG(): string;
  /** Draw count and the duration of the last draw (ms), for benchmarks and the status bar. */
  readonly stats: { draws: number; lastDrawMs: number };
  destroy(): void;
}

export interface StaticOptions {
  width: number;
  height?: number;
  theme?: ThemeName;
  selectedTransient?: string | null;
  /** Prefix of ids inside the SVG (patterns, clips): unique per chart when several share a page. */
  idPrefix?: string;
}

/** A chart as a standalone SVG document, without a DOM (Node reports, PDF, tests). */
export function renderChartSVG<D, S, L>(spec: ChartSpec<D, S, L>, data: D, o: StaticOptions, state?: S): string {
  const painter = new SvgPainter(o.idPrefix);
  const height = o.height ?? spec.preferredHeight(data, o.width);
  spec.draw(painter, data, {
    width: o.width,
    height,
    theme: chartTheme(o.theme ?? 'light'),
    state: state ?? spec.initialState(data),
    selected: o.selectedTransient ?? null,
    hover: null,
    interactive: false,
  });
  return painter.toString();
}

function css(el: HTMLElement | SVGElement, props: Record<string, string>): void {
  // CSSOM assignments, not style attributes or <style> elements: allowed under a strict CSP.
  for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function mountChart<D, S, L>(container: HTMLElement, spec: ChartSpec<D, S, L>, initial: ChartOptions<D>): ChartHandle<D> {
  let opts: ChartOptions<D> = { ...initial };
  let state = spec.initialState(opts.data);
  let layout: L | null = null;
  let hover: Hit | null = null;
  let width = 0;
  let height = 0;
  let destroyed = false;
  const stats = { draws: 0, lastDrawMs: 0 };

  const root = document.createElement('div');
  root.className = `tlab-chart ${spec.name}`;
  root.tabIndex = 0;
  root.setAttribute('role', 'img');
  css(root, { position: 'relative', width: '100%', height: '100%', outline: 'none', overflow: 'hidden', 'user-select': 'none' });
  container.appendChild(root);

  let canvas: HTMLCanvasElement | null = null;
  let svgHolder: HTMLDivElement | null = null;
  const makeSurface = (): void => {
    canvas?.remove();
    svgHolder?.remove();
    canvas = null;
    svgHolder = null;
    if ((opts.backend ?? 'canvas') === 'canvas') {
      canvas = document.createElement('canvas');
      css(canvas, { position: 'absolute', left: '0', top: '0' });
      root.prepend(canvas);
    } else {
      svgHolder = document.createElement('div');
      css(svgHolder, { position: 'absolute', left: '0', top: '0', 'line-height': '0' });
      root.prepend(svgHolder);
    }
  };
  makeSurface();

  const overlay = document.createElementNS(SVG_NS, 'svg');
  css(overlay, { position: 'absolute', left: '0', top: '0', overflow: 'visible' });
  root.appendChild(overlay);
  const brushGroup = document.createElementNS(SVG_NS, 'g');
  overlay.appendChild(brushGroup);
  let brush: BrushBehavior<unknown> | null = null;
  let brushKey = '';

  const tip = document.createElement('div');
  tip.className = 'tlab-chart-tooltip';
  tip.setAttribute('role', 'tooltip');
  css(tip, {
    position: 'absolute',
    display: 'none',
    'pointer-events': 'none',
    'max-width': '360px',
    padding: '8px 10px',
    'border-radius': '6px',
    'font-size': '12px',
    'line-height': '1.45',
    'z-index': '10',
    'box-shadow': '0 4px 14px rgba(0,0,0,0.22)',
    'font-family': 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif',
  });
  root.appendChild(tip);

  const theme = (): ChartTheme => chartTheme(opts.theme ?? 'light');
  const frameInput = (): FrameInput<S> => ({
    width,
    height,
    theme: theme(),
    state,
    selected: opts.selectedTransient ?? null,
    hover,
    interactive: true,
  });

  const measure = (): void => {
    width = Math.max(120, Math.floor(container.clientWidth || root.clientWidth || 600));
    const fixed = opts.height ?? (container.clientHeight || 0);
    height = Math.max(60, Math.floor(fixed > 0 ? fixed : spec.preferredHeight(opts.data, width)));
    if (!opts.height && !container.clientHeight) css(root, { height: `${height}px` });
  };

  const draw = (): void => {
    if (destroyed) return;
    const t0 = performance.now();
    measure();
    let painter: Painter;
    let svg: SvgPainter | null = null;
    if (canvas) {
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(width * dpr);
      const h = Math.round(height * dpr);
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
        css(canvas, { width: `${width}px`, height: `${height}px` });
      }
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      painter = new CanvasPainter(ctx, dpr);
    } else {
      svg = new SvgPainter();
      painter = svg;
    }
    layout = spec.draw(painter, opts.data, frameInput());
    if (svg && svgHolder) svgHolder.innerHTML = svg.toString();
    overlay.setAttribute('width', String(width));
    overlay.setAttribute('height', String(height));
    root.setAttribute('aria-label', spec.describe(opts.data, layout));
    updateBrush();
    stats.draws++;
    stats.lastDrawMs = performance.now() - t0;
  };
  const redraw = (): void => requestDraw(draw);

  const updateBrush = (): void => {
    const area = layout && spec.brushArea ? spec.brushArea(layout) : null;
    const key = area ? `${area.x0},${area.y0},${area.x1},${area.y1}` : '';
    if (key === brushKey) return;
    brushKey = key;
    const g = select(brushGroup);
    g.selectAll('*').remove();
    brush = null;
    if (!area || !spec.brushed) return;
    brush = brushX()
      .extent([
        [area.x0, area.y0],
        [area.x1, area.y1],
      ])
      .on('end', (event: { selection: [number, number] | null; sourceEvent?: unknown }) => {
        if (!event.sourceEvent || !event.selection || !layout) return;
        const [a, b] = event.selection;
        state = spec.brushed!(opts.data, layout, state, [a, b]);
        g.call((s) => brush!.move(s, null));
        redraw();
      });
    g.call(brush as never);
    g.selectAll('.selection').attr('fill', theme().accent).attr('fill-opacity', 0.18).attr('stroke', theme().accent);
    g.on('dblclick', () => {
      if (!layout) return;
      state = spec.brushed!(opts.data, layout, state, null);
      redraw();
    });
  };

  const local = (e: { clientX: number; clientY: number }): { x: number; y: number } => {
    const r = root.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const showTip = (content: TooltipContent | null, x: number, y: number): void => {
    if (!content) {
      css(tip, { display: 'none' });
      return;
    }
    const t = theme();
    tip.replaceChildren();
    css(tip, { background: t.palette.surface, color: t.text, border: `1px solid ${t.axis}` });
    const title = document.createElement('div');
    css(title, { 'font-weight': '600', 'margin-bottom': '4px', display: 'flex', 'align-items': 'center', gap: '6px' });
    if (content.swatch) {
      const sw = document.createElement('span');
      css(sw, { display: 'inline-block', width: '10px', height: '10px', 'border-radius': '2px', background: content.swatch, flex: 'none' });
      title.appendChild(sw);
    }
    title.appendChild(document.createTextNode(content.title));
    tip.appendChild(title);
    if (content.rows.length) {
      const grid = document.createElement('div');
      css(grid, { display: 'grid', 'grid-template-columns': 'auto auto', 'column-gap': '12px' });
      for (const [k, v] of content.rows) {
        const kd = document.createElement('span');
        css(kd, { color: t.muted });
        kd.textContent = k;
        const vd = document.createElement('span');
        css(vd, { 'font-variant-numeric': 'tabular-nums', 'overflow-wrap': 'anywhere' });
        vd.textContent = v;
        grid.append(kd, vd);
      }
      tip.appendChild(grid);
    }
    if (content.note) {
      const note = document.createElement('div');
      css(note, { color: t.muted, 'margin-top': '4px', 'max-width': '340px' });
      note.textContent = content.note;
      tip.appendChild(note);
    }
    css(tip, { display: 'block', left: '0px', top: '0px' });
    const tw = tip.offsetWidth;
    const th = tip.offsetHeight;
    const left = x + 14 + tw > width ? Math.max(0, x - 14 - tw) : x + 14;
    const top = y + 14 + th > height ? Math.max(0, y - 14 - th) : y + 14;
    css(tip, { left: `${left}px`, top: `${top}px` });
  };

  const sameHit = (a: Hit | null, b: Hit | null): boolean => (a === null ? b === null : b !== null && a.key === b.key && a.id === b.id);

  const onMove = (e: PointerEvent): void => {
    if (!layout || e.buttons) return;
    const { x, y } = local(e);
    const h = spec.hit(layout, x, y);
    if (!sameHit(h, hover)) {
      const idChanged = (h?.id ?? null) !== (hover?.id ?? null);
      hover = h;
      if (idChanged) opts.onHover?.(h?.id ?? null);
      redraw();
    }
    showTip(h ? spec.tooltip(opts.data, layout, h) : null, x, y);
  };
  const onLeave = (): void => {
    showTip(null, 0, 0);
    if (hover) {
      const hadId = hover.id !== null;
      hover = null;
      if (hadId) opts.onHover?.(null);
      redraw();
    }
  };
  const onClick = (e: MouseEvent): void => {
    if (!layout) return;
    const { x, y } = local(e);
    const h = spec.hit(layout, x, y);
    if (h?.id) opts.onSelect?.(h.id);
  };
  const onWheel = (e: WheelEvent): void => {
    if (!layout || !spec.wheel) return;
    const { x, y } = local(e);
    const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? height : 1;
    const next = spec.wheel(opts.data, layout, state, {
      x,
      y,
      dx: e.deltaX * scale,
      dy: e.deltaY * scale,
      ctrl: e.ctrlKey || e.metaKey,
      shift: e.shiftKey,
      alt: e.altKey,
    });
    if (next) {
      e.preventDefault();
      state = next;
      redraw();
    }
  };
  const onKey = (e: KeyboardEvent): void => {
    // Chords (Ctrl+F, Ctrl+0 …) are the window's and the browser's, never a chart's.
    if (!layout || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Escape' && opts.selectedTransient) {
      opts.onSelect?.(null);
      e.preventDefault();
      return;
    }
    const r = spec.key?.(opts.data, layout, frameInput(), e.key);
    if (!r) return;
    e.preventDefault();
    if (r.state) {
      state = r.state;
      redraw();
    }
    if (r.select !== undefined) opts.onSelect?.(r.select);
  };

  root.addEventListener('pointermove', onMove);
  root.addEventListener('pointerleave', onLeave);
  root.addEventListener('click', onClick);
  root.addEventListener('wheel', onWheel, { passive: false });
  root.addEventListener('keydown', onKey);
  const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => redraw()) : null;
  resize?.observe(container);
  redraw();

  return {
    element: root,
    stats,
    update(o: Partial<ChartOptions<D>>): void {
      const prev = opts;
      opts = { ...opts, ...o };
      if (o.data !== undefined && o.data !== prev.data) {
        state = spec.carryState ? spec.carryState(opts.data, state) : spec.initialState(opts.data);
        hover = null;
        brushKey = '';
      }
      if (o.backend !== undefined && o.backend !== prev.backend) makeSurface();
      if (o.theme !== undefined && o.theme !== prev.theme) brushKey = '';
      const sel = opts.selectedTransient ?? null;
      if (sel !== (prev.selectedTransient ?? null) && sel !== null && layout && spec.reveal) {
        const next = spec.reveal(opts.data, layout, state, sel);
        if (next) state = next;
      }
      redraw();
    },
    toSVG(): string {
      measure();
      const p = new SvgPainter();
      spec.draw(p, opts.data, { ...frameInput(), hover: null, interactive: false });
      return p.toString();
    },
    destroy(): void {
      destroyed = true;
      cancelDraw(draw);
      resize?.disconnect();
      root.removeEventListener('pointermove', onMove);
      root.removeEventListener('pointerleave', onLeave);
      root.removeEventListener('click', onClick);
      root.removeEventListener('wheel', onWheel);
      root.removeEventListener('keydown', onKey);
      root.remove();
    },
  };
}
