/**
 * A UI that does not fight its user, around profiling, on a real corpus file (DaCe's docs example, hello_world:
 * one symbol N, builds in seconds): the top bar's Profile opens the form ready to run with Run in view, the dock
 * resizes by drag and keyboard and keeps its size, finished runs are offered again when the file is reopened
 * after a reload, and Compare says what each run is, warns when runs differ in program or symbols, states its
 * significance threshold and puts tenfold-different runs on a log axis. A real `serve` (the built CLI), Debian's
 * Chromium, a 1280×720 window, both themes; screenshots in tests/e2e/screenshots/trust/ (not committed).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'trust');
const FILE = 'spcl__dace__doc___static__sdfg__example.sdfg';
const OTHER = 'spcl__dace__doc___static__sdfg__scalarsym.sdfg';
const VIEW = { width: 1280, height: 720 };

// The page's side of the checks runs in the browser: its DOM is typed loosely (the tests compile without lib.dom).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dom = any;

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

const active = (): Promise<string | null> =>
  page.evaluate(() => (globalThis as Dom).document.activeElement?.getAttribute('data-testid') ?? null);
const dockHeight = async (): Promise<number> => Math.round((await page.locator('section.dock').boundingBox())!.height);

/** Whether `selector` is wholly on screen: inside the viewport and inside every scrolling box around it. */
async function inView(selector: string): Promise<boolean> {
  return page.$eval(selector, (el: Dom) => {
    const r = el.getBoundingClientRect();
    const g = globalThis as Dom;
    if (r.top < 0 || r.left < 0 || r.bottom > g.innerHeight || r.right > g.innerWidth || r.height === 0) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = g.getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(s.overflowY)) continue;
      const b = p.getBoundingClientRect();
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return false;
    }
    return true;
  });
}

async function openFile(name: string): Promise<void> {
  await page.keyboard.press('Control+o');
  await page.waitForSelector('[data-testid="open-dialog"]');
  await page.fill('[data-testid="open-filter"]', name);
  await page.click(`[data-testid="open-entry"][data-name="${name}"]`);
  await page.waitForSelector('[data-testid="open-dialog"]', { state: 'detached' });
  // The new open's first frame (`tlab:ready` needs an analysis tab in front, and the Profile tab may be).
  await waitForMark(page, 'tlab:first-frame', 300_000);
  await page.waitForSelector('[data-testid="file-chip"] .spinner', { state: 'detached' });
}

async function loadPage(): Promise<void> {
  await page.goto(`${e2e.serve.url}&open=${encodeURIComponent(FILE)}`);
  await waitForMark(page, 'tlab:first-frame', 300_000);
  await waitForMark(page, 'tlab:ready', 300_000);
}

/** Runs a short profile of the open file with N = `n` (SCOPED and EXTERNAL packed, 5 calls, one process). */
async function profileWith(n: string): Promise<void> {
  await page.fill('[data-testid="symbol-N"]', n);
  await page.keyboard.press('Control+p');
  for (const m of ['PERSISTENT', 'POOL'])
    if (await page.isChecked(`[data-testid="profile-mode-${m}"]`)) await page.click(`[data-testid="profile-mode-${m}"]`);
  await page.click('label:has([data-testid="profile-layout-packed"])');
  await page.fill('[data-testid="profile-calls"]', '5');
  await page.fill('[data-testid="profile-processes"]', '1');
  await page.fill('[data-testid="profile-warmup"]', '1');
  await page.click('[data-testid="profile-run"]');
  await page.waitForSelector('[data-testid="profile-progress"]');
  await page.waitForFunction(() => !(globalThis as Dom).document.querySelector('[data-testid="profile-cancel"]'), undefined, {
    timeout: 300_000,
  });
  expect(await page.$('[data-testid="profile-error"]')).toBeNull();
  await page.waitForSelector('[data-testid="profile-headline"]');
}

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', corpusDir(), '--root', scratch],
  scratch: {
    prefix: 'tlab-trust-e2e-',
    fill: (scratch) => {
      copyFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), join(scratch, 'hdiff-cpu.json'));
    },
  },
});

