/**
 * Browser mode's gate. The server compiles and runs programs, on shared nodes where every local user can reach
 * a loopback port, so every HTTP request and the WebSocket handshake must pass all of:
 * - Host: one of the names the server is bound to, with its port (a DNS-rebinding page has its own name);
 * - Origin (when sent) and Sec-Fetch-Site: our own origin only (another page, even on 127.0.0.1, is refused);
 * - the token printed at start: from `?token=` (then kept in an HttpOnly, SameSite=Strict cookie named after
 *   the port, since cookies do not separate ports) or that cookie.
 * Every response carries a strict CSP and the usual hardening headers.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares digests: equal length, so neither content nor length leaks through timing. */
function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** `[::1]:8080` for IPv6 literals, `127.0.0.1:8080` otherwise. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The Host header values this server answers to. A wildcard bind answers to this machine's names and addresses. */
function allowedHosts(bound: readonly string[], port: number): Set<string> {
  const names = new Set<string>(LOOPBACK);
  for (const h of bound) {
    if (!isWildcard(h)) names.add(h);
    else {
      names.add(hostname());
      for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) names.add(i.address);
    }
  }
  return new Set([...names].map((h) => hostPort(h, port).toLowerCase()));
}

export interface Gate {
  readonly token: string;
  readonly port: number;
  readonly cookieName: string;
  readonly hosts: ReadonlySet<string>;
}

export function makeGate(token: string, bound: readonly string[], port: number): Gate {
  return { token, port, cookieName: `tlab_token_${port}`, hosts: allowedHosts(bound, port) };
}

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? null) : null;
}

function cookieValue(headers: IncomingHttpHeaders, name: string): string | null {
  for (const part of (header(headers, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export type Verdict = { ok: true; fromQuery: boolean } | { ok: false; status: number; reason: string };

/** Host, Origin, Sec-Fetch-Site, then the token (query first, then cookie). */
export function checkRequest(gate: Gate, headers: IncomingHttpHeaders, queryToken: string | null): Verdict {
  const host = (header(headers, 'host') ?? '').toLowerCase();
  if (!gate.hosts.has(host))
    return { ok: false, status: 403, reason: `Host '${host.slice(0, 100)}' is not this server (DNS rebinding is refused)` };
  const origin = header(headers, 'origin');
  if (origin !== null && origin.toLowerCase() !== `http://${host}`)
    return { ok: false, status: 403, reason: 'requests from other origins are refused' };
  // A link followed from elsewhere (a notebook on another port) is a harmless GET of our page; everything else
  // a browser sends for another site's page (fetches, sockets, subresources) is refused.
  const site = header(headers, 'sec-fetch-site');
  const navigation = header(headers, 'sec-fetch-mode') === 'navigate';
  if (site !== null && site !== 'same-origin' && site !== 'none' && !navigation)
    return { ok: false, status: 403, reason: 'requests from other sites are refused' };
  if (queryToken !== null) {
    return tokenMatches(queryToken, gate.token) ? { ok: true, fromQuery: true } : { ok: false, status: 403, reason: 'wrong token' };
  }
  if (tokenMatches(cookieValue(headers, gate.cookieName), gate.token)) return { ok: true, fromQuery: false };
  return { ok: false, status: 403, reason: 'missing token: open the URL that `transient-lab serve` printed (with ?token=…)' };
}

export function sessionCookie(gate: Gate): string {
  return `${gate.cookieName}=${gate.token}; Path=/; HttpOnly; SameSite=Strict`;
}

/** Strict CSP: our own scripts, styles and workers only; the socket to ourselves (`host`; null: no socket, the
 * desktop app's IPC); no framing, no forms. `preview`:
 * the report's runtime and stylesheet hashes (engine/report reportPreviewCspSources), so that the export preview,
 * a sandboxed srcdoc iframe that inherits this policy, runs exactly them and nothing else. */
export function contentSecurityPolicy(host: string | null, preview: { script: string; style: string } | null = null): string {
  return [
    "default-src 'none'",
    `script-src 'self'${preview ? ` ${preview.script}` : ''}`,
    `style-src 'self'${preview ? ` ${preview.style}` : ''}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    host === null ? "connect-src 'self'" : `connect-src 'self' ws://${host}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Headers every response gets, refusals included. */
export function hardenResponse(res: ServerResponse, host: string, preview: { script: string; style: string } | null = null): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(host, preview));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), usb=(), serial=()');
}
