/**
 * The desktop app's client: the preload exposes `window.transientLab` (contract.ts `BridgeApi`), whose methods
 * answer with `Reply` envelopes because Electron's IPC and contextBridge drop an Error's fields. This unwraps
 * them (a big one arrives paged and is decoded a page per task), so the renderer sees the same
 * `TransientLabClient` and `HostError`s as in browser mode.
 */
import type { BridgeApi, MethodName, RequestOf, ResponseOf, TransientLabClient } from '../../../electron/ipc/contract.js';
import { decodePagedReply, isPagedReply } from '../../../electron/ipc/wire.js';
import { yieldToEventLoop } from '../yield.js';
import { clientFromCall, unwrapReply } from './call-client.js';
import { transportError } from './errors.js';

export function clientFromBridge(bridge: BridgeApi): TransientLabClient {
  const call = async <M extends MethodName>(method: M, req: RequestOf<M>): Promise<ResponseOf<M>> => {
    const fn = bridge[method] as unknown as ((r: RequestOf<M>) => Promise<unknown>) | undefined;
    if (typeof fn !== 'function')
      throw transportError(`the desktop host does not offer ${method}: the preload and the renderer are from different builds`);
    const answer = await fn(req);
    if (!isPagedReply(answer)) return unwrapReply<ResponseOf<M>>(answer, method);
    let reply: unknown;
    try {
      reply = await decodePagedReply(answer, yieldToEventLoop);
    } catch {
      throw transportError(`${method}: the desktop host sent a malformed paged reply`);
    }
    return unwrapReply<ResponseOf<M>>(reply, method);
  };
  return clientFromCall(call, { on: (event, listener) => bridge.on(event, listener) });
}
