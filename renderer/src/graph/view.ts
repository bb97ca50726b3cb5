/**
 * The graph view: a framework-free module that draws an SDFG on a canvas inside `container` (React mounts it;
 * docs/graph.md). It asks for regions through `fetchRegion`, lays them out in a worker, and draws every change
 * in one coalesced animation frame.
 */
// d3 is the declared dependency; importing it also installs selection.transition().
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { GraphNode, GraphRegion, RegionId, SearchHit } from '../../../electron/engine/view/public.js';
import type { ThemeName } from '../theme/index.js';
import { GraphPainter, type Viewport } from './draw.js';
import { fitCamera, initialCamera, type Camera } from './fit.js';
import type { LayoutEngineName } from './flat-layout.js';
import { LayoutCancelled, type RegionLayout } from './hier-layout.js';
import { LayoutClient } from './layout-client.js';
import type { TransientMarks } from './marks.js';
import { Minimap } from './minimap.js';
import { buildScene, hitTest, type Hit, type Scene } from './scene.js';
import { describeEdge, describeNode, Tooltip } from './tooltip.js';
import { font } from './text.js';
import { ProgressBar } from './progress.js';
import { closedVisible, estimateDirect, visibleCount } from './regions.js';
import type { GraphMetrics, GraphProgress, GraphSelection, GraphView, GraphViewOptions } from './api.js';

export type { GraphMetrics, GraphProgress, GraphSelection, GraphView, GraphViewOptions } from './api.js';

/** Roots with fewer blocks than this open with their children open (see autoExpand). */
const SMALL_ROOT = 8;

const startWorker = (): Worker => new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });

/**
 * A layout worker started before any graph view exists. A worker's first seconds go to its isolate, its module and
 * dagre's warm-up (16–60 ms of CPU in a fresh Chromium): begun while the page boots, that work is done before a
 * `?open=` file's first request, instead of competing for the 2 cores with the host's parse and the window's
 * first render.
 */
let spare: Worker | null = null;

export function prewarmLayoutWorker(): void {
  if (typeof Worker === 'undefined') return;
  spare ??= startWorker();
}

const defaultWorker = (): Worker => {
  const w = spare ?? startWorker();
  spare = null;
  return w;
};

export function createGraphView(container: HTMLElement, options: GraphViewOptions): GraphView {
  return new CanvasGraphView(container, options);
}

class CanvasGraphView implements GraphView {
  readonly metrics: GraphMetrics = { open: { fetchMs: 0, expandMs: 0, layoutMs: 0, drawMs: 0 }, frameTimes: [], lastLayoutMs: 0, lastLayoutRegions: 0, visibleNodes: 0, visibleEdges: 0, visibleTexts: 0, scale: 1 };
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly painter: GraphPainter;
  private readonly minimap: Minimap;
  private readonly tooltip: Tooltip;
  private readonly progressBar: ProgressBar;
  private readonly client: LayoutClient;
  private readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly resizeObserver: ResizeObserver;

  private theme: ThemeName;
  private engine: LayoutEngineName;
  private root: RegionId | null = null;
  private readonly regions = new Map<RegionId, GraphRegion>();
  private readonly layouts = new Map<RegionId, RegionLayout>();
  private expanded = new Set<RegionId>();
  /** The expanded set the current scene shows (restored when a layout is cancelled). */
  private shown = new Set<RegionId>();
  private scene: Scene | null = null;
  private transform: ZoomTransform = zoomIdentity;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private frame = 0;
  private sceneDirty = true;
  private hover = -1;
  private hoverEdge = -1;
  private pointer: { x: number; y: number } | null = null;
  private pointerMoved = false;
  private selected: string | null = null;
  private matches = new Set<string>();
  private transient: string | null = null;
  private marks: TransientMarks = new Map();
  private openStarted = 0;
  private firstFramePending = false;
  private docSeq = 0;
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
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
    container.style.overflow = 'hidden';
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tlab-graph-canvas';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'SDFG graph');
    this.canvas.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;display:block;outline:none;touch-action:none';
    container.appendChild(this.canvas);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.painter = new GraphPainter(this.theme);
    this.minimap = new Minimap(container, (x, y) => this.centerOn(x, y, this.transform.k, false));
    this.tooltip = new Tooltip(container);
    this.progressBar = new ProgressBar(container, () => this.cancelLayout());
    this.client = new LayoutClient(opts.createWorker ?? defaultWorker);
    this.client.onLayouts = (layouts) => {
      for (const l of layouts) this.layouts.set(l.id, l);
    };

