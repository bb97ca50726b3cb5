/**
 * Profile runs from the window: one at a time, with progress from the host's `profileProgress` events, cancel,
 * and the result landing in the Profile tab (and the comparison).
 */
import type { ProfileProgressEvent } from '../../../electron/ipc/contract.js';
import { asContractError, growDock, toast } from './actions.js';
import { decideGpu } from './profile/gpu-choice.js';
import { rememberRun } from './profile/last-results.js';
import { store, type ProfileSettings } from './state.js';

export const STAGES: ReadonlyArray<{ stage: ProfileProgressEvent['stage']; title: string; weight: number }> = [
  { stage: 'parse', title: 'Parse', weight: 0.02 },
  { stage: 'analyse', title: 'Analyse', weight: 0.03 },
  { stage: 'generate', title: 'Generate', weight: 0.05 },
  { stage: 'build', title: 'Build', weight: 0.3 },
  { stage: 'verify', title: 'Verify', weight: 0.15 },
  { stage: 'calls', title: 'Timed calls', weight: 0.43 },
  { stage: 'compare', title: 'Compare', weight: 0.02 },
];

/** Overall progress 0…1 and the stage now running, from the events seen so far. */
export function progressOf(events: readonly ProfileProgressEvent[]): {
  fraction: number;
  stage: number;
  last: ProfileProgressEvent | null;
} {
  const last = events.length ? events[events.length - 1]! : null;
  if (!last) return { fraction: 0, stage: -1, last };
  const stage = Math.max(
    0,
    STAGES.findIndex((s) => s.stage === last.stage),
  );
  let fraction = STAGES.slice(0, stage).reduce((s, x) => s + x.weight, 0);
  const within = last.total && last.total > 0 && last.done !== undefined ? Math.min(1, last.done / last.total) : 0;
  fraction += STAGES[stage]!.weight * within;
  return { fraction: Math.min(1, fraction), stage, last };
}

export function updateProfileSettings(patch: Partial<ProfileSettings>): void {
  store.set((s) => ({ profileSettings: { ...s.profileSettings, ...patch } }));
}

/** Asks the host once for its CUDA devices (the host probes once too); the form of a GPU program calls it. */
export async function askDevices(): Promise<void> {
  const { client, devices } = store.get();
  if (!client || devices.status !== 'unasked') return;
  store.set({ devices: { status: 'pending' } });
  try {
    store.set({ devices: { status: 'known', info: await client.devices({}) } });
  } catch (err) {
    store.set({ devices: { status: 'unknown', message: asContractError(err).message } });
  }
}

let jobSeq = 0;

export async function startProfile(): Promise<void> {
  const s = store.get();
  if (!s.doc || !s.client) return;
  if (s.run && (s.run.status === 'running' || s.run.status === 'cancelling')) return;
  const p = s.profileSettings;
  if (!p.modes.length) {
    toast('warn', 'Choose at least one mode to profile');
    return;
  }
  const job = `run${Date.now().toString(36)}${++jobSeq}`;
  const doc = s.doc;
  const gpuProgram = (s.analysis?.analysis.target ?? s.doc.target) === 'gpu';
  const remote = p.remote !== null && s.env?.remoteHosts?.includes(p.remote) ? p.remote : null;
  const gpu = decideGpu(p.gpu, s.devices, remote, s.env?.host);
  if (gpuProgram && gpu.gpu === null) {
    toast('warn', gpu.waiting ?? 'Choose where the GPU program runs');
    return;
  }
  store.set({ run: { job, doc: doc.doc, startedAt: performance.now(), events: [], status: 'running', error: null }, dockTab: 'profile' });
  try {
    const result = await s.client.profile({
      doc: doc.doc,
      job,
      modes: [...p.modes],
      layout: p.layout,
      calls: p.calls,
      warmup: p.warmup,
      processes: p.processes,
      symbols: s.symbols,
      defaultSymbol: s.defaultSymbol,
      seed: p.seed,
      inputs: p.inputs,
      timeoutS: p.timeoutS,
      // Only a host the server listed; a stale choice (another server) falls back to running here.
      ...(remote ? { remote } : {}),
      ...(p.libraryImpl === 'blas' ? { libraryImpl: 'blas' } : {}),
      // GPU programs only (the engine refuses both for CPU programs); never the device on a machine without one.
      ...(gpuProgram && gpu.gpu ? { poolReleaseThreshold: p.poolReleaseThreshold.trim() || 'max', gpu: gpu.gpu } : {}),
    });
    const stamp = new Date().toISOString().slice(11, 19);
    const resultDoc = { name: `${result.program.name} · run ${stamp}`, path: null, result };
    store.set((st) => ({
      run: st.run?.job === job ? { ...st.run, status: 'done' } : st.run,
      result: resultDoc,
      compare: [...st.compare, resultDoc],
    }));
    growDock();
    // Kept for when this file is opened again (profile/shelf.ts); a failure to keep it never fails the run.
    void rememberRun(doc, resultDoc).catch((e: unknown) =>
      toast('warn', `This result could not be kept for later: ${asContractError(e).message}`),
    );
  } catch (err) {
    const e = asContractError(err);
    store.set((st) =>
      st.run?.job === job ? { run: { ...st.run, status: e.kind === 'cancelled' ? 'cancelled' : 'failed', error: e } } : {},
    );
  }
}

export async function cancelProfile(): Promise<void> {
  const { run, client } = store.get();
  if (!run || !client || run.status !== 'running') return;
  store.set({ run: { ...run, status: 'cancelling' } });
  try {
    await client.cancel({ job: run.job });
  } catch (err) {
    toast('error', `Cancel failed: ${asContractError(err).message}`);
  }
}
