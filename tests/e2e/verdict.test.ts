/**
 * The verdict in the window, through `transient-lab serve` in Debian's Chromium, on the two recorded vadv runs
 * (tests/fixtures/profile/README.md): the quiet one names PERSISTENT, the fastest mode; the one beside CPU hogs
 * says it is noisy, and why, inside the headline. Screenshots under tests/e2e/screenshots/verdict/ (not
 * committed: look at them).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'verdict');
const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'profile');

const text = async (page: Page, testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

/** The class of the leaf element with the largest font on the page. */
async function biggestText(page: Page): Promise<string> {
  type El = { childElementCount: number; textContent: string | null; className: string };
  const sizes = await page.$$eval('body *', (els) =>
    (els as unknown as El[])
      .filter((e) => e.childElementCount === 0 && (e.textContent ?? '').trim().length > 0)
      .map((e) => ({
        size: parseFloat((globalThis as unknown as { getComputedStyle(x: El): { fontSize: string } }).getComputedStyle(e).fontSize),
        cls: String(e.className),
      })),
  );
  return sizes.reduce((m, s) => (s.size > m.size ? s : m), { size: 0, cls: '' }).cls;
}

function clean(a: AppPage): void {
  expect(a.errors).toEqual([]);
  expect(a.foreign).toEqual([]);
}

const e2e = appSession({
  what: 'the verdict e2e test',
  shots: SHOTS,
  serveArgs: (scratch) => ['--root', scratch],
  scratch: {
    prefix: 'tlab-verdict-e2e-',
    fill: (scratch) => {
      for (const f of ['vadv-cpu-clean.json', 'vadv-cpu-noisy.json']) copyFileSync(join(FIXTURES, f), join(scratch, f));
    },
  },
});

describe('the verdict in the window', () => {
  it(
    'a quiet run: the fastest mode in the largest type, EXTERNAL against POOL under it, no noise banner',
    { timeout: 240_000 },
    async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme: 'light',
        query: `open=${encodeURIComponent(join(e2e.scratch, 'vadv-cpu-clean.json'))}`,
      });
      const { page } = a;
      await page.waitForSelector('[data-testid="profile-headline"]');
      expect(await text(page, 'headline-big')).toBe('PERSISTENT 1.06× faster per call');
      expect(await text(page, 'headline-detail')).toBe('than the runner-up, EXTERNAL (packed) (p < 0.001)');
      expect(await page.$('[data-testid="headline-noise"]')).toBeNull();
      expect(await text(page, 'headline-pair')).toMatch(/^EXTERNAL \(packed\) vs POOL: 1\.63× faster per call \(p < 0\.001\)/);
      expect(await biggestText(page)).toContain('headline-big');
      // In the winner's colour, the one the table and the charts give PERSISTENT.
      const colour = (selector: string) =>
        page.$eval(
          selector,
          (e) => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color,
        );
      expect(await colour('[data-testid="headline-big"]')).toBe(await colour('.mode-tag.mode-persistent'));
      await nextFrames(page);
      await (await page.$('[data-testid="profile-result"]'))!.screenshot({ path: join(SHOTS, '01-clean-light.png') });
      clean(a);
      await a.close();
    },
  );

  for (const theme of ['light', 'dark'] as const) {
    it(`a noisy run says so and why inside the headline, and compares p10 (${theme})`, { timeout: 240_000 }, async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme,
        query: `open=${encodeURIComponent(join(e2e.scratch, 'vadv-cpu-noisy.json'))}`,
      });
      const { page } = a;
      await page.waitForSelector('[data-testid="profile-headline"]');
      const noise = await text(page, 'headline-noise');
      expect(noise).toMatch(
        /^\s*Noisy run: call times fall into separate groups in .+ Compared at p10 \(the fastest tenth of the calls\), not at the median\.$/,
      );
      // Inside the headline block, above the verdict it qualifies.
      expect(await page.$('[data-testid="profile-headline"] [data-testid="headline-noise"]')).not.toBeNull();
      expect(await text(page, 'headline-big')).toBe('No clear winner');
      expect(await text(page, 'headline-pair')).toMatch(/^EXTERNAL \(packed\) vs POOL: 1\.96× faster at p10 /);
      expect(await biggestText(page)).toContain('headline-big');
      await nextFrames(page);
      await (await page.$('[data-testid="profile-result"]'))!.screenshot({ path: join(SHOTS, `02-noisy-${theme}.png`) });
      clean(a);
      await a.close();
    });
  }

  it(
    'Compare: a noisy side is compared at p10 and says why; the sentence under the list says how differences are decided',
    { timeout: 240_000 },
    async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme: 'light',
        query: `open=${encodeURIComponent(join(e2e.scratch, 'vadv-cpu-clean.json'))}`,
      });
      const { page } = a;
      await page.waitForSelector('[data-testid="profile-headline"]');
      await page.click('[data-testid="tab-compare"]');
      await page.setInputFiles('[data-testid="compare-add-input"]', join(e2e.scratch, 'vadv-cpu-noisy.json'));
      // An opened result is shown on the Profile tab: go back to Compare.
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document
            .querySelector('.save-name')
            ?.textContent?.includes('vadv-cpu-noisy.json') ?? false,
      );
      await page.click('[data-testid="tab-compare"]');
      await page.waitForSelector('[data-testid="compare-changes"]');
      const noisy = await page.$$eval('[data-testid="compare-noise"]', (els) => els.map((e) => e.textContent ?? ''));
      expect(noisy.length).toBeGreaterThan(0);
      for (const n of noisy) expect(n).toMatch(/noisy \(vadv-cpu-noisy\.json: .+\), so compared at p10$/);
      const how = await text(page, 'compare-significance');
      expect(how).toContain('A difference is claimed only when a two-sided Mann–Whitney test over every timed call gives p < 0.01');
      expect(how).toContain('A noisy sample is compared at p10');
      await nextFrames(page);
      await (await page.$('[data-testid="compare-changes"]'))!.screenshot({ path: join(SHOTS, '03-compare-light.png') });
      clean(a);
      await a.close();
    },
  );
});
