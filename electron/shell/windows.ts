/**
 * The app's windows: one window per program (docs/electron.md says why), each with its own contract session
 * in the engine, created by the one factory that sets the security-relevant web preferences.
 *
 * A window's session belongs to the page it holds: when the page reloads or the window closes, the session is
 * disposed (its profile jobs are cancelled, its documents released) and the next call opens a fresh one, as
 * a reloaded browser-mode page gets a fresh WebSocket session.
 */
import { IPC_CHANNELS, METHODS, type EventName, type HostEvents, type TransientLabApi } from '../ipc/contract.js';
import { createDispatcher, type Dispatch } from '../ipc/dispatch.js';
import type { HostLimits } from '../ipc/contract.js';
import type { BackendSession, SessionBackend } from './backend.js';
import { APP_INDEX } from './protocol.js';
import type { Electron, ElectronSeam } from './seam.js';
import { CASCADE, onScreen, type WindowStateStore } from './window-state.js';

/**
 * The web preferences of every window (checklist items 2–4, 6, 8–11), each set explicitly even where it is
 * Electron's default, so that a changed default or a copied snippet cannot loosen them unnoticed.
 */
function secureWebPreferences(preload: string, devTools: boolean): Electron.WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools,
  };
}

/** The URL of a window's page; `open` files are read by the renderer from `?open=` (renderer/src/host). */
export function pageUrl(open: readonly string[]): string {
  const url = new URL(APP_INDEX);
  for (const path of open) url.searchParams.append('open', path);
  return url.href;
}

export interface ShellWindowDeps {
  electron: ElectronSeam;
  backend: SessionBackend;
  limits: HostLimits;
  preload: string;
  devTools: boolean;
  icon: string | null;
  state: WindowStateStore;
  log: (line: string) => void;
}

export class ShellWindow {
  /** Set once the window has been given a program (or opened one itself): Open… then uses a new window. */
  hasDocument = false;
  private session: BackendSession | null = null;
  readonly dispatch: Dispatch;

  constructor(
    readonly win: Electron.BrowserWindow,
    private readonly deps: ShellWindowDeps,
  ) {
    // The window's API for the dispatcher: every method goes to the current page's session.
    const api = Object.fromEntries(
      METHODS.map((m) => [
        m,
        (req: unknown) => {
          if (m === 'openFile' || m === 'openUpload' || m === 'openExample') this.hasDocument = true;
          return (this.currentSession()[m] as (r: unknown) => Promise<unknown>)(req);
        },
      ]),
    ) as unknown as TransientLabApi;
    this.dispatch = createDispatcher(api, {
      limits: deps.limits,
      onInternalError: (method, err) =>
        deps.log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    });
  }

  get id(): number {
    return this.win.webContents.id;
  }

  private currentSession(): BackendSession {
    this.session ??= this.deps.backend.openSession({
      emit: <E extends EventName>(event: E, payload: HostEvents[E]) => this.send(event, payload),
    });
    return this.session;
  }

  /** A host event for this window's page. */
  send<E extends EventName>(event: E, payload: HostEvents[E]): void {
    if (!this.win.isDestroyed()) this.win.webContents.send(IPC_CHANNELS.event, event, payload);
  }

  /** The page went away (reload, close): its jobs are cancelled and its documents released. */
  endSession(): void {
    const s = this.session;
    this.session = null;
    if (s) s.dispose().catch((err: unknown) => this.deps.log(`closing a window's session: ${String(err)}`));
  }
}

/** Creates, finds and tracks the app's windows. */
export class Windows {
  private readonly byContents = new Map<number, ShellWindow>();
  private readonly order: ShellWindow[] = [];

  constructor(private readonly deps: ShellWindowDeps) {}

  /** Opens a window on `open` (approved paths) or, without, on the start page (examples, Open…). */
  open(open: readonly string[] = []): ShellWindow {
    const { electron, state } = this.deps;
    const saved = onScreen(state.get(), electron.displays());
    const last = this.order.at(-1);
    let position: { x?: number; y?: number } = saved.x !== null && saved.y !== null ? { x: saved.x, y: saved.y } : {};
    if (last && !last.win.isDestroyed()) {
      const b = last.win.getBounds();
      position = { x: b.x + CASCADE, y: b.y + CASCADE };
    }
    const win = electron.createWindow({
      ...position,
      width: saved.width,
      height: saved.height,
      minWidth: 640,
      minHeight: 420,
      show: false,
      title: 'Transient Lab',
      backgroundColor: '#16181d',
      ...(this.deps.icon ? { icon: this.deps.icon } : {}),
      webPreferences: secureWebPreferences(this.deps.preload, this.deps.devTools),
    });
    const w = new ShellWindow(win, this.deps);
    w.hasDocument = open.length > 0;
    const contentsId = win.webContents.id;
    this.byContents.set(contentsId, w);
    this.order.push(w);
    if (saved.maximized && !last) win.maximize();
    win.once('ready-to-show', () => win.show());
    const remember = () => {
      if (!win.isDestroyed() && !win.isMinimized())
        void state.remember(win.isMaximized() ? win.getNormalBounds() : win.getBounds(), win.isMaximized());
    };
    win.on('resized', remember);
    win.on('moved', remember);
    win.on('close', remember);
    win.webContents.on('did-start-navigation', (details) => {
      // A reload (or the first load) starts a new page: it gets a new session.
      if (details.isMainFrame && !details.isSameDocument) w.endSession();
    });
    win.webContents.on('render-process-gone', (_e, details) => {
      this.deps.log(`a window's renderer is gone (${details.reason}); reload it with View → Reload`);
      w.endSession();
    });
    win.on('closed', () => {
      w.endSession();
      this.byContents.delete(contentsId);
      this.order.splice(this.order.indexOf(w), 1);
    });
    void win.loadURL(pageUrl(open)).catch((err: unknown) => this.deps.log(`loading the window failed: ${String(err)}`));
    return w;
  }

  byWebContents(id: number): ShellWindow | null {
    return this.byContents.get(id) ?? null;
  }

  /** The focused window, else the most recent one. */
  focused(): ShellWindow | null {
    return this.order.find((w) => !w.win.isDestroyed() && w.win.isFocused()) ?? this.order.at(-1) ?? null;
  }

  all(): readonly ShellWindow[] {
    return this.order;
  }
}
