/**
 * The desktop app as far as it runs without the Electron binary: the real main process (startShell over the
 * fake Electron, with the real engine host and runner processes), the real app:// handler with its CSP serving
 * the production renderer build, and the real preload bundle, all in Debian's Chromium. Playwright stands in
 * for what only Electron has: the app:// scheme (the page's origin is http://transient-lab.test, every request
 * answered by the app:// handler) and the IPC pipe (a binding from the preload's ipcRenderer to the fake
 * ipcMain, as the window's main frame). The page must connect as the electron host, open the program named on
 * the command line, and log no console error (a CSP violation would be one).
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import { startShell, type Shell } from '../../electron/shell/app.js';
import { shellPaths } from '../../electron/shell/paths.js';
import { appProtocolHandler } from '../../electron/shell/protocol.js';
import { launchChromium, screenshot, watchPage } from '../e2e/helpers.js';
import { eventually } from '../contract/fixtures.js';
import { fakeElectron, type FakeElectron, type FakeWindow } from './fake-electron.js';

const ORIGIN = 'http://transient-lab.test';
const paths = shellPaths();

/** The preload bundle, run in the page with a `require` that knows only `electron` (as in a sandboxed renderer). */
function preloadInitScript(preload: string): string {
  return `(() => {
  const listeners = [];
  window.__tlabDeliver = (channel, args) => { for (const l of listeners) if (l.channel === channel) l.fn({}, ...args); };
  const electron = {
    contextBridge: { exposeInMainWorld: (key, api) => { Object.defineProperty(window, key, { value: api }); } },
    ipcRenderer: {
      invoke: (channel, ...args) => window.__tlabIpc('invoke', channel, args),
      send: (channel, ...args) => { void window.__tlabIpc('send', channel, args); },
      on: (channel, fn) => { listeners.push({ channel, fn }); },
    },
    webUtils: { getPathForFile: () => '' },
  };
  const module = { exports: {} };
  (function (require, module, exports) {\n${preload}\n})((id) => { if (id === 'electron') return electron; throw new Error('a sandboxed preload cannot require ' + id); }, module, module.exports);
})();`;
}

interface Call {
  method: unknown;
  req: unknown;
  reply: { ok: boolean; error?: { message: string } };
}

/** Opens the page of one of the shell's windows in Chromium, wired to that window; `calls` records its contract calls. */
async function pageFor(browser: Browser, electron: FakeElectron, win: FakeWindow, calls: Call[]): Promise<Page> {
  const context = await browser.newContext();
  const handler = appProtocolHandler(paths.rendererDir);
  await context.route(`${ORIGIN}/**`, async (route) => {
    const req = route.request();
    const res = await handler(new Request(req.url().replace(ORIGIN, 'app://transient-lab'), { method: req.method() }));
    await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
  });
  await context.exposeBinding('__tlabIpc', async (_source, kind: string, channel: string, args: unknown[]) => {
    const event = win.webContents.ipcEvent();
    if (kind === 'invoke') {
      const reply = (await electron.ipcMain.invoke(event, channel, ...args)) as Call['reply'];
      calls.push({ method: args[0], req: args[1], reply });
      return reply;
    }
    electron.ipcMain.send(event, channel, ...args);
    return null;
  });
  await context.addInitScript({ content: preloadInitScript(await readFile(paths.preload, 'utf8')) });
  const page = await context.newPage();
  win.webContents.onSend = (channel, args) =>
    void page
      .evaluate(([c, a]) => (window as unknown as { __tlabDeliver(c: string, a: unknown[]): void }).__tlabDeliver(c, a), [
        channel,
        args,
      ] as const)
      .catch(() => {});
  return page;
}

describe('desktop app in Chromium (Electron stand-ins)', () => {
  let browser: Browser;
  let dir: string;
  let shell: Shell;
  let electron: FakeElectron;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tlab-desktop-e2e-'));
    await copyFile(join(examplesDir(), 'hdiff.sdfg'), join(dir, 'hdiff.sdfg'));
    electron = fakeElectron(join(dir, 'user'));
    shell = (await startShell({
      electron: electron.seam,
      paths,
      argv: ['/x/electron', '/repo', join(dir, 'hdiff.sdfg')],
      cwd: dir,
      log: () => {},
    }))!;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads under the CSP, connects through the preload as the electron host, and opens the command line's program", async () => {
    const [win] = electron.windows();
    const calls: Call[] = [];
    const page = await pageFor(browser, electron, win!, calls);
    const watch = watchPage(page, ORIGIN);
    const url = win!.loaded[0]!;
    expect(url).toBe(`app://transient-lab/index.html?open=${encodeURIComponent(join(dir, 'hdiff.sdfg'))}`);
    const response = await page.goto(url.replace('app://transient-lab', ORIGIN));
    expect(response!.headers()['content-security-policy']).toMatch(/^default-src 'none'/);
    // Whatever the renderer shows, it asks the host what it is and opens the program named in its URL.
    expect(await eventually(() => calls.some((c) => c.method === 'openFile'), 60_000)).toBe(true);
    const open = calls.find((c) => c.method === 'openFile')!;
    expect(open.req).toEqual({ path: join(dir, 'hdiff.sdfg') });
    expect(open.reply).toMatchObject({ ok: true, value: { name: 'hdiff.sdfg', path: join(dir, 'hdiff.sdfg') } });
    expect(calls.find((c) => c.method === 'environment')!.reply).toMatchObject({
      ok: true,
      value: { host: 'electron', examples: expect.any(Array) },
    });
    expect(calls.filter((c) => !c.reply.ok).map((c) => `${String(c.method)}: ${c.reply.error?.message}`)).toEqual([]);
    await page.waitForLoadState('networkidle');
    // What the page sees of the host: the contract's methods and `on`, nothing else.
    const keys = await page.evaluate(() => Object.keys((window as unknown as { transientLab: object }).transientLab).sort());
    expect(keys).toContain('profile');
    expect(keys).not.toContain('invoke');
    await screenshot(page, 'desktop');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    await page.context().close();
  });
});
