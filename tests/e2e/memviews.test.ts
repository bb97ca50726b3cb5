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
import { buildHarness, openHarness, viewOf, type Harness } from '../../bench/lib/memviews/harness.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'memviews');
const THEMES = ['light', 'dark'] as const;
const only = process.env['TLAB_SHOTS'] ? new Set(process.env['TLAB_SHOTS'].split(',')) : null;

let h: Harness;
const views: Record<string, AnalysisView> = {};
let result: ProfileResult;
let rerun: ProfileResult;
let sampled: ProfileResult;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = await buildHarness();
  h = await openHarness(dir);
  const ex = (n: string) => join(packageRoot(), 'assets', 'examples', `${n}.sdfg`);
  views['hdiff'] = await viewOf(ex('hdiff'), { I: 128, J: 128, K: 40 });
  views['chain'] = await viewOf(ex('chain'), { N: 2000000 });
  views['chain-symbolic'] = await viewOf(ex('chain'));
  views['channel_flow'] = await viewOf(join(corpusDir(), 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg'), {}, 64n);
  views['cloudsc'] = await viewOf(
    join(corpusDir(), 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz'),
    {},
    64n,
  );
  views['velocity_tendencies'] = await viewOf(
    join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz'),
    {},
    64n,
  );
  const fixture = (n: string) => JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', n), 'utf8')) as ProfileResult;
  result = fixture('hdiff-cpu.json');
  rerun = fixture('hdiff-cpu-rerun.json');
  // Written by the runner branch's `profile`, the first with profile@1's sampledCall (issue 7).
  sampled = fixture('hdiff-cpu-sampled.json');
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

/** Calls `window.tlab[method](...args)` in the page; arguments cross as one JSON string (fast for MBs). */
async function call<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
  return h.page.evaluate(
    ([m, json]) =>
      (globalThis as unknown as { tlab: Record<string, (...x: unknown[]) => unknown> }).tlab[m]!(...(JSON.parse(json) as unknown[])),
    [method, JSON.stringify(args)] as const,
  ) as Promise<T>;
}

async function mount(
  kind: string,
  data: unknown,
  o: { theme: string; width: number; height?: number; selected?: string | null; backend?: string },
): Promise<void> {
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

  it('hovers, selects and syncs a transient across the lifetime timeline and the workspace map', async () => {
    if (only && !only.has('interact')) return;
    const view = views['cloudsc']!;
    await mount('lifetime', { view }, { theme: 'light', width: 1200, height: 620, selected: '0:zqxn2d' });
    await shot('interact-lifetime-selected');
    // Hover the middle of the bars area: the tooltip names a transient and the chart reports it.
    const box = (await h.page.locator('#view').boundingBox())!;
    await h.page.mouse.move(box.x + 700, box.y + 150);
    await h.page.waitForSelector('.tlab-chart-tooltip', { state: 'visible' });
    const hovered = ((await call<string[]>('events')).find((e) => e.startsWith('hover:')) ?? '').slice(6);
    expect(hovered).toMatch(/^0:/);
    expect(await h.page.locator('.tlab-chart-tooltip').innerText()).toContain(view.table.name[view.table.id.indexOf(hovered)]!);
    await shot('interact-lifetime-hover');
    await h.page.mouse.click(box.x + 700, box.y + 150);
    expect(await call<string[]>('events')).toContain(`select:${hovered}`);
    // The curve's brush zooms the steps.
    await h.page.mouse.move(box.x + 700, box.y + 560);
    await h.page.mouse.down();
    await h.page.mouse.move(box.x + 900, box.y + 560, { steps: 4 });
    await h.page.mouse.up();
    await shot('interact-lifetime-zoomed');
    await mount('workspace', { view }, { theme: 'dark', width: 1200, height: 460, selected: hovered });
    await shot('interact-workspace-selected');
    const svg = await call<string>('svg');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(h.errors).toEqual([]);
  });

  it('draws the velocity_tendencies timeline with all 30k transients as rows', async () => {
    if (only && !only.has('velocity_tendencies')) return;
    const view = views['velocity_tendencies']!;
    await mount('lifetime', { view, rows: 'all' }, { theme: 'dark', width: 1200, height: 620 });
    expect(await canvasColours()).toBeGreaterThan(8);
    await shot('velocity_tendencies-lifetime-all-dark');
    await mount('lifetime', { view }, { theme: 'light', width: 1200, height: 620 });
    await shot('velocity_tendencies-lifetime-light');
    await mount('workspace', { view }, { theme: 'light', width: 1200, height: 460 });
    await shot('velocity_tendencies-workspace-light');
    expect(h.errors).toEqual([]);
  });

  for (const theme of THEMES) {
    it(`draws the profile charts of a real hdiff result and a comparison of two runs (${theme})`, async () => {
      if (only && !only.has('profile')) return;
      const single = { results: [{ label: 'run 1', result }] };
      const both = {
        results: [
          { label: 'run 1', result },
          { label: 'run 2', result: rerun },
        ],
      };
      for (const kind of ['distribution', 'calls', 'breakdown', 'gantt']) {
        await mount(kind, single, { theme, width: 1100 });
        expect(await canvasColours()).toBeGreaterThan(kind === 'gantt' ? 2 : 8);
        await shot(`profile-${kind}-${theme}`);
      }
      for (const kind of ['distribution', 'calls', 'breakdown']) {
        await mount(kind, both, { theme, width: 1100 });
        await shot(`compare-${kind}-${theme}`);
      }
      await mount('gantt', { results: [{ label: 'run 3', result: sampled }] }, { theme, width: 1100, selected: '0:flx' });
      expect(await canvasColours()).toBeGreaterThan(8);
      await shot(`profile-gantt-sampled-${theme}`);
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
