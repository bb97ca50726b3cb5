/**
 * DaCe build folders in the window (docs/dace-folders.md, "In the window"), through `transient-lab serve` in
 * Debian's Chromium: the Open dialog lists `.dacecache` (hidden otherwise) and a DaCe build folder inside it as
 * one "DaCe build" entry, not a folder to descend into; opening it draws the folder's SDFG as a file's (graph,
 * lifetimes, transients) and the top bar says how the build was made ("built by DaCe …"). Folders laid out by our
 * own generator (tests/fixtures/dace-folders.ts). Screenshots in tests/e2e/screenshots/dace/ (not committed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark } from '../../bench/lib/browser.js';
import { makeDaceFolder } from '../fixtures/dace-folders.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'dace');
const symbols = new Map([
  ['I', 8n],
  ['J', 8n],
  ['K', 4n],
]);

async function entries(page: Page): Promise<Array<{ name: string; kind: string; label: string }>> {
  return page.$$eval('[data-testid="open-entry"]', (els) =>
    els.map((e) => {
      const el = e as unknown as { dataset: Record<string, string>; querySelector(s: string): { textContent: string | null } | null };
      return { name: el.dataset['name']!, kind: el.dataset['kind']!, label: el.querySelector('.file-row-kind')?.textContent ?? '' };
    }),
  );
}

const e2e = appSession({
  what: 'the DaCe folder e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', scratch],
  scratch: {
    prefix: 'tlab-dace-e2e-',
    fill: async (scratch) => {
      // The library is not called here: a stand-in keeps the fixture quick.
      await makeDaceFolder(join(examplesDir(), 'hdiff.sdfg'), join(scratch, '.dacecache', 'hdiff'), {
        mode: 'PERSISTENT',
        symbols,
        library: 'int x;',
      });
      // Only an SDFG named program.sdfg: a plain folder, not a DaCe build.
      mkdirSync(join(scratch, 'plain'));
      writeFileSync(join(scratch, 'plain', 'program.sdfg'), '{}');
    },
  },
  timeoutMs: 300_000,
});

describe('DaCe build folders in the window', () => {
  it('lists a DaCe build folder as one "DaCe build" entry that opens its SDFG with the "built by" line', async () => {
    const a = await openApp(e2e.browser, e2e.serve, { theme: 'light' });
    const page = a.page;
    await page.waitForSelector('[data-testid="app"]');
    await page.keyboard.press('Control+o');
    await page.waitForSelector('[data-testid="open-entry"][data-name=".dacecache"]');
    expect(await entries(page)).toEqual([
      { name: '.dacecache', kind: 'folder', label: '' },
      { name: 'plain', kind: 'folder', label: '' },
    ]);
    await page.click('[data-testid="open-entry"][data-name=".dacecache"]');
    await page.waitForSelector('[data-testid="open-entry"][data-name="hdiff"]');
    expect(await entries(page)).toEqual([{ name: 'hdiff', kind: 'dace', label: 'DaCe build' }]);
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'open-dialog.png') });

    await page.click('[data-testid="open-entry"][data-name="hdiff"]');
    await page.waitForSelector('[data-testid="open-dialog"]', { state: 'detached' });
    await waitForMark(page, 'tlab:first-frame', 240_000);
    await waitForMark(page, 'tlab:ready', 240_000);
    await page.waitForSelector('[data-testid="outline-transient"]');
    // The SDFG's three transients, as for the file.
    expect(await page.$$eval('[data-testid="outline-transient"]', (e) => e.length)).toBe(3);
    const built = (await page.textContent('[data-testid="dace-built-by"]')) ?? '';
    expect(built).toMatch(/^built by DaCe 2\.0\.0a6, \d{4}-\d\d-\d\d, Release, g\+\+, flags -std=c\+\+17 -fPIC -O3 -march=native$/);
    expect(await page.textContent('[data-testid="file-chip"] .file-name')).toBe('hdiff');
    // The whole line in the selection panel's overview (the top bar's copy is cut to its width).
    expect(await page.textContent('[data-testid="overview-built-by"]')).toBe(built);
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'opened.png') });
    expect(a.errors).toEqual([]);
    expect(a.foreign).toEqual([]);
    await a.close();
  }, 300_000);
});
