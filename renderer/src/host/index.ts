/**
 * Which host is there: the desktop preload's `window.transientLab`, else browser mode's WebSocket at `/ws` on
 * the page's own origin (the session cookie set by the server authenticates it). Renderer code calls
 * `connectHost()` once and then uses the returned TransientLabClient; nothing else here touches transports.
 */
import type { BridgeApi, EnvironmentInfo, TransientLabClient } from '../../../electron/ipc/contract.js';
import { clientFromBridge } from './bridge.js';
import { connectWebSocket, type WebSocketLike } from './websocket.js';

export { HostError } from './errors.js';

declare global {
  interface Window {
    /** Set by the desktop app's preload only. */
    transientLab?: BridgeApi;
  }
}

export async function connectHost(): Promise<TransientLabClient> {
  if (window.transientLab) return clientFromBridge(window.transientLab);
  const url = new URL('/ws', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  url.hash = '';
  return connectWebSocket(url.href, { create: (u) => new WebSocket(u) as unknown as WebSocketLike });
}

/** Files to open on load, in order: the host's (`serve FILE…`), then `?open=PATH` of the page's URL (a path
 * relative to the first root, which the host resolves and checks like any other). */
export function startupFiles(env: EnvironmentInfo, search: string = window.location.search): string[] {
  return [...env.openAtStart, ...openParams(search)];
}

/** The `?open=PATH` paths of the page's URL, in order (known before the host is: the page starts on them). */
export function openParams(search: string = window.location.search): string[] {
  return new URLSearchParams(search).getAll('open').filter((p) => p.length > 0);
}
