// @vitest-environment jsdom
/**
 * What printed reports showed wrong: legends that dropped entries at small widths, labels cut by the plot's
 * clip or the picture's edge, and a time axis stretched by a few slow calls. Every chart, at print and
 * narrow widths, in both themes.
 */
import { describe, expect, it } from 'vitest';
import { FATES, type AnalysisView } from '../../electron/engine/view/types.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { renderSVG } from '../../renderer/src/charts/index.js';
import { flowItems } from '../../renderer/src/charts/legend.js';
import { distributionDomain } from '../../renderer/src/charts/profile-distribution.js';
import { profileSeries } from '../../renderer/src/charts/profile-data.js';
import { textWidth } from '../../renderer/src/charts/text.js';
import { join } from 'node:path';
import { packageRoot } from '../../electron/engine/paths.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { exampleView, parseSvg, profileFixture, viewOfModel } from './fixtures.js';

interface Box {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** The box each (unrotated) text element covers, by our own metrics, and the clip rectangle it is drawn in. */
function textBoxes(doc: Document): Array<Box & { clip: { x0: number; x1: number; y0: number; y1: number } | null }> {
  const clips = new Map<string, { x0: number; x1: number; y0: number; y1: number }>();
  for (const c of doc.querySelectorAll('clipPath')) {
    const r = c.querySelector('rect')!;
    const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a)));
    clips.set(c.id, { x0: x!, y0: y!, x1: x! + w!, y1: y! + h! });
  }
  return [...doc.querySelectorAll('text')]
    .filter((t) => !t.getAttribute('transform'))
    .map((t) => {
      const size = Number(t.getAttribute('font-size'));
      const w = textWidth(t.textContent ?? '', size, Number(t.getAttribute('font-weight') ?? 400) >= 600);
      const x = Number(t.getAttribute('x'));
      const y = Number(t.getAttribute('y'));
      const anchor = t.getAttribute('text-anchor') ?? 'start';
      const x0 = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
      let clip = null;
      for (let e: Element | null = t.parentElement; e && !clip; e = e.parentElement) {
        const ref = /url\(#([^)]+)\)/.exec(e.getAttribute('clip-path') ?? '');
        if (ref) clip = clips.get(ref[1]!) ?? null;
      }
      // Cap height and descenders of DejaVu Sans.
      return { text: t.textContent ?? '', x0, x1: x0 + w, y0: y - 0.73 * size, y1: y + 0.24 * size, clip };
    });
}

const inside = (b: Box, r: { x0: number; x1: number; y0: number; y1: number }): boolean =>
  b.x0 >= r.x0 - 0.5 && b.x1 <= r.x1 + 0.5 && b.y0 >= r.y0 - 0.5 && b.y1 <= r.y1 + 0.5;

/** Every text of the SVG inside the picture and inside the clip it is drawn in. */
function expectNothingCut(svg: string, what: string): void {
  const doc = parseSvg(svg);
  const vb = doc.documentElement.getAttribute('viewBox')!.split(/\s+/).map(Number);
  const picture = { x0: vb[0]!, y0: vb[1]!, x1: vb[0]! + vb[2]!, y1: vb[1]! + vb[3]! };
  const cut = textBoxes(doc)
    .filter((b) => b.text && (!inside(b, picture) || (b.clip && !inside(b, b.clip))))
    .map(
      (b) =>
        `${JSON.stringify(b.text)} at [${b.x0.toFixed(0)}..${b.x1.toFixed(0)}] × [${b.y0.toFixed(0)}..${b.y1.toFixed(0)}]${b.clip ? ` clip y ${b.clip.y0.toFixed(0)}..${b.clip.y1.toFixed(0)}` : ''}`,
    );
  expect(cut, what).toEqual([]);
}

