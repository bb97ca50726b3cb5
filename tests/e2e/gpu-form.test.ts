/**
 * A GPU program's profile form in the window (a real `serve`, Debian's Chromium, both themes) says what this
 * machine has, as `transient-lab devices` finds it: without a CUDA device (as here) host emulation is chosen and
 * "device" is offered disabled with the probe's reason; with one, "device" is chosen and named. Screenshots of the
 * form under tests/e2e/screenshots/gpu-form/ (not committed: look at them).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import type { DeviceReport } from '../../electron/engine/profile/device.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { appE2eReady, launchChromium, nextFrames, openApp, startServe, waitForMark, type Serve } from '../../bench/lib/browser.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'gpu-form');
const GPU = 'spcl__dace__doc___static__sdfg__gpu-tb.sdfg';
const ready = appE2eReady();

let serve: Serve;
let browser: Browser;
let machine: DeviceReport;

describe("the GPU profile form knows this machine's CUDA devices", () => {
  beforeAll(async () => {
    if (!ready.ok) throw new Error(`the e2e test cannot run: ${ready.why}`);
    mkdirSync(SHOTS, { recursive: true });
    [serve, browser, machine] = await Promise.all([startServe(['--root', corpusDir()]), launchChromium(), probeDevices()]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`chooses what can run here and says why (${theme})`, { timeout: 300_000 }, async () => {
      const a = await openApp(browser, serve, { theme, viewport: { width: 1400, height: 1000 }, query: `open=${encodeURIComponent(GPU)}` });
      const { page } = a;
      await waitForMark(page, 'tlab:ready', 240_000);
      // gpu-tb's arrays are sized by N: without a value Run would wait for it (tests/renderer/symbol-needs.test.ts).
      await page.fill('[data-testid="symbol-N"]', '64');
      await page.keyboard.press('Control+p');
      await page.waitForSelector('[data-testid="profile-gpu-no-device"], [data-testid="profile-gpu-device"]');
      const device = page.locator('[data-testid="profile-gpu-auto"]');
      const emulated = page.locator('[data-testid="profile-gpu-host"]');
      const form = page.locator('[data-testid="profile-form"]');
      if (machine.devices.length) {
        expect(await device.isChecked()).toBe(true);
        expect(await form.textContent()).toContain(`Runs on ${machine.devices[0]!.name}`);
      } else {
        expect(await emulated.isChecked()).toBe(true);
        expect(await device.isDisabled()).toBe(true);
        expect(await page.textContent('[data-testid="profile-gpu-no-device"]')).toBe(`No CUDA device on the server (${machine.reason}).`);
        expect(await form.textContent()).toContain('its times are emulated host times, not device times');
        // Clicking the disabled choice changes nothing.
        await page.click('label:has([data-testid="profile-gpu-auto"])', { force: true });
        expect(await emulated.isChecked()).toBe(true);
      }
      await page.waitForSelector('[data-testid="profile-run"]:not([disabled])');
      await nextFrames(page);
      await form.screenshot({ path: join(SHOTS, `form-${theme}.png`) });
      expect(a.errors).toEqual([]);
      await a.close();
    });
  }
});
