// @vitest-environment jsdom
/** Mounting a chart: one coalesced frame, hover/selection callbacks, tooltip, keyboard, SVG export, destroy. */
import { afterEach, describe, expect, it } from 'vitest';
import { mountLifetimeChart, mountWorkspaceChart } from '../../renderer/src/charts/index.js';
import { flushDraws } from '../../renderer/src/charts/frame.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { lifetimeChart } from '../../renderer/src/charts/lifetime.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { exampleView, parseSvg } from './fixtures.js';

afterEach(() => document.body.replaceChildren());

function box(): HTMLDivElement {
  const el = document.createElement('div');
  document.body.appendChild(el);
  return el;
}

const pointer = (type: string, x: number, y: number) => new MouseEvent(type, { clientX: x, clientY: y, bubbles: true });

describe('chart host', () => {
  it('draws once per frame however often it is asked, and reports hover and selection', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const hovered: Array<string | null> = [];
    const selected: Array<string | null> = [];
    const el = box();
    const chart = mountLifetimeChart(el, {
      data: { view },
      backend: 'svg',
      height: 500,
      onHover: (id) => hovered.push(id),
      onSelect: (id) => selected.push(id),
    });
    chart.update({ theme: 'dark' });
    chart.update({ theme: 'light' });
    flushDraws();
    expect(chart.stats.draws).toBe(1);
    const svg = el.querySelector('.tlab-lifetime svg')!;
    expect(svg.querySelectorAll('g.bars rect')).toHaveLength(3);

    // jsdom lays nothing out: the chart is 600 px wide (its fallback) and the root sits at (0, 0).
    const L = lifetimeChart.draw(
      new SvgPainter(),
      { view },
      {
        width: 600,
        height: 500,
        theme: chartTheme('light'),
        state: lifetimeChart.initialState({ view }),
        selected: null,
        hover: null,
        interactive: true,
      },
    );
    const y = L.barsTop + 1.5 * L.rowHeight;
    chart.element.dispatchEvent(pointer('pointermove', (L.left + L.right) / 2, y));
    expect(hovered).toEqual(['0:flx']);
    const tip = el.querySelector<HTMLElement>('.tlab-chart-tooltip')!;
    expect(tip.style.display).toBe('block');
    expect(tip.textContent).toContain('flx');
    chart.element.dispatchEvent(pointer('click', (L.left + L.right) / 2, y));
    expect(selected).toEqual(['0:flx']);
    chart.element.dispatchEvent(new MouseEvent('pointerleave'));
    expect(hovered).toEqual(['0:flx', null]);
    expect(tip.style.display).toBe('none');

    chart.update({ selectedTransient: '0:flx' });
    chart.element.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    expect(selected).toEqual(['0:flx', '0:fly']);
    chart.element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(selected).toEqual(['0:flx', '0:fly', null]);
    chart.destroy();
    expect(el.children).toHaveLength(0);
  });

  it('exports what is on screen, selection included, as SVG vectors', async () => {
    const view = await exampleView('chain', { N: 1000 });
    const chart = mountWorkspaceChart(box(), { data: { view }, backend: 'svg', height: 400, selectedTransient: '0:t2' });
    flushDraws();
    const doc = parseSvg(chart.toSVG());
    const accent = chartTheme('light').accent;
    expect([...doc.querySelectorAll('g.rects rect')].filter((r) => r.getAttribute('stroke') === accent)).toHaveLength(2);
    expect(chart.element.getAttribute('aria-label')).toMatch(/^Workspace of CPU_Heap: packed .* DaCe's layout .*\.$/);
    chart.destroy();
  });

  it('places a d3 brush over the memory curve and resets the zoom on double-click', async () => {
    const view = await exampleView('hdiff', { I: 64, J: 64, K: 10 });
    const el = box();
    const chart = mountLifetimeChart(el, { data: { view }, backend: 'svg', height: 500 });
    flushDraws();
    expect(el.querySelector('g .overlay')).not.toBeNull();
    chart.destroy();
  });
});
