/**
 * The application menu, built from the state it shows (recent files, whether this is a development build) by a
 * pure function, so that its contents are tested without Electron. Items the renderer acts on send it a
 * contract `command` event; DevTools exist in development builds only (packaged windows also have
 * `devTools: false` in their web preferences).
 */
import { basename } from 'node:path';
import type { HostEvents } from '../ipc/contract.js';
import type { RecentEntry } from './recent.js';
import { DOC_LINKS } from './security.js';
import type { Electron } from './seam.js';

type CommandName = HostEvents['command']['name'];

export interface MenuActions {
  open(): void;
  openDaceFolder(): void;
  openResult(): void;
  openRecent(path: string): void;
  clearRecent(): void;
  /** Sends a `command` event to the focused window. */
  command(name: CommandName): void;
  openDocs(url: string): void;
  newWindow(): void;
}

export interface MenuState {
  isDev: boolean;
  isMac: boolean;
  recent: readonly RecentEntry[];
  /** Whether Export Report… is offered (the renderer previews and downloads the report; downloads.ts saves it). */
  reportsReady: boolean;
  version: string;
}

const DOC_TITLES: Record<string, string> = {
  'https://spcldace.readthedocs.io/en/latest/': 'DaCe documentation',
  'https://spcldace.readthedocs.io/en/latest/sdfg/ir.html': 'The SDFG format',
  'https://gridtools.github.io/gt4py/latest/': 'gt4py documentation',
  'https://www.electronjs.org/docs/latest/tutorial/security': 'Electron security checklist',
};

export function menuTemplate(state: MenuState, actions: MenuActions): Electron.MenuItemConstructorOptions[] {
  const recent: Electron.MenuItemConstructorOptions[] = state.recent.length
    ? [
        ...state.recent.map((r) => ({
          label: `${basename(r.path)}${r.kind === 'result' ? ' (result)' : ''}`,
          sublabel: r.path,
          click: () => actions.openRecent(r.path),
        })),
        { type: 'separator' as const },
        { label: 'Clear Recent', click: () => actions.clearRecent() },
      ]
    : [{ label: 'No recent files', enabled: false }];
  const file: Electron.MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { label: 'New Window', accelerator: 'CmdOrCtrl+N', click: () => actions.newWindow() },
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.open() },
      { label: 'Open DaCe Build Folder…', click: () => actions.openDaceFolder() },
      { label: 'Open Recent', submenu: recent },
      { type: 'separator' },
      { label: 'Open Result…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openResult() },
      { label: 'Save Result…', accelerator: 'CmdOrCtrl+S', click: () => actions.command('saveResult') },
      { label: 'Export Report…', accelerator: 'CmdOrCtrl+E', enabled: state.reportsReady, click: () => actions.command('exportReport') },
      { type: 'separator' },
      { label: 'Close Window', accelerator: 'CmdOrCtrl+W', role: 'close' },
      ...(state.isMac ? [] : [{ type: 'separator' as const }, { label: 'Quit', accelerator: 'CmdOrCtrl+Q', role: 'quit' as const }]),
    ],
  };
  const edit: Electron.MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  const view: Electron.MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      { label: 'Reload', accelerator: 'CmdOrCtrl+R', role: 'reload' },
      { type: 'separator' },
      { label: 'Actual Size', accelerator: 'CmdOrCtrl+0', role: 'resetZoom' },
      { label: 'Zoom In', accelerator: 'CmdOrCtrl+=', role: 'zoomIn' },
      { label: 'Zoom Out', accelerator: 'CmdOrCtrl+-', role: 'zoomOut' },
      { type: 'separator' },
      { label: 'Toggle Theme', accelerator: 'CmdOrCtrl+Shift+T', click: () => actions.command('toggleTheme') },
      { role: 'togglefullscreen' },
      ...(state.isDev
        ? [
            { type: 'separator' as const },
            { label: 'Toggle Developer Tools', accelerator: 'CmdOrCtrl+Shift+I', role: 'toggleDevTools' as const },
          ]
        : []),
    ],
  };
  const run: Electron.MenuItemConstructorOptions = {
    label: '&Run',
    submenu: [{ label: 'Profile…', accelerator: 'CmdOrCtrl+P', click: () => actions.command('profile') }],
  };
  const help: Electron.MenuItemConstructorOptions = {
    label: '&Help',
    role: 'help',
    submenu: [...DOC_LINKS].map((url) => ({ label: DOC_TITLES[url] ?? url, click: () => actions.openDocs(url) })),
  };
  const appMenu: Electron.MenuItemConstructorOptions[] = state.isMac
    ? [
        {
          label: 'Transient Lab',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  return [...appMenu, file, edit, view, run, ...(state.isMac ? [{ role: 'windowMenu' as const }] : []), help];
}
