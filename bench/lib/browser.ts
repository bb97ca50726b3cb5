/**
 * The renderer as users get it: the built CLI's `transient-lab serve` in its own process on 127.0.0.1:0, and
 * Debian's Chromium (playwright-core) on the URL it prints. Every page records console errors, page errors and
 * any request to a host other than the server's. Shared by the renderer bench (bench/renderer.ts) and the app's
 * end-to-end test (tests/e2e/app.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { packageRoot } from '../../electron/engine/paths.js';

const CHROMIUM = process.env['TLAB_CHROMIUM'] ?? '/usr/bin/chromium';
const CLI = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const LINE = /Transient Lab: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9_-]+)\n/;

export interface Serve {
  url: string;
  origin: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Whether the pieces the app e2e needs exist (built CLI, built renderer, Chromium). */
export function appE2eReady(): { ok: boolean; why: string } {
  if (!existsSync(CHROMIUM)) return { ok: false, why: `no Chromium at ${CHROMIUM}` };
  if (!existsSync(CLI)) return { ok: false, why: 'dist/ is not built (npm run build)' };
  if (!existsSync(join(packageRoot(), 'dist', 'renderer', 'index.html')))
    return { ok: false, why: 'the renderer is not built (npm run build:renderer)' };
  return { ok: true, why: '' };
}

export function startServe(args: string[]): Promise<Serve> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-open', ...args], {
    cwd: packageRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = LINE.exec(out);
      if (!m) return;
      resolve({
        url: m[1]!,
        origin: `http://127.0.0.1:${m[2]}`,
        child,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
          if (child.exitCode === null) child.kill('SIGKILL');
        },
      });
    });
    void exited.then(() => reject(new Error(`serve exited before printing its URL:\n${err}`)));
  });
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--disable-gpu', '--font-render-hinting=none', '--disable-background-networking'],
  });
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Requests to any origin other than the server's (and not data:/blob:). */
  foreign: string[];
  close(): Promise<void>;
}

/**
 * `settleMs`: time to wait between creating the page and loading the app. Chromium (156, new headless) opens every
 * page in a new window and preloads that window's omnibox WebUI in a renderer of its own; that work runs for about
 * half a second and, on 2 cores, lands in the middle of a `?open=` open (a trace showed that renderer busy for
 * 38 ms of CPU in a 94 ms open). A user's window does not do that while a file opens, so the bench lets it settle.
 */
export async function openApp(
  browser: Browser,
  serve: Serve,
  opts: { theme?: 'light' | 'dark'; query?: string; viewport?: { width: number; height: number }; settleMs?: number } = {},
): Promise<AppPage> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1600, height: 1000 },
    deviceScaleFactor: 1,
    colorScheme: opts.theme ?? 'light',
    acceptDownloads: true,
  });
  // Generous: the machines this runs on are often shared and loaded; a real hang still fails.
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`${e.name}: ${e.message}`));
  context.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('data:') || u.startsWith('blob:')) return;
    if (!u.startsWith(serve.origin) && !u.startsWith(serve.origin.replace('http:', 'ws:'))) foreign.push(u);
  });
  if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
  await page.goto(`${serve.url}${opts.query ? `&${opts.query}` : ''}`);
  return { context, page, errors, foreign, close: () => context.close() };
}

