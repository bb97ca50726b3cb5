/**
 * The graph view: a framework-free module that draws an SDFG on a canvas inside `container` (React mounts it;
 * docs/graph.md). It asks for regions through `fetchRegion`, lays them out in a worker, and draws every change
 * in one coalesced animation frame. Its input (gestures, pointer, keys) is input.ts's, the regions it holds and
 * fetches held-regions.ts's, where the camera goes fit.ts's, its canvas element canvas.ts's; this file is the
 * view's state — which regions are open, the scene laid out from them, the viewport — and the frame that draws
 * it. Those change together (a relayout keeps an element where it was on screen; a first layout sets the first
 * view), so they stay one file.
 */
// d3 is the declared dependency; importing it also installs selection.transition().
import { select, zoomIdentity, type ZoomTransform } from 'd3';
import type { GraphNode, GraphRegion, RegionId, SearchHit } from '../../../electron/engine/view/public.js';
import type { ThemeName } from '../theme/index.js';
import { GraphPainter, type Viewport } from './draw.js';
import { fitCamera, initialCamera, revealCamera, type Camera } from './fit.js';
import type { LayoutEngineName } from './flat-layout.js';
import { LayoutCancelled, type RegionLayout } from './hier-layout.js';
import { LayoutClient, takeLayoutWorker } from './layout-client.js';
import type { TransientMarks } from './marks.js';
import { Minimap } from './minimap.js';
import { buildScene, type Scene } from './scene.js';
import { Tooltip } from './tooltip.js';
import { ProgressBar } from './progress.js';
import { HeldRegions } from './held-regions.js';
import type { GraphMetrics, GraphProgress, GraphSelection, GraphView, GraphViewOptions } from './api.js';
import { GraphInput, type InputHost } from './input.js';
import { mountCanvas, resolveFonts } from './canvas.js';

export type { GraphProgress, GraphView, GraphViewOptions } from './api.js';
export { prewarmLayoutWorker } from './layout-client.js';

export function createGraphView(container: HTMLElement, options: GraphViewOptions): GraphView {
  return new CanvasGraphView(container, options);
}

class CanvasGraphView implements GraphView, InputHost {
  readonly metrics: GraphMetrics = {
    open: { fetchMs: 0, expandMs: 0, layoutMs: 0, drawMs: 0 },
    frameTimes: [],
    lastLayoutMs: 0,
    lastLayoutRegions: 0,
    visibleNodes: 0,
    visibleEdges: 0,
    visibleTexts: 0,
    scale: 1,
  };
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly painter: GraphPainter;
  private readonly minimap: Minimap;
  private readonly tooltip: Tooltip;
  private readonly progressBar: ProgressBar;
  private readonly client: LayoutClient;
  private readonly held: HeldRegions;
  private readonly input: GraphInput;
  private readonly resizeObserver: ResizeObserver;