/** lenet (17 memory holders) with its transients spread over every fate, so that the legend has all six. */
async function everyFateView(): Promise<AnalysisView> {
  const file = await readSdfgFile(join(packageRoot(), '..', 'shared', 'corpus', 'sdfg', 'phschaad__fuzzyflow__tests__data__lenet.sdfg'));
  const view = viewOfModel(file);
  expect(view.totals.holdingMemory).toBeGreaterThanOrEqual(FATES.length);
  view.order.slice(0, view.totals.holdingMemory).forEach((i, k) => (view.table.fate[i] = k % FATES.length));
  return view;
}

describe('legends never drop an entry', () => {
  it('flows items onto more lines and gives an item wider than a line a line of its own', () => {
    const f = flowItems([50, 50, 50, 300], 0, 120, 10);
    expect(f.line).toEqual([0, 0, 1, 2]);
    expect(f.lines).toBe(3);
    expect(f.width[3]).toBe(120);
  });

  it('lifetime: every fate present and every memory curve are in the legends, down to 320 px', async () => {
    const view = await everyFateView();
    // Every fate, and the hatch of a bar that a view aliases (lenet's x5 views x4).
    const labels = [...FATES.map((k) => chartTheme('light').fate[k].label), 'aliased by a view or reference'];
    for (const width of [320, 480, 900]) {
      const doc = parseSvg(renderSVG('lifetime', { view }, { width, height: 460 }));
      expect(doc.querySelectorAll('g.legend.fates text'), `fate legend at ${width} px`).toHaveLength(labels.length);
      // Anywhere in the picture (these labels only appear in the legend).
      const legend = [...doc.querySelectorAll('text')].map((t) => t.textContent);
      // Full labels where they fit on a line; an ellipsis only for a label wider than the whole line.
      for (const label of labels)
        expect(
          legend.some((l) => l === label || (l.endsWith('…') && label.startsWith(l.slice(0, -1)))),
          `${label} at ${width} px`,
        ).toBe(true);
    }
    const chain = await exampleView('chain', { N: 2000000 });
    for (const width of [320, 480, 900]) {
      const doc = parseSvg(renderSVG('lifetime', { view: chain }, { width, height: 460 }));
      const curves = [...doc.querySelectorAll('text')].map((t) => t.textContent);
      for (const mode of ['SCOPED', 'POOL', 'PERSISTENT', 'EXTERNAL']) expect(curves, `curve legend at ${width} px`).toContain(mode);
    }
  });

  it('the header grows with the legend, and the bars start below it', async () => {
    const view = await everyFateView();
    const barsTop = (width: number): number => {
      const doc = parseSvg(renderSVG('lifetime', { view }, { width, height: 460 }));
      const legendBottom = Math.max(...[...doc.querySelectorAll('g.legend.fates text')].map((t) => Number(t.getAttribute('y'))));
      const bars = [...doc.querySelectorAll('g.bars rect')].map((r) => Number(r.getAttribute('y')));
      expect(Math.min(...bars)).toBeGreaterThan(legendBottom + 10);
      return Math.min(...bars);
    };
    expect(barsTop(320)).toBeGreaterThan(barsTop(1200));
  });

  it('calls: every mode in the legend at 480 px', () => {
    const result = profileFixture('example-cpu-outliers.json');
    const doc = parseSvg(renderSVG('calls', { results: [{ label: 'run', result }] }, { width: 480 }));
    const legend = [...doc.querySelectorAll('g.legend text')].map((t) => t.textContent);
    expect(legend).toHaveLength(result.modes.length);
    for (const m of result.modes) expect(legend.some((l) => l.startsWith(m.label))).toBe(true);
  });
});

