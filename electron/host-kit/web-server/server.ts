/**
 * Browser mode's HTTP + WebSocket server: the renderer build over HTTP, the contract over one WebSocket per
 * page (`/ws`), every request through the gate (../web-security.ts). It binds loopback only unless told
 * otherwise, and owns nothing but its sockets: the service (and its runner processes) belongs to the host that
 * starts it (`transient-lab serve`, the tests).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { packageRoot } from '../../engine/paths.js';
import { reportPreviewCspSources } from '../../engine/report/assets.js';
import { plain, serveStatic } from '../static-files.js';
import { checkRequest, hardenResponse, hostPort, isWildcard, makeGate, newToken, sessionCookie, type Gate } from '../web-security.js';
import { MAX_TEXT_FRAME, attachSession, type ServedService } from './socket.js';

const DEFAULT_HOSTS = ['127.0.0.1', '::1'];
/** Pages connected at once (each is a session with its own documents). */
const MAX_CONNECTIONS = 16;

export interface ServerOptions {
  service: ServedService;
  /** Port to bind; 0 picks a free one. */
  port: number;
  /** Addresses to bind (default 127.0.0.1 and ::1; ::1 is skipped where IPv6 is off). */
  hosts?: string[];
  /** The production renderer build (default dist/renderer). */
  rendererDir?: string;
  /** Default: 32 random bytes. */
  token?: string;
  log?: (line: string) => void;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT/?token=…`: what the user opens. */
  url: string;
  port: number;
  token: string;
  /** Addresses actually bound. */
  hosts: string[];
  /** Stops listening and closes every connection (their sessions cancel their jobs). */
  close(): Promise<void>;
}

function defaultRendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function refuseUpgrade(socket: Duplex, reason: string): void {
  // The peer may be gone already (it reset the connection): finish only if it can still be written to.
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n\r\nTransient Lab: ${reason}\n`,
  );
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rendererDir = opts.rendererDir ?? defaultRendererDir();
  const wanted = opts.hosts?.length ? opts.hosts : DEFAULT_HOSTS;
  const token = opts.token ?? newToken();
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    // One frame may be an upload: its limit plus room for the frame's header.
    maxPayload: Math.max(opts.service.limits.uploadBytes + 1024 * 1024, MAX_TEXT_FRAME),
  });
  // With noServer, ws emits nothing here today; a listener keeps a future 'error' from being fatal.
  wss.on('error', (err: Error) => log(`WebSocket server: ${err.message}`));
  let gate: Gate | null = null;
  // The export preview's iframe inherits the page's CSP: allow the report's runtime and stylesheet by hash.
  const preview = reportPreviewCspSources();

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const g = gate!;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const verdict = checkRequest(g, req.headers, url.searchParams.get('token'));
    const host = (req.headers.host ?? '').toLowerCase();
    hardenResponse(res, g.hosts.has(host) ? host : hostPort('127.0.0.1', g.port), preview);
    if (!verdict.ok) return plain(res, verdict.status, `Transient Lab: ${verdict.reason}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return plain(res, 405, 'Transient Lab: only GET and HEAD; everything else goes through the WebSocket');
    }
    if (verdict.fromQuery) {
      // Keep the token out of the address bar and history from here on: the cookie carries it.
      url.searchParams.delete('token');
      res.statusCode = 303;
      res.setHeader('Set-Cookie', sessionCookie(g));
      res.setHeader('Location', `${url.pathname}${url.search}`);
      res.setHeader('Cache-Control', 'no-store');
      res.end();
      return;
    }
    if (url.pathname === '/ws') return plain(res, 426, 'Transient Lab: /ws is the WebSocket');
    if (!existsSync(join(rendererDir, 'index.html')))
      return plain(res, 503, `Transient Lab: the renderer is not built (${rendererDir}): run npm run build:renderer`);
    serveStatic(rendererDir, req, res, url.pathname).catch((err: unknown) => {
      log(`serving ${url.pathname}: ${String(err)}`);
      if (!res.headersSent) plain(res, 500, 'internal error');
      else res.destroy();
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node hands the upgraded socket over without its own error listener: a peer that resets the connection
    // (before, during or after the handshake) must cost that socket only, never the process.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') log(`a WebSocket connection failed: ${err.message}`);
      socket.destroy();
    });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const verdict = checkRequest(gate!, req.headers, url.searchParams.get('token'));
    if (!verdict.ok) return refuseUpgrade(socket, verdict.reason);
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 'the WebSocket is at /ws');
    if (wss.clients.size >= MAX_CONNECTIONS) return refuseUpgrade(socket, `${MAX_CONNECTIONS} pages are connected already`);
    wss.handleUpgrade(req, socket, head, (ws) => attachSession(ws, opts.service, log));
  };

  const servers: Server[] = [];
  const bound: string[] = [];
  let port = opts.port;
  for (const host of wanted) {
    const server = createServer(onRequest);
    server.on('upgrade', onUpgrade);
    // A malformed request or a peer that vanishes mid-request: answer 400 where that can still be written, and
    // drop that one connection.
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      if (err.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      socket.once('finish', () => socket.destroy());
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    try {
      port = await listen(server, host, port);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Hosts without IPv6 still serve on 127.0.0.1.
      if (host === '::1' && bound.length && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      throw err;
    }
    // After listening: an accept that fails (EMFILE: too many open files) must not end the process.
    server.on('error', (err: Error) => log(`HTTP server on ${host}: ${err.message}`));
    servers.push(server);
    bound.push(host);
  }
  gate = makeGate(token, bound, port);
  const shown = isWildcard(bound[0]!) ? '127.0.0.1' : bound[0]!;

  return {
    url: `http://${hostPort(shown, port)}/?token=${token}`,
    port,
    token,
    hosts: bound,
    async close() {
      // Sockets first (the listening servers wait for upgraded sockets too): a polite close, then a cut.
      const open = [...wss.clients];
      for (const ws of open) ws.close(1001, 'the server is stopping');
      let cut: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(open.map((ws) => new Promise((r) => ws.once('close', r)))),
        new Promise((r) => (cut = setTimeout(r, 500))),
      ]);
      clearTimeout(cut);
      for (const ws of wss.clients) ws.terminate();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
      wss.close();
    },
  };
}
