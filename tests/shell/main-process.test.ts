/**
 * The whole main process (electron/shell/app.ts `startShell`) over the fake Electron, with the real engine host
 * and paths: the window's security settings, one window per program (command line, Open…, drops), results
 * routed to the window they belong to, the menu, recent files and window state persisted, and quitting.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import { IPC_CHANNELS } from '../../electron/ipc/contract.js';
import { startShell, type Shell } from '../../electron/shell/app.js';
import { shellPaths } from '../../electron/shell/paths.js';
import { eventually } from '../contract/fixtures.js';
import { fakeElectron, type FakeElectron } from './fake-electron.js';

let dir: string;
const shells: Shell[] = [];

async function start(
  files: string[] = [],
  opts: { userData?: string; packaged?: boolean } = {},
): Promise<{ electron: FakeElectron; shell: Shell; userData: string }> {
  const userData = opts.userData ?? (await mkdtemp(join(dir, 'user-')));
  const electron = fakeElectron(userData);
  electron.app.isPackaged = opts.packaged ?? false;
  const argv = opts.packaged ? ['/opt/Transient Lab/transient-lab-desktop', ...files] : ['/x/electron', '/repo', ...files];
  const shell = (await startShell({ electron: electron.seam, paths: shellPaths(), argv, cwd: dir, platform: 'linux', log: () => {} }))!;
  shells.push(shell);
  return { electron, shell, userData };
}

type Item = { label?: string; role?: string; enabled?: boolean; accelerator?: string; submenu?: Item[]; click?: () => void };
function menuItem(electron: FakeElectron, path: string[]): Item {
  let items = electron.menu.current as Item[];
  let found: Item | undefined;
  for (const label of path) {
    found = items.find((i) => (i.label ?? i.role ?? '').replace('&', '') === label);
    if (!found) throw new Error(`no menu item ${path.join(' → ')}`);
    items = found.submenu ?? [];
  }
  return found!;
}

function openParams(url: string): string[] {
  return new URL(url).searchParams.getAll('open');
}

const settle = () => new Promise((r) => setTimeout(r, 50));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-main-'));
  await copyFile(join(examplesDir(), 'chain.sdfg'), join(dir, 'a.sdfg'));
  await copyFile(join(examplesDir(), 'vadv.sdfg'), join(dir, 'b.sdfgz'));
  await writeFile(join(dir, 'run.json'), '{"schema":"transient-lab/profile@1"}');
  await writeFile(join(dir, 'notes.txt'), 'hello');
  // A DaCe build folder as DaCe lays it out (docs/dace-folders.md), and a folder that is none.
  for (const sub of ['build', 'include']) await mkdir(join(dir, '.dacecache', 'chain', sub), { recursive: true });
  await copyFile(join(examplesDir(), 'chain.sdfg'), join(dir, '.dacecache', 'chain', 'program.sdfg'));
  await mkdir(join(dir, 'plain'));
});

afterAll(async () => {
  for (const s of shells) await s.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('main process', () => {
  it('opens a window with the security settings on app://, and installs the protocol, rules and menu', async () => {
    const { electron } = await start();
    const [w] = electron.windows();
    const prefs = w!.options.webPreferences!;
    for (const key of ['contextIsolation', 'sandbox', 'nodeIntegration', 'webSecurity']) expect(Object.hasOwn(prefs, key), key).toBe(true);
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: true,
    });
    expect(prefs.allowRunningInsecureContent).not.toBe(true);
    expect(prefs.experimentalFeatures).not.toBe(true);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs.preload).toBe(shellPaths().preload);
    expect(String(prefs.preload)).toMatch(/\.cjs$/);
    expect(w!.loaded).toEqual(['app://transient-lab/index.html']);
    expect(w!.shown).toBe(false);
    w!.emit('ready-to-show');
    expect(w!.shown).toBe(true);
    expect(electron.protocol.handlers.has('app')).toBe(true);
    expect(electron.session.requestHandler).not.toBeNull();
    expect(w!.webContents.openHandler).not.toBeNull();
    expect(menuItem(electron, ['View', 'Toggle Developer Tools']).role).toBe('toggleDevTools');
  });

  it('packaged: no DevTools, neither in the window nor in the menu', async () => {
    const { electron } = await start([], { packaged: true });
    expect(electron.windows()[0]!.options.webPreferences!.devTools).toBe(false);
    expect(() => menuItem(electron, ['View', 'Toggle Developer Tools'])).toThrow(/no menu item/);
  });

  it('opens one window per program named on the command line; unknown files are reported', async () => {
    const { electron } = await start(['a.sdfg', join(dir, 'b.sdfgz'), 'notes.txt', 'missing.sdfg']);
    const windows = electron.windows();
    expect(windows.map((w) => openParams(w.loaded[0]!))).toEqual([[join(dir, 'a.sdfg')], [join(dir, 'b.sdfgz')]]);
    expect(electron.dialog.messages.map((m) => m.message)).toEqual([
      `Cannot open ${join(dir, 'notes.txt')}`,
      `Cannot open ${join(dir, 'missing.sdfg')}`,
    ]);
    expect(electron.dialog.messages[1]!.detail).toMatch(/does not exist/);
    expect(electron.app.recentDocuments).toEqual([join(dir, 'a.sdfg'), join(dir, 'b.sdfgz')]);
    // The second window cascades from the first.
    expect(windows[1]!.bounds.x).toBe(windows[0]!.bounds.x + 28);
  });

  it('File → Open… fills an empty window, then opens programs in new windows; Open Result… goes to the focused one', async () => {
    const { electron } = await start();
    const [first] = electron.windows();
    first!.focus();
    electron.dialog.openAnswers.push([join(dir, 'a.sdfg')]);
    menuItem(electron, ['File', 'Open…']).click!();
    expect(await eventually(() => first!.loaded.length === 2, 20_000)).toBe(true);
    expect(electron.windows()).toHaveLength(1);
    expect(openParams(first!.loaded.at(-1)!)).toEqual([join(dir, 'a.sdfg')]);
    electron.dialog.openAnswers.push([join(dir, 'b.sdfgz')]);
    menuItem(electron, ['File', 'Open…']).click!();
    expect(await eventually(() => electron.windows().length === 2)).toBe(true);
    expect(openParams(electron.windows()[1]!.loaded[0]!)).toEqual([join(dir, 'b.sdfgz')]);
    first!.focus();
    electron.dialog.openAnswers.push([join(dir, 'run.json')]);
    menuItem(electron, ['File', 'Open Result…']).click!();
    expect(await eventually(() => first!.webContents.sent.length > 0)).toBe(true);
    expect(first!.webContents.sent.at(-1)).toEqual({ channel: IPC_CHANNELS.event, args: ['openRequest', { path: join(dir, 'run.json') }] });
    // Cancelled dialogs open nothing.
    menuItem(electron, ['File', 'Open…']).click!();
    await settle();
    expect(electron.windows()).toHaveLength(2);
  });

  it('a program dropped on a window opens there; the rest in new windows; only from our page', async () => {
    const { electron } = await start([join(dir, 'a.sdfg')]);
    const [w] = electron.windows();
    electron.ipcMain.send(w!.webContents.ipcEvent(), IPC_CHANNELS.drop, [join(dir, 'b.sdfgz'), join(dir, 'a.sdfg')]);
    expect(await eventually(() => electron.windows().length === 2)).toBe(true);
    expect(w!.webContents.sent.at(-1)).toEqual({ channel: IPC_CHANNELS.event, args: ['openRequest', { path: join(dir, 'b.sdfgz') }] });
    expect(electron.windows()).toHaveLength(2);
    const sent = w!.webContents.sent.length;
    electron.ipcMain.send(w!.webContents.ipcEvent(w!.webContents.subframe('app://transient-lab/')), IPC_CHANNELS.drop, [
      join(dir, 'a.sdfg'),
    ]);
    await settle();
    expect(w!.webContents.sent.length).toBe(sent);
  });

  it('a DaCe build folder dropped or chosen in File → Open DaCe Build Folder… opens as a program; another folder is refused', async () => {
    const dace = join(dir, '.dacecache', 'chain');
    const { electron } = await start([join(dir, 'a.sdfg')]);
    const [w] = electron.windows();
    electron.ipcMain.send(w!.webContents.ipcEvent(), IPC_CHANNELS.drop, [dace]);
    expect(await eventually(() => w!.webContents.sent.length > 0)).toBe(true);
    expect(w!.webContents.sent.at(-1)).toEqual({ channel: IPC_CHANNELS.event, args: ['openRequest', { path: dace }] });
    electron.ipcMain.send(w!.webContents.ipcEvent(), IPC_CHANNELS.drop, [join(dir, 'plain')]);
    expect(await eventually(() => electron.dialog.messages.length === 1)).toBe(true);
    expect(electron.dialog.messages[0]).toMatchObject({ message: `Cannot open ${join(dir, 'plain')}` });
    expect(electron.dialog.messages[0]!.detail).toMatch(/not a DaCe build folder/);
    electron.dialog.openAnswers.push([dace]);
    menuItem(electron, ['File', 'Open DaCe Build Folder…']).click!();
    expect(await eventually(() => electron.windows().length === 2)).toBe(true);
    expect(openParams(electron.windows()[1]!.loaded[0]!)).toEqual([dace]);
  });

  it('menu items the renderer acts on send it a command; Export Report… is enabled', async () => {
    const { electron } = await start();
    const [w] = electron.windows();
    w!.focus();
    menuItem(electron, ['View', 'Toggle Theme']).click!();
    menuItem(electron, ['File', 'Save Result…']).click!();
    menuItem(electron, ['Run', 'Profile…']).click!();
    expect(w!.webContents.sent.map((s) => s.args)).toEqual([
      ['command', { name: 'toggleTheme' }],
      ['command', { name: 'saveResult' }],
      ['command', { name: 'profile' }],
    ]);
    const exportItem = menuItem(electron, ['File', 'Export Report…']);
    expect(exportItem.enabled).toBe(true);
    expect(exportItem.accelerator).toBe('CmdOrCtrl+E');
    exportItem.click!();
    expect(w!.webContents.sent.at(-1)!.args).toEqual(['command', { name: 'exportReport' }]);
    for (const label of ['Reload', 'Actual Size', 'Zoom In', 'Zoom Out']) expect(menuItem(electron, ['View', label]).role).toBeDefined();
    menuItem(electron, ['Help', 'DaCe documentation']).click!();
    expect(electron.opened).toEqual(['https://spcldace.readthedocs.io/en/latest/']);
  });

  it('keeps recent files and the window position across restarts, written atomically', async () => {
    const { electron, userData, shell } = await start([join(dir, 'a.sdfg')]);
    const w = electron.windows()[0]!;
    w.move(333, 222);
    await shell.stop();
    const state = JSON.parse(await readFile(join(userData, 'window-state.json'), 'utf8'));
    expect(state).toMatchObject({ schema: 'transient-lab/window-state@1', x: 333, y: 222 });
    const recent = JSON.parse(await readFile(join(userData, 'recent.json'), 'utf8'));
    expect(recent.files).toEqual([{ path: join(dir, 'a.sdfg'), kind: 'sdfg' }]);
    const again = await start([], { userData });
    expect(again.electron.windows()[0]!.options).toMatchObject({ x: 333, y: 222 });
    const recentMenu = menuItem(again.electron, ['File', 'Open Recent']).submenu!;
    expect(recentMenu[0]).toMatchObject({ label: 'a.sdfg', sublabel: join(dir, 'a.sdfg') } as Item);
    recentMenu[0]!.click!();
    expect(await eventually(() => again.electron.windows()[0]!.loaded.length === 2, 20_000)).toBe(true);
    expect(openParams(again.electron.windows()[0]!.loaded.at(-1)!)).toEqual([join(dir, 'a.sdfg')]);
  });

  it('a second launch hands its files over; quitting stops the engine first', async () => {
    const { electron, shell } = await start();
    electron.app.emit('second-instance', {}, ['/x/electron', '/repo', 'a.sdfg'], dir);
    expect(await eventually(() => electron.windows()[0]!.loaded.length === 2, 20_000)).toBe(true);
    expect(electron.windows().map((w) => openParams(w.loaded.at(-1)!))).toEqual([[join(dir, 'a.sdfg')]]);
    expect(shell.engine.pid).toBeDefined();
    let prevented = false;
    electron.app.emit('before-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await shell.stop();
    await settle();
    expect(electron.app.quitCalls).toBe(1);
    expect(shell.engine.pid).toBeUndefined();
  });

  it('a second instance quits at once', async () => {
    const electron = fakeElectron(dir);
    electron.app.singleInstance = false;
    expect(await startShell({ electron: electron.seam, paths: shellPaths(), argv: [], cwd: dir, log: () => {} })).toBeNull();
    expect(electron.app.quitCalls).toBe(1);
    expect(electron.windows()).toEqual([]);
  });
});
