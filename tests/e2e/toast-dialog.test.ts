/**
 * A toast never covers a dialog's actions: "Downloaded …" (bottom right) sat over the Export dialog's Save button
 * when Export followed a download. With a dialog open the toasts go under its backdrop. Screenshots in
 * tests/e2e/screenshots/toast-dialog/.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'toast-dialog');
// A fresh run downloads as `<program>-profile-<date>.json`: a generated program's name makes a wide toast.
const LONG = 'npbench_benchmarks_channel_flow_channel_flow_dace_channel_flow-profile-2026-12-07-16-16.json';

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', scratch],
  scratch: {
    prefix: 'tlab-toast-e2e-',
    fill: (scratch) => {
      copyFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), join(scratch, LONG));
    },
  },
});

describe('toasts and dialogs', () => {
  it("keeps the Downloaded toast off the Export dialog's Save button", async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await openApp(e2e.browser, e2e.serve, { theme, query: `open=${encodeURIComponent(join(e2e.scratch, LONG))}` });
      const { page } = a;
      await page.waitForSelector('[data-testid="profile-headline"]');
      const download = page.waitForEvent('download');
      await page.click('[data-testid="result-download"]');
      await download;
      await page.waitForSelector('.toast');
      await page.keyboard.press('Control+e');
      await page.waitForSelector('[data-testid="export-save"]');
      await nextFrames(page);
      const toast = (await page.locator('.toast').first().boundingBox())!;
      const save = (await page.locator('[data-testid="export-save"]').boundingBox())!;
      // The toast is where the button is (a wide one reaches it) …
      expect(toast.x < save.x + save.width && save.x < toast.x + toast.width).toBe(true);
      // … and the button is what a click at its centre meets.
      const hit = await page.evaluate(
        ([x, y]) => {
          const d = (
            globalThis as unknown as { document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null } }
          ).document;
          return d.elementFromPoint(x!, y!)?.closest('[data-testid="export-save"]') != null;
        },
        [save.x + save.width / 2, save.y + save.height / 2],
      );
      await page.screenshot({ path: join(SHOTS, `export-after-download-${theme}.png`) });
      expect(hit).toBe(true);
      await a.close();
    }
  }, 300_000);
});
