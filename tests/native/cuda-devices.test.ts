/**
 * Device discovery (native/src/cuda_devices.cc through the probe child). On a machine without a CUDA device the
 * device-listing test is reported as skipped, never as passed; the no-device tests skip where there is one.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { describeDevices, noDeviceError } from '../../electron/engine/profile/device.js';
import { probeDevices } from '../../electron/runner/devices.js';

// Whether this machine has a CUDA device: a feature of the platform, the one condition these tests skip on.
const report = await probeDevices();
const hasDevice = report.devices.length > 0;
const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('CUDA device discovery', () => {
  it('a runtime that is not there is a report with a reason, not an exception', async () => {
    const r = await probeDevices({ runtimeCandidates: ['/nonexistent/libcudart.so.99'] });
    expect(r.runtimeLibrary).toBeNull();
    expect(r.devices).toEqual([]);
    expect(r.reason).toMatch(/CUDA runtime \(libcudart\) is not installed/);
    expect(r.attempts[0]).toMatch(/^\/nonexistent\/libcudart\.so\.99: /);
  });

  it.skipIf(hasDevice)('without a device: the reason says so plainly', () => {
    expect(report.devices).toEqual([]);
    expect(report.reason).toBeTruthy();
    expect(describeDevices(report)[1]).toMatch(/^no CUDA device: /);
    expect(noDeviceError(report, 'f.sdfg').kind).toBe('unsupported');
  });

  it.skipIf(hasDevice)('without a device: `devices` exits 4 and a GPU profile refuses with the same message, no stack trace', async () => {
    const d = await cli(['devices']);
    expect(d.code).toBe(4);
    expect(d.stdout).toMatch(/no CUDA device: /);
    const gpu = join(corpusDir(), 'spcl__dace__doc___static__sdfg__gpu-notb.sdfg');
    const r = await cli(['profile', gpu, '--default-symbol', '8', '--calls', '1']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`${gpu}: this is a GPU program and this machine has no CUDA device: ${report.reason}`);
    expect(r.stderr).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
  });

  it.skipIf(!hasDevice)('with a device: lists name, memory, compute capability and driver', async () => {
    for (const d of report.devices) {
      expect(d.name).not.toBe('');
      expect(d.totalMemoryBytes).toBeGreaterThan(0);
      expect(d.computeCapability).toMatch(/^\d+\.\d+$/);
    }
    expect(report.driverVersion).toBeGreaterThan(0);
    const d = await cli(['devices']);
    expect(d.code).toBe(0);
  });
});
