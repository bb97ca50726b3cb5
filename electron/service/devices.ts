/**
 * `devices`: the CUDA devices of the machine profiles run on. The host injects the probe (a child that loads the
 * addon: the service starts no process of its own); it is slow-ish (≈1 s: a Node child and dlopen()ing the CUDA
 * runtime), so it runs once per service, on the first call, and every window after that gets the kept answer.
 */
import { describeDevices, type DeviceProbe, type DeviceReport } from '../engine/profile/device.js';
import type { MachineDevices } from '../ipc/contract.js';
import { ContractFailure } from '../ipc/errors.js';

function machineDevices(r: DeviceReport): MachineDevices {
  return {
    devices: r.devices.map((d) => ({ ...d })),
    reason: r.devices.length ? null : (r.reason ?? 'none found'),
    runtime: describeDevices(r)[0] ?? '',
  };
}

export class DeviceCache {
  private answer: Promise<MachineDevices> | null = null;

  constructor(private readonly probe: DeviceProbe | null) {}

  get(): Promise<MachineDevices> {
    if (!this.probe) return Promise.reject(new ContractFailure('unsupported', 'this host does not look for CUDA devices'));
    if (!this.answer) {
      const answer = this.probe().then(machineDevices);
      this.answer = answer;
      // A failed probe (a timeout on a loaded machine, a probe not built yet) is not kept: the next call tries again.
      answer.catch(() => {
        if (this.answer === answer) this.answer = null;
      });
    }
    // Each caller gets its own copy: an in-process client must not change what the next window is told.
    return this.answer.then((a) => structuredClone(a));
  }
}
