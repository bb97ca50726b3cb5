/**
 * `profile --gpu host` (docs/gpu-host.md): the generated CUDA of the GPU examples compiled by g++ against the host
 * CUDA runtime and run on this CPU, in every mode, through the real runner. Each example's outputs must equal,
 * bit for bit, the CPU generator's outputs for the example's CPU twin (assets/examples/<name>.sdfg: the same
 * program without GPU storage and schedules), with the same inputs (same seed, same symbols).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../../electron/engine/paths.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { probeDevices } from '../../../electron/runner/devices.js';
import { runCli } from '../../cli/run-cli.js';

const report = await probeDevices();
const hasDevice = report.devices.length > 0;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-host-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cache: join(dir, 'cache'), timeoutMs: 600_000 });

const SMALL = ['--default-symbol', '12', '--calls', '2', '--warmup', '0', '--processes', '1'];

async function profileJson(file: string, extra: string[], name: string): Promise<ProfileResult> {
  const out = join(dir, `${name}.json`);
  const r = await cli(['profile', file, ...SMALL, ...extra, '--out', out]);
  expect(r.stderr, r.stdout).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
}

describe('profile --gpu host', () => {
  for (const example of ['hdiff', 'chain', 'vadv']) {
    it(`${example}_gpu runs and verifies in every mode, with the CPU generator's outputs for ${example}.sdfg`, async () => {
      const gpu = await profileJson(
        join(examplesDir(), 'gpu', `${example}_gpu.sdfg`),
        ['--gpu', 'host', '--layout', 'both'],
        `${example}-gpu`,
      );
      const cpu = await profileJson(join(examplesDir(), `${example}.sdfg`), ['--modes', 'scoped'], `${example}-cpu`);
      expect(gpu.backend).toBe('cuda-host');
      expect(gpu.device!.name).toMatch(/host CPU emulation/);
      expect(gpu.modes.map((m) => m.label)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)']);
      expect(gpu.verification).toMatchObject({ ok: true, identical: true, vacuous: false });
      for (const m of gpu.modes) {
        expect(m.outputChecksums).toEqual(cpu.modes[0]!.outputChecksums);
        expect(m.gpu!.deviceNs).toHaveLength(2);
      }
      const mode = (label: string) => gpu.modes.find((m) => m.label === label)!;
      // Device allocations are recorded as on a device: per call in SCOPED and POOL, none in EXTERNAL.
      expect(mode('SCOPED').summary.allocsPerCall).toBeGreaterThan(0);
      expect(mode('SCOPED').sampledCall!.events.every((e) => e.device === true)).toBe(true);
      expect(mode('POOL').summary.allocsPerCall).toBe(mode('SCOPED').summary.allocsPerCall);
      expect(mode('EXTERNAL (packed)').summary.allocsPerCall).toBe(0);
      // The emulated pool keeps its blocks (threshold UINT64_MAX): the high-water marks come from the emulation.
      expect(mode('POOL').gpu!.pool!.reservedHighBytes).toBeGreaterThan(0);
      expect(mode('POOL').gpu!.pool!.usedHighBytes).toBeGreaterThan(0);
      expect(mode('SCOPED').gpu!.pool).toBeNull();
    });
  }

  it('the console labels emulated times, and --gpu is refused for CPU programs and with a bad value', async () => {
    const r = await cli(['profile', join(examplesDir(), 'gpu', 'chain_gpu.sdfg'), ...SMALL, '--gpu', 'host', '--modes', 'pool']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mode +median\/call +emulated\/call /m);
    expect(r.stdout).toMatch(/^backend: cuda-host — the CUDA code ran on this CPU .* not a device time/m);
    const cpu = await cli(['profile', join(examplesDir(), 'chain.sdfg'), ...SMALL, '--gpu', 'host']);
    expect(cpu.code).toBe(2);
    expect(cpu.stderr).toMatch(/--gpu host applies to GPU programs; this is a CPU program/);
    const bad = await cli(['profile', join(examplesDir(), 'gpu', 'chain_gpu.sdfg'), '--gpu', 'cpu']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--gpu expects auto, device or host, got 'cpu'/);
  });

  it.skipIf(hasDevice)('without a device, the default (auto) still refuses, and names --gpu host', async () => {
    const r = await cli(['profile', join(examplesDir(), 'gpu', 'chain_gpu.sdfg'), ...SMALL]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/this machine has no CUDA device/);
    expect(r.stderr).toMatch(/--gpu host/);
  });
});
