// @vitest-environment jsdom
/** The painter backends, the shared text metrics and the tick helpers. */
import { describe, expect, it } from 'vitest';
import { CanvasPainter } from '../../renderer/src/charts/painter-canvas.js';
import { SvgPainter } from '../../renderer/src/charts/painter-svg.js';
import { byteTicks, integerTicks, timeTicks } from '../../renderer/src/charts/scales.js';
import { fitText, textWidth } from '../../renderer/src/charts/text.js';
import { parseSvg } from './fixtures.js';

describe('SVG painter', () => {
  it('writes a standalone document with hatch patterns, clips, groups and escaped text', () => {
    const p = new SvgPainter('t');
    p.begin(200, 100, '#ffffff');
    p.group('bars');
    p.rect(10, 10, 50, 20, { fill: { hatch: '#008060', background: '#cdeee2' }, stroke: '#000' });
    p.rect(10, 40, 50, 20, { fill: { hatch: '#008060', background: '#cdeee2' } });
    p.rect(10, 70, 0, 20, { fill: '#f00' });
    p.endGroup();
    p.clip(0, 0, 100, 100);
    p.text(5, 5, 'a < b & "c"', { color: '#111', size: 12, baseline: 'top', weight: 600 });
    p.polyline([0, 10, 20], [0, 5, 0], 3, { stroke: '#00f', dash: [3, 3] });
    p.end();
    const doc = parseSvg(p.toString());
    const svg = doc.documentElement;
    expect(svg.getAttribute('viewBox')).toBe('0 0 200 100');
    // One pattern for one hatch, however many rectangles use it; empty rectangles are skipped.
    expect(doc.querySelectorAll('pattern')).toHaveLength(1);
    expect(doc.querySelectorAll('g.bars rect')).toHaveLength(2);
    expect(doc.querySelector('g.bars rect')!.getAttribute('fill')).toBe('url(#t-h0)');
    // The stroke sits inside the box, as on canvas.
    expect(doc.querySelector('g.bars rect')!.getAttribute('x')).toBe('10.5');
    expect(doc.querySelector('text')!.textContent).toBe('a < b & "c"');
    // Alphabetic baseline computed by us (top = +0.8 em), not left to dominant-baseline.
    expect(doc.querySelector('text')!.getAttribute('y')).toBe('14.6');
    expect(doc.querySelector('text')!.getAttribute('font-weight')).toBe('600');
    expect(doc.querySelector('polyline')!.getAttribute('stroke-dasharray')).toBe('3 3');
    expect(doc.querySelector('g[clip-path="url(#t-c0)"] text')).not.toBeNull();
    // No style attributes: a strict CSP can still show it.
    expect(p.toString()).not.toMatch(/style=/);
  });
});

describe('canvas painter', () => {
  /** A 2D context that records what it is told. */
  function recorder() {
    const calls: string[] = [];
    const ctx = {
      canvas: { width: 400, height: 200 },
      set fillStyle(v: unknown) {
        calls.push(`fillStyle=${String(v)}`);
      },
      set strokeStyle(v: unknown) {
        calls.push(`strokeStyle=${String(v)}`);
      },
      set globalAlpha(_v: number) {},
      set lineWidth(_v: number) {},
      set font(v: string) {
        calls.push(`font=${v}`);
      },
      set textAlign(_v: string) {},
      set textBaseline(_v: string) {},
      setTransform: (...a: number[]) => calls.push(`setTransform(${a.join(',')})`),
      clearRect: () => calls.push('clearRect'),
      fillRect: (...a: number[]) => calls.push(`fillRect(${a.join(',')})`),
      strokeRect: () => calls.push('strokeRect'),
      fillText: (s: string, x: number, y: number) => calls.push(`fillText(${s},${x},${y})`),
      setLineDash: () => undefined,
      beginPath: () => undefined,
      moveTo: () => undefined,
      lineTo: () => undefined,
      stroke: () => calls.push('stroke'),
    };
    return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
  }

  it('scales to device pixels and sets a fill once for a run of same-coloured marks', () => {
    const { ctx, calls } = recorder();
    const p = new CanvasPainter(ctx, 2);
    p.begin(200, 100, null);
    for (let i = 0; i < 5; i++) p.rect(i * 10, 0, 8, 8, { fill: '#008060' });
    p.rect(0, 20, 8, 8, { fill: '#0072b2' });
    p.text(10, 10, 'x', { color: '#0072b2', size: 12, baseline: 'middle' });
    expect(calls).toContain('setTransform(2,0,0,2,0,0)');
    expect(calls.filter((c) => c.startsWith('fillStyle='))).toEqual(['fillStyle=#008060', 'fillStyle=#0072b2']);
    expect(calls.filter((c) => c.startsWith('fillRect'))).toHaveLength(6);
    expect(calls).toContain(`fillText(x,10,${10 + 0.36 * 12})`);
  });
});

describe('text metrics', () => {
  it('measures DejaVu Sans widths and cuts text with an ellipsis', () => {
    expect(textWidth('0000', 10)).toBeCloseTo(4 * 6.36, 6);
    expect(textWidth('MiB', 12, true)).toBeGreaterThan(textWidth('MiB', 12));
    expect(fitText('velocity_tendencies', 12, 1000)).toBe('velocity_tendencies');
    const cut = fitText('velocity_tendencies', 12, 60);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(60);
    expect(fitText('abc', 12, 2)).toBe('');
  });
});

describe('ticks', () => {
  it('puts byte ticks on round numbers of one binary unit', () => {
    const t = byteTicks(0, 16 * 2 ** 20, 5);
    expect(t.unit.name).toBe('MiB');
    expect(t.labels).toEqual(['0', '5', '10', '15']);
    expect(t.values[1]).toBe(5 * 2 ** 20);
    expect(byteTicks(0, 900, 4).unit.name).toBe('B');
  });

  it('puts time ticks in one time unit and step ticks on whole steps', () => {
    const t = timeTicks(0, 250e6, 5);
    expect(t.unit.name).toBe('ms');
    expect(t.labels).toContain('100');
    expect(integerTicks(0, 3, 10).values).toEqual([0, 1, 2, 3]);
  });
});
