/**
 * `--gpu host` in the window (docs/gpu-host.md), through `transient-lab serve` in Debian's Chromium: the Profile form
 * of a GPU program offers the device or the host emulation and the pool release threshold (with what 0 and max
 * mean); a run on the host emulation shows its times as emulated, never as device times. Screenshots under
 * tests/e2e/screenshots/gpu-host/ (not committed: look at them).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { nextFrames, openApp } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'gpu-host');

const text = async (page: Page, testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', examplesDir()],
});

describe('a GPU program emulated on the host, in the window', () => {
  it('offers host emulation and the pool threshold, and labels the emulated times', { timeout: 600_000 }, async () => {
    const a = await openApp(e2e.browser, e2e.serve, { query: `open=${encodeURIComponent(join(examplesDir(), 'gpu', 'chain_gpu.sdfg'))}` });
    const { page } = a;
    await page.fill('[data-testid="symbol-N"]', '64');
    await page.keyboard.press('Control+p');
    await page.waitForSelector('[data-testid="profile-form"]');
    expect(await page.inputValue('[data-testid="profile-pool-release-threshold"]')).toBe('max');
    expect(await text(page, 'profile-form')).toMatch(
      /0 returns all its free memory; max \(DaCe.s default\)\s+keeps everything it reserved/,
    );
    await page.click('label:has([data-testid="profile-gpu-host"])');
    expect(await text(page, 'profile-form')).toContain('its times are emulated host times, not device times');
    await page.fill('[data-testid="profile-pool-release-threshold"]', '0');
    await page.fill('[data-testid="profile-calls"]', '6');
    await page.fill('[data-testid="profile-processes"]', '1');
    await page.fill('[data-testid="profile-warmup"]', '0');
    await nextFrames(page);
    await (await page.$('[data-testid="profile-form"]'))!.screenshot({ path: join(SHOTS, 'form.png') });
    await page.click('[data-testid="profile-run"]');
    await page.waitForSelector('[data-testid="profile-headline"]', { timeout: 540_000 });
    expect(await text(page, 'device-line')).toContain('Emulated GPU');
    expect(await text(page, 'headline-basis')).toContain('emulated host time per call (--gpu host), not device time');
    expect(await page.$('[data-testid="headline-device"]')).toBeNull();
    expect(await text(page, 'overview-measured')).toContain('measured (emulated on the CPU, --gpu host)');
    expect(await text(page, 'profile-table-device')).toBe('emulated device time / call (--gpu host)');
    expect(await text(page, 'profile-table')).not.toContain('CUDA events');
    expect(await text(page, 'pool-table')).toContain('0 (releases at every synchronisation)');
    expect(await text(page, 'verification-badge')).toMatch(/Verified/);
    await nextFrames(page);
    await page.screenshot({ path: join(SHOTS, 'result.png') });
    expect(a.errors).toEqual([]);
  });
});
