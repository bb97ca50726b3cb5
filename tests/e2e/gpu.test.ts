/**
 * GPU results in the window, through `transient-lab serve` (the real CLI) in Debian's Chromium. No GPU here: the
 * result is tests/fixtures/profile/SYNTHETIC-gpu-hdiff.json, a real CPU result of the engine with GPU fields
 * added by the test fixture tests/fixtures/synthetic-gpu.ts (its device is named "Synthetic test device"). Both
 * themes; screenshots under tests/e2e/screenshots/gpu/ (not committed: look at them). Also the "Run on" choice
 * of a server started with `--remote`.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { SYNTHETIC_GPU_FILE } from '../fixtures/synthetic-gpu.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'gpu');

async function shot(page: Page, name: string, selector?: string): Promise<void> {
  await nextFrames(page);
  if (selector) await (await page.$(selector))!.screenshot({ path: join(SHOTS, `${name}.png`) });
  else await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const text = async (page: Page, testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

function clean(a: AppPage): void {
  expect(a.errors).toEqual([]);
  expect(a.foreign).toEqual([]);
}

const e2e = appSession({
  what: 'the GPU e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', scratch, '--root', examplesDir(), '--remote', 'me@gpu-node', '--remote', 'gpu2'],
  scratch: {
    prefix: 'tlab-gpu-e2e-',
    fill: (scratch) => {
      copyFileSync(SYNTHETIC_GPU_FILE, join(scratch, 'SYNTHETIC-gpu-hdiff.json'));
      copyFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu-sampled.json'), join(scratch, 'hdiff-cpu-sampled.json'));
    },
  },
});

describe('GPU results and remote hosts in the window', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`shows host and device time, the device and the pool of a GPU result (${theme})`, { timeout: 240_000 }, async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme,
        query: `open=${encodeURIComponent(join(e2e.scratch, 'SYNTHETIC-gpu-hdiff.json'))}`,
      });
      const { page } = a;
      await page.waitForSelector('[data-testid="profile-headline"]');
      expect(await text(page, 'headline-basis')).toContain('host time per call, device synchronised');
      expect(await text(page, 'headline-device')).toMatch(/^Device time\s+(\d|no significant|no clear|too few)/);
      expect(await text(page, 'device-line')).toContain('Synthetic test device (not a real GPU)');
      expect(await text(page, 'device-line')).toContain('compute capability 9.0');
      expect(await text(page, 'device-line')).toContain('driver 13.0 · runtime 13.0');
      expect(await text(page, 'profile-table-host')).toBe('host time / call');
      expect(await text(page, 'profile-table-device')).toBe('device time / call (CUDA events)');
      expect(await text(page, 'pool-table')).toContain('UINT64_MAX');
      expect(await text(page, 'pool-table')).toContain('allocates nothing from the pool');
      await page.waitForSelector('[data-testid="chart-distribution"] canvas');
      await page.waitForSelector('[data-testid="chart-calls"] canvas');
      // The headline is the largest text of the window.
      type El = { childElementCount: number; textContent: string | null; className: string };
      const sizes = await page.$$eval('body *', (els) =>
        (els as unknown as El[])
          .filter((e) => e.childElementCount === 0 && (e.textContent ?? '').trim().length > 0)
          .map((e) => ({
            size: parseFloat((globalThis as unknown as { getComputedStyle(x: El): { fontSize: string } }).getComputedStyle(e).fontSize),
            cls: String(e.className),
          })),
      );
      const biggest = sizes.reduce((m, s) => (s.size > m.size ? s : m), { size: 0, cls: '' });
      expect(biggest.cls).toContain('headline-big');
      await shot(page, `01-gpu-result-${theme}`);
      // The charts, scrolled into view inside the dock.
      await page.$eval('[data-testid="chart-distribution"]', (e) =>
        (e as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }),
      );
      await shot(page, `02-gpu-charts-${theme}`);
      await page.$eval('[data-testid="chart-calls"]', (e) =>
        (e as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }),
      );
      await shot(page, `03-gpu-calls-${theme}`);
      clean(a);
      await a.close();
    });
  }

  it('compares a CPU and a GPU result without mixing them up', { timeout: 240_000 }, async () => {
    const a = await openApp(e2e.browser, e2e.serve, {
      theme: 'light',
      query: `open=${encodeURIComponent(join(e2e.scratch, 'SYNTHETIC-gpu-hdiff.json'))}`,
    });
    const { page } = a;
    await page.waitForSelector('[data-testid="profile-headline"]');
    await page.click('[data-testid="tab-compare"]');
    await page.setInputFiles('[data-testid="compare-add-input"]', join(e2e.scratch, 'hdiff-cpu-sampled.json'));
    // An opened result is shown on the Profile tab: go back to Compare.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document
          .querySelector('.save-name')
          ?.textContent?.includes('hdiff-cpu-sampled.json') ?? false,
    );
    await page.click('[data-testid="tab-compare"]');
    await page.waitForSelector('[data-testid="compare-changes"]');
    const targets = await page.$$eval('[data-testid="compare-target"]', (els) => els.map((e) => e.textContent));
    expect(targets).toEqual(['GPU · Synthetic test device (not a real GPU)', 'CPU']);
    expect(await text(page, 'compare-mixed')).toContain('CPU and GPU results together');
    expect(await text(page, 'compare-changes')).toContain('(host times, CPU against GPU)');
    await page.waitForSelector('[data-testid="compare-distribution"] canvas');
    await shot(page, '04-compare-cpu-gpu-light');
    clean(a);
    await a.close();
  });

  it('offers the remote hosts the server was started with, and only those', { timeout: 240_000 }, async () => {
    const a = await openApp(e2e.browser, e2e.serve, { theme: 'dark' });
    const { page } = a;
    await page.click('[data-testid="example-hdiff"]');
    await waitForMark(page, 'tlab:first-frame', 200_000);
    await page.click('[data-testid="tab-profile"]');
    const options = await page.$$eval('[data-testid="profile-remote"] option', (els) =>
      els.map((e) => (e as unknown as { value: string }).value),
    );
    expect(options).toEqual(['', 'me@gpu-node', 'gpu2']);
    await page.selectOption('[data-testid="profile-remote"]', 'me@gpu-node');
    expect(await text(page, 'profile-run')).toContain('on me@gpu-node');
    await shot(page, '05-run-on-remote-dark', '[data-testid="profile-form"]');
    clean(a);
    await a.close();
  });
});
