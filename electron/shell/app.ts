/**
 * The desktop app's main process, composed from the shell modules (one concern each) around the Electron seam:
 *
 *   main process  ── app://, security rules, windows, menu, dialogs, IPC checks (sender, then payload)
 *     ├─ engine host (utilityProcess) ── the service: parse, analyse, view models, compile; one per app
 *     └─ runner (utilityProcess, one per job) ── loads the addon, runs the generated code
 *
 * The main process never parses a file, never compiles and never loads the addon: its event loop stays free
 * for the windows.
 */
import type { EngineToMain, MainToEngine } from '../host-kit/engine-protocol.js';
import { DEFAULT_LIMITS } from '../ipc/contract-schema.js';
import { fromUtilityProcess } from '../runner/child.js';
import { probeDevicesInUtility } from '../runner/devices.js';
import { runnerEnv, UtilityProcessRunnerHost } from '../runner/host-electron.js';
import { filesFromArgv, remoteHostsFromArgv } from './argv.js';
import { GoneRegistry } from './child-gone.js';
import { installDownloads } from './downloads.js';
import { EngineClient } from './engine-client.js';
import { Opener } from './files.js';
import { installContractHandlers } from './ipc.js';
import { menuTemplate, type MenuActions } from './menu.js';
import { missingPieces, type ShellPaths } from './paths.js';
import { installAppProtocol } from './protocol.js';
import { RecentFiles } from './recent.js';
import { installSecurity, openDocLink } from './security.js';
import type { ElectronSeam } from './seam.js';
import { WindowStateStore } from './window-state.js';
import { Windows } from './windows.js';

export interface ShellOptions {
  electron: ElectronSeam;
  paths: ShellPaths;
  argv: readonly string[];
  cwd: string;
  platform?: NodeJS.Platform;
  log: (line: string) => void;
}

export interface Shell {
  windows: Windows;
  engine: EngineClient;
  opener: Opener;
  recent: RecentFiles;
  /** Cancels every job, stops the engine and writes the state files (the app then quits). */
  stop(): Promise<void>;
}

/** V8 heap of the engine host: the model cache keeps up to 1.5 GiB, and parsing the biggest files peaks above it. */
const ENGINE_EXEC_ARGV = ['--max-old-space-size=4096'];
/** Longest a quit waits for the engine to cancel its jobs and exit; Electron kills what is left when it quits. */
const STOP_GRACE_MS = 5000;

export async function startShell(o: ShellOptions): Promise<Shell | null> {
  const { electron, paths, log } = o;
  const { app } = electron;
  const platform = o.platform ?? process.platform;
  // One app instance: a second launch hands its files to this one (and quits).
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // macOS delivers files opened from the Finder as events, possibly before `ready`.
  const early: string[] = [];
  let opener: Opener | null = null;
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (opener) void opener.openPaths([path]);
    else early.push(path);
  });

  await app.whenReady();
  const missing = missingPieces(paths);
  if (missing.length) throw new Error(`the app is not built: ${missing.join(', ')} missing (run npm run build)`);
  const isDev = !app.isPackaged;
  const userData = app.getPath('userData');
  const onStateError = (err: unknown) => log(`saving the app state: ${String(err)}`);
  const [recent, state] = await Promise.all([RecentFiles.load(userData, onStateError), WindowStateStore.load(userData, onStateError)]);

  installSecurity(electron, log);
  installAppProtocol(electron.protocol, paths.rendererDir, log);
  const gone = new GoneRegistry(app);
  let engines = 0;
  const engine = new EngineClient({
    spawn: () => {
      const serviceName = `Transient Lab engine ${++engines}`;
      const child = electron.utilityProcess.fork(paths.engineEntry, [], {
        serviceName,
        stdio: 'pipe',
        execArgv: ENGINE_EXEC_ARGV,
        env: runnerEnv(),
      });
      return fromUtilityProcess<MainToEngine, EngineToMain>(child, () => gone.wait(serviceName));
    },
    config: {
      host: 'electron',
      files: { kind: 'approved' },
      openAtStart: [],
      limits: DEFAULT_LIMITS,
      remote: { hosts: remoteHostsFromArgv(o.argv) },
    },
    createRunner: () =>
      new UtilityProcessRunnerHost({ fork: electron.utilityProcess.fork, goneDetails: gone.wait, entry: paths.runnerEntry }),
    probeDevices: () => probeDevicesInUtility(electron.utilityProcess.fork),
    log,
  });
  const windows = new Windows({
    electron,
    backend: engine,
    limits: DEFAULT_LIMITS,
    preload: paths.preload,
    devTools: isDev,
    icon: paths.icon,
    state,
    log,
  });
  opener = new Opener({ electron, approver: engine, windows, recent, log });
  const open = opener;
  installContractHandlers({ ipcMain: electron.ipcMain, windows, onDrop: (w, dropped) => void open.openPaths(dropped, w), log });
  installDownloads(electron, { windows, recent, log });

  const actions: MenuActions = {
    open: () => void open.showOpenDialog('sdfg'),
    openDaceFolder: () => void open.showOpenFolderDialog(),
    openResult: () => void open.showOpenDialog('result'),
    openRecent: (path) => void open.openPaths([path]),
    clearRecent: () => {
      void recent.clear();
      app.clearRecentDocuments();
    },
    command: (name) => {
      const w = windows.focused();
      if (w) w.send('command', { name });
    },
    openDocs: (url) => void openDocLink(electron.shell, url),
    newWindow: () => void windows.open(),
  };
  const rebuildMenu = () =>
    electron.menu.setApplicationMenu(
      electron.menu.build(
        menuTemplate(
          { isDev, isMac: platform === 'darwin', recent: recent.list(), reportsReady: true, version: app.getVersion() },
          actions,
        ),
      ),
    );
  recent.onChange(rebuildMenu);
  rebuildMenu();

  app.on('second-instance', (_event, argv, cwd) => {
    const files = filesFromArgv(argv, app.isPackaged, cwd);
    if (files.length) void open.openPaths(files);
    else {
      const w = windows.focused();
      if (w) w.win.focus();
      else windows.open();
    }
  });
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!windows.all().length) windows.open();
  });

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([engine.dispose(), new Promise((r) => (grace = setTimeout(r, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      await Promise.all([recent.flush(), state.flush()]);
    })();
    return stopping;
  };
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    void stop().finally(() => {
      stopped = true;
      app.quit();
    });
  });

  await open.openPaths([...filesFromArgv(o.argv, app.isPackaged, o.cwd), ...early]);
  if (!windows.all().length) windows.open();
  return { windows, engine, opener: open, recent, stop };
}
