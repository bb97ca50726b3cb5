// @vitest-environment jsdom
/** Profile charts on a real hdiff result: series, medians, the time breakdown, the Gantt and comparisons. */
import { describe, expect, it } from 'vitest';
import { formatNs } from '../../electron/engine/view/format.js';
import { renderChartSVG } from '../../renderer/src/charts/chart.js';
import { chartTheme } from '../../renderer/src/charts/chart-theme.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { breakdownChart } from '../../renderer/src/charts/profile-breakdown.js';
import { profileSeries, sampledCalls, spansOf, type AllocEvent } from '../../renderer/src/charts/profile-data.js';
import { distributionChart, distributionDomain } from '../../renderer/src/charts/profile-distribution.js';
import { ganttChart } from '../../renderer/src/charts/profile-gantt.js';
import { runningMedian, seriesChart } from '../../renderer/src/charts/profile-series.js';
import { parseSvg, profileFixture } from './fixtures.js';

const frame = <S>(state: S) => ({
  width: 1000,
  height: 400,
  theme: chartTheme('light'),
  state,
  selected: null,
  hover: null,
  interactive: true,
});

describe('profile series', () => {
  it('orders modes SCOPED, PERSISTENT, POOL, EXTERNAL (dace, packed), results side by side', () => {
    const r = profileFixture();
    expect(profileSeries({ results: [{ label: 'a', result: r }] }).map((s) => s.display)).toEqual([
      'SCOPED',
      'PERSISTENT',
      'POOL',
      'EXTERNAL (dace)',
      'EXTERNAL (packed)',
    ]);
    const both = profileSeries({
      results: [
        { label: 'a', result: r },
        { label: 'b', result: profileFixture('hdiff-cpu-rerun.json') },
      ],
    });
    expect(both.slice(0, 4).map((s) => s.display)).toEqual(['SCOPED · a', 'SCOPED · b', 'PERSISTENT · a', 'PERSISTENT · b']);
  });

  it('uses the profiler’s own medians and splits the mean call into parts that add up', () => {
    const r = profileFixture();
    for (const s of profileSeries({ results: [{ label: '', result: r }] })) {
      expect(s.q.p50).toBe(s.m.summary.medianNs);
      expect(s.q.p10).toBe(s.m.summary.p10Ns);
      expect(s.mean.compute + s.mean.alloc + s.mean.free).toBeCloseTo(s.mean.total, 3);
    }
  });
});

describe('a sampled result (more calls timed than kept)', () => {
  it('splits the kept rows by process as kept, and takes the exact quantiles of the summary', () => {
    const r = structuredClone(profileFixture());
    const m = r.modes[0]!;
    const rows = m.calls.totalNs.length / r.settings.processes;
    m.sampling = { calls: 1_000_000 * r.settings.processes, keptPerProcess: rows };
    r.settings.calls = 1_000_000;
    m.summary = { ...m.summary, medianNs: 1234.5, p10Ns: 1000.5, p90Ns: 2000.5 };
    const s = profileSeries({ results: [{ label: '', result: r }] })[0]!;
    expect(s.callsPerProcess).toBe(rows);
    expect([s.q.p10, s.q.p50, s.q.p90]).toEqual([1000.5, 1234.5, 2000.5]);
    expect(profileSeries({ results: [{ label: '', result: profileFixture() }] })[0]!.callsPerProcess).toBe(profileFixture().settings.calls);
  });
});

describe('distribution chart', () => {
  it('labels every mode with its median and covers every box and whisker', () => {
    const r = profileFixture();
    const data = { results: [{ label: '', result: r }] };
    const text = [...parseSvg(renderChartSVG(distributionChart, data, { width: 1000 })).querySelectorAll('text')].map((t) => t.textContent);
    for (const m of r.modes) expect(text).toContain(formatNs(m.summary.medianNs));
    const [lo, hi] = distributionDomain(profileSeries(data));
    for (const s of profileSeries(data)) {
      expect(lo).toBeLessThanOrEqual(s.q.p10);
      expect(hi).toBeGreaterThanOrEqual(s.q.p90);
    }
  });

  it('keeps its whole subtitle on a narrow card: what does not fit beside the title goes on a second line', () => {
    const data = { results: [{ label: '', result: profileFixture() }] };
    const texts = (width: number) =>
      [...parseSvg(renderChartSVG(distributionChart, data, { width })).querySelectorAll('text')].map((t) => t.textContent ?? '');
    // Once cut to "… dots…" with no tooltip.
    for (const width of [560, 700]) {
      const all = texts(width);
      expect(all.some((t) => t.endsWith('…'))).toBe(false);
      expect(all.some((t) => t.includes('box 25–75 %, whiskers 10–90 %'))).toBe(true);
      expect(all.some((t) => t.endsWith('dots: every call'))).toBe(true);
    }
    // A wide card keeps it on one line beside the title.
    expect(texts(1400).find((t) => t.includes('calls per mode'))).toMatch(/ · dots: every call$/);
  });

  it('draws every call of a comparison, with one marker shape per result', () => {
    const data = {
      results: [
        { label: 'a', result: profileFixture() },
        { label: 'b', result: profileFixture('hdiff-cpu-rerun.json') },
      ],
    };
    const doc = parseSvg(renderChartSVG(distributionChart, data, { width: 1000 }));
    const calls = data.results.reduce((n, x) => n + x.result.modes.reduce((k, m) => k + m.calls.totalNs.length, 0), 0);
    const marks = doc.querySelectorAll('circle').length;
    const beyond = [...doc.querySelectorAll('text')]
      .filter((t) => /^\d+ beyond$/.test(t.textContent ?? ''))
      .reduce((n, t) => n + Number(/\d+/.exec(t.textContent)![0]), 0);
    expect(marks + beyond).toBe(calls);
    expect(doc.querySelectorAll('circle[fill="none"]').length).toBeGreaterThan(0);
  });

  it('reads modes whose medians differ tenfold on a log axis unless told otherwise', () => {
    const axisTitle = (data: Parameters<typeof renderChartSVG>[1]): string =>
      [...parseSvg(renderChartSVG(distributionChart, data, { width: 1000 })).querySelectorAll('text')]
        .map((t) => t.textContent ?? '')
        .find((t) => t.startsWith('time per call'))!;
    const r = profileFixture();
    expect(axisTitle({ results: [{ label: '', result: r }] })).not.toMatch(/log scale/);
    // SCOPED a hundred times slower, as channel_flow's SCOPED on a busy machine: the other boxes would be pixels wide.
    const slow = structuredClone(r);
    const scoped = slow.modes.find((m) => m.mode === 'SCOPED')!;
    scoped.calls.totalNs = scoped.calls.totalNs.map((ns) => ns * 100);
    scoped.summary.medianNs *= 100;
    expect(axisTitle({ results: [{ label: '', result: slow }] })).toMatch(/log scale/);
    expect(axisTitle({ results: [{ label: '', result: slow }], timeScale: 'linear' })).not.toMatch(/log scale/);
  });

  it('hovers a row and describes the mode', () => {
    const data = { results: [{ label: '', result: profileFixture() }] };
    const L = distributionChart.draw(new SvgPainter(), data, frame(null));
    const h = distributionChart.hit(L, 500, L.top + 2.5 * L.rowH)!;
    expect(h.key).toBe('0|POOL');
    const tip = distributionChart.tooltip(data, L, h)!;
    expect(Object.fromEntries(tip.rows)['allocations/call']).toBe('3');
  });
});