describe('no label is cut by the picture or a plot clip', () => {
  it('workspace: the total sitting at the top of the plot is drawn inside it', async () => {
    const view = await exampleView('chain', { N: 2000000 });
    for (const width of [480, 1000]) {
      const svg = renderSVG('workspace', { view }, { width, height: 420 });
      const doc = parseSvg(svg);
      const totals = [...doc.querySelectorAll('g.totals text')].map((t) => t.textContent);
      expect(totals).toContain('total 61.0 MiB');
      expectNothingCut(svg, `workspace at ${width} px`);
    }
  });

  it('every chart at 480 and 900 px, light and dark', async () => {
    const views = {
      hdiff: await exampleView('hdiff', { I: 128, J: 128, K: 80 }),
      chain: await exampleView('chain', { N: 2000000 }),
      fates: await everyFateView(),
    };
    const profiles = [profileFixture(), profileFixture('example-cpu-outliers.json')].map((result) => ({
      results: [{ label: 'run', result }],
    }));
    for (const width of [480, 900])
      for (const theme of ['light', 'dark'] as const) {
        for (const [name, view] of Object.entries(views)) {
          expectNothingCut(renderSVG('lifetime', { view }, { width, height: 460, theme }), `lifetime ${name} ${width} ${theme}`);
          expectNothingCut(renderSVG('workspace', { view }, { width, height: 420, theme }), `workspace ${name} ${width} ${theme}`);
        }
        for (const data of profiles)
          for (const kind of ['distribution', 'calls', 'breakdown', 'gantt'] as const)
            expectNothingCut(renderSVG(kind, data, { width, theme }), `${kind} ${width} ${theme}`);
      }
  });
});

describe('a few slow calls do not stretch the time axis', () => {
  const data = { results: [{ label: 'run', result: profileFixture('example-cpu-outliers.json') }] };

  it('example.sdfg: the axis ends near the medians, far below the slowest call', () => {
    const series = profileSeries(data);
    const [, hi] = distributionDomain(series);
    const slowest = Math.max(...series.map((s) => s.q.max));
    const medians = Math.max(...series.map((s) => s.q.p50));
    expect(slowest).toBeGreaterThan(1e7); // 10 ms and more: the outliers are really there
    expect(hi).toBeLessThan(slowest / 100);
    expect(hi).toBeLessThan(medians * 3);
    for (const s of series) expect(hi).toBeGreaterThan(s.q.p50);
  });

  it('time per call: an overflow marker per clipped row, and every call is drawn or counted', () => {
    const doc = parseSvg(renderSVG('distribution', data, { width: 900 }));
    const counts = [...doc.querySelectorAll('g.overflow text')].map((t) => /^(\d+) beyond$/.exec(t.textContent));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((m) => m !== null)).toBe(true);
    expect(doc.querySelectorAll('g.overflow polygon').length).toBe(counts.length);
    const beyond = counts.reduce((n, m) => n + Number(m![1]), 0);
    const calls = data.results[0]!.result.modes.reduce((n, m) => n + m.calls.totalNs.length, 0);
    expect(doc.querySelectorAll('circle').length + beyond).toBe(calls);
    const axis = [...doc.querySelectorAll('g.axis.x text')].map((t) => t.textContent);
    expect(axis.some((t) => t.includes(`${beyond} slower calls beyond the axis`))).toBe(true);
  });

  it('every call: slow calls sit on the axis top as arrows, counted', () => {
    const doc = parseSvg(renderSVG('calls', data, { width: 900 }));
    const note = [...doc.querySelectorAll('g.overflow text')].map((t) => t.textContent);
    expect(note).toHaveLength(1);
    const n = Number(/(\d+) slower/.exec(note[0]!)![1]);
    expect(n).toBeGreaterThan(0);
    expect(doc.querySelectorAll('polygon').length).toBeGreaterThanOrEqual(n);
  });

  it('well-behaved calls keep every whisker on the axis and nothing beyond', () => {
    const hdiff = { results: [{ label: 'run', result: profileFixture() }] };
    const [lo, hi] = distributionDomain(profileSeries(hdiff));
    for (const s of profileSeries(hdiff)) {
      expect(lo).toBeLessThanOrEqual(s.q.p10);
      expect(hi).toBeGreaterThanOrEqual(s.q.p90);
    }
  });
});