    this.zoomer = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.005, 6])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        this.transform = ev.transform;
        this.tooltip.hide();
        this.invalidate();
      });
    select(this.canvas).call(this.zoomer).on('dblclick.zoom', null);

    this.canvas.addEventListener('pointermove', (ev) => {
      this.pointer = this.local(ev);
      this.pointerMoved = true;
      this.invalidate();
    });
    this.canvas.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.pointerMoved = true;
      this.invalidate();
    });
    // d3-zoom cancels the default of pointer presses, which would otherwise focus the canvas for its keys.
    this.canvas.addEventListener('pointerdown', () => this.canvas.focus({ preventScroll: true }));
    this.canvas.addEventListener('click', (ev) => this.onClick(ev));
    this.canvas.addEventListener('dblclick', (ev) => this.onDoubleClick(ev));
    this.canvas.addEventListener('keydown', (ev) => this.onKey(ev));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    // Resolve the fonts now: the first text drawn in a new font makes the browser look for it (100–200 ms in
    // a fresh Chromium), which would otherwise land in the first open.
    for (const role of ['title', 'body', 'mono', 'small'] as const) {
      this.ctx.font = font(role);
      this.ctx.measureText('Ag0');
    }
    // The canvas' first frame (its backing store, the first fill, the compositor's first copy: 50–80 ms in a
    // fresh software-rendered Chromium) drawn now, while the page is still connecting to its host, rather than
    // in the first animation frame, which lands inside a `?open=` open.
    this.draw();
  }

  // -------------------------------------------------------------------------------------------------------
  // Opening and expanding
  // -------------------------------------------------------------------------------------------------------

  async open(root?: GraphRegion | null): Promise<void> {
    const doc = ++this.docSeq;
    this.openStarted = performance.now();
    this.client.reset();
    this.regions.clear();
    this.layouts.clear();
    this.expanded = new Set();
    this.shown = new Set();
    this.scene = null;
    this.selected = null;
    this.matches = new Set();
    this.hover = this.hoverEdge = -1;
    this.sceneDirty = true;
    this.invalidate();
    const t = this.metrics.open;
    try {
      let t0 = performance.now();
      const r = root ?? (await this.opts.fetchRegion(null));
      if (doc !== this.docSeq) return;
      this.root = r.id;
      this.addRegions([r]);
      t.fetchMs = performance.now() - t0;
      t0 = performance.now();
      // No await when there is nothing to open: with the root given, the layout request then leaves within the
      // caller's task (the app calls this inside the store change that React renders next).
      const picked = this.autoExpansion();
      if (picked.length > 0) {
        await this.expandFirst(doc, picked);
        if (doc !== this.docSeq) return;
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
    if (this.root !== root.id || !this.scene) return this.open(root);
    this.addRegions([root]);
    await this.relayout(null);
  }

  /** A root this small says little closed (a single state, say): its children are opened in one round of
   * requests before the first frame. Anything bigger opens collapsed, and the user opens what they want. */
  private autoExpansion(): GraphNode[] {
    const budget = this.opts.initialBudget ?? 120;
    const root = this.root ? this.regions.get(this.root) : undefined;
    if (!root || root.nodes.length >= SMALL_ROOT) return [];
    let count = visibleCount(this.regions, this.root, this.expanded);
    const closed = closedVisible(this.regions, this.root, this.expanded);
    // Control flow first (it shows the program's structure), then the smallest states.
    const cf = (n: GraphNode): number => (n.kind === 'state' || n.kind === 'map' || n.kind === 'consume' ? 1 : 0);
    closed.sort((a, b) => cf(a) - cf(b) || (a.summary?.nodes ?? 0) - (b.summary?.nodes ?? 0));
    const picked: GraphNode[] = [];
    for (const n of closed) {
      const direct = estimateDirect(this.regions, n);
      if (count + direct > budget) continue;
      count += direct;
      picked.push(n);
    }
    return picked;
  }

  private async expandFirst(doc: number, picked: GraphNode[]): Promise<void> {
    const regions = await this.fetchAll(picked.map((n) => n.expand!));
    if (doc !== this.docSeq) return;
    for (const r of regions) this.expanded.add(r.id);
  }

  async expand(id: RegionId): Promise<void> {
    if (this.expanded.has(id) && this.shown.has(id)) return;
    await this.fetchAll([id]);
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
    const doc = this.docSeq;
    let count = visibleCount(this.regions, this.root, this.expanded);
    let stopped = false;
    for (let level = 0; level < levels; level++) {
      const closed = closedVisible(this.regions, this.root, this.expanded);
      if (closed.length === 0) break;
      const regions = await this.fetchAll(closed.map((n) => n.expand!), (done, total) => this.progress({ phase: 'fetch', done, total }));
      if (doc !== this.docSeq) break;
      let added = 0;
      for (const r of regions) {
        if (count + r.nodes.length > budget) {
          stopped = true;
          continue;
        }
        count += r.nodes.length;
        this.expanded.add(r.id);
        added++;
      }
      if (stopped || added === 0) break;
    }
    this.progress(null);
    return { stoppedAtBudget: stopped, nodes: count };
  }

  private addRegions(regions: GraphRegion[]): void {
    for (const r of regions) this.regions.set(r.id, r);
    this.client.addRegions(regions);
  }

  /** Fetches the regions not held yet, a few at a time; returns all of `ids` in order. */
  private async fetchAll(ids: RegionId[], progress?: (done: number, total: number) => void): Promise<GraphRegion[]> {
    const missing = ids.filter((id) => !this.regions.has(id));
    let done = 0;
    let next = 0;
    const doc = this.docSeq;
    const fresh: GraphRegion[] = [];
    const worker = async (): Promise<void> => {
      while (next < missing.length) {
        const id = missing[next++]!;
        const r = await this.opts.fetchRegion(id);
        if (doc !== this.docSeq) return;
        fresh.push(r);
        done++;
        progress?.(done, missing.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, missing.length) }, worker));
    if (doc === this.docSeq) this.addRegions(fresh);
    return ids.map((id) => this.regions.get(id)).filter((r): r is GraphRegion => r !== undefined);
  }

  /** Lays out what is visible; keeps `anchor` (an element id) where it was on screen. */
  private async relayout(anchor: string | null, initial = false): Promise<void> {
    if (!this.root) return;
    const seq = ++this.layoutSeq;
    const before = anchor !== null && this.scene ? this.screenPos(anchor) : null;
    const wanted = new Set(this.expanded);
    this.progressTimer = setTimeout(() => this.progressBar.show(true, this.theme), 300);
    try {
      const { layouts, ms } = await this.client.layout(this.root, wanted, this.engine, (done, total) => this.progress({ phase: 'layout', done, total }));
      if (seq !== this.layoutSeq) return;
      this.metrics.lastLayoutMs = ms;
      this.metrics.lastLayoutRegions = layouts.length;
      this.shown = wanted;
      this.scene = buildScene(this.root, this.regions, this.layouts, this.shown);
      this.sceneDirty = true;
      if (initial) this.initialView();
      else if (before) {
        const after = this.screenPos(anchor!);
        if (after) this.setTransform(this.transform.translate((before[0] - after[0]) / this.transform.k, (before[1] - after[1]) / this.transform.k));
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
    if (animate) sel.transition().duration(350).call(this.zoomer.transform, t);
    else sel.call(this.zoomer.transform, t);
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
    if (animate) sel.transition().duration(200).call(this.zoomer.scaleBy, factor);
    else sel.call(this.zoomer.scaleBy, factor);
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

  private invalidate(): void {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    if ((window.devicePixelRatio || 1) !== this.dpr) this.resize();
    const t0 = performance.now();
    if (this.pointerMoved) this.updateHover();
    const vp: Viewport = { k: this.transform.k, tx: this.transform.x, ty: this.transform.y, width: this.width, height: this.height, dpr: this.dpr };
    const stats = this.painter.draw(this.ctx, this.scene, vp, {
      theme: this.theme,
      hover: this.hover,
      hoverEdge: this.hoverEdge,
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
  // Interaction
  // -------------------------------------------------------------------------------------------------------

  private local(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }

  private hitAt(p: { x: number; y: number }): Hit {
    if (!this.scene) return null;
    const [gx, gy] = this.transform.invert([p.x, p.y]);
    return hitTest(this.scene, gx, gy, 5 / this.transform.k);
  }

  private selectionOf(hit: Hit): GraphSelection | null {
    if (!hit || !this.scene) return null;
    if (hit.kind === 'edge') {
      const e = this.scene.edges[hit.index]!;
      return { kind: 'edge', id: e.edge.id, node: null, edge: e.edge, region: e.region };
    }
    const n = this.scene.nodes[hit.index]!;
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
    if (sel && this.pointer && this.transform.k >= 0.2) {
      const lines = sel.node ? describeNode(sel.node, this.marks) : describeEdge(sel.edge!);
      this.tooltip.show(lines, this.pointer.x, this.pointer.y, this.theme, { width: this.width, height: this.height });
    } else this.tooltip.hide();
  }

  private onClick(ev: MouseEvent): void {
    const hit = this.hitAt(this.local(ev));
    if (hit?.kind === 'toggle') {
      const id = this.scene!.nodes[hit.index]!.node.expand!;
      void this.toggle(id).catch((e) => this.report(e));
      return;
    }
    const sel = this.selectionOf(hit);
    this.selected = sel?.id ?? null;
    this.opts.onSelect?.(sel);
    this.invalidate();
  }

  private onDoubleClick(ev: MouseEvent): void {
    const hit = this.hitAt(this.local(ev));
    if (!hit || hit.kind !== 'node') return;
    const n = this.scene!.nodes[hit.index]!;
    if (n.node.expand !== null) void this.toggle(n.node.expand).catch((e) => this.report(e));
  }

  private onKey(ev: KeyboardEvent): void {
    // Ctrl/⌘/Alt chords belong to the window (Ctrl+F searches, Ctrl+P profiles): taking them here swallowed them.
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'f' || ev.key === 'F') this.fit(true);
    else if (ev.key === 'Escape') this.select(null);
    else if (ev.key === '+' || ev.key === '=') this.zoom(1.25, true);
    else if (ev.key === '-') this.zoom(0.8, true);
    else return;
    ev.preventDefault();
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
      await this.fetchAll(target.path);
      for (const id of target.path) this.expanded.add(id);
      await this.relayout(null);
    }
    if (!this.scene) return;
    const ni = this.scene.byId.get(target.id);
    const ei = this.scene.edgeById.get(target.id);
    let box: [number, number, number, number] | null = null;
    if (ni !== undefined) {
      const n = this.scene.nodes[ni]!;
      box = [n.x, n.y, n.w, n.h];
    } else if (ei !== undefined) {
      const e = this.scene.edges[ei]!;
      box = [e.minX, e.minY, e.maxX - e.minX, e.maxY - e.minY];
    }
    if (!box) return;
    this.selected = target.id;
    const k = Math.max(0.7, Math.min(1.1, Math.min(this.width / (box[2] * 2.5), this.height / (box[3] * 2.5))));
    this.centerOn(box[0] + box[2] / 2, box[1] + box[3] / 2, k, true);
  }

  // -------------------------------------------------------------------------------------------------------
  // Progress, errors, teardown
  // -------------------------------------------------------------------------------------------------------

  private progress(p: GraphProgress | null): void {
    this.opts.onProgress?.(p);
    this.progressBar.set(p);
  }

  private report(err: unknown): void {
    if (this.opts.onError) this.opts.onError(err);
    else console.error(err);
  }

  destroy(): void {
    this.destroyed = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.resizeObserver.disconnect();
    select(this.canvas).on('.zoom', null);
    this.client.destroy();
    this.minimap.destroy();
    this.tooltip.destroy();
    this.progressBar.destroy();
    this.canvas.remove();
  }
}
