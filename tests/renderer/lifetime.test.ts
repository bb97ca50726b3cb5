// @vitest-environment jsdom
/** Lifetime timeline: rows, bars, curves, peaks, hit testing, the symbolic case, many rows. */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../electron/engine/view/format.js';
import { renderChartSVG } from '../../renderer/src/charts/chart.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { lifetimeChart } from '../../renderer/src/charts/lifetime.js';
import { lifetimeModel, rowAt, type LifetimeData, type LifetimeLayout } from '../../renderer/src/charts/lifetime-model.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { access, desc, file, scalar, sdfg, state } from '../../bench/lib/model-builder.js';
import { exampleView, parseSvg, viewOfModel } from './fixtures.js';

function layoutOf(data: LifetimeData, width = 900, height = 500, selected: string | null = null): LifetimeLayout {
  return lifetimeChart.draw(new SvgPainter(), data, {
    width,
    height,
    theme: chartTheme('light'),
    state: lifetimeChart.initialState(data),
    selected,
    hover: null,
    interactive: true,
  });
}

describe('lifetime timeline', () => {
  it('draws one bar per memory-holding transient, four curves and the peaks', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const doc = parseSvg(renderChartSVG(lifetimeChart, { view }, { width: 900, height: 500 }));
    expect(doc.querySelectorAll('g.bars rect')).toHaveLength(3);
    expect(doc.querySelectorAll('g.curves polyline')).toHaveLength(4);
    // POOL equals SCOPED on CPU: it gets no marker of its own, and the legend says so.
    expect(doc.querySelectorAll('g.peaks polygon')).toHaveLength(3);
    const text = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(text).toContain('= SCOPED');
    expect(text).toContain('lap');
    const peak = view.memory[0]!.curves!.find((c) => c.mode === 'SCOPED')!.peak.bytes as number;
    expect(text).toContain(`peak ${formatBytes(peak)}`);
  });

  it('outlines the selected transient in the accent colour', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const plain = parseSvg(renderChartSVG(lifetimeChart, { view }, { width: 900, height: 500 }));
    const sel = parseSvg(renderChartSVG(lifetimeChart, { view }, { width: 900, height: 500, selectedTransient: '0:flx' }));
    const accent = chartTheme('light').accent;
    const outlined = (d: Document) => [...d.querySelectorAll('g.bars rect')].filter((r) => r.getAttribute('stroke') === accent);
    expect(outlined(plain)).toHaveLength(0);
    expect(outlined(sel)).toHaveLength(1);
  });

  it('finds the transient under the pointer and the step under the curve', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const L = layoutOf({ view });
    const rowY = (r: number) => L.barsTop + (r + 0.5) * L.rowHeight;
    const ids = [0, 1, 2].map((r) => lifetimeChart.hit(L, (L.left + L.right) / 2, rowY(r))?.id);
    expect(ids).toEqual(['0:lap', '0:flx', '0:fly']);
    expect(lifetimeChart.hit(L, (L.xOf(2) + L.xOf(3)) / 2, (L.curveTop + L.curveBottom) / 2)).toEqual({ id: null, key: 'step:2' });
    const tip = lifetimeChart.tooltip({ view }, L, { id: '0:flx', key: 'row:1' })!;
    expect(tip.title).toBe('flx');
    expect(Object.fromEntries(tip.rows)['live']).toBe('steps 1–3 (hdiff/flux_x … hdiff/output)');
    expect(Object.fromEntries(tip.rows)['EXTERNAL']).toBe('✓ eligible');
  });

  it('keeps bars but explains the missing curves when sizes are symbolic', async () => {
    const view = await exampleView('chain');
    const doc = parseSvg(renderChartSVG(lifetimeChart, { view }, { width: 900, height: 400 }));
    expect(doc.querySelectorAll('g.bars rect')).toHaveLength(4);
    expect(doc.querySelector('g.curves')).toBeNull();
    expect(doc.documentElement.textContent).toMatch(
      /Memory over steps needs sizes: 4 transient sizes depend on unknown symbols \(e\.g\. 8·N B\)/,
    );
  });

  it('shows every transient on request, memory holders first', () => {
    const root = sdfg(
      'm',
      [desc('a', ['100']), scalar('s'), desc('b', ['100'])],
      [state('s0', [access('a'), access('s')]), state('s1', [access('b')])],
    );
    const view = viewOfModel(file(root));
    expect([...lifetimeModel({ view }).rows].map((i) => view.table.id[i])).toEqual(['0:a', '0:b']);
    expect([...lifetimeModel({ view, rows: 'all' }).rows].map((i) => view.table.id[i])).toEqual(['0:a', '0:b', '0:s']);
  });

  it('below a pixel per row, hovers the row of that pixel line whose bar covers the pointer', () => {
    // 1200 transients, each live in one of 40 states: far more rows than pixels.
    const names = Array.from({ length: 1200 }, (_, i) => `t${i}`);
    const states = Array.from({ length: 40 }, (_, s) =>
      state(
        `s${s}`,
        names.filter((_, i) => i % 40 === s).map((n) => access(n)),
      ),
    );
    const view = viewOfModel(
      file(
        sdfg(
          'many',
          names.map((n) => desc(n, ['64'])),
          states,
        ),
      ),
    );
    // By default rows are at least a pixel and scroll; zoomed all the way out, every row fits.
    expect(layoutOf({ view }, 900, 400).rowHeight).toBe(1);
    const data = { view };
    const fitAll = lifetimeChart.draw(new SvgPainter(), data, {
      width: 900,
      height: 400,
      theme: chartTheme('light'),
      state: { ...lifetimeChart.initialState(data), rowHeight: 0.01 },
      selected: null,
      hover: null,
      interactive: true,
    });
    const L = fitAll;
    expect(L.rowHeight).toBeLessThan(1);
    expect(L.rowHeight * 1200).toBeCloseTo(L.barsBottom - L.barsTop, 3);
    const t = view.table;
    for (const y of [L.barsTop + 3, (L.barsTop + L.barsBottom) / 2, L.barsBottom - 2]) {
      for (const x of [L.xOf(3.5), L.xOf(20.5), L.xOf(38.5)]) {
        const r = rowAt(L, x, y);
        const i = L.model.rows[r]!;
        const step = Math.floor(L.stepAt(x));
        // Either its bar covers the pointer, or no row on that pixel line has one there.
        const line = [...L.model.rows.slice(Math.floor((y - L.barsTop) / L.rowHeight), Math.floor((y + 1 - L.barsTop) / L.rowHeight) + 1)];
        const covering = line.filter((k) => t.first[k]! <= step && step <= t.last[k]!);
        if (covering.length) expect(t.first[i]! <= step && step <= t.last[i]!).toBe(true);
      }
    }
    // Bars of rows on one pixel line that touch or overlap are merged into one rectangle.
    const doc = parseSvg(
      renderChartSVG(lifetimeChart, data, { width: 900, height: 400 }, { ...lifetimeChart.initialState(data), rowHeight: 0.01 }),
    );
    const bars = doc.querySelectorAll('g.bars rect').length;
    expect(bars).toBeLessThan(1200);
    expect(bars).toBeGreaterThanOrEqual(40);
  });

  it('zooms the steps by brush and wheel, scrolls rows, walks the selection with the keyboard', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const data = { view };
    const L = layoutOf(data);
    const s0 = lifetimeChart.initialState(data);
    expect(lifetimeChart.brushed!(data, L, s0, [L.xOf(1.2), L.xOf(2.7)])).toMatchObject({ x0: 1, x1: 3 });
    expect(lifetimeChart.brushed!(data, L, { ...s0, x0: 1, x1: 3 }, null)).toMatchObject({ x0: 0, x1: 4 });
    const zoomed = lifetimeChart.wheel!(data, L, s0, {
      x: L.xOf(2),
      y: L.curveTop + 5,
      dx: 0,
      dy: -200,
      ctrl: true,
      shift: false,
      alt: false,
    })!;
    expect(zoomed.x1 - zoomed.x0).toBeLessThan(4);
    const down = lifetimeChart.key!(
      data,
      L,
      { width: 900, height: 500, theme: chartTheme('light'), state: s0, selected: '0:lap', hover: null, interactive: true },
      'ArrowDown',
    )!;
    expect(down.select).toBe('0:flx');
  });
});
