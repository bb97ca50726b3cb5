/**
 * The production renderer build (dist/renderer) over HTTP: GET/HEAD only, correct MIME types, nothing outside
 * the folder (decoded `..`, encoded `%2e%2e`, NUL and links out are refused).
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { isInside } from './file-access.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export function mimeType(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export function plain(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${text}\n`);
}

/** The file under `root` that `pathname` (still URL-encoded) names, or null when it must not be served. */
async function resolveStatic(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return null;
  const path = join(root, ...(segments.length ? segments : ['index.html']));
  if (!isInside(path, root)) return null;
  try {
    const real = await realpath(path);
    if (!isInside(real, await realpath(root))) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const file = await resolveStatic(root, pathname);
  if (!file) {
    plain(res, 404, 'not found');
    return;
  }
  const st = await stat(file);
  res.statusCode = 200;
  res.setHeader('Content-Type', mimeType(file));
  res.setHeader('Content-Length', st.size);
  // The renderer is rebuilt in place during development: always revalidate.
  res.setHeader('Cache-Control', 'no-cache');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
