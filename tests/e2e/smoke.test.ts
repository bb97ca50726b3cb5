/**
 * Smoke test of browser mode in a real browser: the page served with its token loads under the strict CSP,
 * reaches the service over the WebSocket with the session cookie, opens the start-up files (`serve FILE`,
 * `?open=`), shows a refused path as an error, logs no console error and asks no other host for anything.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir } from '../../electron/engine/paths.js';
import { launchChromium, screenshot, serveInProcess, watchPage, type Served } from './helpers.js';

describe('browser mode smoke', () => {
  let browser: Browser;
  let served: Served;
  let base: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'tlab-e2e-'));
    await mkdir(join(base, 'root', 'sub'), { recursive: true });
    await copyFile(join(examplesDir(), 'hdiff.sdfg'), join(base, 'root', 'hdiff-copy.sdfg'));
    await copyFile(join(examplesDir(), 'chain.sdfg'), join(base, 'root', 'sub', 'chain.sdfg'));
    served = await serveInProcess({ roots: [join(base, 'root')], openAtStart: [join(base, 'root', 'hdiff-copy.sdfg')] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('loads with the token, connects, opens the start-up files; no console error, no other host', async () => {
    const page = await browser.newPage();
    const watch = watchPage(page, served.origin);
    await page.goto(`${served.server.url}&open=sub%2Fchain.sdfg&open=..%2F..%2Fetc%2Fpasswd`);
    // The token left the address bar for an HttpOnly cookie.
    expect(page.url()).toBe(`${served.origin}/?open=sub%2Fchain.sdfg&open=..%2F..%2Fetc%2Fpasswd`);
    // The app opens the start-up files in order (one document per window): the host's, then ?open=; the last
    // readable one stays open and the refused path ends in the error panel.
    await page.getByTestId('error-panel').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('error-message').textContent()).toMatch(/outside the folders this server may read/);
    expect(await page.getByTestId('file-chip').textContent()).toContain('chain.sdfg');
    await page.getByTestId('outline-transient').first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('outline-transient').count()).toBe(4);
    // HttpOnly: page scripts cannot read the token.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
    await screenshot(page, 'smoke');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    expect(watch.requests.some((u) => u.includes('/assets/'))).toBe(true);
    await page.close();
  });

  it('a page without the token gets no renderer', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${served.origin}/`);
    expect(response?.status()).toBe(403);
    expect(await page.content()).not.toContain('id="root"');
    await page.close();
  });
});
