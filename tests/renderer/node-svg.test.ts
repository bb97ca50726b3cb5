/**
 * Reports render the charts in Node (no DOM at all): every chart module must draw to SVG through
 * `renderSVG` without touching `document` or `window`. This file runs in vitest's plain node environment.
 */
import { describe, expect, it } from 'vitest';
import { renderSVG } from '../../renderer/src/charts/index.js';
import { exampleView, profileFixture } from './fixtures.js';

describe('charts in Node, without a DOM', () => {
  it('has no DOM here', () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
  });

  it('draws every chart as a standalone SVG document, in both themes', async () => {
    const view = await exampleView('chain', { N: 4096 });
    const profile = { results: [{ label: 'run', result: profileFixture() }] };
    for (const theme of ['light', 'dark'] as const) {
      const svgs = [
        renderSVG('lifetime', { view }, { width: 800, height: 420, theme, idPrefix: 'a' }),
        renderSVG('workspace', { view }, { width: 800, height: 400, theme, idPrefix: 'b' }),
        renderSVG('distribution', profile, { width: 800, theme, idPrefix: 'c' }),
        renderSVG('calls', profile, { width: 800, theme, idPrefix: 'd' }),
        renderSVG('breakdown', profile, { width: 800, theme, idPrefix: 'e' }),
        renderSVG('gantt', profile, { width: 800, theme, idPrefix: 'f' }),
      ];
      for (const svg of svgs) {
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(svg.endsWith('</svg>')).toBe(true);
        // Balanced groups: every <g> is closed.
        expect((svg.match(/<g[ >]/g) ?? []).length).toBe((svg.match(/<\/g>/g) ?? []).length);
      }
      // Ids stay unique across charts on one page (reports embed several).
      expect(svgs[1]).toContain('id="b-h0"');
    }
  });
});
