/**
 * The service's `devices`: the host's probe (a child, ≈1 s) runs once per service whatever the number of windows
 * and calls; a failed probe is not kept; a host without a probe says so. The probes here count their calls and
 * answer reports shaped as the addon's (the contract suite checks the real probe against `transient-lab devices`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceProbe, DeviceReport } from '../../electron/engine/profile/device.js';
import { TlabError } from '../../electron/engine/errors.js';
import { RootsFileAccess } from '../../electron/host-kit/file-access.js';
import { ContractFailure } from '../../electron/ipc/errors.js';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { TransientLabService } from '../../electron/service/index.js';

const NONE: DeviceReport = {
  runtimeLibrary: 'libcudart.so',
  runtimeVersion: 13000,
  driverVersion: 0,
  devices: [],
  reason: 'no NVIDIA driver is installed',
  attempts: ['libcudart.so: loaded'],
};

const ONE: DeviceReport = {
  ...NONE,
  driverVersion: 13000,
  reason: null,
  devices: [
    { index: 0, name: 'Test GPU', totalMemoryBytes: 80 * 2 ** 30, computeCapability: '9.0', multiprocessors: 132, memoryPools: true },
  ],
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tlab-devices-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function serviceWith(devices: DeviceProbe | undefined): Promise<TransientLabService> {
  return TransientLabService.create({
    host: 'browser',
    files: await RootsFileAccess.create([root]),
    createRunner: () => new NodeRunnerHost(),
    ...(devices ? { devices } : {}),
  });
}

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ContractFailure) return err.error.kind;
    if (err instanceof TlabError) return err.kind;
    throw err;
  }
}

describe('devices', () => {
  it('probes once for every window and call, and answers the reason when there is no device', async () => {
    let probes = 0;
    const service = await serviceWith(async () => {
      probes++;
      await new Promise((r) => setTimeout(r, 20));
      return NONE;
    });
    const a = service.openSession({ emit() {} });
    const b = service.openSession({ emit() {} });
    const answers = await Promise.all([a.devices(), b.devices(), a.devices()]);
    expect(await b.devices()).toEqual(answers[0]);
    expect(probes).toBe(1);
    expect(answers[0]).toEqual({
      devices: [],
      reason: 'no NVIDIA driver is installed',
      runtime: 'CUDA runtime 13.0 (libcudart.so), driver none',
    });
    // One window's copy is its own.
    answers[0].devices.push(ONE.devices[0]!);
    expect((await b.devices()).devices).toEqual([]);
    await service.dispose();
  });

  it('lists the devices with no reason when there is one', async () => {
    const service = await serviceWith(async () => ONE);
    const s = service.openSession({ emit() {} });
    expect(await s.devices()).toEqual({ devices: ONE.devices, reason: null, runtime: 'CUDA runtime 13.0 (libcudart.so), driver 13.0' });
    await service.dispose();
  });

  it('does not keep a failed probe: the next call tries again', async () => {
    let probes = 0;
    const service = await serviceWith(async () => {
      if (++probes === 1) throw new TlabError('run', 'the CUDA device probe did not answer within 30 s (a hung CUDA driver?)');
      return ONE;
    });
    const s = service.openSession({ emit() {} });
    expect(await kindOf(s.devices())).toBe('run');
    expect((await s.devices()).devices).toHaveLength(1);
    expect(await kindOf(s.devices())).toBe('ok');
    expect(probes).toBe(2);
    await service.dispose();
  });

  it('a host without a probe says it cannot look', async () => {
    const service = await serviceWith(undefined);
    const s = service.openSession({ emit() {} });
    await expect(s.devices()).rejects.toThrow('this host does not look for CUDA devices');
    expect(await kindOf(s.devices())).toBe('unsupported');
    await service.dispose();
  });
});
