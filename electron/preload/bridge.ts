/**
 * The preload's logic, kept free of the `electron` import so that tests run it with a fake ipcRenderer:
 *
 * - `window.transientLab` is `BridgeApi`: one function per name of the contract's METHODS, each sending that
 *   method name and its request on the one call channel, plus `on(event, listener)` for host events. No
 *   generic invoke(channel), no ipcRenderer, no Node object reaches the page (checklist item 20).
 * - Files dropped on the window with a real path on disk (trusted drop events only) are sent to main, which
 *   approves them and opens them like File → Open…, so a 166 MB file is read from disk instead of being
 *   copied through the page. The event's default is prevented; the page can tell by `defaultPrevented`.
 */
import { EVENTS, IPC_CHANNELS, METHODS, type BridgeApi, type EventName, type HostEvents } from '../ipc/contract.js';

/** What the bridge needs of `ipcRenderer`. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** Events a host sends (`disconnected` is the client's own). */
const HOST_EVENTS: ReadonlySet<string> = new Set(EVENTS.filter((e) => e !== 'disconnected'));

type Listener = (payload: unknown) => void;

export function createBridge(ipc: IpcRendererLike): BridgeApi {
  const listeners = new Map<string, Set<Listener>>();
  ipc.on(IPC_CHANNELS.event, (_event, name, payload) => {
    if (typeof name !== 'string' || !HOST_EVENTS.has(name)) return;
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        // A listener's bug must not starve the others: report it as an uncaught error.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  });
  const methods = Object.fromEntries(METHODS.map((m) => [m, (req: unknown) => ipc.invoke(IPC_CHANNELS.call, m, req)]));
  const on = <E extends EventName>(event: E, listener: (payload: HostEvents[E]) => void): (() => void) => {
    if (!(EVENTS as readonly string[]).includes(event)) throw new TypeError(`unknown host event '${String(event).slice(0, 40)}'`);
    if (typeof listener !== 'function') throw new TypeError('a listener must be a function');
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => {
      set.delete(listener as Listener);
    };
  };
  return Object.freeze({ ...methods, on }) as unknown as BridgeApi;
}

/** Forwards trusted drops of files that all have a path on disk; others are left to the page (uploads). */
export function forwardDrops(
  target: Pick<EventTarget, 'addEventListener'>,
  pathOf: (file: File) => string,
  ipc: Pick<IpcRendererLike, 'send'>,
): void {
  target.addEventListener(
    'drop',
    (ev) => {
      const e = ev as DragEvent;
      const files = e.isTrusted && e.dataTransfer ? [...e.dataTransfer.files] : [];
      if (!files.length) return;
      const paths = files.map((f) => pathOf(f));
      if (paths.some((p) => !p)) return;
      e.preventDefault();
      ipc.send(IPC_CHANNELS.drop, paths);
    },
    true,
  );
}
