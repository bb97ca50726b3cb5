/**
 * Words for profile@1's GPU additions (docs/profile-schema.md): the device a run used and the stream-ordered
 * pool's attributes. Pure: the renderer, the reports and the CLI share them.
 */
import type { ProfileDevice, ProfileResult } from '../profile/result.js';
import { formatBytes } from './format.js';

/** CUDA's 1000·major + 10·minor as "12.4". */
export function formatCudaVersion(v: number): string {
  if (!Number.isFinite(v) || v <= 0) return 'unknown';
  return `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;
}

/** "NVIDIA H100 80GB HBM3 · 79.2 GiB · compute capability 9.0 · 132 SMs". */
export function deviceSummary(d: ProfileDevice): string {
  return `${d.name} · ${formatBytes(d.totalMemoryBytes)} · compute capability ${d.computeCapability} · ${d.multiprocessors} SMs${d.memoryPools ? '' : ' · no memory pools'}`;
}

/** A GPU result emulated on the host CPU (`--gpu host`, backend cuda-host): its times are host times. */
export const isEmulatedResult = (r: Pick<ProfileResult, 'backend'>): boolean => r.backend === 'cuda-host';

/** What an emulated result ran on, wherever a device would be named. */
export const EMULATED_DEVICE =
  'host CPU emulation (--gpu host): the CUDA code ran on this CPU; times are emulated host times, not device times';

/** "driver 13.0 · runtime 12.8". */
export function deviceVersions(d: ProfileDevice): string {
  return `driver ${formatCudaVersion(d.driverVersion)} · runtime ${formatCudaVersion(d.runtimeVersion)}`;
}

const UINT64_MAX = '18446744073709551615';

/** The pool's release threshold as a person reads it: UINT64_MAX keeps everything, 0 releases at every sync. */
export function formatReleaseThreshold(t: string): string {
  if (t === UINT64_MAX) return 'UINT64_MAX (keeps all memory)';
  if (t === '0') return '0 (releases at every synchronisation)';
  const n = Number(t);
  return Number.isFinite(n) ? formatBytes(n) : t;
}
