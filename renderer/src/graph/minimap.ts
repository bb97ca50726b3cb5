/**
 * The minimap: the whole scene in a corner, with the viewport as a rectangle; clicking or dragging in it
 * moves the view. The scene is painted once into a bitmap when it changes; a frame only blits it and draws
 * the rectangle.
 */
import { palette, type ThemeName } from '../theme/index.js';
import type { Scene } from './scene.js';
import type { Viewport } from './draw.js';

const MINIMAP_W = 180;
const MINIMAP_H = 130;

export class Minimap {
  readonly canvas: HTMLCanvasElement;
  private bitmap: HTMLCanvasElement | null = null;
  private scale = 1;
  private ox = 0;
  private oy = 0;
  private dragging = false;

  constructor(
    parent: HTMLElement,
    /** Called with the graph point the user wants in the middle of the view. */
    private readonly onPan: (x: number, y: number) => void,
  ) {
    const c = document.createElement('canvas');
    c.className = 'tlab-graph-minimap';
    c.style.cssText = `position:absolute;right:10px;bottom:10px;width:${MINIMAP_W}px;height:${MINIMAP_H}px;border-radius:6px;cursor:pointer;box-shadow:0 1px 4px rgba(0,0,0,.25)`;
    parent.appendChild(c);
    this.canvas = c;
    const at = (ev: PointerEvent): void => {
      const r = c.getBoundingClientRect();
      this.onPan((ev.clientX - r.left - this.ox) / this.scale, (ev.clientY - r.top - this.oy) / this.scale);
    };
    c.addEventListener('pointerdown', (ev) => {
      ev.stopPropagation();
      this.dragging = true;
      c.setPointerCapture(ev.pointerId);
      at(ev);
    });
    c.addEventListener('pointermove', (ev) => {
      if (this.dragging) at(ev);
    });
    c.addEventListener('pointerup', (ev) => {
      this.dragging = false;
      c.releasePointerCapture(ev.pointerId);
    });
    // Keep wheel and drag on the minimap from reaching the zoom behaviour of the graph canvas.
    c.addEventListener('wheel', (ev) => ev.stopPropagation(), { passive: true });
  }

  /** Repaints the scene into the cached bitmap (on layout or theme change). */
  update(scene: Scene | null, theme: ThemeName, dpr: number): void {
    const pal = palette(theme);
    const w = Math.round(MINIMAP_W * dpr);
    const h = Math.round(MINIMAP_H * dpr);
    this.canvas.width = w;
    this.canvas.height = h;
    const bmp = this.bitmap ?? document.createElement('canvas');
    bmp.width = w;
    bmp.height = h;
    this.bitmap = bmp;
    const ctx = bmp.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = pal.surface;
    ctx.fillRect(0, 0, MINIMAP_W, MINIMAP_H);
    if (!scene || scene.width <= 0 || scene.height <= 0) return;
    const pad = 6;
    this.scale = Math.min((MINIMAP_W - 2 * pad) / scene.width, (MINIMAP_H - 2 * pad) / scene.height);
    this.ox = (MINIMAP_W - scene.width * this.scale) / 2;
    this.oy = (MINIMAP_H - scene.height * this.scale) / 2;
    ctx.translate(this.ox, this.oy);
    ctx.scale(this.scale, this.scale);
    // Frames as outlines, closed elements as filled boxes; nothing smaller than a minimap pixel.
    const min = 0.6 / this.scale;
    ctx.beginPath();
    for (const n of scene.nodes) if (!n.expanded && (n.w >= min || n.h >= min)) ctx.rect(n.x, n.y, Math.max(n.w, min), Math.max(n.h, min));
    ctx.fillStyle = pal.graph.stateBorder;
    ctx.globalAlpha = 0.55;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    for (const n of scene.nodes) if (n.expanded && n.w * this.scale > 3) ctx.rect(n.x, n.y, n.w, n.h);
    ctx.lineWidth = 1 / this.scale;
    ctx.strokeStyle = pal.border;
    ctx.stroke();
  }

  draw(vp: Viewport, theme: ThemeName): void {
    const ctx = this.canvas.getContext('2d')!;
    const pal = palette(theme);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (this.bitmap) ctx.drawImage(this.bitmap, 0, 0);
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    const x = this.ox + (-vp.tx / vp.k) * this.scale;
    const y = this.oy + (-vp.ty / vp.k) * this.scale;
    const w = (vp.width / vp.k) * this.scale;
    const h = (vp.height / vp.k) * this.scale;
    ctx.fillStyle = pal.graph.minimapView;
    ctx.fillRect(x, y, w, h);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = pal.accent;
    ctx.strokeRect(x, y, w, h);
  }

  setVisible(v: boolean): void {
    this.canvas.style.display = v ? '' : 'none';
  }

  destroy(): void {
    this.canvas.remove();
  }
}
