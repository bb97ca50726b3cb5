/**
 * The desktop app's preload: sandboxed, context-isolated, bundled to one CommonJS file (dist/preload/
 * preload.cjs; sandboxed preloads cannot load ES modules or other files). It imports only `electron` and the
 * contract; bridge.ts holds what it does.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridge, forwardDrops } from './bridge.js';

contextBridge.exposeInMainWorld('transientLab', createBridge(ipcRenderer));
forwardDrops(window, (file) => webUtils.getPathForFile(file), ipcRenderer);
