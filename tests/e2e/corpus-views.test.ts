/**
 * Real corpus files in the window, read as a performance engineer reads them (a real `serve`, headless Chromium,
 * both themes): the top bar keeps the program's own name whole and never shows half a symbol input; a program
 * without transients says so rather than "no transient matches"; the GPU form's fields stack. Screenshots in
 * tests/e2e/screenshots/corpus-views/ (not committed: look at them).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'corpus-views');
const CLOUDSC = 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz';
const EXAMPLE = 'spcl__dace__doc___static__sdfg__example.sdfg';
const GPU = 'spcl__dace__doc___static__sdfg__gpu-tb.sdfg';
const VELOCITY = 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz';
const CHANNEL = 'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg';
const MLIR = 'spcl__dace__tests__sdfg_corpus__mlir_tasklet_mlir_tasklet_no_input.sdfg';

// The page's side of the checks runs in the browser: its DOM is typed loosely (the tests compile without lib.dom).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dom = any;

async function open(file: string, theme: 'light' | 'dark', viewport = { width: 1600, height: 1000 }): Promise<AppPage> {
  const a = await openApp(e2e.browser, e2e.serve, { theme, viewport, query: `open=${encodeURIComponent(file)}` });
  await waitForMark(a.page, 'tlab:ready', 300_000);
  await nextFrames(a.page);
  return a;
}

/** The top bar as laid out: the kept end of the file name, the inline symbol inputs, the symbols button. */
function topBar(
  page: Page,
): Promise<{ keep: string; keepWhole: boolean; cutInputs: number; shown: number; button: string; actionsOnScreen: boolean }> {
  return page.evaluate(() => {
    const d = (globalThis as Dom).document;
    const inside = (a: Dom, b: Dom): boolean => a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
    const chip = d.querySelector('[data-testid="file-chip"]').getBoundingClientRect();
    const keepEl = d.querySelector('[data-testid="file-name"] .mid-keep');
    const keep = keepEl.getBoundingClientRect();
    const box = d.querySelector('.symbols-inline-box');
    const boxRect = box.getBoundingClientRect();
    // An input is shown when it is on the box's row and not hidden; a shown one must be whole (no half-cut field).
    const shown = [...box.querySelectorAll('.sym')]
      .filter((s: Dom) => (globalThis as Dom).getComputedStyle(s).visibility !== 'hidden')
      .map((s: Dom) => s.getBoundingClientRect())
      .filter((r: Dom) => r.top < boxRect.bottom);
    return {
      keep: keepEl.textContent,
      keepWhole: inside(keep, chip) && keep.right <= (globalThis as Dom).innerWidth,
      cutInputs: shown.filter((r: Dom) => !inside(r, boxRect)).length,
      shown: shown.length,
      button: d.querySelector('[data-testid="symbols-more"]').textContent,
      actionsOnScreen: d.querySelector('[data-testid="theme-toggle"]').getBoundingClientRect().right <= (globalThis as Dom).innerWidth,
    };
  });
}

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', corpusDir()],
});

