/**
 * The graph module in a real browser: the harness page (renderer/src/graph/harness/) mounted in headless
 * Chromium, fed by the engine over a trivial bridge (graph-server.ts). Opens five corpus files of every kind
 * (small, nested, control-flow heavy, the largest), expands, searches, switches themes, and checks that nothing
 * logs an error. Screenshots land in tests/e2e/screenshots/ (not committed) for people to look at.
 * Timings are printed, never asserted: they live in `npm run bench graph`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageRoot } from '../../electron/engine/paths.js';
import { startHarnessServer, type HarnessServer } from './graph-server.js';

const root = packageRoot();
const SHOTS = join(root, 'tests', 'e2e', 'screenshots');
const CHROMIUM = process.env.TLAB_CHROMIUM ?? '/usr/bin/chromium';

export const GRAPH_FILES = [
  ['nbody', 'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg'],
  ['channel_flow', 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'],
  ['cloudsc_simplified', 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz'],
  ['stage8', 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz'],
  ['velocity_tendencies', 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz'],
] as const;

export function buildHarness(): void {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/graph-harness.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

let server: HarnessServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

async function shot(name: string): Promise<void> {
  await page.evaluate(() => (window as unknown as { tlab: { nextFrame(): Promise<void> } }).tlab.nextFrame());
  await page.evaluate(() => (window as unknown as { tlab: { nextFrame(): Promise<void> } }).tlab.nextFrame());
  await page.screenshot({ path: join(SHOTS, `graph-${name}.png`) });
}

/** Waits until no layout is running and one more frame is drawn. */
async function settle(): Promise<void> {
  await page.waitForFunction(() => !document.querySelector<HTMLElement>('.tlab-graph-progress') || document.querySelector<HTMLElement>('.tlab-graph-progress')!.style.display === 'none');
  await page.evaluate(() => (window as unknown as { tlab: { nextFrame(): Promise<void> } }).tlab.nextFrame());
}

describe.skipIf(!existsSync(CHROMIUM))('graph in Chromium (harness)', () => {
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

  for (const [name, file] of GRAPH_FILES) {
    it(`${name}: opens, expands, searches`, async () => {
      const r = await page.evaluate((f) => (window as unknown as { tlab: { open(f: string): Promise<{ parseMs: number; firstFrameMs: number }> } }).tlab.open(f), file);
      process.stdout.write(`graph harness ${name}: open→first frame ${r.firstFrameMs.toFixed(0)} ms (engine parse ${r.parseMs.toFixed(0)} ms)\n`);
      expect(r.firstFrameMs).toBeGreaterThan(0);
      const visible = await page.evaluate(() => (window as unknown as { tlab: { view: { metrics: { visibleNodes: number } } } }).tlab.view.metrics.visibleNodes);
      expect(visible).toBeGreaterThan(0);
      await page.waitForTimeout(300);
      await shot(`${name}-open`);
      const next = await page.evaluate(() => (window as unknown as { tlab: { view: { expandNextLevel(): Promise<{ nodes: number }> } } }).tlab.view.expandNextLevel());
      expect(next.nodes).toBeGreaterThan(0);
      await settle();
      await shot(`${name}-next-level`);
      expect(errors).toEqual([]);
    });
  }
});
