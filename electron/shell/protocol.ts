/**
 * The `app://transient-lab/` protocol: the renderer build (dist/renderer, inside app.asar when packaged) served
 * to the windows. Never `file://` (checklist item 18): a page on `file://` could read any file it can name.
 *
 * - Registered as privileged `standard` + `secure` before the app is ready (relative URLs, a real origin, a
 *   secure context for crypto and clipboard), with `supportFetchAPI` and `codeCache`; never `bypassCSP`.
 * - GET and HEAD only; one host; the path is decoded once and refused (403) when it holds `..`, `.`, NUL,
 *   backslashes, an empty segment (`//etc/passwd`) or a drive letter, when it lands outside the folder, or when
 *   a link inside leads out (realpath). Anything else missing is 404.
 * - Every response carries the CSP (checklist item 7) and nosniff.
 */
import { reportPreviewCspSources } from '../engine/report/assets.js';
import fs from 'node:fs';
import { join, sep } from 'node:path';
import { isInside } from '../host-kit/file-access.js';
import { mimeType } from '../host-kit/static-files.js';
import { contentSecurityPolicy } from '../host-kit/web-security.js';
import type { ElectronSeam } from './seam.js';

const APP_SCHEME = 'app';
const APP_HOST = 'transient-lab';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX = `${APP_ORIGIN}/index.html`;

export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const;

/** The desktop CSP: browser mode's (electron/host-kit/web-security.ts) minus its WebSocket: IPC needs no connection. It is
 * a response header of every app:// answer, which Electronegativity's CSP_GLOBAL_CHECK does not recognise (it looks
 * for <meta> tags and webRequest callbacks only). */
export const APP_CSP = contentSecurityPolicy(null);

/** Must run before `app` is ready (Electron only accepts scheme privileges then). */
export function registerAppScheme(protocol: ElectronSeam['protocol']): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/** Whether a URL is one of our pages (a URL's `origin` is "null" for custom schemes in Node: compare parts). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '' && u.port === '';
  } catch {
    return false;
  }
}

// The callback forms of fs, looked up at call time: in the packaged app Electron's ASAR support patches them,
// and the renderer build lives inside app.asar.
function realpathOf(p: string): Promise<string> {
  return new Promise((resolve, reject) => fs.realpath(p, (err, out) => (err ? reject(err) : resolve(out))));
}
function statOf(p: string): Promise<fs.Stats> {
  return new Promise((resolve, reject) => fs.stat(p, (err, st) => (err ? reject(err) : resolve(st))));
}
function readOf(p: string): Promise<Buffer> {
  return new Promise((resolve, reject) => fs.readFile(p, (err, data) => (err ? reject(err) : resolve(data))));
}

export type Resolved = { status: 200; file: string } | { status: 400 | 403 | 404 | 405; reason: string };

/** What `url` may serve from `root`: a file inside it, or why not. */
export async function resolveAppRequest(root: string, method: string, url: string): Promise<Resolved> {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, reason: 'only GET and HEAD' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { status: 400, reason: 'not a URL' };
  }
  if (!isAppUrl(url)) return { status: 404, reason: `not ${APP_ORIGIN}` };
  let decoded: string;
  try {
    decoded = decodeURIComponent(u.pathname);
  } catch {
    return { status: 400, reason: 'malformed percent-encoding' };
  }
  const segments = decoded.split('/').slice(1);
  if (segments.length === 1 && segments[0] === '') segments[0] = 'index.html';
  const bad = segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0') || /^[A-Za-z]:$/.test(s));
  if (bad) return { status: 403, reason: 'path traversal' };
  const path = join(root, ...segments);
  if (!isInside(path, root)) return { status: 403, reason: 'outside the renderer build' };
  let real: string;
  try {
    real = await realpathOf(path);
  } catch {
    return { status: 404, reason: 'not found' };
  }
  let realRoot: string;
  try {
    realRoot = await realpathOf(root);
  } catch {
    return { status: 404, reason: `the renderer is not built (${root})` };
  }
  // A link inside the build that leads elsewhere is refused: only what really lies inside is served.
  if (real !== realRoot && !real.startsWith(realRoot + sep)) return { status: 403, reason: 'a link leading out of the renderer build' };
  try {
    if (!(await statOf(real)).isFile()) return { status: 404, reason: 'not a file' };
  } catch {
    return { status: 404, reason: 'not found' };
  }
  return { status: 200, file: real };
}

/** APP_CSP plus the report's runtime and stylesheet hashes, so that the export preview (a sandboxed srcdoc iframe,
 * which inherits this policy) runs exactly them. Computed once, from the built report bundle. */
let pageCsp: string | null = null;
export function appCsp(preview = reportPreviewCspSources()): string {
  return contentSecurityPolicy(null, preview);
}

function headers(contentType: string): Record<string, string> {
  pageCsp ??= appCsp();
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': pageCsp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

/** The `protocol.handle` handler serving `root`. */
export function appProtocolHandler(root: string, log: (line: string) => void = () => {}): (request: Request) => Promise<Response> {
  return async (request) => {
    const r = await resolveAppRequest(root, request.method, request.url);
    if (r.status !== 200) {
      if (r.status === 403) log(`app:// refused ${request.url}: ${r.reason}`);
      return new Response(`${r.status} ${r.reason}\n`, { status: r.status, headers: headers('text/plain; charset=utf-8') });
    }
    const body = request.method === 'HEAD' ? null : await readOf(r.file);
    return new Response(body === null ? null : new Uint8Array(body), { status: 200, headers: headers(mimeType(r.file)) });
  };
}

/** Serves the renderer build on app:// (after `app` is ready). */
export function installAppProtocol(protocol: ElectronSeam['protocol'], root: string, log?: (line: string) => void): void {
  protocol.handle(APP_SCHEME, appProtocolHandler(root, log));
}
