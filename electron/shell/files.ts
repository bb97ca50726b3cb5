/**
 * Opening files in the desktop app: the Open dialogs, Open Recent, drops, the command line and second
 * launches all end here. Every path is approved in the engine first (the renderer may open exactly what the
 * user chose, ApprovedFileAccess), recorded in Open Recent, then routed:
 * - a program opens in the window it was dropped on, else in the focused window while that one shows no
 *   program yet (its page is reloaded on `?open=`), else in a new window — one program per window;
 * - a result file goes to the window it was dropped on or the focused one (to compare), else a new window.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { PathApprover } from './backend.js';
import type { FileKind, RecentFiles } from './recent.js';
import type { ElectronSeam } from './seam.js';
import { pageUrl, type ShellWindow, type Windows } from './windows.js';

const SDFG_EXTENSIONS = ['sdfg', 'sdfgz'];
const RESULT_EXTENSIONS = ['json'];

function kindOf(path: string): FileKind | null {
  const ext = extname(path).slice(1).toLowerCase();
  return SDFG_EXTENSIONS.includes(ext) ? 'sdfg' : RESULT_EXTENSIONS.includes(ext) ? 'result' : null;
}

export interface OpenerDeps {
  electron: ElectronSeam;
  approver: PathApprover;
  windows: Windows;
  recent: RecentFiles;
  log: (line: string) => void;
}

export class Opener {
  constructor(private readonly deps: OpenerDeps) {}

  private report(title: string, detail: string): void {
    const parent = this.deps.windows.focused()?.win;
    const options = { type: 'error' as const, title: 'Transient Lab', message: title, detail, buttons: ['OK'] };
    void (parent ? this.deps.electron.dialog.showMessageBox(parent, options) : this.deps.electron.dialog.showMessageBox(options));
  }

  /** Opens `paths` (from a dialog, a drop, Open Recent or the command line); `target` is the drop's window. A
   * folder opens as a program when it is a DaCe build folder (the engine's approval checks that, and says why not). */
  async openPaths(paths: readonly string[], target: ShellWindow | null = null): Promise<void> {
    let programsInTarget = 0;
    for (const path of paths) {
      const isFolder = await stat(path).then(
        (s) => s.isDirectory(),
        () => false,
      );
      const kind = isFolder ? 'sdfg' : kindOf(path);
      if (!kind) {
        this.report(
          `Cannot open ${path}`,
          'Transient Lab opens SDFG programs (.sdfg, .sdfgz), DaCe build folders (.dacecache/NAME) and its result files (.json).',
        );
        continue;
      }
      let real: string;
      try {
        real = await this.deps.approver.approve(path);
      } catch (err) {
        this.report(`Cannot open ${path}`, err instanceof Error ? err.message : String(err));
        await this.deps.recent.remove(path);
        continue;
      }
      await this.deps.recent.add(real, kind);
      this.deps.electron.app.addRecentDocument(real);
      if (kind === 'result') this.routeResult(real, target);
      else if (target && programsInTarget++ === 0) this.request(target, real, kind);
      else this.routeProgram(real);
    }
  }

  private request(w: ShellWindow, path: string, kind: FileKind): void {
    w.hasDocument ||= kind === 'sdfg';
    w.send('openRequest', { path });
    w.win.focus();
  }

  private routeProgram(path: string): void {
    const focused = this.deps.windows.focused();
    if (focused && !focused.hasDocument && !focused.win.isDestroyed()) {
      // An empty window: load its page again on the file, so nothing depends on its listeners being set up.
      focused.hasDocument = true;
      void focused.win.loadURL(pageUrl([path])).catch((err: unknown) => this.deps.log(`loading ${path}: ${String(err)}`));
      focused.win.focus();
      return;
    }
    this.deps.windows.open([path]);
  }

  private routeResult(path: string, target: ShellWindow | null): void {
    const w = target ?? this.deps.windows.focused();
    if (w && w.hasDocument && !w.win.isDestroyed()) this.request(w, path, 'result');
    else if (w && !w.win.isDestroyed())
      void w.win.loadURL(pageUrl([path])).catch((err: unknown) => this.deps.log(`loading ${path}: ${String(err)}`));
    else this.deps.windows.open([path]);
  }

  /** File → Open… / Open Result…: the native dialog, then openPaths. */
  async showOpenDialog(kind: FileKind): Promise<void> {
    const options = {
      title: kind === 'sdfg' ? 'Open an SDFG program' : 'Open a Transient Lab result',
      properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'>,
      filters:
        kind === 'sdfg'
          ? [
              { name: 'SDFG programs', extensions: SDFG_EXTENSIONS },
              { name: 'All files', extensions: ['*'] },
            ]
          : [{ name: 'Transient Lab results', extensions: RESULT_EXTENSIONS }],
    };
    const parent = this.deps.windows.focused()?.win;
    const r = parent
      ? await this.deps.electron.dialog.showOpenDialog(parent, options)
      : await this.deps.electron.dialog.showOpenDialog(options);
    if (!r.canceled) await this.openPaths(r.filePaths, null);
  }

  /** File → Open DaCe Build Folder…: a folder dialog (Linux and Windows dialogs pick files or folders, not both). */
  async showOpenFolderDialog(): Promise<void> {
    const options = {
      title: 'Open a DaCe build folder (.dacecache/NAME)',
      properties: ['openDirectory', 'multiSelections'] as Array<'openDirectory' | 'multiSelections'>,
    };
    const parent = this.deps.windows.focused()?.win;
    const r = parent
      ? await this.deps.electron.dialog.showOpenDialog(parent, options)
      : await this.deps.electron.dialog.showOpenDialog(options);
    if (!r.canceled) await this.openPaths(r.filePaths, null);
  }
}
