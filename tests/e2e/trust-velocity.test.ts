/**
 * A UI that does not fight its user, on the largest corpus file (velocity_tendencies: 2,862 symbols, 30k
 * transients with 40–90 character names, 99 root states): Ctrl+F reaches the search from the focused graph,
 * Esc closes the symbols popover, symbol labels keep their distinguishing end, the outline search shows the
 * matched part of every name, and Fit keeps the state labels drawn. Real `serve`, Debian's Chromium, both
 * themes; screenshots in tests/e2e/screenshots/trust/ (not committed: look at them).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'trust');
const VELOCITY = 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz';

let app: AppPage;
let page: Page;

async function shot(name: string): Promise<void> {
  await nextFrames(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  const now = await page.evaluate(() => (globalThis as Dom).document.documentElement.dataset['theme']);
  if (now !== theme) await page.click('[data-testid="theme-toggle"]');
  await page.waitForFunction((t) => (globalThis as Dom).document.documentElement.dataset['theme'] === t, theme);
}

interface GraphProbe {
  scale: number;
  visibleTexts?: number;
  visibleNodes: number;
}
/* The page's side of the checks runs in the browser: its DOM is typed loosely here (the tests compile without lib.dom). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dom = any;
const graphMetrics = (): Promise<GraphProbe> => page.evaluate(() => (globalThis as Dom).tlabPerf.graph());
const active = (): Promise<string | null> =>
  page.evaluate(
    () =>
      (globalThis as Dom).document.activeElement?.getAttribute('data-testid') ??
      (globalThis as Dom).document.activeElement?.tagName ??
      null,
  );

/**
 * Whether `part` (a substring of the element's text, or 'end': its last `n` characters) is drawn inside the
 * element's box: every client rect of its characters lies within the element (a cut with an ellipsis moves the cut
 * characters outside it, where `overflow: hidden` hides them). Works whatever the markup: one text node or several spans.
 */
async function partVisible(selector: string, index: number, part: string, n = 8): Promise<{ text: string; visible: boolean }> {
  return page.$$eval(
    selector,
    (els: Dom[], [i, what, count]) => {
      const d = (globalThis as Dom).document;
      const el = els[i];
      const walker = d.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
      const nodes: Dom[] = [];
      for (let t = walker.nextNode(); t; t = walker.nextNode()) nodes.push(t);
      const text: string = nodes.map((t) => t.data as string).join('');
      const at = what === 'end' ? text.length - count : text.toLowerCase().indexOf(what.toLowerCase());
      const len = what === 'end' ? count : what.length;
      if (at < 0) return { text, visible: false };
      const box = el.getBoundingClientRect();
      let pos = 0;
      let visible = true;
      for (const t of nodes) {
        const a = Math.max(at, pos);
        const b = Math.min(at + len, pos + t.data.length);
        if (a < b) {
          const r = d.createRange();
          r.setStart(t, a - pos);
          r.setEnd(t, b - pos);
          for (const c of r.getClientRects() as Dom[])
            if (
              c.width > 0 &&
              (c.left < box.left - 0.5 || c.right > box.right + 0.5 || c.top < box.top - 0.5 || c.bottom > box.bottom + 0.5)
            )
              visible = false;
        }
        pos += t.data.length;
      }
      return { text, visible };
    },
    [index, part, n] as const,
  );
}

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', corpusDir()],
});

