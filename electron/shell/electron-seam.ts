/**
 * The real Electron behind the seam (seam.ts). The only shell module that imports `electron` at run time;
 * tests never load it (a missing Electron binary would make `require('electron')` try to download one).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell, utilityProcess } from 'electron';
import type { UtilityFork } from '../runner/child.js';
import type { ElectronSeam } from './seam.js';

// Checked here, against electron.d.ts: Electron's fork is what the runner and engine hosts expect.
const fork: UtilityFork = (modulePath, args, options) => utilityProcess.fork(modulePath, args, options);

export function electronSeam(): ElectronSeam {
  return {
    app,
    createWindow: (options) => new BrowserWindow(options),
    ipcMain,
    protocol,
    defaultSession: () => session.defaultSession,
    dialog,
    menu: {
      build: (template) => Menu.buildFromTemplate(template),
      setApplicationMenu: (menu) => Menu.setApplicationMenu(menu),
    },
    utilityProcess: { fork },
    shell,
    displays: () => screen.getAllDisplays(),
  };
}
