/**
 * The `graph` bench section: what the graph costs without the app.
 * - engine: view-model builds per file (root region, every region, search), in this process;
 * - browser: the graph harness (renderer/src/graph/harness/) in headless Chromium over a trivial bridge to the
 *   engine: open → first frame (with the engine's parse, as the app's `tlab:open-start` → `tlab:first-frame`),
 *   where that time goes, main-thread long tasks while opening, layout time in the worker, pan/zoom frame times;
 * - layout: dagre against ELK on the real states of each file (docs/graph.md).
 * The full open → first frame through `serve` and the app is the app's bench; this one isolates the graph.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { corpusDir, packageRoot } from '../electron/engine/paths.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';
import { graphRegion, searchGraph } from '../electron/engine/view/graph.js';
import { HARNESS_DIR, startHarnessServer } from './lib/graph-server.js';
import type { BenchSection } from './section.js';

const CHROMIUM = process.env.TLAB_CHROMIUM ?? '/usr/bin/chromium';
const RUNS = 3;

/** SDFV's data→first frame measured on this machine (viz-anchors.md §2.1b) and the issue's target (a fifth). */
const ALL_FILES = [
  { name: 'nbody', file: 'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg', sdfvMs: 577, targetMs: 490 },
  { name: 'channel_flow', file: 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg', sdfvMs: 1291, targetMs: 540 },
  {
    name: 'cloudsc_simplified',
    file: 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz',
    sdfvMs: 2369,
    targetMs: 1070,
  },
  { name: 'stage8', file: 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz', sdfvMs: 5593, targetMs: 2000 },
  {
    name: 'velocity_tendencies',
    file: 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz',
    sdfvMs: 2226,
    targetMs: 1400,
  },
];

/**
 * `TLAB_GRAPH_FILES=nbody,stage8` measures only those files and `TLAB_GRAPH_COMPARE=0` skips dagre vs ELK:
 * on a shared machine the whole section takes many minutes.
 */
const ONLY = (process.env.TLAB_GRAPH_FILES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknownFiles = ONLY.filter((n) => !ALL_FILES.some((f) => f.name === n));
if (unknownFiles.length)
  throw new Error(`TLAB_GRAPH_FILES: unknown file(s) ${unknownFiles.join(', ')}; known: ${ALL_FILES.map((f) => f.name).join(', ')}`);
const FILES = ONLY.length ? ALL_FILES.filter((f) => ONLY.includes(f.name)) : ALL_FILES;
const COMPARE = process.env.TLAB_GRAPH_COMPARE !== '0';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! : NaN;
};
const f0 = (v: number): string => (Number.isFinite(v) ? v.toFixed(0) : '-');
const f1 = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '-');

async function engineRows() {
  const rows = [];
  for (const f of FILES) {
    const t0 = performance.now();
    const file = await readSdfgFile(join(corpusDir(), f.file));
    const parseMs = performance.now() - t0;
    let t = performance.now();
    const root = graphRegion(file, null);
    const rootMs = performance.now() - t;
    const rootKiB = JSON.stringify(root).length / 1024;
    t = performance.now();
    let regions = 0;
    let nodes = 0;
    let bytes = 0;
    const queue: Array<string | null> = [null];
    while (queue.length) {
      const r = graphRegion(file, queue.shift()!);
      regions++;
      nodes += r.nodes.length;
      bytes += JSON.stringify(r).length;
      for (const n of r.nodes) if (n.expand) queue.push(n.expand);
    }
    const allMs = performance.now() - t;
    t = performance.now();
    const hits = searchGraph(file, 'tmp', 200).length;
    const searchMs = performance.now() - t;
    rows.push({
      name: f.name,
      jsonMB: file.jsonBytes / 1e6,
      parseMs,
      rootMs,
      rootNodes: root.nodes.length,
      rootKiB,
      allRegions: regions,
      allNodes: nodes,
      allMs,
      allMiB: bytes / 2 ** 20,
      searchMs,
      searchHits: hits,
    });
  }
  return rows;
}

type Tlab = {
  open(f: string, o: { marks: boolean }): Promise<{ parseMs: number; firstFrameMs: number; longestTaskMs: number }>;
  panZoom(frames: number): Promise<{ draw: number[]; interval: number[] }>;
  nextFrame(): Promise<void>;
  compare(
    engine: string,
    open: boolean,
    limit: number,
  ): Promise<{ engine: string; ms: number; maxMs: number; crossings: number; area: number; graphs: number; nodes: number }>;
  view: {
    metrics: {
      open: { fetchMs: number; expandMs: number; layoutMs: number; drawMs: number };
      lastLayoutMs: number;
      visibleNodes: number;
      scale: number;
    };
    zoom(factor: number): void;
    fit(): void;
    expandNextLevel(): Promise<{ nodes: number }>;
    expandAll(budget: number): Promise<{ nodes: number; stoppedAtBudget: boolean }>;
    setLayoutEngine(e: string): Promise<void>;
  };
};

function tlab<T>(page: Page, f: (t: Tlab, arg: string) => T | Promise<T>, arg = ''): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- page.evaluate cannot hand `f` the page's `tlab` handle, so `f` travels as text and is rebuilt in the harness page (which has no CSP)
  return page.evaluate(([src, a]) => new Function('t', 'a', `return (${src})(t, a)`)((globalThis as unknown as { tlab: Tlab }).tlab, a), [
    f.toString(),
    arg,
  ] as const) as Promise<T>;
}

