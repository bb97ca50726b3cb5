/**
 * The Workload view and the advisor panel through `transient-lab serve` in Debian's Chromium, on the bundled
 * workload (assets/examples/workload-dycore.json): the calls and what each mode holds, the recommendation in the
 * largest type (the shared workspace the hdiff calls size), a sweep with its closed form, the blockers, and a click
 * on a call that opens that program's graph (and the way back). Screenshots in tests/e2e/screenshots/workload/
 * (not committed: look at them).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'workload');
const WORKLOAD = join(examplesDir(), 'workload-dycore.json');

// The shared workspace, independently: hdiff's three transients at I=J=128, K=80, float64, each 64-byte aligned,
// all live at once (assets/examples/README.md); it is the largest need of the five calls.
const hdiffNeed = [130 * 130 * 80 * 8, 129 * 128 * 80 * 8, 128 * 129 * 80 * 8].map((b) => Math.ceil(b / 64) * 64).reduce((a, b) => a + b);

const text = async (page: Page, testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

/** The leaf element with the largest font on the page (its test id, or its class). */
async function biggestText(page: Page): Promise<string> {
  type El = { childElementCount: number; textContent: string | null; className: string; dataset: Record<string, string> };
  const sizes = await page.$$eval('body *', (els) =>
    (els as unknown as El[])
      .filter((e) => e.childElementCount === 0 && (e.textContent ?? '').trim().length > 0)
      .map((e) => ({
        size: parseFloat((globalThis as unknown as { getComputedStyle(x: El): { fontSize: string } }).getComputedStyle(e).fontSize),
        id: e.dataset['testid'] ?? String(e.className),
      })),
  );
  return sizes.reduce((m, s) => (s.size > m.size ? s : m), { size: 0, id: '' }).id;
}

function clean(a: AppPage): void {
  expect(a.errors).toEqual([]);
  expect(a.foreign).toEqual([]);
}

async function openWorkload(theme: 'light' | 'dark'): Promise<AppPage> {
  const a = await openApp(e2e.browser, e2e.serve, { theme, query: `open=${encodeURIComponent(WORKLOAD)}` });
  await a.page.waitForSelector('[data-testid="workload-chart"] canvas');
  await a.page.waitForSelector('[data-testid="advice-bytes"]');
  await nextFrames(a.page);
  return a;
}

const e2e = appSession({
  what: 'the workload e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', examplesDir(), '--root', scratch],
  scratch: {
    prefix: 'tlab-workload-e2e-',
    fill: (scratch) => {
      // A workload over two storages: a GPU program (GPU_Global) and a CPU one (CPU_Heap).
      const two = { hdiff: { sdfg: join(examplesDir(), 'gpu', 'hdiff_gpu.sdfg') }, chain: { sdfg: join(examplesDir(), 'chain.sdfg') } };
      writeFileSync(
        join(scratch, 'two.json'),
        JSON.stringify({
          schema: 'transient-lab/workload@1',
          programs: two,
          symbols: { I: 64, J: 64, K: 8, N: 4096 },
          sequence: ['hdiff', 'chain'],
        }),
      );
    },
  },
});

