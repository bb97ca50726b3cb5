/**
 * Library expansions in the window (a real `transient-lab serve` and headless Chromium): the transient that
 * Gemm's pure expansion creates is marked with its node in the table and the inspector, and the Profile form
 * offers pure|blas for a program with library nodes. Screenshots under tests/e2e/screenshots/expansion/.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'expansion');
const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');

const e2e = appSession({
  what: 'the app e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', FIXTURES],
});

describe('library expansions in the window', () => {
  it("marks _tmp 'from expansion of gemm' in the table and the inspector; the Profile form offers blas", async () => {
    const a = await openApp(e2e.browser, e2e.serve, {
      theme: 'light',
      query: `open=${encodeURIComponent(join(FIXTURES, 'library_blas.sdfg'))}`,
    });
    const { page } = a;
    await waitForMark(page, 'tlab:ready', 240_000);
    const row = page.locator('[data-testid="transients-table"] [role="row"]', { hasText: '_tmp' });
    expect(await row.textContent()).toContain("from expansion of 'gemm'");
    await row.click();
    await page.waitForSelector('[data-testid="selection-expanded-from"]');
    expect(await page.textContent('[data-testid="selection-expanded-from"]')).toBe("from expansion of library node 'gemm'");
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, '01-tmp-from-gemm.png') });
    await page.keyboard.press('4');
    await page.waitForSelector('[data-testid="profile-library-impl"]');
    expect(await page.inputValue('[data-testid="profile-library-impl"]')).toBe('pure');
    await page.selectOption('[data-testid="profile-library-impl"]', 'blas');
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, '02-profile-form-blas.png') });
    for (const sym of ['N', 'M', 'K']) await page.fill(`[data-testid="symbol-${sym}"]`, '8');
    await page.fill('[data-testid="profile-calls"]', '3');
    await page.fill('[data-testid="profile-processes"]', '1');
    await page.fill('[data-testid="profile-warmup"]', '0');
    // Run waits for the re-analysis with N, M and K before it is enabled.
    await page.waitForSelector('[data-testid="profile-run"]:not([disabled])');
    await page.click('[data-testid="profile-run"]');
    await page.waitForSelector('[data-testid="profile-headline"]', { timeout: 300_000 });
    // The result says which expansion every per-call time includes.
    expect(await page.textContent('[data-testid="result-library-nodes"]')).toMatch(/Gemm 'gemm' → blas \(OpenBLAS\)/);
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, '03-result-blas.png') });
    expect(a.errors).toEqual([]);
    expect(a.foreign).toEqual([]);
    await a.close();
  }, 400_000);
});
