/**
 * The report answers first: the verdict, then the per-mode numbers, then what was run (three boxes of facts that
 * used to fill the first screen and push the verdict below the fold), then the charts; the contents follow.
 */
import { expect, test } from 'vitest';
import { reportHtml } from '../../electron/engine/report/index.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

test('the verdict and the per-mode statistics come before the run facts and the charts', async () => {
  const { html } = await reportHtml(await reportInput([labelled('hdiff', FIXTURE.run)], false));
  const body = html.slice(html.indexOf('<body'));
  const at = (id: string): number => {
    const i = body.indexOf(`id="${id}"`);
    expect(i, id).toBeGreaterThan(0);
    return i;
  };
  const order = ['verdict', 'summary', 'run', 'charts', 'transients'].map(at);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  const toc = [...body.slice(0, body.indexOf('</nav>')).matchAll(/<a href="#(\w+)">/g)].map((x) => x[1]);
  expect(toc.slice(0, 4)).toEqual(['verdict', 'summary', 'run', 'charts']);
});
