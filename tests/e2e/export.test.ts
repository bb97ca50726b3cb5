/**
 * Export report… end to end in browser mode: a real `transient-lab serve` and headless Chromium. The user opens
 * hdiff and a result of it, opens the export dialog from the top bar, sees the report in the sandboxed preview
 * (charts drawn by the report's own runtime, allowed by the page's CSP hashes and nothing else), saves the HTML,
 * and the downloaded file is a report of that result. In both themes, with screenshots under
 * tests/e2e/screenshots/export/ (not committed: look at them), and no console error or foreign request.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { parseResultDocuments } from '../../electron/host-kit/result-files.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'export');
const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json');

async function openResultThroughDialog(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+o');
  await page.waitForSelector('[data-testid="open-dialog"]');
  await page.fill('[data-testid="open-filter"]', name);
  await page.click(`[data-testid="open-entry"][data-name="${name}"]`);
  await page.waitForSelector('[data-testid="open-dialog"]', { state: 'detached' });
}

const e2e = appSession({
  what: 'the export e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', scratch],
  scratch: {
    prefix: 'tlab-export-e2e-',
    fill: (scratch) => {
      copyFileSync(FIXTURE, join(scratch, 'hdiff-cpu.json'));
    },
  },
});

describe('Export report… in browser mode, in Chromium', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`previews the HTML report and downloads it (${theme})`, { timeout: 300_000 }, async () => {
      const a: AppPage = await openApp(e2e.browser, e2e.serve, { theme });
      try {
        const { page } = a;
        await page.waitForSelector('[data-testid="example-hdiff"]');
        expect(await page.isDisabled('[data-testid="action-export"]')).toBe(true);
        await page.click('[data-testid="example-hdiff"]');
        await waitForMark(page, 'tlab:ready', 240_000);
        await openResultThroughDialog(page, 'hdiff-cpu.json');
        await page.waitForSelector('[data-testid="action-export"]:not([disabled])');

        await page.click('[data-testid="action-export"]');
        await page.waitForSelector('[data-testid="export-dialog"]');
        await page.waitForSelector('[data-testid="export-preview"]');
        // The open hdiff is the profiled file (same sha256): the report has its analysis.
        expect(await page.textContent('[data-testid="export-analysis-note"]')).toMatch(/same sha256/);
        const frame = page.frameLocator('[data-testid="export-preview"]');
        // The report's runtime ran inside the sandbox (live charts mounted over the static SVGs).
        await frame.locator('#tlab-result').waitFor({ state: 'attached' });
        await frame.locator('figure.chart.live').first().waitFor({ state: 'attached', timeout: 60_000 });
        const charts = await frame.locator('figure.chart').count();
        expect(charts).toBeGreaterThan(3);
        await expect.poll(() => frame.locator('figure.chart.live').count(), { timeout: 60_000 }).toBe(charts);
        expect(await frame.locator('figure.chart.live .chart-live svg *').count()).toBeGreaterThan(100);
        await nextFrames(page);
        await page.screenshot({ path: join(SHOTS, `export-preview-${theme}.png`) });

        const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-save"]')]);
        expect(download.suggestedFilename()).toBe('hdiff-report.html');
        const saved = join(e2e.scratch, `downloaded-${theme}.html`);
        await download.saveAs(saved);
        await page.waitForSelector('[data-testid="export-dialog"]', { state: 'detached' });

        const bytes = new Uint8Array(readFileSync(saved));
        const html = new TextDecoder().decode(bytes);
        expect(html).toMatch(/^<!doctype html>/i);
        expect(html).toContain('id="tlab-analysis"');
        // A report of that result: its embedded result is the one opened, exactly.
        const docs = parseResultDocuments(bytes, saved);
        expect(docs).toHaveLength(1);
        expect(docs[0]!.result).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
        expect(a.errors).toEqual([]);
        expect(a.foreign).toEqual([]);
      } finally {
        await a.close();
      }
    });
  }

  it("exports PDF through the server's Chromium, or says that PDF needs one on the server", { timeout: 300_000 }, async () => {
    // This server runs with the test's PATH; only check the message when no Chromium is on it.
    const onPath = (process.env.PATH ?? '').split(':').some((d) =>
      ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'].some((n) => {
        try {
          return readFileSync(join(d, n)).length > 0;
        } catch {
          return false;
        }
      }),
    );
    const a = await openApp(e2e.browser, e2e.serve, { theme: 'light' });
    try {
      const { page } = a;
      // The window is ready (its shortcuts listen) once the empty state shows its examples.
      await page.waitForSelector('[data-testid="example-hdiff"]');
      await openResultThroughDialog(page, 'hdiff-cpu.json');
      await page.waitForSelector('[data-testid="action-export"]:not([disabled])');
      await page.keyboard.press('Control+e');
      await page.waitForSelector('[data-testid="export-preview"]');
      // No program open: the report says why it has no analysis.
      expect(await page.textContent('[data-testid="export-analysis-note"]')).toMatch(/without the profiled program open/);
      await page.selectOption('[data-testid="export-format"]', 'pdf');
      if (onPath) {
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: 240_000 }),
          page.click('[data-testid="export-save"]'),
        ]);
        expect(download.suggestedFilename()).toBe('hdiff-report.pdf');
        const saved = join(e2e.scratch, 'downloaded.pdf');
        await download.saveAs(saved);
        expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
      } else {
        await page.click('[data-testid="export-save"]');
        expect(await page.textContent('[data-testid="export-error"]')).toMatch(/PDF needs Chromium on the server/);
      }
      expect(a.errors).toEqual([]);
    } finally {
      await a.close();
    }
  });
});
