/**
 * The graph view's input, apart from its drawing and viewport (view.ts): d3-zoom's wheel, drag and touch gestures,
 * which move the view's transform; the pointer (hover with its tooltip, click, double-click), hit-tested against
 * the scene on screen; and the view's own keys. It changes nothing itself: it tells the view (`InputHost`).
 */
// d3 is the declared dependency; importing it also installs selection.transition().
import { select, zoom as d3zoom, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { RegionId } from '../../../electron/engine/view/public.js';
import type { ThemeName } from '../theme/index.js';
import type { GraphSelection, GraphViewOptions } from './api.js';
import type { TransientMarks } from './marks.js';
import { hitTest, type Hit, type Scene } from './scene.js';
import { describeEdge, describeNode, type Tooltip } from './tooltip.js';

/** What the input reads of the view and asks of it. */
export interface InputHost {
  readonly scene: Scene | null;
  readonly transform: ZoomTransform;
  readonly marks: TransientMarks;
  readonly theme: ThemeName;
  readonly width: number;
  readonly height: number;
  /** A gesture moved the view. */
  transformed(t: ZoomTransform): void;
  /** Something on screen changed: draw in the next frame. */
  invalidate(): void;
  /** A click picked an element, or nothing (the view shows it as selected). */
  picked(sel: GraphSelection | null): void;
  toggle(id: RegionId): Promise<void>;
  select(id: string | null): void;
  fit(animate: boolean): void;
  zoom(factor: number, animate: boolean): void;
  report(err: unknown): void;
}

export class GraphInput {
  readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  /** Node and edge under the pointer (-1: none), as the view draws them. */
  hover = -1;
  hoverEdge = -1;
  private pointer: { x: number; y: number } | null = null;
  private pointerMoved = false;

  /** `tooltip` shows what the pointer is over (the view made it, beside its other overlays). */
  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly tooltip: Tooltip,
    private readonly host: InputHost,
    private readonly opts: Pick<GraphViewOptions, 'onHover'>,
  ) {
    this.zoomer = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.005, 6])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        host.transformed(ev.transform);
        this.tooltip.hide();
        host.invalidate();
      });
    select(canvas).call(this.zoomer).on('dblclick.zoom', null);

    canvas.addEventListener('pointermove', (ev) => {
      this.pointer = this.local(ev);
      this.pointerMoved = true;
      host.invalidate();
    });
    canvas.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.pointerMoved = true;
      host.invalidate();
    });
    // d3-zoom cancels the default of pointer presses, which would otherwise focus the canvas for its keys.
    canvas.addEventListener('pointerdown', () => canvas.focus({ preventScroll: true }));
    canvas.addEventListener('click', (ev) => this.onClick(ev));
    canvas.addEventListener('dblclick', (ev) => this.onDoubleClick(ev));
    canvas.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  /** A new document: nothing is under the pointer any more. */
  resetHover(): void {
    this.hover = this.hoverEdge = -1;
  }

  /** Before a frame is drawn: what is under a pointer that moved (hover, tooltip, cursor). */
  beforeDraw(): void {
    if (this.pointerMoved) this.updateHover();
  }

  private local(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  private hitAt(p: { x: number; y: number }): Hit {
    const scene = this.host.scene;
    if (!scene) return null;
    const t = this.host.transform;
    const [gx, gy] = t.invert([p.x, p.y]);
    return hitTest(scene, gx, gy, 5 / t.k);
  }

  private selectionOf(hit: Hit): GraphSelection | null {
    const scene = this.host.scene;
    if (!hit || !scene) return null;
    if (hit.kind === 'edge') {
      const e = scene.edges[hit.index]!;
      return { kind: 'edge', id: e.edge.id, node: null, edge: e.edge, region: e.region };
    }
    const n = scene.nodes[hit.index]!;
    return { kind: 'node', id: n.node.id, node: n.node, edge: null, region: n.region };
  }

  private updateHover(): void {
    this.pointerMoved = false;
    const hit = this.pointer ? this.hitAt(this.pointer) : null;
    const node = hit && hit.kind !== 'edge' ? hit.index : -1;
    const edge = hit && hit.kind === 'edge' ? hit.index : -1;
    this.canvas.style.cursor = hit?.kind === 'toggle' ? 'pointer' : '';
    if (node === this.hover && edge === this.hoverEdge) return;
    this.hover = node;
    this.hoverEdge = edge;
    const sel = this.selectionOf(hit);
    this.opts.onHover?.(sel);
    const h = this.host;
    if (sel && this.pointer && h.transform.k >= 0.2) {
      const lines = sel.node ? describeNode(sel.node, h.marks) : describeEdge(sel.edge!);
      this.tooltip.show(lines, this.pointer.x, this.pointer.y, h.theme, { width: h.width, height: h.height });
    } else this.tooltip.hide();
  }

  private onClick(ev: MouseEvent): void {
    const hit = this.hitAt(this.local(ev));
    if (hit?.kind === 'toggle') {
      const id = this.host.scene!.nodes[hit.index]!.node.expand!;
      void this.host.toggle(id).catch((e) => this.host.report(e));
      return;
    }
    this.host.picked(this.selectionOf(hit));
  }

  private onDoubleClick(ev: MouseEvent): void {
    const hit = this.hitAt(this.local(ev));
    if (!hit || hit.kind !== 'node') return;
    const n = this.host.scene!.nodes[hit.index]!;
    if (n.node.expand !== null) void this.host.toggle(n.node.expand).catch((e) => this.host.report(e));
  }

  private onKey(ev: KeyboardEvent): void {
    // Ctrl/⌘/Alt chords belong to the window (Ctrl+F searches, Ctrl+P profiles): taking them here swallowed them.
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'f' || ev.key === 'F') this.host.fit(true);
    else if (ev.key === 'Escape') this.host.select(null);
    else if (ev.key === '+' || ev.key === '=') this.host.zoom(1.25, true);
    else if (ev.key === '-') this.host.zoom(0.8, true);
    else return;
    ev.preventDefault();
  }

  /** Stops the gestures (the listeners go with the canvas). */
  destroy(): void {
    select(this.canvas).on('.zoom', null);
  }
}