/** The first start-to-end duration between two performance marks of the page, or null. */
export async function markSpan(page: Page, from: string, to: string): Promise<number | null> {
  return page.evaluate(
    ([a, b]) => {
      const s = performance.getEntriesByName(a)[0];
      const e = performance.getEntriesByName(b)[0];
      return s && e ? e.startTime - s.startTime : null;
    },
    [from, to] as const,
  );
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * Resolves once the page has a performance mark named `name`. Asked through the DevTools protocol
 * (Runtime.evaluate of a promise the page resolves from a PerformanceObserver), not `page.waitForFunction`:
 * Playwright's first evaluate in a page compiles its injected script there, a 60–110 ms main-thread task that
 * landed inside the open the bench measures (Chromium trace: EvaluateScript of UtilityScript/InjectedScript).
 */
export async function waitForMark(page: Page, name: string, timeoutMs = 120_000): Promise<void> {
  let session = sessions.get(page);
  if (!session) sessions.set(page, (session = page.context().newCDPSession(page)));
  const expression = `new Promise((resolve) => {
    const has = () => performance.getEntriesByName(${JSON.stringify(name)}).length > 0;
    if (has()) return resolve(true);
    const po = new PerformanceObserver(() => { if (has()) { po.disconnect(); resolve(true); } });
    po.observe({ type: 'mark' });
  })`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waitForMark: no ${name} mark after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const r = await Promise.race([
      (await session).send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }),
      timeout,
    ]);
    if (r.exceptionDetails) throw new Error(`waitForMark ${name}: ${r.exceptionDetails.text}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for two animation frames in the page (what is drawn is then on screen). */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

export interface OpenTimes {
  /** From `tlab:open-start` to each later mark, ms (null when the mark never came). */
  doc: number | null;
  firstFrame: number | null;
  analysis: number | null;
  ready: number | null;
  /** Page navigation → `tlab:open-start` and → `tlab:first-frame`, ms: what the window did before asking for the
   * file counts here, so a later open-start cannot hide time. */
  navOpenStart: number | null;
  navFirstFrame: number | null;
  /** The longest main-thread task that started between open-start and the later of first-frame and ready. */
  longestTaskMs: number;
  longTasks: number;
  /** The three longest of those tasks: start (ms from open-start), duration, and the open's phase it started in
   * (`open` before DocInfo, `graph` until the first frame, `analysis` until the AnalysisView arrived, `ready`
   * until the dock drew it, `after`), and the `performance.measure`s of the page it overlapped. */
  longest: Array<{ at: number; ms: number; phase: string; measures: string[] }>;
  /** The graph module's own split of its open (root fetch wait, auto-expansion fetches, worker layout, first draw)
   * and what the first frame shows. */
  graph: {
    open: { fetchMs: number; expandMs: number; layoutMs: number; drawMs: number };
    visibleNodes: number;
    visibleEdges: number;
  } | null;
}

/** The marks of the page's current open and the long tasks inside it. */
export async function openTimes(page: Page): Promise<OpenTimes> {
  return page.evaluate(`(() => {
    const at = (n) => { const e = performance.getEntriesByName(n)[0]; return e ? e.startTime : null; };
    const s = at('tlab:open-start');
    const rel = (n) => { const t = at(n); return s === null || t === null ? null : t - s; };
    const end = Math.max(at('tlab:first-frame') ?? 0, at('tlab:ready') ?? 0);
    const tasks = (window.tlabPerf ? window.tlabPerf.longTasks() : []).filter((t) => s !== null && t.start + t.duration >= s && t.start <= end);
    const phases = [['open', 'tlab:doc'], ['graph', 'tlab:first-frame'], ['analysis', 'tlab:analysis'], ['ready', 'tlab:ready']];
    const phaseOf = (t) => { for (const [p, m] of phases) { const x = at(m); if (x === null || t < x) return p; } return 'after'; };
    const measures = performance.getEntriesByType('measure');
    const longest = tasks.slice().sort((a, b) => b.duration - a.duration).slice(0, 3).map((t) => ({
      at: Math.round(t.start - s), ms: Math.round(t.duration), phase: phaseOf(t.start),
      measures: measures.filter((m) => m.startTime < t.start + t.duration && m.startTime + m.duration > t.start).map((m) => m.name).slice(0, 4),
    }));
    return {
      navOpenStart: s, navFirstFrame: at('tlab:first-frame'),
      doc: rel('tlab:doc'), firstFrame: rel('tlab:first-frame'), analysis: rel('tlab:analysis'), ready: rel('tlab:ready'),
      longestTaskMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0), longTasks: tasks.length, longest,
      graph: window.tlabPerf ? window.tlabPerf.graph() : null,
    };
  })()`);
}
