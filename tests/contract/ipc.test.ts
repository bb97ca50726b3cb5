/**
 * The shared contract suite over the desktop app's IPC: the renderer's bridge client (renderer/src/host/
 * bridge.ts) on the real preload code (electron/preload/bridge.ts) over a fake ipcRenderer/ipcMain pair that
 * carries structured clones as Electron does, into the real main-process handlers (electron/shell/ipc.ts:
 * sender check, then the window's dispatcher). Run twice:
 * - with the main handlers over the suite's service in this process, as tests/contract/websocket.test.ts runs
 *   the WebSocket server over it;
 * - through the whole desktop process model: main handlers → the engine host process (electron/engine-host,
 *   configured like the suite's service) → runner jobs relayed back to main's utilityProcess runner host.
 * Both processes are forked by the fake utilityProcess with Electron's parentPort (tests/shell/fake-electron.ts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineToMain, MainToEngine } from '../../electron/host-kit/engine-protocol.js';
import type { BridgeApi } from '../../electron/ipc/contract.js';
import { createBridge, type IpcRendererLike } from '../../electron/preload/bridge.js';
import { fromUtilityProcess } from '../../electron/runner/child.js';
import { probeDevicesInUtility } from '../../electron/runner/devices.js';
import { UtilityProcessRunnerHost } from '../../electron/runner/host-electron.js';
import type { TransientLabService } from '../../electron/service/index.js';
import type { SessionBackend } from '../../electron/shell/backend.js';
import { GoneRegistry } from '../../electron/shell/child-gone.js';
import { EngineClient } from '../../electron/shell/engine-client.js';
import { installContractHandlers } from '../../electron/shell/ipc.js';
import { shellPaths } from '../../electron/shell/paths.js';
import { WindowStateStore } from '../../electron/shell/window-state.js';
import { Windows } from '../../electron/shell/windows.js';
import { clientFromBridge } from '../../renderer/src/host/bridge.js';
import { fakeElectron, type FakeElectron, type FakeWebContents } from '../shell/fake-electron.js';
import { corpusDir } from '../../electron/engine/paths.js';
import { PART_CHARS } from '../../electron/ipc/wire.js';
import { makeScratch, makeService } from './fixtures.js';
import { contractSuite, type Connected } from './suite.js';

/** A window of the shell over `backend`, and the page's side of it: the real preload on a fake ipcRenderer. */
async function openWindow(
  electron: FakeElectron,
  backend: SessionBackend,
  service: TransientLabService,
  userData: string,
  answers?: unknown[],
): Promise<{ bridge: BridgeApi; close(): void }> {
  const windows = new Windows({
    electron: electron.seam,
    backend,
    limits: service.limits,
    preload: '/preload.cjs',
    devTools: false,
    icon: null,
    state: await WindowStateStore.load(userData, () => {}),
    log: () => {},
  });
  installContractHandlers({ ipcMain: electron.seam.ipcMain, windows, onDrop: () => {}, log: () => {} });
  const w = windows.open();
  const contents = w.win.webContents as unknown as FakeWebContents;
  const listeners: Array<{ channel: string; listener: (event: unknown, ...args: unknown[]) => void }> = [];
  contents.onSend = (channel, args) => {
    for (const l of listeners) if (l.channel === channel) l.listener({}, ...structuredClone(args));
  };
  const ipcRenderer: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      const answer = await electron.ipcMain.invoke(contents.ipcEvent(), channel, ...args);
      answers?.push(answer);
      return answer;
    },
    send: (channel, ...args) => electron.ipcMain.send(contents.ipcEvent(), channel, ...args),
    on: (channel, listener) => listeners.push({ channel, listener }),
  };
  return { bridge: createBridge(ipcRenderer), close: () => (w.win as unknown as { close(): void }).close() };
}

contractSuite({
  name: 'IPC (preload + main handlers)',
  async connect(service): Promise<Connected> {
    const userData = await mkdtemp(join(tmpdir(), 'tlab-ipc-'));
    const electron = fakeElectron(userData);
    const page = await openWindow(electron, service, service, userData);
    return {
      client: clientFromBridge(page.bridge),
      async close() {
        page.close();
        await rm(userData, { recursive: true, force: true });
      },
    };
  },
});

contractSuite({
  name: 'IPC through the engine host and runner utility processes',
  async connect(service, remote): Promise<Connected> {
    const userData = await mkdtemp(join(tmpdir(), 'tlab-ipc-engine-'));
    const electron = fakeElectron(userData);
    const gone = new GoneRegistry(electron.seam.app);
    // The engine host gets the suite service's configuration (its roots, its start files).
    const probe = service.openSession({ emit() {} });
    const env = await probe.environment();
    await probe.dispose();
    const fork = electron.seam.utilityProcess.fork;
    const engine = new EngineClient({
      spawn: () => {
        const serviceName = `engine-${Date.now()}`;
        const child = fork(shellPaths().engineEntry, [], { serviceName, stdio: 'pipe', execArgv: [] });
        return fromUtilityProcess<MainToEngine, EngineToMain>(child, () => gone.wait(serviceName));
      },
      config: {
        host: env.host,
        files: { kind: 'roots', roots: env.roots },
        openAtStart: env.openAtStart,
        limits: env.limits,
        previewMinJsonBytes: 0,
        remote: { hosts: env.remoteHosts, sshOptions: remote.sshOptions, remoteCommand: remote.remoteCommand },
      },
      createRunner: () => new UtilityProcessRunnerHost({ fork, goneDetails: gone.wait }),
      probeDevices: () => probeDevicesInUtility(fork),
      log: () => {},
    });
    const page = await openWindow(electron, engine, service, userData);
    return {
      client: clientFromBridge(page.bridge),
      async close() {
        page.close();
        await engine.dispose();
        await rm(userData, { recursive: true, force: true });
      },
    };
  },
});

describe('IPC: big replies', () => {
  it('a big reply crosses as pages of JSON text, and the bridge client puts it back whole', async () => {
    const scratch = await makeScratch();
    const service = await makeService(scratch);
    const userData = await mkdtemp(join(tmpdir(), 'tlab-ipc-paged-'));
    const answers: unknown[] = [];
    const page = await openWindow(fakeElectron(userData), service, service, userData, answers);
    try {
      const client = clientFromBridge(page.bridge);
      const bytes = new Uint8Array(await readFile(join(corpusDir(), 'ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz')));
      const doc = await client.openUpload({ name: 'stage8.sdfgz', bytes });
      const view = await client.analyze({ doc: doc.doc, symbols: {}, defaultSymbol: null, target: null });
      const raw = answers.at(-1) as { paged?: unknown };
      expect(Array.isArray(raw.paged)).toBe(true);
      const frames = raw.paged as string[];
      expect(frames.length).toBeGreaterThan(2);
      expect(frames.every((f) => typeof f === 'string' && f.length < PART_CHARS + 100)).toBe(true);
      // Small answers are plain Reply envelopes, as before.
      expect(answers[0]).toMatchObject({ ok: true });
      // What came back is what the service computed.
      const direct = service.openSession({ emit() {} });
      const d2 = await direct.openUpload({ name: 'stage8.sdfgz', bytes });
      expect(view).toEqual(await direct.analyze({ doc: d2.doc, symbols: {}, defaultSymbol: null, target: null }));
      await direct.dispose();
    } finally {
      page.close();
      await service.dispose();
      await scratch.remove();
      await rm(userData, { recursive: true, force: true });
    }
  }, 120_000);
});
