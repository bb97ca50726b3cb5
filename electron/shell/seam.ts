/**
 * The Electron seam: everything the shell modules use of Electron, passed in rather than imported, so that the
 * main process's behaviour (security rules, IPC checks, windows, menus, the runner's supervision) is tested
 * under plain Node with a fake (tests/shell/fake-electron.ts) — the Electron binary is not even needed.
 *
 * The types are Electron's own (electron.d.ts), narrowed with Pick: the shell type-checks against the real
 * API, and electron-seam.ts is the one module that hands over the real objects.
 */
import type * as Electron from 'electron';
import type { UtilityFork } from '../runner/child.js';
import type { ParentPortLike } from '../runner/parent-port.js';

export interface ElectronSeam {
  app: Pick<
    Electron.App,
    | 'on'
    | 'once'
    | 'whenReady'
    | 'quit'
    | 'exit'
    | 'getPath'
    | 'isPackaged'
    | 'getVersion'
    | 'requestSingleInstanceLock'
    | 'addRecentDocument'
    | 'clearRecentDocuments'
  >;
  /** `new BrowserWindow(options)`. */
  createWindow(options: Electron.BrowserWindowConstructorOptions): Electron.BrowserWindow;
  ipcMain: Pick<Electron.IpcMain, 'handle' | 'on'>;
  protocol: Pick<Electron.Protocol, 'handle' | 'registerSchemesAsPrivileged'>;
  /** `session.defaultSession` (only valid once the app is ready). */
  defaultSession(): Pick<
    Electron.Session,
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'on'
  >;
  dialog: Pick<Electron.Dialog, 'showOpenDialog' | 'showSaveDialog' | 'showMessageBox' | 'showErrorBox'>;
  menu: {
    build(template: Electron.MenuItemConstructorOptions[]): Electron.Menu;
    setApplicationMenu(menu: Electron.Menu | null): void;
  };
  utilityProcess: { fork: UtilityFork };
  shell: Pick<Electron.Shell, 'openExternal'>;
  /** `screen` (only valid once the app is ready). */
  displays(): Electron.Display[];
}

export type { Electron };

/** Fails to compile unless `Actual` is assignable to `Target`. */
type Fits<Target, Actual extends Target> = Actual;
/** The runner and the engine host never import electron; what they read of `process.parentPort` in a utility
 * process is checked here, against electron.d.ts (`utilityProcess.fork` is checked in electron-seam.ts). */
/** @public exported only so that the check is not an unused local. */
export type ParentPortFits = Fits<ParentPortLike, Electron.ParentPort>;