describe('velocity_tendencies in the window: keys, truncation, fit', () => {
  beforeAll(async () => {
    app = await openApp(e2e.browser, e2e.serve, {
      theme: 'light',
      query: `open=${encodeURIComponent(VELOCITY)}`,
      viewport: { width: 1440, height: 900 },
    });
    page = app.page;
    await waitForMark(page, 'tlab:first-frame', 600_000);
    await waitForMark(page, 'tlab:ready', 600_000);
    await page.waitForSelector('[data-testid="outline-transient"]');
  }, 700_000);

  // A failed check must not leave the popover over the next test's buttons: a click outside closes it.
  afterEach(async () => {
    if (await page.$('.symbols-popover')) await page.mouse.click(700, 880);
    await page.waitForSelector('.symbols-popover', { state: 'detached', timeout: 5000 }).catch(() => {});
  });

  afterAll(async () => {
    await app?.close();
  });

  it('Ctrl+F focuses the search even from the focused graph, and typing f there does not fit the graph', async () => {
    await page
      .locator('[data-testid="graph"] canvas')
      .first()
      .click({ position: { x: 30, y: 30 } });
    expect(await active()).toBe('CANVAS');
    await page.keyboard.press('Control+f');
    expect(await active()).toBe('outline-search');
    const before = (await graphMetrics()).scale;
    await page.keyboard.type('ff');
    await nextFrames(page);
    expect((await graphMetrics()).scale).toBe(before);
    expect(await page.inputValue('[data-testid="outline-search"]')).toBe('ff');
    await page.fill('[data-testid="outline-search"]', '');
    // Plain F on the graph still fits.
    await page.locator('[data-testid="graph"] canvas').first().focus();
    await page.keyboard.press('Meta+f');
    expect(await active()).toBe('outline-search');
    expect(app.errors).toEqual([]);
  });

  it('the symbols popover: 2,862 labels keep their distinguishing end, the whole name on hover, Esc closes it', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await page.click('[data-testid="symbols-more"]');
      await page.waitForSelector('.symbols-popover');
      const labels = page.locator('.symbols-popover .sym:not(.sym-default) .sym-name');
      const n = await labels.count();
      expect(n).toBeGreaterThan(40);
      const names: string[] = [];
      for (let i = 0; i < n; i++) {
        const title =
          (await labels.nth(i).getAttribute('title')) ??
          (await labels.nth(i).locator('xpath=ancestor::label[1]').getAttribute('title')) ??
          '';
        const full = title.split(':')[0]!;
        expect(full.length).toBeGreaterThan(10);
        names.push(full);
        // The last 8 characters of every name are on screen (where __f2dace_SA_x_d_0_s_4869 and _d_1_s_4870 differ).
        const end = await partVisible('.symbols-popover .sym:not(.sym-default) .sym-name', i, 'end', 8);
        expect(end.text.endsWith(full.slice(-8)), `label ${i} shows ${end.text} for ${full}`).toBe(true);
        expect(end.visible, `the end of ${full} is cut`).toBe(true);
      }
      expect(new Set(names).size).toBe(n);
      await shot(`01-symbols-popover-${theme}`);
      // Esc closes the popover, with the focus in its filter (where it starts) …
      expect(await active()).toBe('symbols-filter');
      await page.keyboard.press('Escape');
      await page.waitForSelector('.symbols-popover', { state: 'detached', timeout: 5000 });
      // … and with the focus on a symbol's input.
      await page.click('[data-testid="symbols-more"]');
      await labels.first().click();
      await page.keyboard.press('Escape');
      await page.waitForSelector('.symbols-popover', { state: 'detached', timeout: 5000 });
    }
    await setTheme('light');
    expect(app.errors).toEqual([]);
  });

  it('outline search shows the matched part of every long name, highlighted', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      for (const q of ['tangent', 'vn_ie', 'd_2_s']) {
        await page.fill('[data-testid="outline-search"]', q);
        await page.waitForFunction(() => (globalThis as Dom).document.querySelectorAll('[data-testid="outline-transient"]').length > 5);
        const rows = page.locator('[data-testid="outline-transient"] .ol-name');
        const n = Math.min(30, await rows.count());
        for (let i = 0; i < n; i++) {
          const r = await partVisible('[data-testid="outline-transient"] .ol-name', i, q);
          expect(r.visible, `"${q}" is hidden in ${r.text}`).toBe(true);
          expect((await rows.nth(i).locator('mark').textContent())?.toLowerCase()).toBe(q);
        }
        if (q === 'tangent') await shot(`02-outline-search-${theme}`);
      }
      // The graph's hits too: Enter searches the graph and lists its matches with the match visible.
      await page.fill('[data-testid="outline-search"]', 'tangent');
      await page.press('[data-testid="outline-search"]', 'Enter');
      await page.waitForSelector('[data-testid="outline-hit"]', { timeout: 120_000 });
      const hits = page.locator('[data-testid="outline-hit"] .ol-name');
      for (let i = 0; i < Math.min(10, await hits.count()); i++) {
        const text = (await hits.nth(i).textContent()) ?? '';
        if (!text.toLowerCase().includes('tangent')) continue; // a hit in code or a memlet: its label need not match
        expect((await partVisible('[data-testid="outline-hit"] .ol-name', i, 'tangent')).visible, `"tangent" is hidden in ${text}`).toBe(
          true,
        );
      }
      if (theme === 'light') await shot('03-outline-graph-hits-light');
      await page.fill('[data-testid="outline-search"]', '');
    }
    await setTheme('light');
    expect(app.errors).toEqual([]);
  });

  it('Fit keeps the state labels drawn on a big graph', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await page.click('[data-testid="graph-fit"]');
      await page.waitForTimeout(500); // the fit animates (350 ms)
      await nextFrames(page);
      const m = await graphMetrics();
      // A title is drawn at ≥ 5.5 px (lod.ts): the fit keeps state titles at least that big, with texts on screen.
      expect(m.scale * 11).toBeGreaterThanOrEqual(5.5);
      expect(m.visibleTexts ?? 0).toBeGreaterThan(10);
      await shot(`04-fit-${theme}`);
      // F does the same as the button.
      await page.locator('[data-testid="graph"] canvas').first().focus();
      await page.keyboard.press('f');
      await page.waitForTimeout(500);
      await nextFrames(page);
      expect((await graphMetrics()).visibleTexts ?? 0).toBeGreaterThan(10);
    }
    await setTheme('light');
    expect(app.errors).toEqual([]);
  });
});
