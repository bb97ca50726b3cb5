/**
 * A program the code generator refuses cannot be profiled from the window: the top bar's Profile button is
 * disabled with the first reason (element and JSON path) as its tooltip, and the Profile tab (Ctrl+P) says why
 * next to a disabled Run. A program it accepts keeps both enabled. Screenshots under
 * tests/e2e/screenshots/profile-block/ (not committed: look at them).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'profile-block');
const MLIR = 'spcl__dace__tests__sdfg_corpus__mlir_tasklet_mlir_tasklet_no_input.sdfg';
const SPMV = 'spcl__dace__doc___static__sdfg__spmv.sdfg';
const POTRF = 'spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg';

const pages: AppPage[] = [];

async function openCorpusFile(name: string): Promise<AppPage> {
  const a = await openApp(e2e.browser, e2e.serve, { theme: 'light' });
  pages.push(a);
  const page = a.page;
  await page.waitForSelector('[data-testid="app"]');
  await page.keyboard.press('Control+o');
  await page.waitForSelector('[data-testid="open-dialog"]');
  await page.fill('[data-testid="open-filter"]', name);
  await page.click(`[data-testid="open-entry"][data-name="${name}"]`);
  await page.waitForSelector('[data-testid="open-dialog"]', { state: 'detached' });
  await waitForMark(page, 'tlab:ready', 120_000);
  return a;
}

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', corpusDir()],
});

describe('the Profile button of a program that cannot be profiled', () => {
  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {});
  });

  it('is disabled with the reason as its tooltip, and the Profile tab says why', async () => {
    const a = await openCorpusFile(MLIR);
    const page = a.page;
    const button = page.locator('[data-testid="action-profile"]');
    await page.waitForSelector('[data-testid="action-profile"][disabled]');
    expect(await button.getAttribute('title')).toBe(
      "Cannot profile this program: tasklet 'add' in state s562_4: MLIR tasklets are not supported, at $.nodes[1].nodes[0]. " +
        'write the tasklet in Python or C++',
    );
    await button.hover({ force: true });
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'topbar-disabled.png') });
    // Ctrl+P still opens the tab: Run is disabled there, and the tab says why.
    await page.keyboard.press('Control+p');
    await page.waitForSelector('[data-testid="profile-blocked"]');
    expect(await page.locator('[data-testid="profile-run"]').isDisabled()).toBe(true);
    expect(await page.textContent('[data-testid="profile-run-blocked"]')).toBe('Disabled: this program cannot be profiled');
    const why = (await page.textContent('[data-testid="profile-blocked"]')) ?? '';
    expect(why).toContain('This program cannot be profiled');
    expect(why).toContain('MLIR tasklets are not supported');
    expect(why).toContain("tasklet 'add' in state s562_4");
    expect(why).toContain('$.nodes[1].nodes[0]');
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'profile-tab-blocked.png') });
    expect(a.errors).toEqual([]);
  }, 180_000);

  it('enables Run for a program the generator accepts (spmv, dynamic map ranges) once its symbols have values', async () => {
    const a = await openCorpusFile(SPMV);
    const page = a.page;
    await page.waitForSelector('[data-testid="action-profile"]:not([disabled])');
    expect(await page.locator('[data-testid="action-profile"]').getAttribute('title')).toMatch(/^Profile: choose modes/);
    await page.keyboard.press('Control+p');
    await page.waitForSelector('[data-testid="profile-run"]');
    expect(await page.locator('[data-testid="profile-blocked"]').count()).toBe(0);
    // H, W and nnz have no value yet: Run waits for them, says so, and the field beside it gives all three one.
    expect(await page.locator('[data-testid="profile-run"]').isDisabled()).toBe(true);
    expect(await page.textContent('[data-testid="profile-run-needs"]')).toContain(
      'Waits until 3 symbols have values (H, W, nnz). Set them in the top bar, or all at once here:',
    );
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
        ).document.activeElement?.getAttribute('data-testid'),
      ),
    ).toBe('profile-needs-default');
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'profile-needs-symbols.png') });
    await page.keyboard.type('16');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="profile-run"]:not([disabled])');
    expect(await page.locator('[data-testid="profile-run-needs"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="overview-can-profile"]')).toBe('can profile: yes');
    expect(a.errors).toEqual([]);
  }, 180_000);

  it('a program refused for want of blas (Potrf): choosing blas in the form enables Run', async () => {
    const a = await openCorpusFile(POTRF);
    const page = a.page;
    await page.waitForSelector('[data-testid="action-profile"][disabled]');
    await page.keyboard.press('Control+p');
    await page.waitForSelector('[data-testid="profile-blocked"]');
    expect(await page.textContent('[data-testid="profile-blocked"]')).toContain('--library-impl blas');
    expect(await page.locator('[data-testid="profile-run"]').isDisabled()).toBe(true);
    await page.selectOption('[data-testid="profile-library-impl"]', 'blas');
    await page.waitForSelector('[data-testid="profile-run"]:not([disabled])');
    expect(await page.locator('[data-testid="profile-blocked"]').count()).toBe(0);
    expect(await page.locator('[data-testid="action-profile"]').isDisabled()).toBe(false);
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'potrf-blas-enabled.png') });
    expect(a.errors).toEqual([]);
  }, 180_000);
});
