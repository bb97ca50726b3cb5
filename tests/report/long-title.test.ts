/**
 * A generated program name has no break in it (npbench's channel_flow: 62 characters of `_`-joined words): the
 * report's title wraps it inside the page's column rather than run past its right edge.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { reportHtml } from '../../electron/engine/report/index.js';
import { launchChromium } from '../e2e/helpers.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

test('a long program name stays inside the report column', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tlab-report-title-'));
  const browser = await launchChromium();
  try {
    const input = await reportInput([labelled('channel_flow', FIXTURE.run)], false);
    input.results[0]!.result.program.name = 'npbench_benchmarks_channel_flow_channel_flow_dace_channel_flow';
    const file = join(dir, 'report.html');
    await writeFile(file, (await reportHtml(input)).html);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    const h1 = await page.evaluate('(() => { const h = document.querySelector("h1"); return [h.scrollWidth, h.clientWidth]; })()');
    const [scroll, client] = h1 as [number, number];
    expect(scroll).toBeLessThanOrEqual(client);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
