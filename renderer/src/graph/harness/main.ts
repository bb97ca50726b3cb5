/**
 * Graph harness page (renderer/graph-harness.config.ts): opens `?file=` from the corpus through the bridge, marks `tlab:open-start` / `tlab:first-frame`
 * like the app does, records long tasks, and exposes `window.tlab` for Playwright to drive.
 */
import { createGraphView, transientMarks, type GraphView } from '../index.js';
import type { AnalysisView, GraphRegion, SearchHit } from '../../../../electron/engine/view/public.js';
import type { ThemeName, ModeName } from '../../theme/index.js';
import { compareEngines } from './compare.js';
import type { LayoutEngineName } from '../flat-layout.js';

interface OpenResult {
  doc: string;
  parseMs: number;
}

const params = new URLSearchParams(location.search);
let theme: ThemeName = params.get('theme') === 'dark' ? 'dark' : 'light';
let doc = '';
/** The AnalysisView the contract's `analyze` returns (graph-server.ts builds it with the engine). */
let analysis: AnalysisView | null = null;
const longTasks: Array<{ start: number; duration: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

async function json<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

const status = document.getElementById('status')!;
let firstFrame: (() => void) | null = null;
const view: GraphView = createGraphView(document.getElementById('graph')!, {
  fetchRegion: (id) => json<GraphRegion>(`/api/graph?doc=${encodeURIComponent(doc)}&region=${encodeURIComponent(id ?? '')}`),
  search: (q, limit) => json<SearchHit[]>(`/api/search?doc=${encodeURIComponent(doc)}&q=${encodeURIComponent(q)}&limit=${limit}`),
  onFirstFrame: (info) => {
    performance.mark('tlab:first-frame');
    status.textContent = `first frame after ${info.ms.toFixed(0)} ms, ${info.nodes} nodes`;
    firstFrame?.();
  },
  onError: (e) => {
    console.error(e);
    status.textContent = String(e);
  },
  onSelect: (sel) => (status.textContent = sel ? `${sel.kind} ${sel.id}` : ''),
  theme,
});

function applyTheme(): void {
  document.body.classList.toggle('dark', theme === 'dark');
  view.setTheme(theme);
}
applyTheme();

async function open(
  file: string,
  opts: { marks?: boolean } = {},
): Promise<{ parseMs: number; firstFrameMs: number; longestTaskMs: number }> {
  performance.clearMarks();
  performance.mark('tlab:open-start');
  const shown = new Promise<void>((r) => (firstFrame = r));
  const o = await json<OpenResult>(`/api/open?file=${encodeURIComponent(file)}`);
  doc = o.doc;
  await view.open();
  await shown;
  const start = performance.getEntriesByName('tlab:open-start')[0]!.startTime;
  const end = performance.getEntriesByName('tlab:first-frame')[0]!.startTime;
  // Long tasks are reported a little after they end: give the observer a moment.
  await new Promise((r) => setTimeout(r, 100));
  const during = longTasks.filter((t) => t.start + t.duration >= start && t.start <= end);
  if (opts.marks !== false) void loadMarks();
  return { parseMs: o.parseMs, firstFrameMs: end - start, longestTaskMs: Math.max(0, ...during.map((t) => t.duration)) };
}

async function loadMarks(): Promise<void> {
  analysis = await json<AnalysisView>(`/api/analysis?doc=${encodeURIComponent(doc)}`);
  applyMode();
}

function applyMode(): void {
  const mode = (document.getElementById('mode') as HTMLSelectElement).value as ModeName | 'ALL';
  view.setTransientMarks(transientMarks(analysis, mode));
}

document.getElementById('collapse')!.onclick = () => void view.collapseAll();
document.getElementById('next')!.onclick = () => void view.expandNextLevel();
document.getElementById('all')!.onclick = () => void view.expandAll();
document.getElementById('fit')!.onclick = () => view.fit(true);
document.getElementById('theme')!.onclick = () => {
  theme = theme === 'dark' ? 'light' : 'dark';
  applyTheme();
};
document.getElementById('mode')!.onchange = applyMode;
document.getElementById('search')!.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') void view.search((ev.target as HTMLInputElement).value);
});

const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

declare global {
  interface Window {
    tlab: unknown;
  }
}

window.tlab = {
  view,
  open,
  longTasks,
  nextFrame,
  setMode(mode: string) {
    (document.getElementById('mode') as HTMLSelectElement).value = mode;
    applyMode();
  },
  setTheme(t: ThemeName) {
    theme = t;
    applyTheme();
  },
  /** Every region of the open document (the engine builds them on request). */
  async allRegions(): Promise<GraphRegion[]> {
    const out: GraphRegion[] = [];
    const queue: Array<string | null> = [null];
    while (queue.length) {
      const batch = queue.splice(0, 16);
      const got = await Promise.all(
        batch.map((id) => json<GraphRegion>(`/api/graph?doc=${encodeURIComponent(doc)}&region=${encodeURIComponent(id ?? '')}`)),
      );
      for (const r of got) {
        out.push(r);
        for (const n of r.nodes) if (n.expand) queue.push(n.expand);
      }
    }
    return out;
  },
  /** dagre vs ELK on the `limit` biggest states of the open document (docs/graph.md). */
  async compare(engine: LayoutEngineName, open: boolean, limit: number) {
    const all = await (window.tlab as { allRegions(): Promise<GraphRegion[]> }).allRegions();
    const states = all
      .filter((r) => r.kind === 'state' && r.nodes.length >= 4)
      .sort((a, b) => b.nodes.length - a.nodes.length)
      .slice(0, limit);
    return compareEngines(all, states, open, engine);
  },
  /**
   * Zooms in and out around a moving point for `frames` animation frames. Returns the main-thread time of each
   * drawn frame (`draw`) and the time between animation frames (`interval`, which also holds rasterisation).
   */
  async panZoom(frames: number): Promise<{ draw: number[]; interval: number[] }> {
    const canvas = document.querySelector('canvas.tlab-graph-canvas') as HTMLCanvasElement;
    const r = canvas.getBoundingClientRect();
    view.metrics.frameTimes.length = 0;
    const interval: number[] = [];
    let last = performance.now();
    for (let i = 0; i < frames; i++) {
      const x = r.left + r.width / 2 + Math.sin(i / 9) * 200;
      const y = r.top + r.height / 2 + Math.cos(i / 7) * 120;
      canvas.dispatchEvent(
        new WheelEvent('wheel', { clientX: x, clientY: y, deltaY: i % 40 < 20 ? -40 : 40, bubbles: true, cancelable: true }),
      );
      await nextFrame();
      const now = performance.now();
      interval.push(now - last);
      last = now;
    }
    return { draw: [...view.metrics.frameTimes], interval };
  },
};
if (params.get('file')) void open(params.get('file')!);
