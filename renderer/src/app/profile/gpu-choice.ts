/**
 * Where a GPU program's modes run, decided from the user's choice and the host machine's CUDA devices (the
 * contract's `devices`), so that the form never steers a run into one that must fail: without a device the run
 * is host emulation and "device" is offered disabled with the probe's reason; a choice of "device" the user made
 * before the probe answered falls back to the emulation with a note. A remote run is not this machine's business:
 * its host has its own devices. Pure: the form and startProfile read the same decision.
 */
import { formatBytes } from '../../../../electron/engine/view/public.js';
import type { DevicesState, ProfileSettings } from '../state.js';

export interface GpuDecision {
  /** What the request carries; null: not decided yet (the probe is running and nothing was chosen). */
  gpu: 'auto' | 'host' | null;
  /** Why "device" cannot be chosen (shown beside it), or null. */
  deviceDisabled: string | null;
  /** A choice the machine overrode, said where the user sees it; null when none. */
  note: string | null;
  /** What "device" means here, said while it is chosen: "Runs on NVIDIA H100 (…)". */
  deviceHint: string | null;
  /** The host could not say whether it has a device (said whatever is chosen), or null. */
  unknown: string | null;
  /** Why Run waits (the probe is running), or null. */
  waiting: string | null;
}

/** "this machine" in the desktop app; in browser mode the profile runs on the server. */
function machineWord(host: 'browser' | 'electron' | undefined): string {
  return host === 'browser' ? 'the server' : 'this machine';
}

export function decideGpu(
  chosen: ProfileSettings['gpu'],
  devices: DevicesState,
  remote: string | null,
  host: 'browser' | 'electron' | undefined,
): GpuDecision {
  const none = { deviceDisabled: null, note: null, deviceHint: null, unknown: null, waiting: null };
  if (remote) return { ...none, gpu: chosen ?? 'auto', deviceHint: `Runs on the CUDA device of ${remote}.` };
  const where = machineWord(host);
  switch (devices.status) {
    case 'unasked':
    case 'pending':
      // The emulation needs no device: a run the user chose as host emulation does not wait for the probe.
      return chosen === 'host' ? { ...none, gpu: 'host' } : { ...none, gpu: null, waiting: `Checking ${where} for a CUDA device…` };
    case 'unknown':
      return { ...none, gpu: chosen ?? 'auto', unknown: `Could not check ${where} for a CUDA device: ${devices.message}.` };
    case 'known': {
      const d = devices.info.devices[0];
      if (d)
        return {
          ...none,
          gpu: chosen ?? 'auto',
          deviceHint: `Runs on ${d.name} (${formatBytes(d.totalMemoryBytes)}, compute capability ${d.computeCapability})${
            devices.info.devices.length > 1 ? `, device 0 of ${devices.info.devices.length}` : ''
          }.`,
        };
      const reason = devices.info.reason ?? 'none found';
      return {
        ...none,
        gpu: 'host',
        deviceDisabled: `No CUDA device on ${where} (${reason}).`,
        note: chosen === 'auto' ? `"device" was chosen, but ${where} has no CUDA device: the run uses host emulation instead.` : null,
      };
    }
  }
}
