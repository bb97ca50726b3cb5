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
    // windows.ts sets every web preference (secureWebPreferences); the critical ones are forced again at the one
    // place a window is made, so that no caller of the seam can loosen them. (Electronegativity's AUXCLICK_JS_CHECK
    // points here: a middle-click asks for a new window, which security.ts's setWindowOpenHandler denies.)
    createWindow: (options) =>
      new BrowserWindow({
        ...options,
        webPreferences: { ...options.webPreferences, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
      }),
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
