/**
 * Browser mode's client: the contract over one WebSocket to `transient-lab serve`.
 * - Calls carry an id; replies resolve or reject (HostError) the matching promise.
 * - Every call but `profile` has a time limit; a late reply is then ignored.
 * - When the socket closes, every pending and later call fails with kind `transport` and `disconnected` fires
 *   once. There is no reconnect: a restarted server has a new token and new sessions, so the page must be
 *   reloaded from the new URL, and saying so beats silently losing open documents.
 * Written against a minimal WebSocket shape, so the same code runs in the page and, for tests, in Node.
 */
import {
  EVENTS,
  type EventName,
  type HostEvents,
  type MethodName,
  type RequestOf,
  type ResponseOf,
  type TransientLabClient,
  type WireMessage,
} from '../../../electron/ipc/contract.js';
import { assembleParts, decodeWire, encodeWire } from '../../../electron/ipc/wire.js';
import { clientFromCall, unwrapReply } from './call-client.js';
import { HostError, transportError } from './errors.js';
import { EventHub } from './events.js';

/** What the client needs of a WebSocket (the browser's and the `ws` package's both have it). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface WebSocketClientOptions {
  /** Opens the socket (the page passes the browser's WebSocket; tests the `ws` package's). */
  create: (url: string) => WebSocketLike;
  /** Per-method limits in ms (0 = none); the rest use the defaults below. */
  timeouts?: Partial<Record<MethodName, number>>;
  connectTimeoutMs?: number;
}

/** Opening or analysing a 166 MB file takes seconds to tens of seconds on a busy node. */
const HEAVY_MS = 300_000;
const LIGHT_MS = 30_000;
const DEFAULT_TIMEOUTS: Record<MethodName, number> = {
  environment: LIGHT_MS,
  listFolder: LIGHT_MS,
  openFile: HEAVY_MS,
  openUpload: HEAVY_MS,
  openExample: HEAVY_MS,
  closeDoc: LIGHT_MS,
  docInfo: HEAVY_MS,
  analyze: HEAVY_MS,
  graph: HEAVY_MS,
  search: LIGHT_MS * 2,
  profile: 0,
  cancel: LIGHT_MS,
  openResult: HEAVY_MS,
  saveResult: HEAVY_MS,
  exportReport: HEAVY_MS,
  fileKind: LIGHT_MS,
  workloadView: HEAVY_MS,
  advise: HEAVY_MS,
  openProgram: HEAVY_MS,
  // The host's first call runs the probe child (its own limit is 30 s).
  devices: LIGHT_MS * 2,
};

export interface WebSocketClient extends TransientLabClient {
  /** Closes the connection (pending calls fail with kind `transport`). */
  close(): void;
}

interface Pending {
  method: MethodName;
  /** The parts of a paged reply received so far (electron/ipc/wire.ts), each decoded in its own task. */
  parts?: Map<number, unknown[]>;
  resolve(value: unknown): void;
  reject(err: HostError): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const OPEN = 1;

function frameData(data: unknown): string | Uint8Array | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data instanceof Uint8Array) return data;
  return null;
}

export function connectWebSocket(url: string, opts: WebSocketClientOptions): Promise<WebSocketClient> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const hub = new EventHub();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let gone: string | null = null;

  return new Promise((resolveConnect, rejectConnect) => {
    const ws = opts.create(url);
    ws.binaryType = 'arraybuffer';
    let opened = false;
    const connectTimer = setTimeout(() => {
      if (!opened) {
        ws.close();
        rejectConnect(transportError(`no answer from the Transient Lab server at ${url}`));
      }
    }, opts.connectTimeoutMs ?? LIGHT_MS);

    const fail = (reason: string): void => {
      if (gone !== null) return;
      gone = reason;
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        p.reject(transportError(`${p.method}: the connection to the host was lost (${reason})`));
        pending.delete(id);
      }
      if (opened) hub.emit('disconnected', { reason });
    };

    ws.onopen = () => {
      opened = true;
      clearTimeout(connectTimer);
      resolveConnect(client);
    };
    ws.onerror = () => {
      // The close event that follows carries the code; only a socket that never opened is reported here.
      if (!opened) {
        clearTimeout(connectTimer);
        rejectConnect(
          transportError(`cannot connect to the Transient Lab server at ${url}: is it running, and was the page opened with its token?`),
        );
      }
    };
    ws.onclose = (ev) => {
      clearTimeout(connectTimer);
      const reason = ev.reason ? `${ev.reason} (code ${ev.code})` : `connection closed (code ${ev.code})`;
      if (!opened) rejectConnect(transportError(`cannot connect to the Transient Lab server at ${url}: ${reason}`));
      fail(reason === '' ? 'closed' : reason);
    };
    ws.onmessage = (ev) => {
      const data = frameData(ev.data);
      let message: WireMessage;
      try {
        if (data === null) throw new Error('unknown frame type');
        message = decodeWire(data);
      } catch {
        ws.close(1007, 'malformed message from the host');
        fail('the host sent a malformed message');
        return;
      }
      if (message.t === 'part') {
        const p = pending.get(message.id);
        if (!p) return; // timed out earlier
        (p.parts ??= new Map()).set(message.k, message.v);
      } else if (message.t === 'reply') {
        const p = pending.get(message.id);
        if (!p) return; // timed out earlier
        pending.delete(message.id);
        clearTimeout(p.timer);
        let reply = message.reply;
        try {
          if (p.parts) reply = assembleParts(reply, p.parts);
        } catch {
          ws.close(1007, 'malformed message from the host');
          p.reject(transportError(`${p.method}: the host sent a malformed paged reply`));
          fail('the host sent a malformed message');
          return;
        }
        try {
          p.resolve(unwrapReply(reply, p.method));
        } catch (err) {
          p.reject(err as HostError);
        }
      } else if (message.t === 'event' && (EVENTS as readonly string[]).includes(message.event) && message.event !== 'disconnected') {
        // Host events are the host's own messages: trusted like replies (the socket is authenticated).
        const event: Exclude<EventName, 'disconnected'> = message.event;
        hub.emit(event, message.payload as HostEvents[typeof event]);
      }
    };

    const call = <M extends MethodName>(method: M, req: RequestOf<M>): Promise<ResponseOf<M>> =>
      new Promise<ResponseOf<M>>((resolve, reject) => {
        if (gone !== null || ws.readyState !== OPEN) {
          reject(
            transportError(
              `${method}: not connected to the host (${gone ?? 'the connection is not open'}); reload the page from the URL that \`transient-lab serve\` printed`,
            ),
          );
          return;
        }
        const id = nextId++;
        const limit = timeouts[method];
        const timer =
          limit > 0
            ? setTimeout(() => {
                pending.delete(id);
                reject(transportError(`${method}: no answer from the host after ${Math.round(limit / 1000)} s`));
              }, limit)
            : undefined;
        pending.set(id, { method, resolve: resolve, reject, timer });
        try {
          ws.send(encodeWire({ t: 'call', id, method, req }));
        } catch (err) {
          pending.delete(id);
          clearTimeout(timer);
          reject(transportError(`${method}: the request could not be sent (${err instanceof Error ? err.message : String(err)})`));
        }
      });

    const client: WebSocketClient = {
      ...clientFromCall(call, hub),
      close: () => ws.close(1000, 'closed by the page'),
    };
  });
}
