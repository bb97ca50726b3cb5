/**
 * `--gpu auto|device|host`: where a GPU program's modes run (docs/gpu-host.md). `auto` (the default) takes the
 * CUDA device when the probe lists one and otherwise refuses as before (noDeviceError, which names `--gpu host`);
 * `device` insists on one; `host` compiles the same CUDA translation unit with the C++ compiler against the
 * host CUDA runtime (native/include/transient_cuda_host_runtime.h) and runs it on this CPU. Times of a host run
 * are host times of an emulation: the result says so (`backend: 'cuda-host'`) and nothing compares them with
 * device times.
 */
import { TlabError } from '../errors.js';
import { profileDevice, requireDevice, type DeviceProbe } from './device.js';
import type { ProfileDevice } from './result.js';

export type GpuChoice = 'auto' | 'device' | 'host';
/** compile/build.ts's `GpuBackend`, spelled here so the renderer's imports of this file stay free of node. */
type GpuBackend = 'device' | 'host';
const GPU_CHOICES: readonly GpuChoice[] = ['auto', 'device', 'host'];

/** The device record of a host-emulated run: not a GPU, and named so wherever the device is shown. */
function hostEmulationDevice(): ProfileDevice {
  return {
    index: 0,
    name: 'host CPU emulation (cuda-host): times are not device times',
    totalMemoryBytes: 0,
    computeCapability: 'none',
    multiprocessors: 0,
    memoryPools: true,
    runtimeVersion: 0,
    driverVersion: 0,
  };
}

export function parseGpuChoice(text: string, what: string): GpuChoice {
  const t = text.trim();
  if ((GPU_CHOICES as readonly string[]).includes(t)) return t as GpuChoice;
  throw new TlabError('usage', `${what}: --gpu expects auto, device or host, got '${text}'`);
}

/**
 * Decides the backend of a GPU program before anything is built: the device for `auto`/`device` (refused
 * without one, exit 4), the host emulation for `host`. Without a probe (`build`-like callers) `auto` means the
 * device and nothing is checked.
 */
export async function resolveGpuBackend(
  choice: GpuChoice,
  devices: DeviceProbe | undefined,
  file: string,
): Promise<{ backend: GpuBackend; device?: ProfileDevice }> {
  if (choice === 'host') return { backend: 'host', device: hostEmulationDevice() };
  if (!devices) return { backend: 'device' };
  const report = await devices();
  return { backend: 'device', device: profileDevice(report, requireDevice(report, file)) };
}
