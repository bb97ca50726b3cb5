/**
 * The app end to end: a real `transient-lab serve` on 127.0.0.1:0 and headless Chromium, one server and one
 * browser for the whole file. Walks what a user does — open example and corpus files, every dock tab, the
 * outline and search, the selection panel, a symbol edit, a profile with progress, save and reopen a result,
 * a malformed file — in both themes, with screenshots under tests/e2e/screenshots/app/ (not committed: look at
 * them), and no console error or request to another host anywhere.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { markSpan, nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'app');

/** Corpus files by what they exercise (../shared/corpus/MANIFEST.md). */
const CORPUS = {
  nested: 'spcl__dace__tests__python_frontend__call_if.sdfg',
  controlFlow: 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz',
  gpu: 'spcl__dace__berkay_workpace__scratch__yakups_examples__dbuff_related__double_buffering_async.sdfg',
  largest: 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz',
};

const pages: AppPage[] = [];

async function shot(page: Page, name: string): Promise<void> {
  await nextFrames(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function app(theme: 'light' | 'dark' = 'light', query?: string): Promise<AppPage> {
  const a = await openApp(e2e.browser, e2e.serve, { theme, ...(query ? { query } : {}) });
  pages.push(a);
  await a.page.waitForSelector('[data-testid="app"]');
  return a;
}

function clean(a: AppPage): void {
  expect(a.errors).toEqual([]);
  expect(a.foreign).toEqual([]);
}

/** Waits for the current open to be drawn (graph) and filled (table and timeline). */
async function opened(page: Page, timeoutMs = 240_000): Promise<void> {
  await waitForMark(page, 'tlab:first-frame', timeoutMs);
  await waitForMark(page, 'tlab:ready', timeoutMs);
}

/** Opens a file through the open dialog (Ctrl+O), from the root folder `root` (index in --root order). */
async function openThroughDialog(page: Page, name: string, root = 0): Promise<void> {
  await page.keyboard.press('Control+o');
  await page.waitForSelector('[data-testid="open-dialog"]');
  if (root > 0) {
    const roots = await page.$$eval('.open-dialog select option', (o) =>
      o.map((x) => (x as unknown as { value: string }).value).filter(Boolean),
    );
    await page.selectOption('.open-dialog select', roots[root]!);
  }
  await page.fill('[data-testid="open-filter"]', name);
  await page.click(`[data-testid="open-entry"][data-name="${name}"]`);
  await page.waitForSelector('[data-testid="open-dialog"]', { state: 'detached' });
}

async function openExampleHdiff(a: AppPage): Promise<void> {
  await a.page.click('[data-testid="example-hdiff"]');
  await opened(a.page);
  await a.page.waitForSelector('[data-testid="outline-transient"]');
}

/** Distinct colours on the first canvas inside `selector`: a blank canvas has one or two. */
async function canvasColours(page: Page, selector: string): Promise<number> {
  return page.$eval(`${selector} canvas`, (c) => {
    const cv = c as unknown as {
      width: number;
      height: number;
      getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 13) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
    return seen.size;
  });
}

interface Doc {
  document: { querySelectorAll(s: string): { length: number }; querySelector(s: string): { textContent: string | null } | null };
}

/** Waits until `selector` matches `n` elements (a function, not a string: the page's CSP forbids eval). */
async function countIs(page: Page, selector: string, n: number): Promise<void> {
  await page.waitForFunction(([sel, k]) => (globalThis as unknown as Doc).document.querySelectorAll(sel).length === k, [
    selector,
    n,
  ] as const);
}

const text = async (page: Page, testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

const e2e = appSession({
  what: 'the app e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', corpusDir(), '--root', scratch],
  scratch: {
    prefix: 'tlab-app-e2e-',
    fill: (scratch) => {
      writeFileSync(
        join(scratch, 'broken.sdfg'),
        '{"type": "SDFG", "attributes": {"name": "broken", "_arrays": {}}, "nodes": [{"type": "SDFGState", "nodes": [',
      );
      writeFileSync(join(scratch, 'not-an-sdfg.sdfg'), '{"type": "Flowchart", "nodes": []}');
      copyFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), join(scratch, 'hdiff-cpu.json'));
    },
  },
});

