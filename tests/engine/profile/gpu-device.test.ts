/**
 * The GPU path on a real CUDA device: generated CUDA (nvcc), the real runtime, asynchronous kernels and the real
 * stream-ordered pool, through `transient-lab profile`. These tests need a device and nvcc; where `devices`
 * lists none (these VMs, CI) every test here is SKIPPED, with the reason in its name — never reported as
 * passed. Without a device the same path runs on the host-memory test double (runner-gpu.test.ts,
 * tests/cli/profile-gpu.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc } from '../../../electron/engine/compile/index.js';
import { examplesDir, packageRoot } from '../../../electron/engine/paths.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { probeDevices } from '../../../electron/runner/devices.js';

const report = await probeDevices();
const nvcc = await findNvcc().then(
  () => true,
  () => false,
);
const why = !report.devices.length ? `no CUDA device: ${report.reason ?? 'none found'}` : !nvcc ? 'nvcc is not installed' : '';
// A device to run on, and nvcc to build for it: both are features of the machine (tests/setup.test.ts).
const hasDevice = why === '';
const title = (what: string) => (hasDevice ? what : `${what} (skipped: ${why})`);

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-device-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function profile(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, 'profile', ...args],
      { env: { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache') }, timeout: 900_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

describe('on a CUDA device', () => {
  it.skipIf(!hasDevice)(
    title('profiles hdiff_gpu in every mode: verified on the device, device times, pool attributes, device allocation events'),
    async () => {
      const out = join(dir, 'hdiff_gpu.json');
      const r = await profile([
        join(examplesDir(), 'gpu', 'hdiff_gpu.sdfg'),
        '--symbols',
        'I=64,J=64,K=16',
        '--layout',
        'both',
        '--calls',
        '10',
        '--warmup',
        '2',
        '--processes',
        '1',
        '--out',
        out,
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
      expect(result.device!.name).toBe(report.devices[0]!.name);
      expect(result.verification).toMatchObject({ ok: true, identical: true });
      expect(result.verification.compared).toContain('out_field');
      expect(result.settings.poolReleaseThreshold).toBe((2n ** 64n - 1n).toString());
      for (const m of result.modes) {
        expect(m.gpu!.deviceNs).toHaveLength(10);
        expect(m.gpu!.deviceMedianNs).toBeGreaterThan(0);
        // Host time until the device finished covers the device time of the call.
        expect(m.summary.medianNs).toBeGreaterThanOrEqual(m.gpu!.deviceMedianNs * 0.9);
      }
      const mode = (label: string) => result.modes.find((m) => m.label === label)!;
      expect(mode('POOL').gpu!.pool!.reservedHighBytes).toBeGreaterThan(0);
      expect(mode('EXTERNAL (packed)').gpu!.pool).toBeNull();
      expect(mode('SCOPED').summary.allocsPerCall).toBe(3);
      expect(mode('SCOPED').sampledCall!.events.every((e) => e.device === true)).toBe(true);
      expect(mode('EXTERNAL (packed)').summary.allocsPerCall).toBe(0);
    },
  );

  it.skipIf(!hasDevice)(title('chain_gpu with --pool-release-threshold 0: the result records it and the pool reports it'), async () => {
    const out = join(dir, 'chain_gpu.json');
    const r = await profile([
      join(examplesDir(), 'gpu', 'chain_gpu.sdfg'),
      '--default-symbol',
      '100000',
      '--modes',
      'pool,external',
      '--calls',
      '10',
      '--processes',
      '1',
      '--pool-release-threshold',
      '0',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(result.settings.poolReleaseThreshold).toBe('0');
    expect(result.modes.find((m) => m.mode === 'POOL')!.gpu!.pool!.releaseThreshold).toBe('0');
    expect(result.verification.ok).toBe(true);
  });
});
