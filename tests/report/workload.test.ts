/**
 * The workload report (electron/engine/report/workload.ts): the Workload view's pictures as static SVG, drawn by the
 * built chart bundle, and their tables, from the advisor's figures of the bundled workload and from a hand-written
 * workload-result@1.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advise } from '../../electron/engine/advise/index.js';
import { loadSubject, type SubjectOptions } from '../../electron/engine/advise/subject.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { loadReportAssets } from '../../electron/engine/report/assets.js';
import { renderWorkloadReport, workloadReportHtml } from '../../electron/engine/report/workload.js';
import { resultFixture } from '../fixtures/workload/result-fixture.js';

const EXAMPLES = join(packageRoot(), 'assets', 'examples');
const NONE: SubjectOptions = { symbols: new Map(), defaultSymbol: null, target: null };
// hdiff's three transients at I=J=128, K=80 (float64, 64-byte slots) size the shared workspace (README.md).
const HDIFF_NEED = [130 * 130 * 80 * 8, 129 * 128 * 80 * 8, 128 * 129 * 80 * 8].map((b) => Math.ceil(b / 64) * 64).reduce((a, b) => a + b);

const section = (html: string, id: string): string => {
  const at = html.indexOf(`<section id="${id}"`) >= 0 ? html.indexOf(`<section id="${id}"`) : html.indexOf(`id="${id}"`);
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};

describe('the workload report', () => {
  it('from the advisor alone: the recommendation, the pictures as SVG, calls and programs, a sweep, no script', async () => {
    const subject = await loadSubject(join(EXAMPLES, 'workload-dycore.json'), NONE);
    const advice = advise(subject, { ...NONE, layout: 'packed', sweep: { symbol: 'K', values: [80n, 160n, 320n, 640n] } });
    const files = Object.fromEntries([...subject.workload!.programs.values()].map((p) => [p.key, p.sdfg!]));
    const html = await workloadReportHtml(null, { advice, files, generatedAt: '2026-12-07T06:00:00Z' });
    expect(html).toContain(`data-key="advice.workspace|CPU_Heap">30.5 MiB</data>`);
    expect(html).toContain(`value="${HDIFF_NEED}"`);
    expect(html).toMatch(/No timing backs this/);
    // The Workload view's picture, drawn by the chart module: the three modes' groups and the needs.
    const pictures = section(html, 'pictures');
    for (const g of ['calls', 'persistent', 'external', 'pool', 'needs']) expect(pictures).toContain(`class="${g}"`);
    expect(pictures).toContain('sized by hdiff');
    expect((section(html, 'tables').match(/<tr>/g) ?? []).length).toBeGreaterThanOrEqual(1 + 5 + 4);
    expect(section(html, 'tables')).toContain('hdiff <b>(sizes the workspace)</b>');
    expect(section(html, 'tables')).toContain('hdiff.sdfg');
    expect(section(html, 'sweep')).toContain(`packed workspace = ${(130 * 130 + 2 * 129 * 128) * 8}*K bytes`);
    expect(section(html, 'sweep')).toContain('<svg');
    expect(section(html, 'blockers')).toContain('Nothing: every transient');
    // Static: no script runs (the CSP allows none), nothing is fetched.
    expect(html).not.toMatch(/<script(?![^>]*application\/json)/);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;/);
    expect(html).not.toMatch(/\bsrc=|href="http/);
  });

  it('from a measured result: measured footprints, per-step times, verification, findings; the result embedded', async () => {
    const result = resultFixture();
    const html = renderWorkloadReport(result, {}, await loadReportAssets());
    expect(section(html, 'recommendation')).toContain('EXTERNAL (packed) is fastest');
    expect(section(html, 'tables')).toContain('EXTERNAL (packed) (measured)');
    expect(section(html, 'tables')).toContain('12.0 KiB');
    const measured = section(html, 'measured');
    expect(measured).toContain('2.00 µs');
    expect(measured).toContain('1 of 2 calls differ');
    expect(measured).toContain('program &#39;b&#39; read workspace bytes another program left behind');
    expect(section(html, 'pictures')).toContain('sized by b');
    expect(section(html, 'pictures')).toContain('largest call: the result records needs per program');
    const embedded = /<script type="application\/json" id="tlab-workload-result">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(embedded)).toEqual(result);
  });
});
