// @vitest-environment jsdom
/**
 * A GPU program's profile form knows whether the host machine has a CUDA device (the contract's `devices`): without
 * one it runs host emulation, offers "device" disabled with the probe's reason and never sends the device; with one
 * it names it; while the probe runs, Run waits and says why. Also the mode table of a GPU result: each clock's
 * median, p10 and p90 under its own header. The client here answers `devices` and records `profile` requests (a
 * host stand-in); the contract suite checks the real probe, tests/e2e/gpu-host.test.ts the window in Chromium.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocInfo } from '../../electron/engine/view/public.js';
import type { MachineDevices, ProfileRequest, TransientLabClient } from '../../electron/ipc/contract.js';
import { ModeTable } from '../../renderer/src/app/profile/ModeTable.js';
import { ProfileForm } from '../../renderer/src/app/profile/ProfileForm.js';
import { startProfile, updateProfileSettings } from '../../renderer/src/app/profile-actions.js';
import { initialState, store } from '../../renderer/src/app/state.js';
import { formatNs, profileVerdict, quantile } from '../../electron/engine/view/public.js';
import { syntheticGpuFixture } from '../fixtures/synthetic-gpu.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NO_DEVICE: MachineDevices = {
  devices: [],
  reason: 'no NVIDIA driver is installed (cudaGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version)',
  runtime: 'CUDA runtime 13.0 (libcudart.so), driver none',
};
const ONE_DEVICE: MachineDevices = {
  devices: [
    {
      index: 0,
      name: 'NVIDIA H100 80GB HBM3',
      totalMemoryBytes: 85_045_346_304,
      computeCapability: '9.0',
      multiprocessors: 132,
      memoryPools: true,
    },
  ],
  reason: null,
  runtime: 'CUDA runtime 13.0 (libcudart.so), driver 13.0',
};

/** A host that answers `devices` when the test releases it and records every profile request (refusing it). */
function host(answer: MachineDevices | Error) {
  const sent: ProfileRequest[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let probes = 0;
  const client = {
    async devices() {
      probes++;
      await gate;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async profile(req: ProfileRequest) {
      sent.push(req);
      throw new Error('not run in this test');
    },
  } as unknown as TransientLabClient;
  return { client, sent, release, probes: () => probes };
}

let el: HTMLDivElement;
let root: Root;

function render(h: ReturnType<typeof host>): void {
  store.set({
    ...initialState(),
    client: h.client,
    doc: { doc: 'd1', name: 'chain_gpu.sdfg', target: 'gpu' } as unknown as DocInfo,
  });
  act(() => root.render(createElement(ProfileForm, { running: false, onRun: () => void startProfile() })));
}

const q = <T extends Element>(testid: string): T | null => el.querySelector<T>(`[data-testid="${testid}"]`);
const settle = async (): Promise<void> => {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
};

beforeEach(() => {
  el = document.createElement('div');
  document.body.appendChild(el);
  root = createRoot(el);
});
afterEach(() => {
  act(() => root.unmount());
  el.remove();
});

describe('the GPU profile form', () => {
  it('without a CUDA device: host emulation by default, "device" disabled with the reason, and the run asks for host', async () => {
    const h = host(NO_DEVICE);
    render(h);
    h.release();
    await settle();
    const device = q<HTMLInputElement>('profile-gpu-auto')!;
    const emulated = q<HTMLInputElement>('profile-gpu-host')!;
    expect(emulated.checked).toBe(true);
    expect(device.checked).toBe(false);
    expect(device.disabled).toBe(true);
    expect(q('profile-gpu-no-device')!.textContent).toBe(`No CUDA device on this machine (${NO_DEVICE.reason}).`);
    expect(device.closest('label')!.title).toContain('No CUDA device on this machine');
    expect(q<HTMLButtonElement>('profile-run')!.disabled).toBe(false);
    await act(() => startProfile());
    expect(h.sent.map((r) => r.gpu)).toEqual(['host']);
    expect(h.probes()).toBe(1);
  });

  it('with a device: "device" by default, its name in the hint, and the run asks for the device', async () => {
    const h = host(ONE_DEVICE);
    render(h);
    h.release();
    await settle();
    expect(q<HTMLInputElement>('profile-gpu-auto')!.checked).toBe(true);
    expect(q<HTMLInputElement>('profile-gpu-auto')!.disabled).toBe(false);
    expect(q('profile-gpu-device')!.textContent).toBe('Runs on NVIDIA H100 80GB HBM3 (79.2 GiB, compute capability 9.0).');
    expect(q('profile-gpu-no-device')).toBeNull();
    await act(() => startProfile());
    expect(h.sent.map((r) => r.gpu)).toEqual(['auto']);
  });

  it('while the probe runs, Run waits and says why; host emulation needs no wait', async () => {
    const h = host(NO_DEVICE);
    render(h);
    const run = q<HTMLButtonElement>('profile-run')!;
    expect(run.disabled).toBe(true);
    expect(run.title).toBe('Checking this machine for a CUDA device…');
    expect(q('profile-run-waiting')!.textContent).toContain('Checking this machine for a CUDA device…');
    // The form is not blocked: the other settings and host emulation are there.
    expect(q<HTMLInputElement>('profile-calls')!.disabled).toBe(false);
    await act(() => startProfile());
    expect(h.sent).toEqual([]);
    act(() => q<HTMLInputElement>('profile-gpu-host')!.click());
    expect(q<HTMLButtonElement>('profile-run')!.disabled).toBe(false);
    h.release();
    await settle();
  });

  it('"device" chosen before the machine answered none: host emulation with a visible note, never the device', async () => {
    const h = host(NO_DEVICE);
    render(h);
    act(() => updateProfileSettings({ gpu: 'auto' }));
    h.release();
    await settle();
    expect(q<HTMLInputElement>('profile-gpu-host')!.checked).toBe(true);
    expect(q('profile-gpu-note')!.textContent).toBe(
      '"device" was chosen, but this machine has no CUDA device: the run uses host emulation instead.',
    );
    await act(() => startProfile());
    expect(h.sent.map((r) => r.gpu)).toEqual(['host']);
  });

  it('a host that cannot say (an older host, a failed probe) keeps both choices and says it could not check', async () => {
    const h = host(new Error("unknown method 'devices'"));
    render(h);
    h.release();
    await settle();
    expect(q<HTMLInputElement>('profile-gpu-auto')!.checked).toBe(true);
    expect(q<HTMLInputElement>('profile-gpu-auto')!.disabled).toBe(false);
    expect(q('profile-gpu-unknown')!.textContent).toContain('Could not check this machine for a CUDA device');
  });
});

describe('the mode table of a GPU result', () => {
  it('groups median, p10 and p90 under the host clock and under the device clock, each from its own calls', () => {
    const result = syntheticGpuFixture();
    act(() => root.render(createElement(ModeTable, { doc: { name: 'r', path: null, result } })));
    const [groups, stats] = [...el.querySelectorAll('thead tr')];
    // The synthetic result's calls are noisy: the verdict, and so the ratio column, compares p10s.
    expect(profileVerdict(result).statistic).toBe('p10');
    expect([...groups!.querySelectorAll('th')].map((t) => [t.textContent, t.colSpan])).toEqual([
      ['mode', 1],
      ['host time / call', 3],
      ['device time / call (CUDA events)', 3],
      ['allocs / call', 1],
      ['alloc+free (host)', 1],
      ['faults / call', 1],
      ['workspace', 1],
      ['vs SCOPED (host, p10)', 1],
    ]);
    expect([...stats!.querySelectorAll('th')].map((t) => t.title)).toEqual([
      'host time / call: median',
      'host time / call: p10',
      'host time / call: p90',
      'device time / call (CUDA events): median',
      'device time / call (CUDA events): p10',
      'device time / call (CUDA events): p90',
    ]);
    for (const [i, m] of result.modes.entries()) {
      const sorted = [...m.gpu!.deviceNs].sort((x, y) => x - y);
      const cells = [...el.querySelectorAll('tbody tr')[i]!.querySelectorAll('td.num')].map((c) => c.textContent);
      expect(cells.slice(0, 3)).toEqual([m.summary.medianNs, m.summary.p10Ns, m.summary.p90Ns].map(formatNs));
      expect(cells.slice(3, 6)).toEqual([m.gpu!.deviceMedianNs, quantile(sorted, 0.1), quantile(sorted, 0.9)].map(formatNs));
    }
  });
});