describe('the Workload view and the advisor panel', () => {
  it(
    'a workload over two storages draws the one with the largest workspace first and the other by choice',
    { timeout: 240_000 },
    async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme: 'light',
        query: `open=${encodeURIComponent(join(e2e.scratch, 'two.json'))}`,
      });
      const { page } = a;
      await page.waitForSelector('[data-testid="workload-chart"] canvas');
      const label = () => page.getAttribute('[data-testid="workload-chart"] .tlab-chart', 'aria-label');
      // hdiff at I=J=64, K=8 needs (66·66 + 65·64 + 64·65)·8·8 B ≈ 0.8 MiB of device memory; chain 2 · 4096 · 8 B of host memory.
      expect(await label()).toMatch(/, GPU_Global: 2 calls; EXTERNAL shares .+ \(sized by hdiff\)/);
      await page.selectOption('[data-testid="workload-storage"]', 'CPU_Heap');
      await page.waitForFunction(() =>
        (
          (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(a: string): string | null } | null } }).document
            .querySelector('[data-testid="workload-chart"] .tlab-chart')
            ?.getAttribute('aria-label') ?? ''
        ).includes('CPU_Heap'),
      );
      expect(await label()).toMatch(/, CPU_Heap: 2 calls; EXTERNAL shares .+ \(sized by chain\)/);
      clean(a);
      await a.close();
    },
  );

  for (const theme of ['light', 'dark'] as const) {
    it(`opens the workload: calls, modes, needs, and the recommendation in the largest type (${theme})`, { timeout: 240_000 }, async () => {
      const a = await openWorkload(theme);
      const { page } = a;
      expect(await text(page, 'file-chip')).toContain('workload · 4 programs · 5 calls × 4 steps');
      const label = (await page.getAttribute('[data-testid="workload-chart"] .tlab-chart', 'aria-label')) ?? '';
      expect(label).toMatch(
        /^Workload dycore-step, CPU_Heap: 5 calls; EXTERNAL shares 30\.5 MiB \(sized by hdiff\); PERSISTENT holds 131 MiB/,
      );
      expect(await text(page, 'advice-mode')).toBe('EXTERNAL');
      expect(await text(page, 'advice-bytes')).toBe('30.5 MiB');
      expect(await text(page, 'advice-rec-CPU_Heap')).toContain(`${hdiffNeed.toLocaleString('en-US')} B`);
      expect(await text(page, 'advice-rec-CPU_Heap')).toContain('64 B alignment');
      expect(await text(page, 'advice-basis')).toMatch(/^No timing backs this/);
      expect(await biggestText(page)).toBe('advice-bytes');
      await page.screenshot({ path: join(SHOTS, `01-workload-${theme}.png`) });
      await (await page.$('[data-testid="advisor-panel"]'))!.screenshot({ path: join(SHOTS, `02-advisor-${theme}.png`) });
      clean(a);
      await a.close();
    });
  }

  it('sweeps a symbol: the curve and its closed form; a bad range is refused on the spot', { timeout: 240_000 }, async () => {
    const a = await openWorkload('light');
    const { page } = a;
    await page.fill('[data-testid="sweep-input"]', 'K=20..');
    expect(await page.isDisabled('[data-testid="sweep-run"]')).toBe(true);
    await page.fill('[data-testid="sweep-input"]', 'K=80..640');
    await page.click('[data-testid="sweep-run"]');
    await page.waitForSelector('[data-testid="sweep-chart"] canvas');
    // hdiff sizes the workspace at every K from 80 (below, chain's fixed 20 MiB does, and no one polynomial fits):
    // (130·130 + 129·128 + 128·129)·8·K bytes, each slot a multiple of 64 at even K.
    expect(await text(page, 'sweep-closed-form')).toBe(`CPU_Heap workspace = ${(130 * 130 + 2 * 129 * 128) * 8}*K B`);
    await nextFrames(page);
    await (await page.$('[data-testid="advisor-panel"]'))!.screenshot({ path: join(SHOTS, '03-advisor-sweep-light.png') });
    clean(a);
    await a.close();
  });

  it("clicking a call opens that program's graph; the top bar leads back to the workload", { timeout: 240_000 }, async () => {
    const a = await openWorkload('light');
    const { page } = a;
    const chart = (await page.$('[data-testid="workload-chart"] .tlab-chart'))!;
    const box = (await chart.boundingBox())!;
    // The calls lane (charts/workload.ts): from x = 124 to the width less 162, y 40–74; the third call is vadv.
    const x0 = 124;
    const cw = (box.width - 162 - x0) / 5;
    await page.mouse.click(box.x + x0 + 2.5 * cw, box.y + 57);
    await page.waitForFunction(() =>
      (
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector(
          '[data-testid="file-chip"]',
        )?.textContent ?? ''
      ).includes('vadv.sdfg'),
    );
    await page.waitForSelector('[data-testid="graph"] canvas');
    expect(await page.$('[data-testid="workload-view"]')).toBeNull();
    // The program opens with the symbols of its call in the workload.
    expect(await page.inputValue('[data-testid="symbol-I"]')).toBe('128');
    await page.click('[data-testid="tab-advisor"]');
    await page.waitForSelector('[data-testid="advice-bytes"]');
    // vadv: ccol, dcol, datacol, each 128·128·80 float64 = 10 MiB, all live at once.
    expect(await text(page, 'advice-bytes')).toBe('30.0 MiB');
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, '04-program-advisor-tab-light.png') });
    await page.click('[data-testid="back-to-workload"]');
    await page.waitForSelector('[data-testid="workload-chart"] canvas');
    clean(a);
    await a.close();
  });
});
