/**
 * A fake Electron behind the shell's seam (electron/shell/seam.ts), in the spirit of Fiddle's tests/mocks:
 * EventEmitter-based windows, web contents, ipcMain, protocol, session, dialogs and menus, recording what the
 * shell does to them. `utilityProcess.fork` is real enough to run the real children: it forks a Node process
 * with the same messages and gives it Electron's `process.parentPort` (fixtures/parent-port-shim.mjs), and it
 * reports exits the way Electron does (a crash's exit code is the signal number; the app's
 * `child-process-gone` event says it crashed).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { UtilityFork, UtilityProcessLike } from '../../electron/runner/child.js';
import type { ElectronSeam } from '../../electron/shell/seam.js';

const SHIM = fileURLToPath(new URL('./fixtures/parent-port-shim.mjs', import.meta.url));

let nextContentsId = 1;
let nextProcessId = 1000;

export class FakeFrame {
  parent: FakeFrame | null = null;
  constructor(
    public url: string,
    readonly processId: number,
    readonly routingId: number,
  ) {}
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame: FakeFrame;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  openHandler: ((details: { url: string; disposition?: string }) => { action: string }) | null = null;
  destroyed = false;
  /** Called with every `send` (the fake renderer side listens here). */
  onSend: ((channel: string, args: unknown[]) => void) | null = null;

  constructor() {
    super();
    this.mainFrame = new FakeFrame('about:blank', nextProcessId++, 1);
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
    this.onSend?.(channel, args);
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** A subframe of this page (for sender checks). */
  subframe(url: string): FakeFrame {
    const f = new FakeFrame(url, this.mainFrame.processId, 99);
    f.parent = this.mainFrame;
    return f;
  }

  /** What Electron passes to ipcMain listeners for a message from `frame` (default: the main frame). */
  ipcEvent(frame: FakeFrame | null = this.mainFrame): { sender: FakeWebContents; senderFrame: FakeFrame | null } {
    return { sender: this, senderFrame: frame };
  }
}

type Rect = { x: number; y: number; width: number; height: number };

export class FakeWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  bounds: Rect;
  maximized = false;
  focused = false;
  shown = false;
  destroyed = false;

  constructor(
    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> },
    private readonly app: FakeApp,
  ) {
    super();
    this.bounds = {
      x: (options.x as number) ?? 100,
      y: (options.y as number) ?? 80,
      width: (options.width as number) ?? 800,
      height: (options.height as number) ?? 600,
    };
    app.windows.push(this);
    // Electron emits this for every web contents it creates.
    app.emit('web-contents-created', {}, this.webContents);
  }

  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.emit('did-start-navigation', { url, isMainFrame: true, isSameDocument: false });
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }

  getBounds(): Rect {
    return { ...this.bounds };
  }
  getNormalBounds(): Rect {
    return { ...this.bounds };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return false;
  }
  maximize(): void {
    this.maximized = true;
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    for (const w of this.app.windows) w.focused = false;
    this.focused = true;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** The user moved the window. */
  move(x: number, y: number): void {
    this.bounds = { ...this.bounds, x, y };
    this.emit('moved');
  }
  close(): void {
    this.emit('close', { preventDefault() {} });
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
    this.app.windows.splice(this.app.windows.indexOf(this), 1);
  }
}

export class FakeApp extends EventEmitter {
  readonly windows: FakeWindow[] = [];
  readonly recentDocuments: string[] = [];
  quitCalls = 0;
  exitCode: number | null = null;
  isPackaged = false;
  singleInstance = true;
  /** Alternates the order of a utility process's `exit` and `child-process-gone` (Electron guarantees none). */
  goneFirst = false;
  utilityForks: Array<{ modulePath: string; options: Parameters<UtilityFork>[2]; process: FakeUtilityProcess }> = [];

  constructor(private readonly userData: string) {
    super();
  }

  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getPath(name: string): string {
    if (name !== 'userData') throw new Error(`fake app: getPath(${name})`);
    return this.userData;
  }
  getVersion(): string {
    return '0.0.0-test';
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  quit(): void {
    this.quitCalls++;
  }
  exit(code: number): void {
    this.exitCode = code;
  }
  addRecentDocument(path: string): void {
    this.recentDocuments.push(path);
  }
  clearRecentDocuments(): void {
    this.recentDocuments.length = 0;
  }
}

class FakeIpcMain {
  readonly handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  readonly listeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();

  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): this {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
    return this;
  }
  /** ipcRenderer.invoke as Electron delivers it: arguments and the answer cross as structured clones. */
  async invoke(event: unknown, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return structuredClone(await handler(event, ...structuredClone(args)));
  }
  send(event: unknown, channel: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(channel) ?? []) l(event, ...structuredClone(args));
  }
}

