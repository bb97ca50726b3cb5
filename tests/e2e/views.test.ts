/**
 * Views in the app, end to end (browser mode: the built CLI's `serve` and headless Chromium): a view owns no
 * bytes. On velocity_tendencies (every free symbol 64) its 128 MiB views of p_diag are rows that say "view of
 * argument p_diag.…" and are left out of the table's total, the selection panel says so, and state_2_0 rolls
 * up to the 4.50 MiB its own transients hold, not the 407 MiB its views span. On tests/fixtures/sdfg/views.sdfg
 * the lifetime timeline and the workspace map hatch T where its views live. Screenshots under
 * tests/e2e/screenshots/views/ (not committed: look at them).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp, waitForMark, type AppPage } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'views');
const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const VELOCITY = join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz');

const pages: AppPage[] = [];

interface Doc {
  document: { querySelector(s: string): { textContent: string | null; getAttribute(n: string): string | null } | null };
}

async function shot(page: Page, name: string): Promise<void> {
  await nextFrames(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const text = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

/** Waits until the text of `selector` matches `re` (a function, not a string: the page's CSP forbids eval). */
async function textMatches(page: Page, selector: string, re: RegExp, timeout = 120_000): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, src]) => new RegExp(src).test((globalThis as unknown as Doc).document.querySelector(sel)?.textContent ?? ''),
      [selector, re.source] as const,
      { timeout },
    );
  } catch (e) {
    throw new Error(
      `${selector} never matched ${re}: it reads ${JSON.stringify(await page.textContent(selector).catch(() => null))} (${(e as Error).message})`,
      { cause: e },
    );
  }
}

async function ariaMatches(page: Page, selector: string, re: RegExp): Promise<string> {
  await page.waitForFunction(
    ([sel, src]) => new RegExp(src).test((globalThis as unknown as Doc).document.querySelector(sel)?.getAttribute('aria-label') ?? ''),
    [selector, re.source] as const,
  );
  return (await page.getAttribute(selector, 'aria-label')) ?? '';
}

async function open(path: string): Promise<AppPage> {
  const a = await openApp(e2e.browser, e2e.serve, { theme: 'light', query: `open=${encodeURIComponent(path)}` });
  pages.push(a);
  await waitForMark(a.page, 'tlab:ready', 600_000);
  await a.page.waitForSelector('[data-testid="transients-table"]');
  return a;
}

const e2e = appSession({
  what: 'the views e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', corpusDir(), '--root', FIXTURES],
});

describe('views and references in the app', () => {
  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {});
  });

  it('velocity_tendencies: views are rows of their own, out of every total, and state_2_0 holds 4.50 MiB', async () => {
    const a = await open(VELOCITY);
    const { page } = a;
    await page.click('[data-testid="symbols-more"]');
    await page.fill('[data-testid="symbol-default"]', '64');
    await page.keyboard.press('Escape');
    // The 13 arrays of the workspace and the stack scalars: 7.58 MiB; 30,261 views (125 views and structure
    // views, and the members of the structure views) are listed and not added.
    await textMatches(page, '[data-testid="table-total"]', /^7\.58 MiB own · 30\s261 views or references not counted$/, 180_000);

    await page.fill('[aria-label="Filter transients"]', 'v_p_diag_ddt_vn_apc_pc');
    await textMatches(page, '[data-testid="table-total"]', /^0 B own · 2 views or references not counted$/);
    const cells = await page.$$eval('[data-testid="transients-table"] [data-alias]', (els) =>
      els.map((e) => (e as unknown as { textContent: string }).textContent),
    );
    expect(cells).toEqual(['view of argument p_diag.ddt_vn_apc_pc', 'view of argument p_diag.ddt_vn_apc_pc']);
    // No 128 MiB anywhere in the table: the view's extent is in the cell's title only.
    expect(await text(page, '[data-testid="transients-table"] [role="grid"]')).not.toContain('128 MiB');
    await page.click('[data-testid="transients-table"] [data-alias]');
    await page.waitForSelector('[data-testid="selection-transient"]');
    expect(await text(page, '[data-testid="selection-size"]')).toBe('view of argument p_diag.ddt_vn_apc_pcowns no bytes');
    expect(await text(page, '[data-testid="selection-alias-target"]')).toContain('an argument: the caller’s memory');
    expect(await text(page, '[data-testid="selection-transient"]')).toContain('its extent: 128 MiB, counted in no total');
    await shot(page, 'velocity-view-selected');

    // state_2_0 from the outline's control flow: its 11 own transients, not its 40 views.
    await page.click('[data-testid="outline-states"]');
    await page.locator('[data-testid="outline-state"]', { has: page.locator('.ol-name', { hasText: /^state_2_0$/ }) }).click();
    await page.waitForSelector('[data-testid="selection-element"]');
    await textMatches(page, '[data-testid="selection-element"] .sel-big', /^4\.50 MiB51 transients; 40 views or references not counted$/);
    await shot(page, 'velocity-state_2_0');
    expect(a.errors).toEqual([]);
    expect(a.foreign).toEqual([]);
  }, 900_000);

  it('hatches the viewed transient in the lifetime timeline and the workspace map (views.sdfg, N = 16)', async () => {
    const a = await open(join(FIXTURES, 'views.sdfg'));
    const { page } = a;
    await page.fill('[data-testid="symbol-N"]', '16');
    await textMatches(page, '[data-testid="table-total"]', /^768 B own · 6 views or references not counted$/);
    // A view of a transient: the panel names it and shows T's size as T's; one click selects T.
    await page.click('[data-testid="transients-table"] [role="row"]:has-text("0:VV")');
    await textMatches(page, '[data-testid="selection-size"]', /^view of Towns no bytes$/);
    expect(await text(page, '[data-testid="selection-alias-target"]')).toBe('T holds 128 B');
    await shot(page, 'fixture-view-selected');
    await page.click('[data-testid="selection-alias-target"] button');
    await textMatches(page, '[data-testid="selection-size"]', /^128 B/);
    expect(await text(page, '[data-testid="selection-viewed-by"]')).toBe('VT, VV, R');
    await shot(page, 'fixture-table');
    await page
      .locator('[data-testid="graph"] canvas')
      .first()
      .click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('2');
    await page.waitForSelector('[data-testid="lifetime-chart"] canvas');
    await page.selectOption('[data-testid="lifetime-rows"]', 'all');
    // Wait for the label of all rows: the default rows' label also says "hatched".
    const lifetime = await ariaMatches(page, '[data-testid="lifetime-chart"] [aria-label]', /Lifetimes of 9 transients.*hatched/);
    expect(lifetime).toContain('Lifetimes of 9 transients over 7 steps in CPU_Heap; SCOPED peak 768 B');
    expect(lifetime).toContain('2 hatched where views or references alias them; 6 views or references drawn as aliases');
    await shot(page, 'fixture-lifetimes-all');
    await page.keyboard.press('3');
    await page.waitForSelector('[data-testid="workspace-chart"] canvas');
    expect(await ariaMatches(page, '[data-testid="workspace-chart"] [aria-label]', /hatched/)).toBe(
      "Workspace of CPU_Heap: packed 768 B, DaCe's layout 768 B; 2 blocks hatched where views or references alias them.",
    );
    await shot(page, 'fixture-workspace');
    expect(a.errors).toEqual([]);
    expect(a.foreign).toEqual([]);
  }, 300_000);
});
