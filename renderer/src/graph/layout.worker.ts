/**
 * The layout worker: keeps the regions it was sent and their layouts, and lays out on request. Between regions
 * it lets queued messages in, so a newer request or a cancel stops the current one within one region's time.
 */
/// <reference lib="webworker" />
import { HierLayout, LayoutCancelled, layoutBuffers } from './hier-layout.js';
import type { FromWorker, ToWorker } from './layout-protocol.js';
import type { GraphEdge, GraphNode } from '../../../electron/engine/view/public.js';
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
const post = (m: FromWorker, transfer: Transferable[] = []): void =>
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(m, transfer);
const macrotask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

// Compile dagre's hot paths before the first real request arrives (the first layout would pay for it): a
// control-flow chain, and a state whose dataflow (labelled memlets, ports) goes through dagre's crossing sweeps.
warmUp();

function warmUp(): void {
  const h = new HierLayout(measure, 'dagre');
  const summary = { states: 0, nodes: 6, maps: 1, tasklets: 1, loops: 0, sdfgs: 0, transients: [] };
  const nodes: GraphNode[] = Array.from({ length: 12 }, (_, i) => ({
    id: `w${i}`,
    kind: 'state' as const,
    label: `s${i}`,
    start: i === 0,
    expand: i === 1 ? 'd' : null,
    summary: i === 1 ? summary : null,
  }));
  const edges: GraphEdge[] = nodes.slice(1).map((n, i) => ({
    kind: 'interstate' as const,
    id: `e${i}`,
    src: `w${i}`,
    dst: n.id,
    label: i % 3 ? '' : `i < N; i = i + ${i}`,
    condition: null,
    assignments: [],
  }));
  const access = (id: string, data: string): GraphNode => ({
    id,
    kind: 'access',
    label: data,
    expand: null,
    summary: null,
    inConnectors: [],
    outConnectors: [],
    data,
    transient: null,
    storage: 'Default',
    descriptor: { type: 'Array', dtype: 'float64', shape: ['N'] },
  });
  const flow: GraphNode[] = [
    access('a', 'A'),
    access('b', 'B'),
    {
      id: 'm',
      kind: 'map',
      label: 'map',
      expand: null,
      summary: null,
      inConnectors: ['IN_A', 'IN_B'],
      outConnectors: ['OUT_T'],
      params: ['i = 0:N'],
      schedule: 'Default',
      entryOut: ['OUT_A', 'OUT_B'],
      exitIn: ['IN_T'],
      exitId: null,
    },
    {
      id: 't',
      kind: 'tasklet',
      label: 'add',
      expand: null,
      summary: null,
      inConnectors: ['x', 'y'],
      outConnectors: ['z'],
      language: 'Python',
      code: 'z = x + y',
      codeLines: 1,
    },
    access('c', 'tmp'),
    access('d2', 'C'),
  ];
  const memlet = (
    id: string,
    src: string,
    dst: string,
    label: string,
    srcConnector: string | null,
    dstConnector: string | null,
  ): GraphEdge => ({
    kind: 'memlet',
    id,
    src,
    dst,
    srcConnector,
    dstConnector,
    label,
    data: label.split('[')[0] || null,
    volume: 'N',
    dynamic: false,
    wcr: null,
    transient: null,
  });
  const flowEdges: GraphEdge[] = [
    memlet('f0', 'a', 'm', 'A[0:N]', null, 'IN_A'),
    memlet('f1', 'b', 'm', 'B[0:N]', null, 'IN_B'),
    memlet('f2', 'm', 'c', 'tmp[0:N]', 'OUT_T', null),
    memlet('f3', 'a', 't', 'A[0]', null, 'x'),
    memlet('f4', 'b', 't', 'B[0]', null, 'y'),
    memlet('f5', 't', 'd2', 'C[0]', 'z', null),
    memlet('f6', 'c', 'd2', 'C[0:N]', null, null),
  ];
  h.addRegions([
    { id: 'w', kind: 'cfg', sdfg: 0, label: '', nodes, edges },
    { id: 'd', kind: 'state', sdfg: 0, label: 's1', nodes: flow, edges: flowEdges },
  ]);
  void h.run('w', new Set(['d'])).catch(() => undefined);
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
