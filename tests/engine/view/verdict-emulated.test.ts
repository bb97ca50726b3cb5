/**
 * A GPU result emulated on the host (`--gpu host`, `backend: 'cuda-host'`, docs/gpu-host.md): its times are host
 * times of an emulation, so the verdict, the comparison of results and the console never present them as device
 * times. The result is the synthetic GPU fixture (tests/fixtures/synthetic-gpu.ts) marked as emulated.
 */
import { describe, expect, it } from 'vitest';
import { formatProfile } from '../../../electron/engine/profile/format.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { compareResults, profileVerdict } from '../../../electron/engine/view/verdict.js';
import { syntheticGpuFixture } from '../../fixtures/synthetic-gpu.js';

const emulated = (): ProfileResult => ({ ...syntheticGpuFixture(), backend: 'cuda-host' });

describe('an emulated GPU result', () => {
  it('is judged on emulated host time, with no device-time verdict', () => {
    const v = profileVerdict(emulated());
    for (const h of [v.primary, ...v.secondary]) {
      expect(h.device).toBeNull();
      expect(h.parts.device).toBeNull();
      expect(h.text).not.toMatch(/device time/);
    }
    expect(v.primary.basis).toBe('emulated');
    const pair = v.secondary[0]!;
    expect(pair.parts.basis).toMatch(/emulated on this CPU \(--gpu host\): not device time/);
    expect(pair.text).toMatch(/in emulated host time|too few calls|no significant difference|within the noise/i);
  });

  it('is never compared with a device result on device time: the comparison says the targets differ', () => {
    const [change] = compareResults([
      { label: 'device', result: syntheticGpuFixture() },
      { label: 'emulated', result: emulated() },
    ]);
    expect(change!.device).toBeNull();
    expect(change!.crossTarget).toBe(true);
    expect(change!.text).toContain('host times of a GPU-emulated-on-CPU run against a GPU run');
  });

  it('is labelled in the console: emulated/call and a backend line instead of the device line', () => {
    const text = formatProfile(emulated());
    expect(text).toContain('emulated/call');
    expect(text).not.toContain('device/call');
    expect(text).toMatch(/backend: cuda-host — the CUDA code ran on this CPU/);
    expect(text).not.toMatch(/^device: /m);
  });
});
