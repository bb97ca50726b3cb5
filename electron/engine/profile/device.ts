/**
 * CUDA devices as the runner child's addon reports them (native/index.d.ts `CudaReport`, plain JSON), and the
 * one refusal every host gives when a GPU program meets a machine without a device. The engine never loads the
 * addon: hosts pass a probe (`ProfileOptions.devices`, electron/runner/devices.ts).
 */
import { TlabError } from '../errors.js';
import type { ProfileDevice } from './result.js';

export interface DeviceInfo {
  index: number;
  name: string;
  totalMemoryBytes: number;
  /** `major.minor`. */
  computeCapability: string;
  multiprocessors: number;
  /** Supports cudaMallocAsync (the POOL mode's stream-ordered pool). */
  memoryPools: boolean;
}

export interface DeviceReport {
  runtimeLibrary: string | null;
  /** 1000·major + 10·minor; 0 when unknown. */
  runtimeVersion: number;
  driverVersion: number;
  devices: DeviceInfo[];
  /** Why no device is listed; null when one is. */
  reason: string | null;
  attempts: string[];
}

export type DeviceProbe = () => Promise<DeviceReport>;

/** `13.0` from 13000. */
function cudaVersionText(v: number): string {
  return v ? `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}` : 'none';
}

/** One line per device, or the reason there is none (the CLI's `devices` output and error details). */
export function describeDevices(r: DeviceReport): string[] {
  const head = `CUDA runtime ${cudaVersionText(r.runtimeVersion)}${r.runtimeLibrary ? ` (${r.runtimeLibrary})` : ''}, driver ${cudaVersionText(r.driverVersion)}`;
  if (!r.devices.length) return [head, `no CUDA device: ${r.reason ?? 'none found'}`];
  return [
    head,
    ...r.devices.map(
      (d) =>
        `device ${d.index}: ${d.name}, ${(d.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB, compute capability ${d.computeCapability}, ${d.multiprocessors} SMs${d.memoryPools ? '' : ', no memory pools'}`,
    ),
  ];
}

/** Exit code 4 ('unsupported'): the program needs a GPU this machine does not have. */
export function noDeviceError(r: DeviceReport, file: string | null): TlabError {
  return new TlabError('unsupported', `this is a GPU program and this machine has no CUDA device: ${r.reason ?? 'none found'}`, {
    file,
    details: [
      ...describeDevices(r).slice(0, 1),
      'build it here without running (transient-lab build FILE --out DIR), then profile the folder on a GPU node (profile --prebuilt DIR), or run it there (profile FILE --remote HOST)',
      'or emulate the device on this CPU: profile FILE --gpu host (verifies every mode; its times are host times of an emulation, not device times)',
    ],
  });
}

/** Throws noDeviceError unless the report lists a device. */
export function requireDevice(r: DeviceReport, file: string | null): DeviceInfo {
  const d = r.devices[0];
  if (!d) throw noDeviceError(r, file);
  return d;
}

/** The device a GPU run uses (device 0: the generated init calls cudaSetDevice(0)), as the result records it. */
export function profileDevice(r: DeviceReport, d: DeviceInfo): ProfileDevice {
  return {
    index: d.index,
    name: d.name,
    totalMemoryBytes: d.totalMemoryBytes,
    computeCapability: d.computeCapability,
    multiprocessors: d.multiprocessors,
    memoryPools: d.memoryPools,
    runtimeVersion: r.runtimeVersion,
    driverVersion: r.driverVersion,
  };
}
