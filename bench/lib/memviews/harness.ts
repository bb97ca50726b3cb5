/**
 * Node side of the memory-views harness: builds the page with Vite, serves it on 127.0.0.1, opens it in
 * Debian's Chromium through playwright-core, and builds real view models from SDFG files. Used by the
 * end-to-end test (tests/e2e/memviews.test.ts) and the bench (bench/memviews.ts).
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import type { AnalysisView } from '../../../electron/engine/view/types.js';

export const CHROMIUM = process.env['TLAB_CHROMIUM'] ?? '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Vite-builds the harness page into a fresh temporary folder. */
export async function buildHarness(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'tlab-memviews-'));
  const { build } = await import('vite');
  const config = join(packageRoot(), 'bench', 'lib', 'memviews', 'vite.config.ts');
  // Production React and JSX even under vitest (which sets NODE_ENV=test): frame times must be the shipped
  // ones. The React plugin reads NODE_ENV itself, so it is set for the duration of the build.
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile: config, mode: 'production', build: { outDir: out, emptyOutDir: true }, logLevel: 'warn' });
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
  return out;
}

function serve(dir: string): Promise<{ url: string; server: Server }> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      ok({ url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`, server });
    }),
  );
}

export interface Harness {
  browser: Browser;
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

export async function openHarness(dir: string, viewport = { width: 1280, height: 800 }): Promise<Harness> {
  const { chromium } = await import('playwright-core');
  const { url, server } = await serve(dir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--disable-gpu', '--font-render-hinting=none'],
  });
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { state: 'attached' });
  return {
    browser,
    page,
    errors,
    async close() {
      await browser.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The AnalysisView of an SDFG file, as the service would send it. */
export async function viewOf(
  path: string,
  symbols: Record<string, number> = {},
  defaultSymbol: bigint | null = null,
): Promise<AnalysisView> {
  const file = await readSdfgFile(path);
  const a = analyze(file, { symbols: new Map(Object.entries(symbols).map(([k, v]) => [k, BigInt(v)])), defaultSymbol, target: null });
  return JSON.parse(JSON.stringify(buildAnalysisView(a))) as AnalysisView;
}
