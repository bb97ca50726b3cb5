/**
 * The report's transients table fits the page column: a generated SDFG name (channel_flow's 62 characters on
 * every row) is cut with an ellipsis and named whole in its tooltip, and "steps 1–18" stays on one line, so
 * the PERSISTENT and EXTERNAL columns are not pushed out of sight behind the table's horizontal scroll.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { buildReport, loadReportAssets, renderHtml } from '../../electron/engine/report/index.js';
import { launchChromium } from '../e2e/helpers.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

const LONG = 'npbench_benchmarks_channel_flow_channel_flow_dace_channel_flow';

test('a long SDFG name does not push the eligibility columns out of sight', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tlab-report-table-'));
  const browser = await launchChromium();
  try {
    const input = await reportInput([labelled('channel_flow', FIXTURE.run)]);
    const model = buildReport(input);
    expect(model.transients?.rows.length).toBeGreaterThan(0);
    for (const r of model.transients!.rows) r.sdfg = LONG;
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(model, input.analysis.view, await loadReportAssets()));
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    const m = await page.evaluate<{ externalRight: number; wrapRight: number; title: string; liveLines: number }>(`(() => {
      const t = document.querySelector('#transients-table');
      const wrap = t.parentElement.getBoundingClientRect();
      const ext = [...t.querySelectorAll('thead th')].find((h) => h.textContent === 'EXTERNAL').getBoundingClientRect();
      const cell = t.querySelector('tbody td.sdfg span');
      const live = t.querySelector('tbody td.live');
      return { externalRight: ext.right, wrapRight: wrap.right, title: cell.title,
        liveLines: (() => { const r = document.createRange(); r.selectNodeContents(live); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; })() };
    })()`);
    // The eligibility columns are in sight without scrolling the table sideways.
    expect(m.externalRight).toBeLessThanOrEqual(m.wrapRight);
    expect(m.title).toBe(LONG);
    expect(m.liveLines).toBeLessThanOrEqual(1);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
