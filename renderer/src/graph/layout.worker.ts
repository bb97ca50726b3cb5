/**
 * The layout worker: keeps the regions it was sent and their layouts, and lays out on request. Between regions
 * it lets queued messages in, so a newer request or a cancel stops the current one within one region's time.
 */
/// <reference lib="webworker" />
import { HierLayout, LayoutCancelled, layoutBuffers } from './hier-layout.js';
import type { FromWorker, ToWorker } from './layout-protocol.js';
import { font, type FontRole, type Measure } from './text.js';

const ctx = new OffscreenCanvas(1, 1).getContext('2d')!;
const widths = new Map<string, number>();
let currentFont = '';

const measure: Measure = (text: string, role: FontRole) => {
  const key = `${role}\u0000${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    const f = font(role);
    if (f !== currentFont) {
      ctx.font = f;
      currentFont = f;
    }
    w = ctx.measureText(text).width;
    widths.set(key, w);
  }
  return w;
};

let layout = new HierLayout(measure, 'dagre');
/** The key of each layout the view already holds: only newer ones travel back. */
const sentKeys = new Map<string, string>();
let epoch = 0;
let latest = 0;
const cancelled = new Set<number>();
const post = (m: FromWorker, transfer: Transferable[] = []): void => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m, transfer);
const macrotask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

// Compile dagre's hot paths before the first real request arrives (the first layout would pay for it).
warmUp();

function warmUp(): void {
  const h = new HierLayout(measure, 'dagre');
  const nodes = Array.from({ length: 12 }, (_, i) => ({ id: `w${i}`, kind: 'state' as const, label: `s${i}`, start: i === 0, expand: null, summary: null }));
  const edges = nodes.slice(1).map((n, i) => ({ kind: 'interstate' as const, id: `e${i}`, src: `w${i}`, dst: n.id, label: '', condition: null, assignments: [] }));
  h.addRegions([{ id: 'w', kind: 'cfg', sdfg: 0, label: '', nodes, edges }]);
  void h.run('w', new Set()).catch(() => undefined);
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'reset') {
    // A job of the previous document still running must neither answer nor record what it "sent": region ids
    // (JSON paths) repeat across documents.
    epoch++;
    layout = new HierLayout(measure, layout.engine);
    sentKeys.clear();
    return;
  }
  if (msg.type === 'regions') {
    layout.addRegions(msg.regions);
    return;
  }
  if (msg.type === 'cancel') {
    cancelled.add(msg.job);
    return;
  }
  const job = msg.job;
  const mine = epoch;
  const engine = layout;
  latest = Math.max(latest, job);
  engine.engine = msg.engine;
  const t0 = performance.now();
  let lastPause = t0;
  let lastProgress = 0;
  try {
    const layouts = await engine.run(msg.root, new Set(msg.expanded), {
      cancelled: () => cancelled.has(job) || latest !== job || epoch !== mine,
      progress: (done, total) => {
        const now = performance.now();
        if (now - lastProgress > 100) {
          lastProgress = now;
          post({ type: 'progress', job, done, total });
        }
      },
      pause: async () => {
        if (performance.now() - lastPause > 30) {
          await macrotask();
          lastPause = performance.now();
        }
      },
    });
    if (epoch !== mine) throw new LayoutCancelled();
    const fresh = layouts.filter((l) => sentKeys.get(l.id) !== l.key);
    for (const l of fresh) sentKeys.set(l.id, l.key);
    // Transferred, not copied: the worker keeps only each layout's size and key (parents need nothing else),
    // and it never sends a layout twice.
    post({ type: 'done', job, epoch: mine, layouts: fresh, ms: performance.now() - t0 }, fresh.flatMap(layoutBuffers));
  } catch (err) {
    if (err instanceof LayoutCancelled) post({ type: 'cancelled', job });
    else post({ type: 'error', job, message: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
  } finally {
    cancelled.delete(job);
  }
};
