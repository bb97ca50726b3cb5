/**
 * SDFV (spcl/dace-webclient) timed in the same Chromium, in the same bench run, as our window: the goal
 * is "one fifth of SDFV's data-to-first-frame, measured on this machine", and SDFV's time moves with the VM
 * (nbody took 409 ms on one of this project's VMs and 1,268 ms on another). Ratios from one run are the only
 * fair ones, so the renderer section measures SDFV next to each file when `TLAB_SDFV_DIR` names a build.
 *
 * The method is viz-anchors.md §2.2: SDFV's own index.html opens the file through its `?url=` parameter; an
 * init script wraps `SDFGRenderer.prototype.layout` and `.draw` (through a setter on `window.SDFGRenderer`) and
 * hooks the SDFG's XHR. Data→first frame = end of the first draw that starts after the first layout resolved,
 * minus the XHR's readyState 4. SDFV's build is not part of this project (docs/renderer.md says how to make one).
 */
import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';

/** An SDFV build folder (index.html plus dist/sdfv.js), from `TLAB_SDFV_DIR`, or why there is none. */
export function sdfvBuild(): { dir: string } | { why: string } {
  const dir = process.env['TLAB_SDFV_DIR'];
  if (!dir) return { why: 'TLAB_SDFV_DIR is not set' };
  if (!existsSync(join(dir, 'index.html')) || !existsSync(join(dir, 'dist', 'sdfv.js')))
    return { why: `TLAB_SDFV_DIR=${dir} holds no SDFV build (index.html and dist/sdfv.js)` };
  return { dir: resolve(dir) };
}

export interface SdfvRun {
  dataToFirstFrameMs: number;
  firstLayoutMs: number;
  /** The longest main-thread task overlapping data arrival → first frame (SDFV opens in one task). */
  longestTaskMs: number;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.sdfg': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static server for the SDFV build at `/` and the one file under test at `/data/input.sdfg`. */
function serveSdfv(appDir: string, dataFile: string): Promise<Server> {
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = path === '/data/input.sdfg' ? dataFile : resolve(appDir, `.${path === '/' ? '/index.html' : path}`);
    if (file !== dataFile && !file.startsWith(appDir + sep)) return void res.writeHead(404).end();
    if (!existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

const INIT = `(() => {
  const T = window.__sdfvT = { layouts: [], draws: [], data: null, tasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) T.tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const wrap = (C) => {
    if (!C || !C.prototype || C.prototype.__timed) return;
    const p = C.prototype; p.__timed = true;
    const layout = p.layout, draw = p.draw;
    p.layout = function (...a) {
      const rec = { start: performance.now(), end: null }; T.layouts.push(rec);
      const r = layout.apply(this, a);
      Promise.resolve(r).then(() => { rec.end = performance.now(); }, () => { rec.end = performance.now(); });
      return r;
    };
    p.draw = function (...a) { const start = performance.now(); try { return draw.apply(this, a); } finally { T.draws.push({ start, end: performance.now() }); } };
  };
  let R;
  Object.defineProperty(window, 'SDFGRenderer', { configurable: true, get() { return R; }, set(v) { R = v; wrap(v); } });
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (m, u, ...r) { this.__u = String(u); return open.call(this, m, u, ...r); };
  XMLHttpRequest.prototype.send = function (...a) {
    if (this.__u.includes('/data/input.sdfg')) this.addEventListener('readystatechange', () => { if (this.readyState === 4 && T.data === null) T.data = performance.now(); });
    return send.apply(this, a);
  };
})();`;

/**
 * Opens `file` in SDFV `runs` times, a new page each, after `settleMs` on about:blank as our opens get
 * (`warmUp`: one untimed open first, which compiles SDFV's bundle, as the renderer bench's throw-away open does
 * for ours). `.sdfgz` is gunzipped first: SDFV's `?url=` reads text.
 */
export async function timeSdfv(
  browser: Browser,
  appDir: string,
  file: string,
  opts: { runs: number; settleMs: number; warmUp?: boolean },
): Promise<SdfvRun[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'tlab-sdfv-'));
  const dataFile = join(tmp, 'input.sdfg');
  if (file.endsWith('.sdfgz')) writeFileSync(dataFile, gunzipSync(readFileSync(file)));
  else symlinkSync(resolve(file), dataFile);
  const server = await serveSdfv(appDir, dataFile);
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/index.html?url=${encodeURIComponent('/data/input.sdfg')}`;
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
  await context.addInitScript({ content: INIT });
  const out: SdfvRun[] = [];
  try {
    const first = opts.warmUp ? -1 : 0;
    for (let i = first; i < opts.runs; i++) {
      const page = await context.newPage();
      await page.waitForTimeout(opts.settleMs);
      await page.goto(url, { timeout: 600_000 });
      // Strings, not functions: the bench compiles without the DOM's types.
      await page.waitForFunction(
        `(() => { const T = window.__sdfvT; const l = T && T.layouts.find((x) => x.end !== null); return !!l && T.draws.some((d) => d.start >= l.end); })()`,
        null,
        { polling: 100, timeout: 600_000 },
      );
      await page.waitForTimeout(300);
      const r: SdfvRun | null = await page.evaluate(`(() => {
        const T = window.__sdfvT;
        if (T.data === null) return null;
        const l = T.layouts.find((x) => x.end !== null);
        const d = T.draws.find((x) => x.start >= l.end);
        const during = T.tasks.filter(([s, dur]) => s + dur > T.data && s < d.end).map(([, dur]) => dur);
        return { dataToFirstFrameMs: d.end - T.data, firstLayoutMs: l.end - l.start, longestTaskMs: Math.max(0, ...during) };
      })()`);
      if (!r) throw new Error(`SDFV never received ${file} (no readyState 4 on its request)`);
      if (i >= 0) out.push(r);
      await page.close();
    }
  } finally {
    await context.close();
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}
