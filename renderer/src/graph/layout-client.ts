/**
 * Main-thread side of the layout worker: one request at a time (a new one supersedes the old), progress,
 * cancel. A cancel the worker does not acknowledge quickly (one huge region mid-layout) replaces the worker.
 */
import type { GraphRegion, RegionId } from '../../../electron/engine/view/public.js';
import type { LayoutEngineName } from './flat-layout.js';
import type { RegionLayout } from './hier-layout.js';
import type { FromWorker, ToWorker } from './layout-protocol.js';
import { forLayout, LayoutCancelled } from './hier-layout.js';

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

/** The warm worker if there is one (it is then gone), else a new one. */
export const takeLayoutWorker = (): Worker => {
  const w = spare ?? startWorker();
  spare = null;
  return w;
};

interface Pending {
  job: number;
  resolve(r: { layouts: RegionLayout[]; ms: number }): void;
  reject(e: unknown): void;
  progress?: (done: number, total: number) => void;
}

export class LayoutClient {
  private worker: Worker;
  private job = 0;
  /** Resets sent to the current worker (the worker counts the same). */
  private epoch = 0;
  private pending: Pending | null = null;
  /** Everything sent, so that a replacement worker can be brought up to date. */
  private readonly sent = new Map<RegionId, GraphRegion>();
  private hardCancel: ReturnType<typeof setTimeout> | null = null;

  /**
   * Every layout the worker sends, whichever request it answered: the worker sends each layout once, so one
   * that arrives for a request superseded since must still be kept.
   */
  onLayouts: ((layouts: RegionLayout[]) => void) | null = null;

  constructor(private readonly makeWorker: () => Worker) {
    this.worker = this.start();
  }

  private start(): Worker {
    const w = this.makeWorker();
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.onMessage(ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      this.fail(new Error(`layout worker failed: ${ev.message || 'unknown error'}`));
    };
    return w;
  }

  private post(m: ToWorker): void {
    this.worker.postMessage(m);
  }

  /** A new document: drops every region and layout in the worker. */
  reset(): void {
    this.epoch++;
    this.pending?.reject(new LayoutCancelled());
    this.pending = null;
    this.sent.clear();
    this.post({ type: 'reset' });
  }

  addRegions(regions: GraphRegion[]): void {
    const fresh = regions.filter((r) => !this.sent.has(r.id)).map(forLayout);
    if (fresh.length === 0) return;
    for (const r of fresh) this.sent.set(r.id, r);
    this.post({ type: 'regions', regions: fresh });
  }

  /** Lays out; rejects with LayoutCancelled when superseded or cancelled. */
  layout(
    root: RegionId,
    expanded: Iterable<RegionId>,
    engine: LayoutEngineName,
    progress?: (done: number, total: number) => void,
  ): Promise<{ layouts: RegionLayout[]; ms: number }> {
    this.pending?.reject(new LayoutCancelled());
    const job = ++this.job;
    return new Promise((resolve, reject) => {
      this.pending = { job, resolve, reject, progress };
      this.post({ type: 'layout', job, root, expanded: [...expanded], engine });
    });
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  /** Stops the running layout; a worker stuck inside one region for more than `graceMs` is replaced. */
  cancel(graceMs = 400): void {
    const p = this.pending;
    if (!p) return;
    this.post({ type: 'cancel', job: p.job });
    this.pending = null;
    p.reject(new LayoutCancelled());
    if (this.hardCancel) clearTimeout(this.hardCancel);
    this.hardCancel = setTimeout(() => {
      this.hardCancel = null;
      if (this.acked.has(p.job)) return;
      this.worker.terminate();
      this.worker = this.start();
      this.epoch = 0;
      const all = [...this.sent.values()];
      if (all.length) this.post({ type: 'regions', regions: all });
    }, graceMs);
  }

  private readonly acked = new Set<number>();

  private onMessage(m: FromWorker): void {
    if (m.type !== 'progress') this.acked.add(m.job);
    if (m.type === 'done') {
      if (m.epoch !== this.epoch) return;
      if (m.layouts.length) this.onLayouts?.(m.layouts);
    }
    const p = this.pending;
    if (!p || p.job !== m.job) return;
    switch (m.type) {
      case 'progress':
        p.progress?.(m.done, m.total);
        break;
      case 'done':
        this.pending = null;
        p.resolve({ layouts: m.layouts, ms: m.ms });
        break;
      case 'cancelled':
        this.pending = null;
        p.reject(new LayoutCancelled());
        break;
      case 'error':
        this.pending = null;
        p.reject(new Error(`layout failed: ${m.message}`));
        break;
    }
  }

  private fail(err: Error): void {
    const p = this.pending;
    this.pending = null;
    p?.reject(err);
  }

  destroy(): void {
    if (this.hardCancel) clearTimeout(this.hardCancel);
    this.pending?.reject(new LayoutCancelled());
    this.pending = null;
    this.worker.terminate();
  }
}
