import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { busyMachineWarning, foreignCpuBusy } from '../../../electron/engine/profile/machine.js';

describe('busy-machine warning', () => {
  it('stays quiet on an idle machine and names the share when others keep the cores busy', () => {
    expect(busyMachineWarning(null, 2)).toBeNull();
    expect(busyMachineWarning(0.05, 2)).toBeNull();
    const w = busyMachineWarning(0.6, 2);
    expect(w).toContain('60% of the 2 cores');
    expect(w).toContain('quiet machine');
  });

  it.runIf(existsSync('/proc/stat'))('samples the share of busy cores from /proc/stat', async () => {
    const quiet = await foreignCpuBusy(100);
    expect(quiet).not.toBeNull();
    expect(quiet!).toBeGreaterThanOrEqual(0);
    expect(quiet!).toBeLessThanOrEqual(1);
    // Keep this process's own thread spinning during the sample: the measured share must rise above zero.
    const spin = (async () => {
      const end = Date.now() + 150;
      while (Date.now() < end) await new Promise((r) => setImmediate(r));
    })();
    const loaded = await foreignCpuBusy(100);
    await spin;
    expect(loaded!).toBeGreaterThan(0);
  });
});
