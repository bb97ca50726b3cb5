/**
 * One WebSocket connection = one service session. Calls arrive as `{t:'call'}` messages (electron/ipc/wire.ts),
 * go through the shared dispatcher (validation, error mapping) and answer as `{t:'reply'}`; the session's events
 * go out as `{t:'event'}`. A malformed frame closes that one connection with a close code (1002 protocol error,
 * 1007 bad data, 1008 not a call, 1009 too big); the server and every other connection go on. Closing, however
 * it happens, disposes the session, which cancels its jobs and so ends their runner processes.
 */
import type { RawData, WebSocket } from 'ws';
import type { EventName, EventSink, HostEvents, HostLimits, TransientLabApi, WireMessage } from '../../ipc/contract.js';
import { createDispatcher } from '../../ipc/dispatch.js';
import { decodeWire, encodeWirePaged } from '../../ipc/wire.js';

/** Text frames carry requests (the largest is a result to save); uploads come as binary frames. */
export const MAX_TEXT_FRAME = 64 * 1024 * 1024;
/** Calls of one connection being worked on at once. */
const MAX_IN_FLIGHT = 32;
/** A peer that misses two pings (a laptop that slept behind `ssh -L`) is dropped and its session closed. */
const PING_MS = 30_000;

function frameBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/**
 * What the server serves: the host's TransientLabService. The kit never imports the service (it sits below it):
 * the host that starts the server passes its service in, and this is all the server asks of it.
 */
export interface ServedService {
  readonly limits: HostLimits;
  openSession(sink: EventSink): TransientLabApi & { dispose(): Promise<void> };
}

export function attachSession(ws: WebSocket, service: ServedService, log: (line: string) => void): void {
  const send = (message: WireMessage): void => {
    // Big replies go as pages, each its own message: the page decodes each in its own short task.
    if (ws.readyState === ws.OPEN) for (const frame of encodeWirePaged(message)) ws.send(frame);
  };
  const session = service.openSession({
    emit<E extends EventName>(event: E, payload: HostEvents[E]) {
      send({ t: 'event', event, payload });
    },
  });
  const dispatch = createDispatcher(session, {
    limits: service.limits,
    onInternalError: (method, err) =>
      log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  let inFlight = 0;
  let alive = true;
  const ping = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, PING_MS);
  ws.on('pong', () => {
    alive = true;
  });

  ws.on('message', (data: RawData, isBinary: boolean) => {
    let message: WireMessage;
    try {
      const bytes = frameBytes(data);
      if (!isBinary && bytes.byteLength > MAX_TEXT_FRAME) {
        ws.close(1009, 'message too big');
        return;
      }
      message = decodeWire(isBinary ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch {
      ws.close(1007, 'malformed message');
      return;
    }
    if (message.t !== 'call') {
      ws.close(1008, 'only calls are accepted');
      return;
    }
    const { id } = message;
    if (inFlight >= MAX_IN_FLIGHT) {
      send({
        t: 'reply',
        id,
        reply: {
          ok: false,
          error: { kind: 'refused', message: `more than ${MAX_IN_FLIGHT} calls at once`, file: null, jsonPath: null, details: [] },
        },
      });
      return;
    }
    inFlight++;
    void dispatch(message.method, message.req).then((reply) => {
      inFlight--;
      try {
        send({ t: 'reply', id, reply });
      } catch (err) {
        // A value JSON cannot carry (a bigint in a view model) is a bug: answer it as one.
        log(`cannot send the reply to ${message.method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        send({
          t: 'reply',
          id,
          reply: {
            ok: false,
            error: {
              kind: 'internal',
              message: 'internal error: the answer could not be encoded',
              file: null,
              jsonPath: null,
              details: [],
            },
          },
        });
      }
    });
  });

  // ws reports a bad frame (invalid UTF-8, a reserved opcode or bit, an unmasked or oversized frame, a broken
  // fragment sequence) as 'error' and has already sent the close code: without a listener the whole process dies.
  ws.on('error', (err: Error & { code?: string }) => {
    log(`closed a connection: ${err.message}${err.code ? ` (${err.code})` : ''}`);
  });

  ws.on('close', () => {
    clearInterval(ping);
    // Nobody is left to receive a result: cancel this window's jobs and release its documents.
    session.dispose().catch((err: unknown) => log(`closing a session: ${String(err)}`));
  });
}
