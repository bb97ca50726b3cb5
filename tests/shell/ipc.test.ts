/**
 * The contract handlers of the main process (electron/shell/ipc.ts + windows.ts) with a recording backend:
 * a call is answered only for the top frame of one of our windows showing our app:// page, and only after its
 * payload passed the contract's schema; a drop message is checked the same way. A window's session is the
 * page's: a reload or a close disposes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../electron/ipc/contract-schema.js';
import { IPC_CHANNELS, METHODS, type EventSink, type Reply, type TransientLabApi } from '../../electron/ipc/contract.js';
import type { BackendSession, SessionBackend } from '../../electron/shell/backend.js';
import { droppedPaths, installContractHandlers, MAX_DROPPED } from '../../electron/shell/ipc.js';
import { WindowStateStore } from '../../electron/shell/window-state.js';
import { Windows, type ShellWindow } from '../../electron/shell/windows.js';
import { fakeElectron, FakeFrame, FakeWebContents, type FakeElectron, type FakeWindow } from './fake-electron.js';

/** Sessions that answer every call with what they were asked, and remember being disposed. */
class RecordingBackend implements SessionBackend {
  readonly calls: Array<{ session: number; method: string; req: unknown }> = [];
  readonly disposed: number[] = [];
  readonly sinks: EventSink[] = [];

  openSession(sink: EventSink): BackendSession {
    const id = this.sinks.push(sink);
    const methods = Object.fromEntries(
      METHODS.map((m) => [
        m,
        async (req: unknown) => {
          this.calls.push({ session: id, method: m, req });
          return { echo: m };
        },
      ]),
    );
    return { ...(methods as unknown as TransientLabApi), dispose: async () => void this.disposed.push(id) };
  }
}

let dir: string;
let electron: FakeElectron;
let backend: RecordingBackend;
let windows: Windows;
let win: ShellWindow;
let contents: FakeWebContents;
const drops: Array<{ window: ShellWindow; paths: string[] }> = [];
const log: string[] = [];