describe('corpus files as a performance engineer reads them', () => {
  it("keeps cloudsc_simplified's own name whole in the top bar; the symbols give way whole and are counted", async () => {
    for (const [theme, viewport] of [
      ['light', { width: 1600, height: 1000 }],
      ['dark', { width: 1280, height: 720 }],
    ] as const) {
      const a = await open(CLOUDSC, theme, viewport);
      const bar = await topBar(a.page);
      await a.page.screenshot({ path: join(SHOTS, `cloudsc-topbar-${viewport.width}-${theme}.png`) });
      expect(bar.keep).toBe('cloudsc_simplified@9f8f673.sdfgz');
      expect(bar.keepWhole).toBe(true);
      expect(bar.cutInputs).toBe(0);
      expect(bar.actionsOnScreen).toBe(true);
      // cloudsc_simplified has 8 symbols: the button counts every one not shown in the bar.
      expect(bar.button).toBe(`+${8 - bar.shown} more`);
      expect(a.errors).toEqual([]);
      await a.close();
    }
  }, 600_000);

  it('says a program without transients has none, in the table and the workspace tab', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await open(EXAMPLE, theme);
      expect(await a.page.textContent('[data-testid="table-empty"]')).toBe('This program has no transients.');
      await a.page.keyboard.press('3');
      await a.page.waitForSelector('[data-testid="workspace-empty"]');
      expect(await a.page.textContent('[data-testid="workspace-empty"]')).toBe(
        'This program has no transients: there is nothing to place in an EXTERNAL workspace.',
      );
      await nextFrames(a.page);
      await a.page.screenshot({ path: join(SHOTS, `example-workspace-${theme}.png`) });
      await a.close();
    }
  }, 300_000);

  it("says which of velocity_tendencies' transients live inside structures, and that it can be profiled", async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await open(VELOCITY, theme);
      const page = a.page;
      expect((await page.textContent('[data-testid="overview-structures"]'))!.replaceAll('\u2009', ' ')).toMatch(
        /^30 136 of 30 313 transients are members of 156 structures \(p_diag_0 6 069, ptr_patch_0\.edges 2 358, p_int_0 2 233, …\); none holds memory of its own\.$/,
      );
      // It can be built once its 894 size symbols (of 2 862) have values: the panel says how many and names two.
      expect(await page.textContent('[data-testid="overview-can-profile"]')).toBe(
        'can profile: yes, once 894 symbols have values (__f2dace_A_z_kin_hor_e_d_0_s_2789, __f2dace_A_z_kin_hor_e_d_1_s_2790, … and 892 more)',
      );
      await page.fill('input[aria-label="Filter transients"]', 'type:structure');
      // The first row is the structure p_metrics_0 itself; the second, its first member.
      const cell = page.locator('[data-testid="transients-table"] [role="row"]').nth(2).locator('[role="gridcell"]').nth(3);
      // The structure's name is whole in the type cell, however long the type before it.
      const kept = await cell.evaluate((el: Dom) => {
        const k = el.querySelector('.mid-keep');
        const r = k.getBoundingClientRect();
        const c = el.getBoundingClientRect();
        return { text: k.textContent, inside: r.left >= c.left && r.right <= c.right + 0.5 };
      });
      expect(kept).toEqual({ text: 'p_metrics_0', inside: true });
      await nextFrames(page);
      await page.screenshot({ path: join(SHOTS, `velocity-structures-${theme}.png`) });
      expect(a.errors).toEqual([]);
      await a.close();
    }
  }, 600_000);

  it("says why a program cannot be profiled in the overview, as analyze's Can profile line does", async () => {
    const a = await open(MLIR, 'dark');
    await a.page.screenshot({ path: join(SHOTS, 'mlir-can-profile-dark.png') });
    expect(await a.page.textContent('[data-testid="overview-can-profile"]')).toMatch(
      /^can profile: no \(tasklet 'add' in state s562_4: MLIR tasklets are not supported, at \$\.nodes\[1\]\.nodes\[0\]/,
    );
    await a.close();
  }, 300_000);

  it("says which expansion runs in place of channel_flow's Reduce nodes when one is selected in the graph", async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await open(CHANNEL, theme);
      const page = a.page;
      await page.keyboard.press('Control+f');
      await page.keyboard.type('Reduce');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="outline-hit"]');
      await page.locator('[data-testid="outline-hit"]').first().click();
      await page.waitForSelector('[data-testid="selection-library-expansion"]');
      expect(await page.textContent('[data-testid="selection-library-expansion"]')).toBe(
        "its pure expansion (loops), in every mode: the analysis' transients are that expansion's",
      );
      await nextFrames(page);
      await page.screenshot({ path: join(SHOTS, `channel-reduce-${theme}.png`) });
      expect(a.errors).toEqual([]);
      await a.close();
    }
  }, 600_000);

  it("puts the GPU form's pool threshold under the device choice, not beside it", async () => {
    for (const theme of ['light', 'dark'] as const) {
      const a = await open(GPU, theme);
      await a.page.keyboard.press('Control+p');
      await a.page.waitForSelector('[data-testid="profile-pool-release-threshold"]');
      const seg = (await a.page.locator('[aria-label="Where the GPU program runs"]').boundingBox())!;
      const label = (await a.page.locator('label:has([data-testid="profile-pool-release-threshold"])').boundingBox())!;
      expect(label.y).toBeGreaterThanOrEqual(seg.y + seg.height);
      await nextFrames(a.page);
      await a.page.screenshot({ path: join(SHOTS, `gpu-form-${theme}.png`) });
      await a.close();
    }
  }, 300_000);
});
