/**
 * A generated program name has no break in it (npbench's channel_flow: 62 characters of `_`-joined words): the
 * report's title wraps it inside the page's column, after an underscore, rather than run past its right edge.
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
    // It wraps after an underscore, between the words of the name, not inside one ("…channel_flo / w").
    const lastOfLines = await page.evaluate<string[]>(`(() => {
      const h = document.querySelector('h1');
      const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
      const out = [];
      let prev = null;
      let top = null;
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (let i = 0; i < n.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const t = Math.round(r.getBoundingClientRect().top);
          if (top !== null && t > top + 2 && prev !== null) out.push(prev);
          if (top === null || t > top + 2) top = t;
          prev = n.data[i];
        }
      }
      return out;
    })()`);
    expect(lastOfLines.length).toBeGreaterThan(0);
    for (const c of lastOfLines) expect(c).toMatch(/[_ ]/);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