  // What the input reads (InputHost): public on this class, which only `GraphView` reaches outside the module.
  theme: ThemeName;
  private engine: LayoutEngineName;
  private readonly layouts = new Map<RegionId, RegionLayout>();
  private expanded = new Set<RegionId>();
  /** The expanded set the current scene shows (restored when a layout is cancelled). */
  private shown = new Set<RegionId>();
  scene: Scene | null = null;
  transform: ZoomTransform = zoomIdentity;
  width = 0;
  height = 0;
  private dpr = 1;
  private frame = 0;
  private sceneDirty = true;
  private selected: string | null = null;
  private matches = new Set<string>();
  private transient: string | null = null;
  marks: TransientMarks = new Map();
  private openStarted = 0;
  private firstFramePending = false;
  private layoutSeq = 0;
  private progressTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;
  private layoutDone = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly opts: GraphViewOptions,
  ) {
    this.theme = opts.theme ?? 'light';
    this.engine = opts.layoutEngine ?? 'dagre';
    this.canvas = mountCanvas(container);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.painter = new GraphPainter(this.theme);
    this.minimap = new Minimap(container, (x, y) => this.centerOn(x, y, this.transform.k, false));
    this.tooltip = new Tooltip(container);
    this.progressBar = new ProgressBar(container, () => this.cancelLayout());
    this.client = new LayoutClient(opts.createWorker ?? takeLayoutWorker);
    this.client.onLayouts = (layouts) => {
      for (const l of layouts) this.layouts.set(l.id, l);
    };
    this.held = new HeldRegions((id) => opts.fetchRegion(id), this.client);

    this.input = new GraphInput(this.canvas, this.tooltip, this, opts);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    resolveFonts(this.ctx);
    // The canvas' first frame (its backing store, the first fill, the compositor's first copy: 50–80 ms in a
    // fresh software-rendered Chromium) drawn now, while the page is still connecting to its host, rather than
    // in the first animation frame, which lands inside a `?open=` open.
    this.draw();
  }

  // -------------------------------------------------------------------------------------------------------
  // Opening and expanding
  // -------------------------------------------------------------------------------------------------------

  async open(root?: GraphRegion | null): Promise<void> {
    this.openStarted = performance.now();
    const doc = this.held.reset();
    this.layouts.clear();
    this.expanded = new Set();
    this.shown = new Set();
    this.scene = null;
    this.selected = null;
    this.matches = new Set();
    this.input.resetHover();
    this.sceneDirty = true;
    this.invalidate();
    const t = this.metrics.open;
    try {
      let t0 = performance.now();
      const r = root ?? (await this.opts.fetchRegion(null));
      if (doc !== this.held.doc) return;
      this.held.root = r.id;
      this.held.add([r]);
      t.fetchMs = performance.now() - t0;
      t0 = performance.now();
      // No await when there is nothing to open: with the root given, the layout request then leaves within the
      // caller's task (the app calls this inside the store change that React renders next).
      const picked = this.held.autoExpansion(this.expanded, this.opts.initialBudget ?? 120);
      if (picked.length > 0) {
        await this.expandFirst(doc, picked);
        if (doc !== this.held.doc) return;
      }
      t.expandMs = performance.now() - t0;
      t0 = performance.now();
      this.firstFramePending = true;
      await this.relayout(null, true);
      t.layoutMs = performance.now() - t0;
      this.layoutDone = performance.now();
    } catch (err) {
      if (!(err instanceof LayoutCancelled)) this.report(err);
    }
  }

  async replaceRoot(root: GraphRegion): Promise<void> {
    if (this.held.root !== root.id || !this.scene) return this.open(root);
    this.held.add([root]);
    await this.relayout(null);
  }

  private async expandFirst(doc: number, picked: GraphNode[]): Promise<void> {
    const regions = await this.held.fetchAll(picked.map((n) => n.expand!));
    if (doc !== this.held.doc) return;
    for (const r of regions) this.expanded.add(r.id);
  }

  async expand(id: RegionId): Promise<void> {
    if (this.expanded.has(id) && this.shown.has(id)) return;
    await this.held.fetchAll([id]);
    this.expanded.add(id);
    await this.relayout(id);
  }

  async collapse(id: RegionId): Promise<void> {
    if (!this.expanded.has(id)) return;
    this.expanded.delete(id);
    await this.relayout(id);
  }

  async toggle(id: RegionId): Promise<void> {
    if (this.shown.has(id)) await this.collapse(id);
    else await this.expand(id);
  }

  async collapseAll(): Promise<void> {
    this.expanded.clear();
    await this.relayout(null);
    this.fit(true);
  }

  async expandNextLevel(): Promise<{ stoppedAtBudget: boolean; nodes: number }> {
    const r = await this.openLevels(1, this.opts.expandBudget ?? 5000);
    await this.relayout(null);
    // Like collapse all and expand all: the graph changed everywhere, so show all of it (it was left at the
    // old transform, i.e. the top-left corner of a graph that had grown).
    this.fit(true);
    return r;
  }

  async expandAll(budget?: number): Promise<{ stoppedAtBudget: boolean; nodes: number }> {
    const r = await this.openLevels(Infinity, budget ?? this.opts.expandBudget ?? 5000);
    await this.relayout(null);
    this.fit(true);
    return r;
  }

  private async openLevels(levels: number, budget: number): Promise<{ stoppedAtBudget: boolean; nodes: number }> {
    const r = await this.held.openLevels(
      () => this.expanded,
      levels,
      budget,
      (done, total) => this.progress({ phase: 'fetch', done, total }),
    );
    this.progress(null);
    return r;
  }

  /** Lays out what is visible; keeps `anchor` (an element id) where it was on screen. */
  private async relayout(anchor: string | null, initial = false): Promise<void> {
    if (!this.held.root) return;
    const seq = ++this.layoutSeq;
    const before = anchor !== null && this.scene ? this.screenPos(anchor) : null;
    const wanted = new Set(this.expanded);
    this.progressTimer = setTimeout(() => this.progressBar.show(true, this.theme), 300);
    try {
      const { layouts, ms } = await this.client.layout(this.held.root, wanted, this.engine, (done, total) =>
        this.progress({ phase: 'layout', done, total }),
      );
      if (seq !== this.layoutSeq) return;
      this.metrics.lastLayoutMs = ms;
      this.metrics.lastLayoutRegions = layouts.length;
      this.shown = wanted;
      this.scene = buildScene(this.held.root, this.held.byId, this.layouts, this.shown);
      this.sceneDirty = true;
      if (initial) this.initialView();
      else if (before) {
        const after = this.screenPos(anchor!);
        if (after)
          this.setTransform(this.transform.translate((before[0] - after[0]) / this.transform.k, (before[1] - after[1]) / this.transform.k));
      }
      this.invalidate();
    } catch (err) {
      if (err instanceof LayoutCancelled) {
        if (seq === this.layoutSeq) this.expanded = new Set(this.shown);
        return;
      }
      this.expanded = new Set(this.shown);
      this.report(err);
    } finally {
      if (seq === this.layoutSeq) {
        if (this.progressTimer) clearTimeout(this.progressTimer);
        this.progressTimer = null;
        this.progressBar.show(false, this.theme);
        this.progress(null);
      }
    }
  }

  cancelLayout(): void {
    this.client.cancel();
  }

  async setLayoutEngine(name: LayoutEngineName): Promise<void> {
    this.engine = name;
    await this.relayout(null);
  }

  // -------------------------------------------------------------------------------------------------------
  // View transform
  // -------------------------------------------------------------------------------------------------------

  private setTransform(t: ZoomTransform, animate = false): void {
    const sel = select(this.canvas);
    if (animate)
      sel
        .transition()
        .duration(350)
        .call((tr) => this.input.zoomer.transform(tr, t));
    else sel.call((s) => this.input.zoomer.transform(s, t));
  }

  private camera(c: Camera, animate = false): void {
    this.setTransform(zoomIdentity.translate(c.tx, c.ty).scale(c.k), animate);
  }

  /** All of the graph while its titles stay readable, else its start at the smallest zoom that keeps them (fit.ts). */
  fit(animate = false): void {
    if (this.scene) this.camera(fitCamera(this.scene, this.width, this.height), animate);
  }

  zoom(factor: number, animate = false): void {
    const sel = select(this.canvas);
    if (animate)
      sel
        .transition()
        .duration(200)
        .call((tr) => this.input.zoomer.scaleBy(tr, factor));
    else sel.call((s) => this.input.zoomer.scaleBy(s, factor));
  }

  /** The first view of a document: all of it when that stays readable, else its start at a readable zoom. */
  private initialView(): void {
    if (this.scene) this.camera(initialCamera(this.scene, this.width, this.height));
  }

  private centerOn(x: number, y: number, k: number, animate: boolean): void {
    this.setTransform(zoomIdentity.translate(this.width / 2 - x * k, this.height / 2 - y * k).scale(k), animate);
  }

  private screenPos(id: string): [number, number] | null {
    const i = this.scene?.byId.get(id);
    if (i === undefined || !this.scene) return null;
    const n = this.scene.nodes[i]!;
    return [this.transform.applyX(n.x), this.transform.applyY(n.y)];
  }

  private resize(): void {
    const r = this.container.getBoundingClientRect();
    const width = Math.max(1, Math.round(r.width));
    const height = Math.max(1, Math.round(r.height));
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.round(width * dpr);
    const ch = Math.round(height * dpr);
    // Setting a canvas' size, even to the same value, throws its bitmap away: the ResizeObserver's first call
    // (always made) would make the next frame allocate and fill it again, inside the open.
    if (cw === this.canvas.width && ch === this.canvas.height && width === this.width && height === this.height && dpr === this.dpr) return;
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    this.canvas.width = cw;
    this.canvas.height = ch;
    this.sceneDirty = true;
    this.invalidate();
  }

  // -------------------------------------------------------------------------------------------------------
  // Drawing
  // -------------------------------------------------------------------------------------------------------

  invalidate(): void {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    if ((window.devicePixelRatio || 1) !== this.dpr) this.resize();
    const t0 = performance.now();
    this.input.beforeDraw();
    const vp: Viewport = {
      k: this.transform.k,
      tx: this.transform.x,
      ty: this.transform.y,
      width: this.width,
      height: this.height,
      dpr: this.dpr,
    };
    const stats = this.painter.draw(this.ctx, this.scene, vp, {
      theme: this.theme,
      hover: this.input.hover,
      hoverEdge: this.input.hoverEdge,
      selected: this.selected,
      matches: this.matches,
      transient: this.transient,
      marks: this.marks,
    });
    if (this.sceneDirty) {
      this.minimap.update(this.scene, this.theme, this.dpr);
      this.minimap.setVisible(this.scene !== null && this.scene.nodes.length > 0);
      this.sceneDirty = false;
    }
    this.minimap.draw(vp, this.theme);
    const dt = performance.now() - t0;
    const ft = this.metrics.frameTimes;
    ft.push(dt);
    if (ft.length > 600) ft.splice(0, ft.length - 600);
    this.metrics.visibleNodes = stats.nodes;
    this.metrics.scale = this.transform.k;
    this.metrics.visibleEdges = stats.edges;
    this.metrics.visibleTexts = stats.texts;
    if (this.firstFramePending && this.scene) {
      this.firstFramePending = false;
      this.metrics.open.drawMs = performance.now() - (this.layoutDone || t0);
      const scene = this.scene;
      this.opts.onFirstFrame?.({ ms: performance.now() - this.openStarted, nodes: scene.nodes.length });
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // What the window asks for
  // -------------------------------------------------------------------------------------------------------

  /** A gesture moved the view (input.ts). */
  transformed(t: ZoomTransform): void {
    this.transform = t;
  }

  /** A click picked an element, or nothing (input.ts). */
  picked(sel: GraphSelection | null): void {
    this.selected = sel?.id ?? null;
    this.opts.onSelect?.(sel);
    this.invalidate();
  }

  select(id: string | null): void {
    this.selected = id;
    this.invalidate();
  }

  highlightTransient(id: string | null): void {
    this.transient = id;
    this.invalidate();
  }

  setTransientMarks(marks: TransientMarks): void {
    this.marks = marks;
    this.invalidate();
  }

  setTheme(theme: ThemeName): void {
    this.theme = theme;
    this.sceneDirty = true;
    this.invalidate();
  }

  async search(query: string): Promise<SearchHit[]> {
    if (!this.opts.search || query.trim() === '') {
      this.matches = new Set();
      this.invalidate();
      return [];
    }
    const hits = await this.opts.search(query, 200);
    this.matches = new Set(hits.map((h) => h.id));
    if (hits.length) await this.reveal(hits[0]!);
    else this.invalidate();
    return hits;
  }

  async revealId(id: string): Promise<boolean> {
    if (!this.opts.search) return false;
    const [hit] = await this.opts.search(id, 1);
    if (!hit || hit.id !== id) return false;
    await this.reveal(hit);
    return true;
  }

  async reveal(target: { id: string; path: RegionId[] }): Promise<void> {
    const missing = target.path.filter((id) => !this.shown.has(id));
    if (missing.length) {
      await this.held.fetchAll(target.path);
      for (const id of target.path) this.expanded.add(id);
      await this.relayout(null);
    }
    if (!this.scene) return;
    const c = revealCamera(this.scene, target.id, this.width, this.height);
    if (!c) return;
    this.selected = target.id;
    this.camera(c, true);
  }

  // -------------------------------------------------------------------------------------------------------
  // Progress, errors, teardown
  // -------------------------------------------------------------------------------------------------------

  private progress(p: GraphProgress | null): void {
    this.opts.onProgress?.(p);
    this.progressBar.set(p);
  }

  report(err: unknown): void {
    if (this.opts.onError) this.opts.onError(err);
    else console.error(err);
  }

  destroy(): void {
    this.destroyed = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.resizeObserver.disconnect();
    this.input.destroy();
    this.client.destroy();
    this.minimap.destroy();
    this.tooltip.destroy();
    this.progressBar.destroy();
    this.canvas.remove();
  }
}
