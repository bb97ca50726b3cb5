/**
 * `profile` on a GPU program without a GPU, end to end through the built CLI: a folder built by
 * `buildFolder` whose libraries are the host-memory test double of chain_gpu (tests/fixtures/gpu/, built by g++
 * instead of nvcc), run with `profile --prebuilt` while the device probe finds the fake CUDA device of
 * host_memory_cudart.cc ($TLAB_CUDART, libcuda.so.1 on LD_LIBRARY_PATH). The probe, the refusal logic, the
 * runner's GPU path and the result's GPU fields all run for real; only the device is a double. The same run on a
 * real device is in tests/engine/profile/gpu-device.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { buildFolder } from '../../electron/engine/profile/prebuilt.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import * as v from 'valibot';
import { profileResultSchema } from '../../electron/ipc/result-schema.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { CHAIN_GPU, chainDoubleBuilder, fakeCudaDevice } from '../engine/profile/host-device-double.js';

// The refusal test needs a machine whose real CUDA lists no device.
const hasDevice = (await probeDevices()).devices.length > 0;

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const MAX = (2n ** 64n - 1n).toString();
let dir: string;
let folder: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-gpu-'));
  env = { ...fakeCudaDevice(join(dir, 'cuda')).env, TRANSIENT_LAB_CACHE: join(dir, 'cache') };
  folder = join(dir, 'chain-gpu');
  await buildFolder(CHAIN_GPU, {
    modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
    layout: 'both',
    symbols: new Map([['N', 256n]]),
    defaultSymbol: null,
    outDir: folder,
    build: chainDoubleBuilder(),
  });
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], withEnv: NodeJS.ProcessEnv = env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { env: withEnv, timeout: 300_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('profile on a GPU program, with a test-double device', () => {
  it('`devices` lists the double through the real probe', async () => {
    const r = await cli(['devices']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('device 0: Transient Lab host-memory test device, 1.0 GiB, compute capability 9.0, 4 SMs');
  });

  it('profile --prebuilt runs every mode through the GPU path and writes device times, pool attributes and the device', async () => {
    const out = join(dir, 'chain-gpu.json');
    const r = await cli(['profile', '--prebuilt', folder, '--calls', '4', '--warmup', '1', '--processes', '2', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mode\s+median\/call\s+device\/call\s+p10/m);
    expect(r.stdout).toContain('device: Transient Lab host-memory test device (compute capability 9.0, CUDA runtime 13.0, driver 13.0)');
    expect(r.stdout).toMatch(/pool high-water \(reserved \/ used\): POOL 4\.0 KiB \/ 4\.0 KiB \(release threshold max\)/);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    // What the window and the reports accept (openResult's schema) takes this GPU result as it is.
    expect(v.safeParse(profileResultSchema, result).issues).toBeUndefined();
    expect(result.device).toMatchObject({
      index: 0,
      name: 'Transient Lab host-memory test device',
      computeCapability: '9.0',
      multiprocessors: 4,
      memoryPools: true,
      runtimeVersion: 13000,
      driverVersion: 13000,
    });
    expect(result.settings.poolReleaseThreshold).toBe(MAX);
    expect(result.modes.map((m) => m.label)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
    expect(result.verification).toMatchObject({ ok: true, identical: true, compared: ['out'] });
    const checksums = new Set(result.modes.map((m) => m.outputChecksums.out));
    expect(checksums.size).toBe(1);
    for (const m of result.modes) {
      // Two processes × 4 timed calls, pooled, in the order of calls.totalNs.
      expect(m.gpu!.deviceNs).toHaveLength(8);
      expect(m.gpu!.hostReturnNs).toHaveLength(8);
      expect(m.gpu!.deviceMedianNs).toBeGreaterThan(0);
    }
    const mode = (label: string) => result.modes.find((m) => m.label === label)!;
    // Two 2 KiB transients live at a time in chain (N = 256).
    expect(mode('POOL').gpu!.pool).toEqual({ reservedHighBytes: 4096, usedHighBytes: 4096, releaseThreshold: MAX });
    expect(mode('SCOPED').gpu!.pool).toBeNull();
    expect(mode('SCOPED').summary.allocsPerCall).toBe(4);
    expect(
      mode('SCOPED').sampledCall!.events.every((e) => e.device === true && e.startNs + e.durationNs <= mode('SCOPED').sampledCall!.totalNs),
    ).toBe(true);
    expect(mode('EXTERNAL (dace)').workspaceBytes).toEqual({ GPU_Global: 4 * 2048 });
    expect(mode('EXTERNAL (packed)').workspaceBytes).toEqual({ GPU_Global: 2 * 2048 });
  });

  it('--pool-release-threshold is refused with --prebuilt (the folder fixes it) and for CPU programs', async () => {
    const prebuilt = await cli(['profile', '--prebuilt', folder, '--pool-release-threshold', '0']);
    expect(prebuilt.code).toBe(2);
    expect(prebuilt.stderr).toMatch(/--pool-release-threshold cannot be used with --prebuilt/);
    const cpu = await cli(['profile', join(examplesDir(), 'chain.sdfg'), '--default-symbol', '8', '--pool-release-threshold', 'max']);
    expect(cpu.code).toBe(2);
    expect(cpu.stderr).toMatch(/--pool-release-threshold applies to GPU programs .*this is a CPU program/);
    const bad = await cli(['profile', CHAIN_GPU, '--pool-release-threshold', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--pool-release-threshold expects an integer, got 'lots'/);
  });

  it('a folder built with a release threshold runs with it, and the result records it', async () => {
    const zero = join(dir, 'chain-gpu-zero');
    await buildFolder(CHAIN_GPU, {
      modes: ['POOL'],
      layout: 'packed',
      symbols: new Map([['N', 64n]]),
      defaultSymbol: null,
      outDir: zero,
      poolReleaseThreshold: 0n,
      build: chainDoubleBuilder(),
    });
    const out = join(dir, 'chain-gpu-zero.json');
    const r = await cli(['profile', '--prebuilt', zero, '--calls', '3', '--processes', '1', '--out', out]);
    expect(r.code).toBe(0);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(result.settings.poolReleaseThreshold).toBe('0');
    expect(result.modes[0]!.gpu!.pool!.releaseThreshold).toBe('0');
  });

  it.skipIf(hasDevice)('without a device (the real probe, no double) the same folder is refused with exit 4', async () => {
    const r = await cli(['profile', '--prebuilt', folder], { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache') });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/this is a GPU program and this machine has no CUDA device/);
  });
});
