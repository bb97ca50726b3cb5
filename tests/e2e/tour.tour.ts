/**
 * A screenshot tour for a person to look at: real corpus files opened in browser mode, every dock tab, a selected
 * transient, in both themes; with TOUR_PROFILE=1 a real profile run, its result scrolled through, Compare and the
 * Export dialog. It checks only that nothing logs an error; the PNGs (tests/e2e/screenshots/tour/) and log.txt
 * (open and analysis times) are what it is for. Not part of `npm test` (its own config, tests/vitest.tour.config.ts);
 * one file at a time on a small machine:
 *   TOUR_FILES=channel TOUR_SYM=64 TOUR_PROFILE=1 TOUR_FILTER=expansion npm run tour
 * TOUR_FILES: example, channel, cloudsc, velocity, gpu, addusxx, or a corpus file name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, openTimes, waitForMark } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'tour');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dom = any;
const FILE_OF: Record<string, string> = {
  example: 'spcl__dace__doc___static__sdfg__example.sdfg',
  channel: 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg',
  cloudsc: 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz',
  velocity: 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz',
  gpu: 'spcl__dace__doc___static__sdfg__gpu-tb.sdfg',
  addusxx: 'spcl__dace-fortran__samples__addusxx_g__.dacecache__addusxx_g_gpu__program.sdfgz',
};
const FILES: Array<[string, string]> = (process.env['TOUR_FILES'] ?? 'example')
  .split(',')
  .map((k) => [k, FILE_OF[k] ?? k] as [string, string]);

const log: string[] = [];

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const now = await page.evaluate(() => (globalThis as Dom).document.documentElement.dataset['theme']);
  if (now !== theme) await page.click('[data-testid="theme-toggle"]');
  await page.waitForFunction((t) => (globalThis as Dom).document.documentElement.dataset['theme'] === t, theme);
}

async function both(page: Page, name: string): Promise<void> {
  for (const t of ['light', 'dark'] as const) {
    await setTheme(page, t);
    await new Promise((r) => setTimeout(r, 300));
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, `${name}-${t}.png`) });
  }
}

const e2e = appSession({ what: 'the tour', shots: SHOTS, serveArgs: () => ['--root', corpusDir()] });

describe('tour', () => {
  afterAll(() => {
    writeFileSync(join(SHOTS, 'log.txt'), log.join('\n') + '\n');
  });

  for (const [key, file] of FILES) {
    it(
      key,
      async () => {
        const t0 = Date.now();
        const a = await openApp(e2e.browser, e2e.serve, { theme: 'light', query: `open=${encodeURIComponent(file)}`, settleMs: 1000 });
        const page = a.page;
        await waitForMark(page, 'tlab:first-frame', 600_000);
        const tf = Date.now() - t0;
        await waitForMark(page, 'tlab:ready', 600_000);
        const times = await openTimes(page);
        log.push(
          `${key}: wall to first frame ${tf} ms, to ready ${Date.now() - t0} ms; marks ${JSON.stringify({ doc: times.doc, ff: times.firstFrame, an: times.analysis, ready: times.ready, longest: times.longestTaskMs })}`,
        );
        const sym = process.env['TOUR_SYM'];
        const tag = sym ? `${key}-s${sym}` : key;
        if (sym) {
          await page.click('[data-testid="symbols-more"]');
          await page.fill('[data-testid="symbol-default"]', sym);
          await page.keyboard.press('Escape');
          const t1 = Date.now();
          await new Promise((r) => setTimeout(r, 600));
          await page.waitForSelector('[data-testid="file-chip"] .spinner', { state: 'detached', timeout: 600_000 });
          log.push(`${key}: re-analysis at ${sym} took ${Date.now() - t1} ms (incl. 600 ms debounce wait)`);
        }
        await nextFrames(page);
        await both(page, `${tag}-1-transients`);
        const filter = process.env['TOUR_FILTER'];
        if (filter) {
          await page.fill('input[aria-label="Filter transients"]', filter);
          await new Promise((r) => setTimeout(r, 500));
          await both(page, `${tag}-1b-filter`);
          const rows = page.locator('[data-testid="transients-table"] [role="row"]');
          if ((await rows.count()) > 1) {
            await rows.nth(1).click();
            await new Promise((r) => setTimeout(r, 500));
            await both(page, `${tag}-1c-filter-selected`);
          }
          await page.fill('input[aria-label="Filter transients"]', '');
        }
        for (const [n, tab] of [
          ['2', 'lifetimes'],
          ['3', 'workspace'],
          ['4', 'profile'],
          ['5', 'compare'],
          ['6', 'advisor'],
        ] as const) {
          await page.keyboard.press(n);
          await new Promise((r) => setTimeout(r, 800));
          await both(page, `${tag}-${n}-${tab}`);
        }
        await page.keyboard.press('1');
        await new Promise((r) => setTimeout(r, 500));
        const rows = page.locator('[data-testid="transients-table"] [role="row"]');
        if ((await rows.count()) > 1) {
          await rows.nth(1).click();
          await new Promise((r) => setTimeout(r, 800));
          await both(page, `${tag}-7-selected`);
          await page.keyboard.press('2');
          await new Promise((r) => setTimeout(r, 800));
          await both(page, `${tag}-8-selected-lifetimes`);
        }
        if (process.env['TOUR_PROFILE']) {
          await page.keyboard.press('Escape');
          await page.keyboard.press('Control+p');
          await page.fill('[data-testid="profile-calls"]', '20');
          await page.fill('[data-testid="profile-processes"]', '1');
          const t1 = Date.now();
          await page.click('[data-testid="profile-run"]');
          await page.waitForSelector('[data-testid="profile-progress"]');
          await new Promise((r) => setTimeout(r, 3000));
          await both(page, `${tag}-9a-profile-running`);
          await page.waitForFunction(() => !(globalThis as Dom).document.querySelector('[data-testid="profile-cancel"]'), undefined, {
            timeout: 900_000,
          });
          log.push(`${key}: profile took ${Date.now() - t1} ms`);
          await new Promise((r) => setTimeout(r, 1000));
          await both(page, `${tag}-9b-profile-result`);
          for (const [k, sel] of [
            ['c', '[data-testid="verification-badge"]'],
            ['d', '[data-testid="chart-distribution"]'],
            ['e', '[data-testid="chart-breakdown"]'],
          ] as const) {
            const el = await page.$(sel);
            if (!el) continue;
            await el.scrollIntoViewIfNeeded();
            await new Promise((r) => setTimeout(r, 500));
            await both(page, `${tag}-9${k}-profile-scrolled`);
          }
          await page.keyboard.press('5');
          await new Promise((r) => setTimeout(r, 800));
          await both(page, `${tag}-9f-compare`);
          const dl = page.waitForEvent('download');
          await page.keyboard.press('4');
          await page.click('[data-testid="result-download"]');
          await (await dl).saveAs(join(SHOTS, `${tag}-result.json`));
          await page.keyboard.press('Escape');
          await page.keyboard.press('Control+e');
          await new Promise((r) => setTimeout(r, 3000));
          await nextFrames(page);
          await page.screenshot({ path: join(SHOTS, `${tag}-9g-export.png`) });
          await page.keyboard.press('Escape');
        }
        log.push(`${key}: errors ${JSON.stringify(a.errors)}`);
        expect(a.errors).toEqual([]);
        await a.close();
      },
      900_000,
    );
  }
});