describe('time breakdown and every-call charts', () => {
  it('shows each mode’s mean call and its allocation share', () => {
    const r = profileFixture();
    const text = parseSvg(renderChartSVG(breakdownChart, { results: [{ label: '', result: r }] }, { width: 1100 })).documentElement
      .textContent;
    expect(text).toContain('none · 0 allocs');
    expect(text).toMatch(/\/call/);
  });

  it('runs a median per process and zooms calls by brush', () => {
    expect([...runningMedian([5, 1, 9, 3, 7], 3)]).toEqual([3, 5, 3, 7, 5]);
    const data = { results: [{ label: '', result: profileFixture() }] };
    const L = seriesChart.draw(new SvgPainter(), data, frame(seriesChart.initialState(data)));
    expect(L.calls).toBe(120);
    const z = seriesChart.brushed!(data, L, seriesChart.initialState(data), [L.xOf(10), L.xOf(30)]);
    expect(z).toEqual({ c0: 10, c1: 30 });
    const tip = seriesChart.tooltip(data, L, { id: null, key: 'call:45' })!;
    expect(tip.title).toBe('call 45 (process 2, call 6)');
  });
});

describe('allocation Gantt', () => {
  const events: AllocEvent[] = [
    { transient: '0:lap', kind: 'alloc', startNs: 100, durationNs: 2000, bytes: 5_410_816 },
    { transient: '0:flx', kind: 'alloc', startNs: 2200, durationNs: 1500, bytes: 5_283_840 },
    { transient: '0:lap', kind: 'free', startNs: 40_000_000, durationNs: 900, bytes: 5_410_816 },
    { transient: '0:flx', kind: 'free', startNs: 60_000_000, durationNs: 800, bytes: 5_283_840 },
    { transient: '0:lap', kind: 'alloc', startNs: 61_000_000, durationNs: 1000, bytes: 5_410_816 },
  ];

  it('pairs every allocation with the next free of the same transient', () => {
    const spans = spansOf(events);
    expect(spans).toHaveLength(3);
    expect(spans[0]).toEqual({ transient: '0:lap', bytes: 5_410_816, allocStart: 100, allocNs: 2000, freeStart: 40_000_000, freeNs: 900 });
    expect(spans[2]!.freeStart).toBeNull();
  });

  it('says so when a result has no sampled call', () => {
    const data = { results: [{ label: '', result: profileFixture() }] };
    expect(sampledCalls(data)).toEqual([]);
    expect(parseSvg(renderChartSVG(ganttChart, data, { width: 900 })).documentElement.textContent).toContain(
      'no sampled allocation events',
    );
  });

  it('draws one row per allocation, and the modes without allocations in one line', () => {
    const r = profileFixture();
    r.modes = r.modes.map((m) => (m.mode === 'POOL' ? Object.assign({}, m, { sampledCall: { totalNs: 70_000_000, events } }) : m));
    const data = { results: [{ label: '', result: r }] };
    const svg = parseSvg(renderChartSVG(ganttChart, data, { width: 900 }));
    expect(svg.documentElement.textContent).toContain('EXTERNAL (packed): no allocation in the call');
    expect(svg.documentElement.textContent).toContain('SCOPED: no sampled call recorded');
    const L = ganttChart.draw(new SvgPainter(), data, { ...frame(ganttChart.initialState(data)), height: 400 });
    const panel = L.panels[0]!;
    const h = ganttChart.hit(L, 500, panel.top + panel.rowH * 1.5)!;
    expect(h.id).toBe('0:flx');
    const tip = Object.fromEntries(ganttChart.tooltip(data, L, h)!.rows);
    expect(tip['bytes']).toBe('5.04 MiB');
    expect(tip['freed at']).toBe('60.0 ms (took 800 ns)');
  });
});
