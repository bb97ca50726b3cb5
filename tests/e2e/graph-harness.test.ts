/**
 * The graph module in a real browser: the harness page (renderer/src/graph/harness/) mounted in headless
 * Chromium, fed by the engine over a trivial bridge (graph-server.ts). Opens five corpus files of every kind
 * (small, nested, control-flow heavy, the largest), expands, searches, switches themes, and checks that nothing
 * logs an error. Screenshots land in tests/e2e/screenshots/ (not committed) for people to look at.
 * Timings are printed, never asserted: they live in `npm run bench graph`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageRoot } from '../../electron/engine/paths.js';
import { startHarnessServer, type HarnessServer } from '../../bench/lib/graph-server.js';
import { CHROMIUM, SCREENSHOTS as SHOTS } from './helpers.js';

const root = packageRoot();

/** [short name, corpus file, a search that lands inside nested content]. */
export const GRAPH_FILES = [
  ['nbody', 'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg', 'getAcc'],
  ['channel_flow', 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg', '_Div_'],
  ['cloudsc_simplified', 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz', 'zfoeew'],
  ['stage8', 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz', 'zqtmst'],
  ['velocity_tendencies', 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz', 'vn_ie'],
] as const;

type Tlab = {
  open(f: string): Promise<{ parseMs: number; firstFrameMs: number; longestTaskMs: number }>;
  nextFrame(): Promise<void>;
  setTheme(t: string): void;
  setMode(m: string): void;
  panZoom(frames: number): Promise<{ draw: number[]; interval: number[] }>;
  longTasks: Array<{ start: number; duration: number }>;
  view: {
    metrics: { visibleNodes: number };
    expandNextLevel(): Promise<{ nodes: number; stoppedAtBudget: boolean }>;
    expandAll(budget?: number): Promise<{ nodes: number; stoppedAtBudget: boolean }>;
    search(q: string): Promise<Array<{ id: string }>>;
    fit(): void;
    collapseAll(): Promise<void>;
  };
};
const tlab = <T>(f: (t: Tlab, arg: string) => T | Promise<T>, arg = ''): Promise<T> =>
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- page.evaluate cannot hand `f` the page's `tlab` handle, so `f` travels as text and is rebuilt in the harness page (which has no CSP)
  page.evaluate(([src, a]) => new Function('t', 'a', `return (${src})(t, a)`)((globalThis as unknown as { tlab: Tlab }).tlab, a), [
    f.toString(),
    arg,
  ] as const) as Promise<T>;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;

export function buildHarness(): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/graph-harness.config.ts', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
}

let server: HarnessServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

async function shot(name: string): Promise<void> {
  // Let a zoom transition (350 ms) finish and the frame after it be drawn.
  await page.waitForTimeout(450);
  await tlab((t) => t.nextFrame());
  await page.screenshot({ path: join(SHOTS, `graph-${name}.png`) });
}

describe('graph in Chromium (harness)', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    buildHarness();
    server = await startHarnessServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [name, file, query] of GRAPH_FILES) {
    it(`${name}: opens, searches, expands, pans`, async () => {
      await tlab((t) => t.setTheme('light'));
      const r = await tlab((t, f) => t.open(f), file);
      expect(r.firstFrameMs).toBeGreaterThan(0);
      expect(await tlab((t) => t.view.metrics.visibleNodes)).toBeGreaterThan(0);
      await shot(`${name}-open`);

      const hits = await tlab((t, q) => t.view.search(q), query);
      expect(hits.length).toBeGreaterThan(0);
      await shot(`${name}-search`);
      await tlab((t) => t.setTheme('dark'));
      await shot(`${name}-search-dark`);
      await tlab((t) => t.setTheme('light'));

      await tlab((t) => t.view.collapseAll());
      const next = await tlab((t) => t.view.expandNextLevel());
      expect(next.nodes).toBeGreaterThan(0);
      await shot(`${name}-next-level`);

      const all = await tlab((t) => t.view.expandAll(4000));
      await shot(`${name}-expand-all`);
      const frames = await tlab((t) => t.panZoom(90));
      process.stdout.write(
        `graph harness ${name}: open→first frame ${r.firstFrameMs.toFixed(0)} ms (engine parse ${r.parseMs.toFixed(0)} ms, longest task ${r.longestTaskMs.toFixed(0)} ms); ` +
          `expand all → ${all.nodes} nodes${all.stoppedAtBudget ? ' (budget)' : ''}; pan/zoom draw p95 ${p95(frames.draw).toFixed(1)} ms, frame interval p95 ${p95(frames.interval).toFixed(1)} ms\n`,
      );
      expect(frames.draw.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });
  }
});
