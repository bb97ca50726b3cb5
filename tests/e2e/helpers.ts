/**
 * Shared Playwright helpers for browser-mode end-to-end tests (vitest drives playwright-core directly, so they
 * run inside `npm test`): Debian's Chromium, a served renderer, the set-up every app test file shares
 * (`appSession`: the real `transient-lab serve` and Chromium), and a watch on every page for console errors,
 * uncaught exceptions and requests to any other host.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { appE2eReady, launchChromium as launchAppChromium, startServe, type Serve } from '../../bench/lib/browser.js';
import { examplesDir, packageRoot } from '../../electron/engine/paths.js';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { RootsFileAccess } from '../../electron/host-kit/file-access.js';
import { startServer, type RunningServer } from '../../electron/host-kit/web-server/server.js';
import { TransientLabService } from '../../electron/service/index.js';

export const CHROMIUM = process.env.TLAB_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(packageRoot(), 'tests', 'e2e', 'screenshots');

function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable()) throw new Error(`${CHROMIUM} is missing: .ci/run installs it (apt-get install -y chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

export interface Served {
  server: RunningServer;
  service: TransientLabService;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  close(): Promise<void>;
}

/** `transient-lab serve` in this process: the real server, service and runner over `roots`. */
export async function serveInProcess(opts: { roots?: string[]; openAtStart?: string[] } = {}): Promise<Served> {
  const service = await TransientLabService.create({
    host: 'browser',
    files: await RootsFileAccess.create(opts.roots ?? [examplesDir()]),
    createRunner: () => new NodeRunnerHost(),
    openAtStart: opts.openAtStart ?? [],
  });
  const server = await startServer({ service, port: 0, hosts: ['127.0.0.1'] });
  return {
    server,
    service,
    origin: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.close();
      await service.dispose();
    },
  };
}

export interface PageWatch {
  consoleErrors: string[];
  pageErrors: string[];
  /** Requests (and WebSockets) to anything but `origin`. */
  foreignRequests: string[];
  requests: string[];
}

export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { consoleErrors: [], pageErrors: [], foreignRequests: [], requests: [] };
  const wsOrigin = origin.replace(/^http/, 'ws');
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.consoleErrors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watch.pageErrors.push(e.message));
  page.on('request', (r) => {
    watch.requests.push(r.url());
    if (new URL(r.url()).origin !== origin) watch.foreignRequests.push(r.url());
  });
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).origin !== wsOrigin) watch.foreignRequests.push(ws.url());
  });
  return watch;
}

/** Saves tests/e2e/screenshots/NAME.png (not committed) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** What an app test file's set-up made (appSession): set once its first hook ran. */
export interface AppSession {
  serve: Serve;
  browser: Browser;
  /** The file's scratch folder ('' when it asked for none). */
  scratch: string;
}

/**
 * The set-up every app test file shares, as hooks of the file: fail (never skip, tests/setup.test.ts) when
 * Chromium or the built app is missing; make `shots`; make a scratch folder when `scratch` names its prefix and
 * let `fill` put files in it; then start `transient-lab serve` with `serveArgs` and Chromium side by side.
 * Afterwards Chromium and the server stop and the scratch folder goes. A file's own hooks run after these
 * (its afterAll before), so they may open pages and must close them.
 */
export function appSession(opts: {
  /** Who cannot run, in the message when the set-up is missing (`the verdict e2e test`). */
  what: string;
  shots: string;
  serveArgs: (scratch: string) => string[];
  scratch?: { prefix: string; fill?: (dir: string) => void | Promise<void> };
  timeoutMs?: number;
}): AppSession {
  const session = { scratch: '' } as AppSession;
  beforeAll(async () => {
    const ready = appE2eReady();
    if (!ready.ok) throw new Error(`${opts.what} cannot run: ${ready.why}`);
    mkdirSync(opts.shots, { recursive: true });
    if (opts.scratch) {
      session.scratch = mkdtempSync(join(tmpdir(), opts.scratch.prefix));
      await opts.scratch.fill?.(session.scratch);
    }
    [session.serve, session.browser] = await Promise.all([startServe(opts.serveArgs(session.scratch)), launchAppChromium()]);
  }, opts.timeoutMs ?? 120_000);
  afterAll(async () => {
    await session.browser?.close();
    await session.serve?.stop();
    if (session.scratch) rmSync(session.scratch, { recursive: true, force: true });
  });
  return session;
}
