/**
 * The graph view's canvas element (view.ts owns it): placed over its container, focusable, named for assistive
 * technology, and its fonts resolved before the first open.
 */
import { font } from './text.js';

/** A canvas filling `container` (positioned, so that the canvas and the minimap can sit inside it). */
export function mountCanvas(container: HTMLElement): HTMLCanvasElement {
  if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
  container.style.overflow = 'hidden';
  const canvas = document.createElement('canvas');
  canvas.className = 'tlab-graph-canvas';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'SDFG graph');
  canvas.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;display:block;outline:none;touch-action:none';
  container.appendChild(canvas);
  return canvas;
}

/** Resolve the fonts now: the first text drawn in a new font makes the browser look for it (100–200 ms in a fresh
 * Chromium), which would otherwise land in the first open. */
export function resolveFonts(ctx: CanvasRenderingContext2D): void {
  for (const role of ['title', 'body', 'mono', 'small'] as const) {
    ctx.font = font(role);
    ctx.measureText('Ag0');
  }
}