async function browserRows(lines: string[]) {
  if (!existsSync(CHROMIUM)) {
    lines.push(`browser: skipped (no Chromium at ${CHROMIUM})`);
    return null;
  }
  if (!existsSync(join(HARNESS_DIR, 'index.html'))) {
    const root = packageRoot();
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/graph-harness.config.ts', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
  }
  const server = await startHarnessServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const errors: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    const opens = [];
    for (const f of FILES) {
      const runs: Array<{
        parseMs: number;
        firstFrameMs: number;
        longestTaskMs: number;
        fetchMs: number;
        expandMs: number;
        layoutMs: number;
        drawMs: number;
        nodes: number;
      }> = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await tlab(page, (t, file) => t.open(file, { marks: false }), f.file);
        const m = await tlab(page, (t) => ({ ...t.view.metrics.open, nodes: t.view.metrics.visibleNodes }));
        runs.push({ ...r, ...m });
      }
      const pick = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k]));
      const next = await tlab(page, async (t) => {
        const n = await t.view.expandNextLevel();
        return { nodes: n.nodes, layoutMs: t.view.metrics.lastLayoutMs };
      });
      const all = await tlab(page, async (t) => {
        const n = await t.view.expandAll(4000);
        return { ...n, layoutMs: t.view.metrics.lastLayoutMs };
      });
      const frames = await tlab(page, (t) => t.panZoom(120));
      // The same, everything open, at a zoom where text and edges are drawn (the expensive case).
      const readable = await tlab(page, async (t) => {
        t.view.fit();
        t.view.zoom(0.7 / t.view.metrics.scale);
        await t.nextFrame();
        return t.panZoom(120);
      });
      const row = {
        name: f.name,
        openToFirstFrameMs: pick('firstFrameMs'),
        engineParseMs: pick('parseMs'),
        regionToFirstFrameMs: median(runs.map((r) => r.fetchMs + r.expandMs + r.layoutMs + r.drawMs)),
        breakdownMs: { rootFetch: pick('fetchMs'), openSmall: pick('expandMs'), layout: pick('layoutMs'), firstDraw: pick('drawMs') },
        longestTaskWhileOpeningMs: Math.max(...runs.map((r) => r.longestTaskMs)),
        firstFrameNodes: pick('nodes'),
        sdfvMs: f.sdfvMs,
        targetMs: f.targetMs,
        ratioToSdfv: pick('firstFrameMs') / f.sdfvMs,
        expandNextLevel: next,
        expandAll: all,
        panZoomAfterExpandAll: {
          drawP95Ms: p95(frames.draw),
          drawP50Ms: median(frames.draw),
          frameIntervalP95Ms: p95(frames.interval),
          frames: frames.draw.length,
        },
        panZoomReadable: {
          drawP95Ms: p95(readable.draw),
          drawP50Ms: median(readable.draw),
          frameIntervalP95Ms: p95(readable.interval),
          frames: readable.draw.length,
        },
        runs,
      };
      opens.push(row);
    }
    const compare = [];
    for (const f of COMPARE ? FILES : []) {
      await tlab(page, (t, file) => t.open(file, { marks: false }), f.file);
      const result: Record<string, unknown> = { name: f.name };
      for (const open of [false, true]) {
        for (const engine of ['dagre', 'elk']) {
          result[`${engine}${open ? 'Open' : 'Closed'}`] = await page.evaluate(
            ([e, o, limit]) => (globalThis as unknown as { tlab: Tlab }).tlab.compare(e, o, limit as number),
            [engine, open, open ? 8 : 40] as const,
          );
        }
      }
      compare.push(result);
    }
    return { opens, compare, consoleErrors: errors };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const graphSection: BenchSection = {
  name: 'graph',
  description: 'graph view models (engine), open → first frame / layout / pan-zoom in headless Chromium (harness), dagre vs ELK',
  async run() {
    const lines: string[] = [];
    const engine = await engineRows();
    lines.push(
      `${'engine'.padEnd(20)} ${'JSON MB'.padStart(8)} ${'parse'.padStart(7)} ${'root'.padStart(6)} ${'root KiB'.padStart(9)} ${'all regions'.padStart(12)} ${'all ms'.padStart(7)} ${'search'.padStart(7)}`,
    );
    for (const r of engine) {
      lines.push(
        `${r.name.padEnd(20)} ${r.jsonMB.toFixed(1).padStart(8)} ${f0(r.parseMs).padStart(7)} ${f1(r.rootMs).padStart(6)} ${f1(r.rootKiB).padStart(9)} ${String(r.allRegions).padStart(12)} ${f0(r.allMs).padStart(7)} ${f1(r.searchMs).padStart(7)}`,
      );
    }
    const browser = await browserRows(lines);
    if (browser) {
      lines.push(
        `${'open→first frame'.padEnd(20)} ${'median'.padStart(7)} ${'parse'.padStart(6)} ${'graph'.padStart(6)} ${'target'.padStart(7)} ${'SDFV'.padStart(6)} ${'×SDFV'.padStart(6)} ${'longest task'.padStart(13)} ${'pan/zoom p95 fit / 0.7'.padStart(24)}`,
      );
      for (const r of browser.opens) {
        lines.push(
          `${r.name.padEnd(20)} ${f0(r.openToFirstFrameMs).padStart(7)} ${f0(r.engineParseMs).padStart(6)} ${f0(r.regionToFirstFrameMs).padStart(6)} ${f0(r.targetMs).padStart(7)} ${f0(r.sdfvMs).padStart(6)} ${r.ratioToSdfv.toFixed(2).padStart(6)} ${f0(r.longestTaskWhileOpeningMs).padStart(13)} ${`${f1(r.panZoomAfterExpandAll.drawP95Ms)} / ${f1(r.panZoomReadable.drawP95Ms)}`.padStart(24)}`,
        );
      }
      for (const c of browser.compare) {
        const s = (k: string) => c[k] as { ms: number; crossings: number; area: number; graphs: number };
        lines.push(
          `layout ${String(c.name).padEnd(19)} closed: dagre ${f0(s('dagreClosed').ms)} ms ${s('dagreClosed').crossings} ×, elk ${f0(s('elkClosed').ms)} ms ${s('elkClosed').crossings} × | open: dagre ${f0(s('dagreOpen').ms)} ms ${s('dagreOpen').crossings} × ${f1(s('dagreOpen').area)} Mpx², elk ${f0(s('elkOpen').ms)} ms ${s('elkOpen').crossings} × ${f1(s('elkOpen').area)} Mpx²`,
        );
      }
      if (browser.consoleErrors.length) lines.push(`CONSOLE ERRORS: ${browser.consoleErrors.join(' | ')}`);
    }
    return { result: { description: this.description, engine, browser }, summary: lines };
  },
};