const call = (event: unknown, method: unknown, req: unknown) =>
  electron.ipcMain.invoke(event, IPC_CHANNELS.call, method, req) as Promise<Reply<unknown>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-ipc-handlers-'));
  electron = fakeElectron(dir);
  backend = new RecordingBackend();
  windows = new Windows({
    electron: electron.seam,
    backend,
    limits: DEFAULT_LIMITS,
    preload: '/p.cjs',
    devTools: false,
    icon: null,
    state: await WindowStateStore.load(dir, () => {}),
    log: (l) => log.push(l),
  });
  installContractHandlers({
    ipcMain: electron.seam.ipcMain,
    windows,
    onDrop: (window, paths) => drops.push({ window, paths }),
    log: (l) => log.push(l),
  });
  win = windows.open();
  contents = (win.win as unknown as FakeWindow).webContents;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('contract handlers', () => {
  it("answer our window's page", async () => {
    expect(await call(contents.ipcEvent(), 'environment', {})).toEqual({ ok: true, value: { echo: 'environment' } });
    expect(backend.calls.at(-1)).toMatchObject({ method: 'environment', req: {} });
  });

  it('refuse an unknown sender: another web contents, a subframe, another origin, a frame that is gone', async () => {
    const before = backend.calls.length;
    const stranger = new FakeWebContents();
    stranger.mainFrame.url = 'app://transient-lab/index.html';
    const foreign = new FakeWebContents();
    const evil = new FakeFrame('https://evil.example/', contents.mainFrame.processId, contents.mainFrame.routingId);
    const senders = [
      stranger.ipcEvent(),
      contents.ipcEvent(contents.subframe('app://transient-lab/index.html')),
      contents.ipcEvent(evil),
      contents.ipcEvent(new FakeFrame('file:///index.html', contents.mainFrame.processId, contents.mainFrame.routingId)),
      contents.ipcEvent(new FakeFrame('app://transient-lab.evil/index.html', contents.mainFrame.processId, contents.mainFrame.routingId)),
      contents.ipcEvent(new FakeFrame('app://transient-lab/index.html', contents.mainFrame.processId, 7)),
      contents.ipcEvent(null),
      foreign.ipcEvent(),
    ];
    for (const event of senders) {
      const reply = await call(event, 'openFile', { path: '/etc/passwd' });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'refused' } });
    }
    expect(backend.calls.length).toBe(before);
    expect(log.filter((l) => /refused a call/.test(l)).length).toBe(senders.length);
  });

  it('refuse a malformed payload before the service sees it, naming the field', async () => {
    const before = backend.calls.length;
    const cases: Array<[unknown, unknown, string, string]> = [
      ['openFile', { path: 7 }, 'usage', '$.path'],
      ['openFile', { path: '/a', extra: 1 }, 'usage', '$.extra'],
      ['openFile', 'not an object', 'usage', '$'],
      ['analyze', { doc: 'd1', symbols: { N: 'x' }, defaultSymbol: null, target: null }, 'usage', '$.symbols.N'],
      ['openUpload', { name: 'a.sdfg', bytes: [1, 2, 3] }, 'usage', '$.bytes'],
      ['saveResult', { path: 'r.json', result: { schema: 'nope' } }, 'usage', '$.result.schema'],
    ];
    for (const [method, req, kind, jsonPath] of cases) {
      const reply = await call(contents.ipcEvent(), method, req);
      expect(reply, JSON.stringify(req)).toMatchObject({ ok: false, error: { kind, jsonPath } });
    }
    for (const method of ['constructor', '__proto__', 'toString', 'dispose', 42, null]) {
      expect(await call(contents.ipcEvent(), method, {})).toMatchObject({ ok: false, error: { kind: 'refused' } });
    }
    expect(backend.calls.length).toBe(before);
  });

  it("send host events to the window's page only", async () => {
    await call(contents.ipcEvent(), 'environment', {});
    const sink = backend.sinks.at(-1)!;
    sink.emit('openRequest', { path: '/a.sdfg' });
    expect(contents.sent.at(-1)).toEqual({ channel: IPC_CHANNELS.event, args: ['openRequest', { path: '/a.sdfg' }] });
  });

  it('give each page its own session: a reload disposes it, the next call opens a new one, closing disposes it', async () => {
    await call(contents.ipcEvent(), 'environment', {});
    const first = backend.calls.at(-1)!.session;
    await (win.win as unknown as FakeWindow).loadURL('app://transient-lab/index.html');
    expect(backend.disposed).toContain(first);
    await call(contents.ipcEvent(), 'environment', {});
    const second = backend.calls.at(-1)!.session;
    expect(second).not.toBe(first);
    const other = windows.open();
    await call((other.win as unknown as FakeWindow).webContents.ipcEvent(), 'environment', {});
    const third = backend.calls.at(-1)!.session;
    expect(third).not.toBe(second);
    (other.win as unknown as FakeWindow).close();
    expect(backend.disposed).toContain(third);
    expect(windows.byWebContents((other.win as unknown as FakeWindow).webContents.id)).toBeNull();
    // The closed window's contents are unknown now: refused.
    expect(await call((other.win as unknown as FakeWindow).webContents.ipcEvent(), 'environment', {})).toMatchObject({
      ok: false,
      error: { kind: 'refused' },
    });
  });
});

describe('drop messages', () => {
  it('are taken from our page only, as a short list of absolute paths', () => {
    electron.ipcMain.send(contents.ipcEvent(), IPC_CHANNELS.drop, ['/data/a.sdfg', '/data/r.json']);
    expect(drops.at(-1)).toMatchObject({ window: win, paths: ['/data/a.sdfg', '/data/r.json'] });
    const n = drops.length;
    electron.ipcMain.send(contents.ipcEvent(contents.subframe('app://transient-lab/')), IPC_CHANNELS.drop, ['/data/a.sdfg']);
    electron.ipcMain.send(new FakeWebContents().ipcEvent(), IPC_CHANNELS.drop, ['/data/a.sdfg']);
    for (const bad of [
      [],
      'x',
      ['relative.sdfg'],
      ['/a\0b.sdfg'],
      [7],
      Array.from({ length: MAX_DROPPED + 1 }, (_, i) => `/f${i}.sdfg`),
      ['/' + 'x'.repeat(5000)],
    ]) {
      electron.ipcMain.send(contents.ipcEvent(), IPC_CHANNELS.drop, bad);
    }
    expect(drops.length).toBe(n);
    expect(droppedPaths(['/a.sdfg'])).toEqual(['/a.sdfg']);
  });
});