class FakeSession extends EventEmitter {
  requestHandler: ((...args: never[]) => void) | null = null;
  checkHandler: ((...args: never[]) => boolean) | null = null;
  deviceHandler: ((...args: never[]) => boolean) | null = null;
  setPermissionRequestHandler(h: (...args: never[]) => void): void {
    this.requestHandler = h;
  }
  setPermissionCheckHandler(h: (...args: never[]) => boolean): void {
    this.checkHandler = h;
  }
  setDevicePermissionHandler(h: (...args: never[]) => boolean): void {
    this.deviceHandler = h;
  }
}

/** A forked Node child dressed as Electron's UtilityProcess. */
class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  readonly child: ChildProcess;

  constructor(modulePath: string, args: string[], options: Parameters<UtilityFork>[2], app: FakeApp) {
    super();
    this.child = fork(modulePath, args, {
      execArgv: ['--import', SHIM],
      serialization: 'advanced',
      stdio: ['ignore', options.stdio === 'pipe' ? 'pipe' : 'ignore', options.stdio === 'pipe' ? 'pipe' : 'ignore', 'ipc'],
      env: Object.fromEntries(Object.entries(options.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    });
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('exit', (code, signal) => {
      const signalNumber = signal ? constants.signals[signal] : 0;
      const exitCode = signal ? signalNumber : (code ?? 0);
      const reason = signal
        ? signal === 'SIGKILL' || signal === 'SIGTERM'
          ? 'killed'
          : 'crashed'
        : code === 0
          ? 'clean-exit'
          : 'abnormal-exit';
      // Electron emits both; the order is not guaranteed, so the fake alternates it.
      const gone = () => app.emit('child-process-gone', {}, { type: 'Utility', reason, exitCode, serviceName: options.serviceName });
      if (app.goneFirst) gone();
      this.emit('exit', exitCode);
      if (!app.goneFirst) setImmediate(gone);
      app.goneFirst = !app.goneFirst;
    });
    app.utilityForks.push({ modulePath, options, process: this });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get stdout() {
    return this.child.stdout;
  }
  get stderr() {
    return this.child.stderr;
  }
  // Like Electron's utilityProcess, a message to a process that is already gone (its exit event not yet
  // delivered) is dropped instead of raising EPIPE.
  postMessage(message: unknown): void {
    if (!this.child.connected) return;
    this.child.send(message as object, () => undefined);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

export interface FakeElectron {
  seam: ElectronSeam;
  app: FakeApp;
  ipcMain: FakeIpcMain;
  session: FakeSession;
  protocol: { schemes: unknown[]; handlers: Map<string, (req: Request) => Promise<Response>> };
  dialog: {
    /** Answers of the next showOpenDialog calls (file paths; [] = cancelled). */
    openAnswers: string[][];
    messages: Array<{ message: string; detail?: string }>;
    errors: Array<{ title: string; content: string }>;
  };
  menu: { current: unknown[] | null };
  opened: string[];
  windows(): FakeWindow[];
}

export function fakeElectron(userData: string): FakeElectron {
  const app = new FakeApp(userData);
  const ipcMain = new FakeIpcMain();
  const session = new FakeSession();
  const protocol = { schemes: [] as unknown[], handlers: new Map<string, (req: Request) => Promise<Response>>() };
  const dialog: FakeElectron['dialog'] = { openAnswers: [], messages: [], errors: [] };
  const menu: FakeElectron['menu'] = { current: null };
  const opened: string[] = [];
  const seam = {
    app,
    createWindow: (options: Record<string, unknown>) => new FakeWindow(options, app),
    ipcMain,
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => protocol.schemes.push(...schemes),
      handle: (scheme: string, handler: (req: Request) => Promise<Response>) => protocol.handlers.set(scheme, handler),
    },
    defaultSession: () => session,
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        void args;
        const files = dialog.openAnswers.shift() ?? [];
        return { canceled: files.length === 0, filePaths: files };
      },
      showSaveDialog: async () => ({ canceled: true, filePath: '' }),
      showMessageBox: async (...args: unknown[]) => {
        const options = args.at(-1) as { message: string; detail?: string };
        dialog.messages.push({ message: options.message, detail: options.detail });
        return { response: 0, checkboxChecked: false };
      },
      showErrorBox: (title: string, content: string) => dialog.errors.push({ title, content }),
    },
    menu: {
      build: (template: unknown[]) => ({ template }),
      setApplicationMenu: (m: { template: unknown[] } | null) => (menu.current = m?.template ?? null),
    },
    utilityProcess: { fork: ((modulePath, args, options) => new FakeUtilityProcess(modulePath, args, options, app)) as UtilityFork },
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    displays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  } as unknown as ElectronSeam;
  return { seam, app, ipcMain, session, protocol, dialog, menu, opened, windows: () => app.windows };
}
