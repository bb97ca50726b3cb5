/**
 * A GPU program's profile form in the window (a real `serve`, Debian's Chromium, both themes) says what this
 * machine has, as `transient-lab devices` finds it: without a CUDA device (as here) host emulation is chosen and
 * "device" is offered disabled with the probe's reason; with one, "device" is chosen and named. Screenshots of the
 * form under tests/e2e/screenshots/gpu-form/ (not committed: look at them).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import type { DeviceReport } from '../../electron/engine/profile/device.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { nextFrames, openApp, waitForMark } from '../../bench/lib/browser.js';
import { appSession } from './helpers.js';

const SHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots', 'gpu-form');
const GPU = 'spcl__dace__doc___static__sdfg__gpu-tb.sdfg';

let machine: DeviceReport;

const e2e = appSession({
  what: 'the e2e test',
  shots: SHOTS,
  serveArgs: (_scratch) => ['--root', corpusDir()],
});

describe("the GPU profile form knows this machine's CUDA devices", () => {
  beforeAll(async () => {
    machine = await probeDevices();
  }, 120_000);

  for (const theme of ['light', 'dark'] as const) {
    it(`chooses what can run here and says why (${theme})`, { timeout: 300_000 }, async () => {
      const a = await openApp(e2e.browser, e2e.serve, {
        theme,
        viewport: { width: 1400, height: 1000 },
        query: `open=${encodeURIComponent(GPU)}`,
      });
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
