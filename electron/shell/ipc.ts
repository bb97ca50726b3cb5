/**
 * The contract over IPC, main's side (checklist item 17). One handler for every contract call: it first checks
 * who is calling — the main frame of one of our windows, showing our app:// page — and refuses anything else,
 * then hands the untrusted method name and payload to that window's dispatcher (dispatch.ts: the method must
 * be in METHODS, the payload must pass its valibot schema, errors become ContractErrors). A big answer goes back
 * paged (wire.ts pageReplyForIpc), as browser mode sends it. The preload's drop
 * message goes through the same check and its own shape check.
 */
import { isAbsolute } from 'node:path';
import { IPC_CHANNELS, type Reply } from '../ipc/contract.js';
import { pageReplyForIpc } from '../ipc/wire.js';
import { isAppUrl } from './protocol.js';
import type { Electron, ElectronSeam } from './seam.js';
import type { ShellWindow, Windows } from './windows.js';

/** Files one drop may name. */
export const MAX_DROPPED = 32;
const MAX_PATH = 4096;

type SenderEvent = Pick<Electron.IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** The window a message comes from, if it is the top frame of one of our windows showing our own page. */
function trustedWindow(event: SenderEvent, windows: Windows): ShellWindow | null {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) return null;
  const main = event.sender.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return null;
  return windows.byWebContents(event.sender.id);
}

const REFUSED_SENDER: Reply<never> = {
  ok: false,
  error: {
    kind: 'refused',
    message: 'this page is not a Transient Lab window: the call is refused',
    file: null,
    jsonPath: null,
    details: [],
  },
};

/** The paths of a drop message, or null when it is not a short list of absolute paths. */
export function droppedPaths(payload: unknown): string[] | null {
  if (!Array.isArray(payload) || payload.length === 0 || payload.length > MAX_DROPPED) return null;
  const ok = payload.every((p) => typeof p === 'string' && p.length > 0 && p.length <= MAX_PATH && !p.includes('\0') && isAbsolute(p));
  return ok ? (payload as string[]) : null;
}

export interface IpcDeps {
  ipcMain: ElectronSeam['ipcMain'];
  windows: Windows;
  onDrop: (window: ShellWindow, paths: string[]) => void;
  log: (line: string) => void;
}

export function installContractHandlers({ ipcMain, windows, onDrop, log }: IpcDeps): void {
  ipcMain.handle(IPC_CHANNELS.call, (event, method: unknown, req: unknown) => {
    const w = trustedWindow(event, windows);
    if (!w) {
      log(`refused a call from ${event.senderFrame?.url.slice(0, 200) ?? 'a frame that is gone'}`);
      return REFUSED_SENDER;
    }
    return Promise.resolve(w.dispatch(method, req)).then((reply) => pageReplyForIpc(reply));
  });
  ipcMain.on(IPC_CHANNELS.drop, (event, payload: unknown) => {
    const w = trustedWindow(event, windows);
    if (!w) {
      log(`refused a drop from ${event.senderFrame?.url.slice(0, 200) ?? 'a frame that is gone'}`);
      return;
    }
    const paths = droppedPaths(payload);
    if (!paths) {
      log('refused a malformed drop message');
      return;
    }
    onDrop(w, paths);
  });
}