describe('profiling without a fight: the form, the dock, last results, Compare', () => {
  beforeAll(async () => {
    app = await openApp(e2e.browser, e2e.serve, { theme: 'light', query: `open=${encodeURIComponent(FILE)}`, viewport: VIEW });
    page = app.page;
    await waitForMark(page, 'tlab:first-frame', 300_000);
    await waitForMark(page, 'tlab:ready', 300_000);
  }, 400_000);

  afterAll(async () => {
    await app?.close();
  });

  it("the top bar's Profile opens the form ready to run: Profile tab, Run in view and focused, also as the settings scroll", async () => {
    // Without N, Run waits for it and the focus goes to the field that gives it one (the form's first input).
    await page.click('[data-testid="action-profile"]');
    await page.waitForSelector('[data-testid="profile-run-needs"]');
    expect(await active()).toBe('profile-needs-default');
    await page.fill('[data-testid="symbol-N"]', '64');
    await page.waitForSelector('[data-testid="profile-run"]:not([disabled])');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await page.click('[data-testid="tab-transients"]');
      await page.click('[data-testid="action-profile"]');
      await page.waitForSelector('[data-testid="profile-form"]');
      expect(await page.getAttribute('[data-testid="tab-profile"]', 'aria-selected')).toBe('true');
      expect(await active()).toBe('profile-run');
      expect(await inView('[data-testid="profile-run"]')).toBe(true);
      await shot(`10-profile-form-${theme}`);
      // The settings scroll under the form's head; Run stays.
      await page.$eval('.profile-form', (el: Dom) => el.scrollTo(0, 10_000));
      await nextFrames(page);
      expect(await page.$eval('.profile-form', (el: Dom) => el.scrollTop)).toBeGreaterThan(0);
      expect(await inView('[data-testid="profile-run"]')).toBe(true);
      await shot(`11-profile-form-scrolled-${theme}`);
      await page.$eval('.profile-form', (el: Dom) => el.scrollTo(0, 0));
      // Ctrl+P does the same from anywhere (here: the table).
      await page.click('[data-testid="tab-transients"]');
      await page.keyboard.press('Control+p');
      await page.waitForSelector('[data-testid="profile-form"]');
      expect(await active()).toBe('profile-run');
    }
    await setTheme('light');
    expect(app.errors).toEqual([]);
  });

  it('the dock resizes by drag and by keyboard on its edge, keeps its size across a reload, and a double-click resets it', async () => {
    await page.click('[data-testid="tab-transients"]');
    const start = await dockHeight();
    const handle = (await page.locator('[data-testid="dock-resize"]').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 - 100, { steps: 5 });
    await page.mouse.up();
    expect(Math.abs((await dockHeight()) - (start + 100))).toBeLessThanOrEqual(2);
    await page.focus('[data-testid="dock-resize"]');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    expect(Math.abs((await dockHeight()) - (start + 116))).toBeLessThanOrEqual(2);
    await page.keyboard.press('Shift+ArrowUp');
    const chosen = await dockHeight();
    expect(Math.abs(chosen - (start + 180))).toBeLessThanOrEqual(2);
    expect(Number(await page.getAttribute('[data-testid="dock-resize"]', 'aria-valuenow'))).toBeGreaterThan(start);
    await shot('12-dock-resized-light');
    // Bounds: the graph keeps 160 px under the 48 px top bar; the dock keeps 120 px.
    await page.keyboard.press('Home');
    expect(await dockHeight()).toBeLessThanOrEqual(VIEW.height - 48 - 160 + 2);
    await page.keyboard.press('End');
    expect(Math.abs((await dockHeight()) - 120)).toBeLessThanOrEqual(2);
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowUp');
    const kept = await dockHeight();
    await loadPage();
    expect(Math.abs((await dockHeight()) - kept)).toBeLessThanOrEqual(2);
    // The default: 38 % of the window, between 220 and 420 px.
    const byDefault = Math.round(Math.max(220, Math.min(420, VIEW.height * 0.38)));
    await page.dblclick('[data-testid="dock-resize"]');
    expect(Math.abs((await dockHeight()) - byDefault)).toBeLessThanOrEqual(2);
    await loadPage();
    expect(Math.abs((await dockHeight()) - byDefault)).toBeLessThanOrEqual(2);
    expect(app.errors).toEqual([]);
  });

  it('a finished run is offered again when its file is opened, after a reload; another file is offered nothing', async () => {
    // N = 1024 does 5·N² additions per call, N = 2 twenty: far more than tenfold apart on any machine.
    await profileWith('2');
    await profileWith('1024');
    expect(await page.$('[data-testid="last-results-offer"]')).toBeNull(); // the run is on screen already
    await loadPage();
    const offer = page.locator('[data-testid="last-results-offer"]');
    await offer.waitFor({ timeout: 30_000 });
    const text = (await offer.textContent()) ?? '';
    expect(text).toContain('Last results for this file');
    expect(text).toContain('SCOPED, EXTERNAL (packed)');
    expect(text).toContain('5 × 1 calls');
    expect(text).toContain('1 earlier');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await shot(`13-last-results-offer-${theme}`);
    }
    await setTheme('light');
    // The Profile tab lists them while no result is shown.
    await page.click('[data-testid="tab-profile"]');
    expect(await page.locator('[data-testid="last-results-entry"]').count()).toBe(2);
    await shot('14-last-results-list-light');
    await page.click('[data-testid="last-results-show"]');
    await page.waitForSelector('[data-testid="profile-headline"]');
    expect(await page.getAttribute('[data-testid="tab-profile"]', 'aria-selected')).toBe('true');
    expect(await page.$('[data-testid="last-results-offer"]')).toBeNull();
    // Another file has no results: nothing is offered.
    await openFile(OTHER);
    await page.waitForTimeout(500);
    expect(await page.$('[data-testid="last-results-offer"]')).toBeNull();
    expect(app.errors).toEqual([]);
  }, 700_000);

  it('Compare names each run, warns of different symbols and programs, states its threshold, and uses a log axis for tenfold differences', async () => {
    await openFile(FILE);
    await page.locator('[data-testid="last-results-compare"]').click();
    await page.waitForSelector('[data-testid="compare-changes"]');
    const rows = page.locator('[data-testid="compare-item"]');
    expect(await rows.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(await rows.nth(i).locator('[data-testid="compare-file"]').textContent()).toBe(FILE);
      expect(await rows.nth(i).locator('[data-testid="compare-modes"]').textContent()).toBe('SCOPED, EXTERNAL (packed)');
      expect(await rows.nth(i).locator('[data-testid="compare-calls"]').textContent()).toBe('5 calls × 1 process');
      expect(await rows.nth(i).locator('[data-testid="compare-machine"]').textContent()).toMatch(/\d+ cores?/);
    }
    // The reference is the older run (N = 2), then N = 1024.
    expect(await rows.nth(0).locator('[data-testid="compare-symbols"]').textContent()).toBe('N=2');
    expect(await rows.nth(1).locator('[data-testid="compare-symbols"]').textContent()).toBe('N=1024');
    expect(await page.textContent('[data-testid="compare-warn-symbols"]')).toMatch(/N = 1024 \(reference 2\)/);
    expect(await page.$('[data-testid="compare-warn-program"]')).toBeNull();
    expect(await page.textContent('[data-testid="compare-significance"]')).toMatch(/p < 0\.01/);
    // The runs differ far more than tenfold: the log axis is on by default; the toggle switches it. A taller dock
    // (Home on its edge) shows the charts.
    await page.focus('[data-testid="dock-resize"]');
    await page.keyboard.press('Home');
    const label = (): Promise<string | null> => page.getAttribute('[data-testid="compare-distribution"] [role="img"]', 'aria-label');
    expect(await page.isChecked('[data-testid="compare-log"]')).toBe(true);
    expect(await label()).toContain('(log scale)');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await page.$eval('.compare-tab', (el: Dom) => el.scrollTo(0, 0));
      await shot(`15-compare-log-${theme}`);
      await page.locator('[data-testid="compare-distribution"]').screenshot({ path: join(SHOTS, `15b-compare-log-chart-${theme}.png`) });
    }
    await setTheme('light');
    await page.click('[data-testid="compare-log"]');
    await page.waitForFunction(
      () =>
        !(
          (globalThis as Dom).document.querySelector('[data-testid="compare-distribution"] [role="img"]')?.getAttribute('aria-label') ?? ''
        ).includes('log'),
    );
    await shot('16-compare-linear-light');
    await page.locator('[data-testid="compare-distribution"]').screenshot({ path: join(SHOTS, '16b-compare-linear-chart-light.png') });
    await page.click('[data-testid="compare-log"]');
    // A result of another program joins: the runs are of different programs, and Compare says so.
    await page.setInputFiles('[data-testid="compare-add-input"]', join(e2e.scratch, 'hdiff-cpu.json'));
    await page.waitForSelector('.toast-ok:has-text("Opened hdiff-cpu.json")');
    await page.click('[data-testid="tab-compare"]');
    await page.waitForSelector('[data-testid="compare-warn-program"]');
    expect(await page.textContent('[data-testid="compare-warn-program"]')).toMatch(/hdiff-cpu\.json is hdiff \(sha256 3ea6a05592…\)/);
    await page.$eval('.compare-tab', (el: Dom) => el.scrollTo(0, 0));
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await shot(`17-compare-programs-${theme}`);
    }
    await setTheme('light');
    expect(app.errors).toEqual([]);
  }, 300_000);
});
