/**
 * The HTML report in headless Chromium (Debian's, through playwright-core), opened from a file the way a user
 * opens it: no request leaves the page, no console error, every chart is drawn (static SVG and the live chart
 * mounted over it), and every number of the verdict on the page is the result's. The PDF printed from it has
 * pages, extractable text (poppler's pdftotext) and charts as vectors (no raster image).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { printPdf } from '../../electron/host-kit/pdf.js';
import { reportHtml, runsText, type NumberRun, type ReportModel } from '../../electron/engine/report/index.js';
import { CHROMIUM, launchChromium } from '../e2e/helpers.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

const run = promisify(execFile);

let dir: string;
let browser: Browser;
let html: string;
let model: ReportModel;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-report-browser-'));
  ({ html, model } = await reportHtml(await reportInput([labelled('hdiff', FIXTURE.sampled)])));
  file = join(dir, 'report.html');
  await writeFile(file, html);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('HTML report in Chromium', () => {
  test.each(['light', 'dark'] as const)(
    '%s: offline, no console error, every chart drawn, verdict numbers from the result',
    async (colorScheme) => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, colorScheme });
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => {
        if (r.url() !== pathToFileURL(file).href && !r.url().startsWith('data:')) requests.push(r.url());
      });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(`document.querySelectorAll('figure.chart.live').length === ${model.charts.length}`, undefined, {
        timeout: 30_000,
      });

      // Page scripts as strings, so that this Node-side file needs no DOM types.
      const charts = await page.evaluate<
        Array<{ id: string; kind: string; staticMarks: number; liveMarks: number; w: number; h: number }>
      >(`[...document.querySelectorAll('figure.chart')].map((f) => {
      const live = f.querySelector('.chart-live');
      const box = live.getBoundingClientRect();
      return { id: f.id, kind: f.dataset.chart, staticMarks: f.querySelectorAll('.chart-static svg *').length, liveMarks: live.querySelectorAll('svg *').length, w: box.width, h: box.height };
    })`);
      expect(charts.map((c) => [c.id, c.kind])).toEqual(model.charts.map((c) => [c.id, c.kind]));
      for (const c of charts) {
        expect(c.staticMarks, `${c.id} static`).toBeGreaterThan(20);
        expect(c.liveMarks, `${c.id} live`).toBeGreaterThan(20);
        expect(c.w * c.h, `${c.id} size`).toBeGreaterThan(300 * 100);
      }

      const shown = await page.evaluate<Array<{ key: string; value: number; text: string }>>(
        `[...document.querySelectorAll('#verdict data')].map((d) => ({ key: d.dataset.key, value: Number(d.value), text: d.textContent }))`,
      );
      const runs = model.verdict.flat().filter((x): x is NumberRun => typeof x !== 'string');
      expect(shown).toEqual(runs.map((r) => ({ key: r.key, value: r.value, text: r.text })));
      // A noisy run: the verdict compares p10.
      expect(shown.find((s) => s.key === 'p10|0|POOL')!.value).toBe(
        model.results[0]!.result.modes.find((m) => m.label === 'POOL')!.summary.p10Ns,
      );
      const text = (await page.locator('#verdict').innerText()).replace(/\s+/g, ' ');
      expect(text).toContain(runsText(model.verdict[0]!).replace(/\s+/g, ' '));

      // The theme toggle redraws the live charts without an error.
      await page.click('#theme-toggle');
      expect(await page.evaluate('document.documentElement.dataset.theme')).toBe(colorScheme === 'light' ? 'dark' : 'light');
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  test('without JavaScript the static charts and every table are there', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const visible = await page.evaluate(
      `[...document.querySelectorAll('.chart-static svg')].filter((s) => s.getBoundingClientRect().height > 50).length`,
    );
    expect(visible).toBe(model.charts.length);
    expect(await page.locator('table').count()).toBeGreaterThanOrEqual(3);
    await context.close();
  });

  test('PDF: pages, extractable text, vector charts', async () => {
    const pdf = join(dir, 'report.pdf');
    await writeFile(pdf, await printPdf(html, CHROMIUM));
    const info = (await run('pdfinfo', [pdf], { encoding: 'utf8' })).stdout;
    const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(info).toMatch(/Page size:.*\(A4\)/);
    const text = (await run('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })).stdout.replace(/\s+/g, ' ');
    for (const heading of ['Verdict', 'Charts', 'Per-mode statistics', 'Transients', 'Verification', 'Methodology'])
      expect(text).toContain(heading);
    // This run's processes disagree: the verdict says it is noisy before anything else, and compares p10.
    expect(text).toMatch(/Verdict This run is noisy, so its medians are no fair summary/);
    expect(text).toMatch(/EXTERNAL \(packed\) and POOL show no clear difference at p10: p10 105 ms vs 203 ms/);
    expect(text).toContain(`page ${pages} of ${pages}`);
    // Charts print as vectors: no raster image in the whole document, and the charts' labels are text.
    const images = (await run('pdfimages', ['-list', pdf], { encoding: 'utf8' })).stdout.trim().split('\n');
    expect(images.length).toBe(2); // the header lines only
    expect(text).toContain('time per call (ms)');
    // Every mode's memory curve is in the lifetime chart's legend (the static charts are drawn wide enough).
    expect(text).toMatch(/Memory over steps .*SCOPED peak .*PERSISTENT peak .*EXTERNAL peak/);
  });
});