describe('the app through serve, in Chromium', () => {
  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {});
  });

  it('starts on the empty state and opens an example from its card, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await app(theme);
      await a.page.waitForSelector('[data-testid="example-hdiff"]');
      await shot(a.page, `01-empty-${theme}`);
      await openExampleHdiff(a);
      expect(await markSpan(a.page, 'tlab:open-start', 'tlab:first-frame')).toBeGreaterThan(0);
      expect(await markSpan(a.page, 'tlab:open-start', 'tlab:ready')).toBeGreaterThan(0);
      expect(await a.page.locator('[data-testid="outline-transient"]').count()).toBe(3);
      expect(await a.page.locator('[data-testid="transients-table"] [role="row"][aria-selected]').count()).toBe(3);
      expect(await canvasColours(a.page, '[data-testid="graph"]')).toBeGreaterThan(8);
      await shot(a.page, `02-hdiff-${theme}`);
      clean(a);
      await a.close();
    }
  });

  it('walks every view of hdiff: selection everywhere, outline search, every dock tab, keyboard', async () => {
    const a = await app('light');
    const { page } = a;
    await openExampleHdiff(a);

    // Outline → selection panel, table row.
    await page.click('[data-testid="outline-transient"][data-transient="0:lap"]');
    await page.waitForSelector('[data-testid="selection-transient"]');
    expect(await text(page, 'selection-size')).toMatch(/MiB/);
    expect(await text(page, 'selection-eligibility')).toContain('EXTERNAL');
    expect(await text(page, 'selection-offsets')).toContain('packed');
    expect(await page.getAttribute('[data-testid="transients-table"] [role="row"][aria-selected="true"]', 'id')).toBeTruthy();
    await shot(page, '03-hdiff-selected-lap');

    // Table → outline and panel.
    const flxRow = page.locator('[data-testid="transients-table"] [role="row"][aria-selected]', { hasText: '0:flx' });
    await flxRow.click();
    await page.waitForSelector('[data-testid="outline-transient"][data-transient="0:flx"].selected');
    expect(await page.textContent('.sel-title h3')).toBe('flx');

    // Show in graph: the engine's search finds the access node, the graph selects it.
    await page.click('[data-testid="selection-reveal"]');
    await nextFrames(page);

    // Esc clears the selection everywhere.
    await page
      .locator('body')
      .click({ position: { x: 5, y: 200 } })
      .catch(() => {});
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="selection-overview"]');
    expect(await text(page, 'overview-workspace')).toMatch(/EXTERNAL workspace · CPU_Heap\s*[\d.]+ MiB/);

    // Ctrl+F searches the outline; Enter searches the graph.
    await page.keyboard.press('Control+f');
    await page.keyboard.type('fl');
    await countIs(page, '[data-testid="outline-transient"]', 2);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="outline-hit"]');
    await page.click('[data-testid="outline-hit"]');
    // The hit is the shared selection, with its node's facts in the panel.
    await page.waitForSelector('[data-testid="selection-element"], [data-testid="selection-transient"]');
    await shot(page, '04-hdiff-search');
    await page.fill('[data-testid="outline-search"]', '');

    // Every dock tab by its number key.
    await page
      .locator('[data-testid="graph"] canvas')
      .first()
      .click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('2');
    await page.waitForSelector('[data-testid="lifetime-chart"] canvas');
    await nextFrames(page);
    expect(await canvasColours(page, '[data-testid="lifetime-chart"]')).toBeGreaterThan(8);
    await shot(page, '05-hdiff-lifetimes');
    await page.keyboard.press('3');
    await page.waitForSelector('[data-testid="workspace-chart"] canvas');
    await nextFrames(page);
    expect(await canvasColours(page, '[data-testid="workspace-chart"]')).toBeGreaterThan(8);
    await shot(page, '06-hdiff-workspace');
    await page.keyboard.press('4');
    await page.waitForSelector('[data-testid="profile-form"]');
    await page.waitForSelector('[data-testid="profile-empty"]');
    await page.keyboard.press('5');
    await page.waitForSelector('[data-testid="compare-empty"]');
    await page.keyboard.press('1');
    await page.waitForSelector('[data-testid="transients-table"]');

    // Graph controls and F.
    await page.click('[data-testid="graph-expand"]');
    await page.keyboard.press('f');
    await shot(page, '07-hdiff-expanded');
    await page.click('[data-testid="graph-collapse"]');

    // Export needs a result: until there is one the button is disabled and says so (tests/e2e/export.test.ts exports).
    expect(await page.isDisabled('[data-testid="action-export"]')).toBe(true);
    expect(await page.getAttribute('[data-testid="action-export"]', 'title')).toMatch(/run a profile or open a result first/);

    // Dark theme through the toggle: every view again.
    await page.click('[data-testid="theme-toggle"]');
    await page.click('[data-testid="outline-transient"][data-transient="0:fly"]');
    await shot(page, '08-hdiff-dark-table');
    await page.keyboard.press('2');
    await page.waitForSelector('[data-testid="lifetime-chart"] canvas');
    await shot(page, '09-hdiff-dark-lifetimes');
    await page.keyboard.press('3');
    await page.waitForSelector('[data-testid="workspace-chart"] canvas');
    await shot(page, '10-hdiff-dark-workspace');
    clean(a);
    await a.close();
  });

  it('re-analyses when a symbol changes: sizes in the panel, table and outline follow', async () => {
    const a = await app('light');
    const { page } = a;
    await openExampleHdiff(a);
    await page.click('[data-testid="outline-transient"][data-transient="0:lap"]');
    const before = await text(page, 'selection-size');
    const rowBefore = await page.textContent('[data-testid="transients-table"] [role="row"][aria-selected="true"]');
    await page.fill('[data-testid="symbol-I"]', '512');
    await page.waitForFunction(
      (b) => (globalThis as unknown as Doc).document.querySelector('[data-testid="selection-size"]')?.textContent !== b,
      before,
      { timeout: 60_000 },
    );
    const after = await text(page, 'selection-size');
    expect(after).not.toBe(before);
    expect(await page.textContent('[data-testid="transients-table"] [role="row"][aria-selected="true"]')).not.toBe(rowBefore);
    // A value that is not an integer is refused on the spot, and nothing is re-analysed.
    await page.fill('[data-testid="symbol-J"]', '12x');
    expect(await page.getAttribute('.sym:has([data-testid="symbol-J"])', 'class')).toContain('sym-bad');
    await page.fill('[data-testid="symbol-J"]', '128');
    await shot(page, '11-hdiff-I512');
    clean(a);
    await a.close();
  });

  it('profiles hdiff with progress, shows the headline and the charts, saves the result and opens it again', async () => {
    const a = await app('light');
    const { page } = a;
    await openExampleHdiff(a);
    for (const [k, v] of [
      ['I', '32'],
      ['J', '32'],
      ['K', '8'],
    ] as const)
      await page.fill(`[data-testid="symbol-${k}"]`, v);
    await page.keyboard.press('Control+p');
    await page.waitForSelector('[data-testid="profile-form"]');
    await page.fill('[data-testid="profile-calls"]', '15');
    await page.fill('[data-testid="profile-processes"]', '1');
    await page.fill('[data-testid="profile-warmup"]', '1');
    await page.click('[data-testid="profile-run"]');
    await page.waitForSelector('[data-testid="profile-progress"]');
    await page.waitForSelector('[data-testid="profile-bar"]');
    // The elapsed time next to "Profiling" once read "-1 s" (the clock's last tick was older than the run).
    expect(await page.locator('[data-testid="profile-progress"] .run-head').textContent()).not.toMatch(/-\d/);
    await shot(page, '12-profile-progress');
    await page.waitForSelector('[data-testid="profile-headline"]', { timeout: 600_000 });
    // The headline names the winner, or the modes within noise of each other: on a 15-call run on a busy machine
    // that may be any two of the four, so only EXTERNAL against POOL (below) is pinned down.
    // A busy or noisy run says so first, in notes above the title (view/verdict.ts busyText, noiseText).
    const title = (await page.textContent('[data-testid="profile-headline"] .headline-title')) ?? '';
    const big = (await text(page, 'headline-big')).trim();
    // Too few calls to test at the statistic a noisy run uses: the big line says so and the detail names the lowest
    // time measured, with its mode, marked untested.
    // No clear winner: the detail names the modes within the noise of each other.
    const named = big === 'Too few calls to test' || big === 'No clear winner' ? `${big} ${await text(page, 'headline-detail')}` : big;
    expect(`${title.trim()} ${named}`).toMatch(/^Fastest mode.*(SCOPED|PERSISTENT|POOL|EXTERNAL)/);
    if (big === 'Too few calls to test') expect(named).toMatch(/lowest (p10|median) measured: \S.* \(untested\)/);
    const busy = await page.$('[data-testid="profile-headline"] [data-testid="headline-busy"]');
    if (busy) expect(((await busy.textContent()) ?? '').trim()).toMatch(/^Busy machine: other processes kept \d+% of the \d+ cores busy/);
    expect(await text(page, 'verification-badge')).toMatch(/Verified/);
    // With nothing selected, the selection panel leads with the workspace and the measured verdict.
    expect(await text(page, 'overview-measured')).toMatch(/EXTERNAL \(packed\) vs POOL.*(per call|at p10|to test)/);
    for (const chart of ['chart-distribution', 'chart-breakdown', 'chart-calls']) {
      await page.waitForSelector(`[data-testid="${chart}"] canvas`);
      expect(await canvasColours(page, `[data-testid="${chart}"]`)).toBeGreaterThan(4);
    }
    await page.waitForSelector('[data-testid="chart-gantt"] canvas, [data-testid="chart-gantt-none"]');
    await shot(page, '13-profile-result');
    await page.$eval('.profile-main', (el) => el.scrollTo(0, 10_000));
    await shot(page, '13b-profile-charts');
    await page.$eval('.profile-main', (el) => el.scrollTo(0, 0));

    // Download through the browser.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="result-download"]')]);
    const downloaded = join(e2e.scratch, 'downloaded.json');
    await download.saveAs(downloaded);
    expect(JSON.parse(readFileSync(downloaded, 'utf8')).schema).toBe('transient-lab/profile@1');

    // Save on the server, inside the second root, and open it again from there.
    await page.click('[data-testid="result-save"]');
    await page.fill('[data-testid="result-save-path"]', join(e2e.scratch, 'hdiff-result.json'));
    await page.click('[data-testid="result-save-confirm"]');
    await page.waitForSelector('.toast-ok:has-text("Saved")');
    expect(JSON.parse(readFileSync(join(e2e.scratch, 'hdiff-result.json'), 'utf8')).schema).toBe('transient-lab/profile@1');
    await openThroughDialog(page, 'hdiff-result.json', 1);
    // The dialog closes before the host has read the result, and the opened result then brings the Profile tab
    // forward: switch to Compare only after it arrived (a loaded machine once pressed 5 before it did).
    await page.waitForSelector('.toast-ok:has-text("Opened hdiff-result.json")');
    await page.keyboard.press('5');
    await countIs(page, '[data-testid="compare-item"]', 2);
    await page.waitForSelector('[data-testid="compare-changes"]');
    await page.waitForSelector('[data-testid="compare-distribution"] canvas');
    await shot(page, '14-compare');
    // The opened result is the Profile tab's result now.
    await page.keyboard.press('4');
    expect(await page.textContent('.save-name')).toContain('hdiff-result.json');
    clean(a);
    await a.close();
  }, 600_000); // five builds of the generated program: minutes on a loaded machine

  it('cancels a running profile', async () => {
    const a = await app('light');
    const { page } = a;
    await openExampleHdiff(a);
    for (const [k, v] of [
      ['I', '32'],
      ['J', '32'],
      ['K', '8'],
    ] as const)
      await page.fill(`[data-testid="symbol-${k}"]`, v);
    await page.keyboard.press('Control+p');
    await page.fill('[data-testid="profile-calls"]', '100000');
    await page.fill('[data-testid="profile-processes"]', '1');
    await page.click('[data-testid="profile-mode-PERSISTENT"]');
    await page.click('[data-testid="profile-mode-POOL"]');
    await page.click('[data-testid="profile-mode-EXTERNAL"]');
    await page.click('[data-testid="profile-run"]');
    await page.waitForSelector('[data-testid="profile-cancel"]');
    await page.waitForFunction(
      () => /Verify|Timed calls/.test((globalThis as unknown as Doc).document.querySelector('.stages .now')?.textContent ?? ''),
      undefined,
      { timeout: 300_000 },
    );
    await page.click('[data-testid="profile-cancel"]');
    await page.waitForSelector('.run-title:has-text("Cancelled")', { timeout: 60_000 });
    expect(await page.isEnabled('[data-testid="profile-run"]')).toBe(true);
    await shot(page, '12b-profile-cancelled');
    clean(a);
    await a.close();
  }, 420_000);

  it('a result with a sampled call shows its allocation Gantt and what each transient cost', async () => {
    const a = await app('light');
    const { page } = a;
    await openExampleHdiff(a);
    await page.keyboard.press('Control+p');
    await page.setInputFiles(
      '[data-testid="profile-open-result-input"]',
      join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu-sampled.json'),
    );
    await page.waitForSelector('[data-testid="chart-gantt"] canvas');
    expect(await canvasColours(page, '[data-testid="chart-gantt"]')).toBeGreaterThan(4);
    await page.click('[data-testid="outline-transient"][data-transient="0:lap"]');
    await page.waitForSelector('[data-testid="selection-costs"]');
    expect(await text(page, 'selection-costs')).toMatch(/SCOPED/);
    await page.$eval('.profile-main', (el) => el.scrollTo(0, 10_000));
    await shot(page, '13c-profile-gantt');
    clean(a);
    await a.close();
  });

  it('opens corpus files: nested SDFGs, heavy control flow, a GPU program and the largest file', async () => {
    const a = await app('dark');
    const { page } = a;
    await page.waitForSelector('[data-testid="empty-state"]');
    for (const [key, file] of Object.entries(CORPUS)) {
      await openThroughDialog(page, file);
      await opened(page, 600_000);
      await page.waitForSelector('[data-testid="transients-table"]');
      await shot(page, `15-corpus-${key}`);
      if (key === 'nested') {
        expect(await page.locator('[data-testid="outline-sdfg"]').count()).toBeGreaterThan(1);
      }
      if (key === 'largest') {
        // Opened as a preview of its root first (166 MB of JSON); once ready, the window holds the whole file.
        expect(await page.textContent('[data-testid="file-chip"]')).toContain('46 SDFGs');
        // The outline lists the root and its 22 direct nested SDFGs (deeper ones folded): none is missing.
        expect(await page.locator('[data-testid="outline-sdfg"]').count()).toBe(23);
        await page.keyboard.press('2');
        await page.waitForSelector('[data-testid="lifetime-chart"] canvas');
        await shot(page, `16-corpus-largest-lifetimes`);
        await page.keyboard.press('1');
      }
      if (key === 'gpu') {
        expect(await page.inputValue('[data-testid="target"]')).toBe('auto');
        expect(await page.textContent('[data-testid="target"] option[value="auto"]')).toContain('gpu');
      }
    }
    clean(a);
    await a.close();
  }, 600_000); // the largest file alone takes a minute to parse on a loaded machine

  it('opens ?open=PATH on load with the same marks', async () => {
    const a = await app('light', `open=${encodeURIComponent(CORPUS.nested)}`);
    await opened(a.page);
    expect(await markSpan(a.page, 'tlab:open-start', 'tlab:first-frame')).toBeGreaterThan(0);
    expect(await a.page.textContent('[data-testid="file-chip"]')).toContain('call_if');
    clean(a);
    await a.close();
  });

  it('opens a result file from ?open= as a result, with no SDFG: Profile and Compare on their own', async () => {
    const a = await app('dark', `open=${encodeURIComponent(join(e2e.scratch, 'hdiff-cpu.json'))}`);
    const { page } = a;
    await page.waitForSelector('[data-testid="profile-headline"]');
    expect(await page.textContent('.save-name')).toContain('hdiff-cpu.json');
    await page.waitForSelector('[data-testid="chart-distribution"] canvas');
    // The dace layout's hatched chip (dark theme here) has a solid ground under its stripes: the green text once
    // sat on stripes of the ground over nothing, hard to read.
    const chip = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      const g = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; backgroundImage: string } };
      const st = g.getComputedStyle(d.querySelector('[data-testid="profile-table"] .mode-tag.hatched'));
      return { color: st.backgroundColor, image: st.backgroundImage };
    });
    expect(chip.color).not.toBe('rgba(0, 0, 0, 0)');
    expect(chip.image).toMatch(/^repeating-linear-gradient/);
    await shot(page, '19-result-only');
    clean(a);
    await a.close();
  });

  it('shows a malformed file as a readable error, never a blank page', async () => {
    const a = await app('light');
    const { page } = a;
    await page.waitForSelector('[data-testid="empty-state"]');
    await openThroughDialog(page, 'broken.sdfg', 1);
    await page.waitForSelector('[data-testid="error-panel"]');
    expect(await text(page, 'error-file')).toContain('broken.sdfg');
    expect((await text(page, 'error-message')).length).toBeGreaterThan(10);
    await page.click('[data-testid="error-copy"]');
    await shot(page, '17-error-malformed');
    await page.click('[data-testid="error-dismiss"]');
    await page.waitForSelector('[data-testid="empty-state"]');

    // An upload that is JSON but not an SDFG: the engine's message, with the upload's name.
    await page.setInputFiles('[data-testid="empty-upload-input"]', {
      name: 'flowchart.sdfg',
      mimeType: 'application/json',
      buffer: Buffer.from('{"type": "Flowchart", "nodes": []}'),
    });
    await page.waitForSelector('[data-testid="error-panel"]');
    expect(await text(page, 'error-file')).toContain('flowchart.sdfg');
    await page.keyboard.press('Escape');

    // A result file that is not a result.
    await page.setInputFiles('[data-testid="empty-upload-input"]', {
      name: 'not-a-result.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"hello": 1}'),
    });
    await page.waitForSelector('[data-testid="error-panel"]');
    await shot(page, '18-error-result');
    await page.keyboard.press('Escape');
    // The page still works afterwards.
    await openExampleHdiff(a);
    // The engine's own error messages are shown in the panel, not logged as console errors.
    clean(a);
    await a.close();
  });
});
