// @vitest-environment jsdom
/** Workspace map: both layouts on one byte scale, the numbers, hit testing, symbolic and empty cases. */
import { describe, expect, it } from 'vitest';
import { renderChartSVG } from '../../renderer/src/charts/chart.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { workspaceChart } from '../../renderer/src/charts/workspace.js';
import { access, desc, file, mapEntry, mapExit, sdfg, state } from '../../bench/lib/model-builder.js';
import { exampleView, parseSvg, viewOfModel } from './fixtures.js';

describe('workspace map', () => {
  it('draws both layouts with their totals, the saving and the lower bound', async () => {
    const view = await exampleView('chain', { N: 2000000 });
    const doc = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 1000, height: 420 }));
    // Hatched buffers (the other rectangles are the backgrounds of their labels).
    expect(doc.querySelectorAll('g.rects.dace rect[fill^="url("]')).toHaveLength(4);
    expect(doc.querySelectorAll('g.rects.packed rect')).toHaveLength(4);
    const text = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(text).toContain('30.5 MiB');
    expect(text).toContain('61.0 MiB');
    expect(text).toContain('30.5 MiB (50.0%)');
    expect(text).toContain('total 30.5 MiB = lower bound');
    // DaCe hatched, packed solid.
    expect(doc.querySelector('g.rects.dace rect')!.getAttribute('fill')).toMatch(/^url\(#/);
    expect(doc.querySelector('g.rects.packed rect')!.getAttribute('fill')).toBe(chartTheme('light').modes.EXTERNAL);
  });

  it('puts both layouts on the same byte scale, so the saving is a visible height', async () => {
    const view = await exampleView('chain', { N: 2000000 });
    const doc = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 1000, height: 420 }));
    const top = (sel: string) => Math.min(...[...doc.querySelectorAll(sel)].map((r) => Number(r.getAttribute('y'))));
    const bottom = (sel: string) =>
      Math.max(...[...doc.querySelectorAll(sel)].map((r) => Number(r.getAttribute('y')) + Number(r.getAttribute('height'))));
    const dace = bottom('g.rects.dace rect[fill^="url("]') - top('g.rects.dace rect[fill^="url("]');
    const packed = bottom('g.rects.packed rect') - top('g.rects.packed rect');
    expect(dace / packed).toBeCloseTo(2, 1);
  });

  it('finds the transient under the pointer in either layout, with its offsets', async () => {
    const view = await exampleView('chain', { N: 2000000 });
    const L = workspaceChart.draw(
      new SvgPainter(),
      { view },
      {
        width: 1000,
        height: 420,
        theme: chartTheme('light'),
        state: workspaceChart.initialState({ view }),
        selected: null,
        hover: null,
        interactive: true,
      },
    );
    const packed = L.panels.find((p) => p.which === 'packed')!;
    const r = packed.rects!;
    const k = r.row.findIndex((row) => view.table.id[row] === '0:t3');
    const x = (L.xOf(packed, r.first[k]!) + L.xOf(packed, r.last[k]! + 1)) / 2;
    const y = L.yOf(Number(r.offset[k]) + Number(r.size[k]) / 2);
    const h = workspaceChart.hit(L, x, y)!;
    expect(h.id).toBe('0:t3');
    const tip = workspaceChart.tooltip({ view }, L, h)!;
    expect(Object.fromEntries(tip.rows)['offset (packed)']).toBe('0 B (0 B)');
    expect(Object.fromEntries(tip.rows)['offset (DaCe)']).toMatch(/^30\.5 MiB \(32\u2009000\u2009000 B\)$/);
  });

  it('writes the symbolic DaCe size when sizes are unknown', async () => {
    const view = await exampleView('chain');
    const text = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 1000, height: 420 })).documentElement.textContent;
    expect(text).toContain('32·N B');
    expect(text).toContain('Sizes depend on symbols without values');
    // Every member listed with its symbolic size.
    expect(text.match(/8·N B/g)).toHaveLength(4);
  });

  it('explains an empty workspace with the commonest reasons', () => {
    // Both transients are used inside a map: gt4py rule 5 keeps them out of the workspace.
    const root = sdfg(
      'm',
      [desc('a', ['10000']), desc('b', ['10000'])],
      [state('s', [mapEntry('k', ['i'], [['0', '9']]), access('a', 0), access('b', 0), mapExit(0, 0)])],
    );
    const view = viewOfModel(file(root));
    const text = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 900, height: 300 })).documentElement.textContent;
    expect(text).toContain('No transient is eligible for EXTERNAL');
    expect(text).toMatch(/2 × accessed inside map/);
  });

  it('counts a one-state program in the singular: 1 step, as gpu-tb reads', () => {
    const root = sdfg('one', [desc('a', ['100']), desc('b', ['100'])], [state('s', [access('a'), access('b')])]);
    const view = viewOfModel(file(root));
    expect(view.analysis.steps).toHaveLength(1);
    const text = parseSvg(renderChartSVG(workspaceChart, { view }, { width: 1000, height: 300 })).documentElement.textContent;
    expect(text).toMatch(/in the EXTERNAL workspace · 1 step(?!s)/);
  });
});
