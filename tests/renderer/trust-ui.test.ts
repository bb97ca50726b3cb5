/** Pure parts of the window's trust fixes: where names are cut (app/text/cut.ts) and where Fit puts the camera
 * (graph/fit.ts). The browser checks are tests/e2e/trust-velocity.test.ts. */
import { describe, expect, it } from 'vitest';
import { headTail, matchParts } from '../../renderer/src/app/text/cut.js';
import { FIT_MIN_K, fitCamera, initialCamera, READABLE_K } from '../../renderer/src/graph/fit.js';
import type { Scene, SceneNode } from '../../renderer/src/graph/scene.js';

const join = (parts: Array<{ text: string }>): string => parts.map((p) => p.text).join('');

describe('names cut in the middle', () => {
  it('keeps a generated name\'s distinguishing end whole', () => {
    const parts = headTail('__f2dace_SA_airmass_new_d_0_s_4869_p_diag_45');
    expect(join(parts)).toBe('__f2dace_SA_airmass_new_d_0_s_4869_p_diag_45');
    expect(parts.at(-1)).toEqual({ text: '4869_p_diag_45'.slice(-12), keep: true });
    expect(headTail('jb')).toEqual([{ text: 'jb' }]);
  });

  it('keeps a search match whole and marked, and the name\'s end', () => {
    const parts = matchParts('ptr_patch_1.edges.__f2dace_SA_tangent_orientation_d_0_s_3206', 'TANGENT');
    expect(join(parts)).toBe('ptr_patch_1.edges.__f2dace_SA_tangent_orientation_d_0_s_3206');
    expect(parts.find((p) => p.mark)).toEqual({ text: 'tangent', keep: true, mark: true });
    expect(parts.at(-1)).toEqual({ text: '0_s_3206', keep: true });
    expect(matchParts('tangent', 'tangent')).toEqual([{ text: 'tangent', keep: true, mark: true }]);
    expect(join(matchParts('abc', 'zz'))).toBe('abc');
  });
});

function column(n: number, w = 160, h = 40, gap = 60): Scene {
  const nodes = Array.from({ length: n }, (_, i) => ({ x: 0, y: i * (h + gap), w, h, depth: 0, end: i + 1 }) as unknown as SceneNode);
  return { root: '$', nodes, edges: [], width: w, height: n * (h + gap), byId: new Map(), edgeById: new Map(), total: n };
}

describe('Fit', () => {
  it('fits a small graph whole', () => {
    const c = fitCamera(column(3), 1000, 600);
    expect(c.whole).toBe(true);
    expect(c.k).toBeCloseTo((600 - 48) / 300);
    expect(fitCamera(column(1), 1000, 600).k).toBe(2); // never beyond 2×
  });

  it('never goes below the zoom that keeps titles drawn: a tall column shows its start at FIT_MIN_K', () => {
    const c = fitCamera(column(99), 800, 450);
    expect(c.whole).toBe(false);
    expect(c.k).toBe(FIT_MIN_K);
    expect(c.ty).toBe(24); // the first block at the top
    expect(c.tx).toBeCloseTo((800 - 160 * FIT_MIN_K) / 2); // centred: its width fits
  });

  it('opens a big graph at its start at a readable zoom', () => {
    expect(initialCamera(column(99), 800, 450).k).toBe(READABLE_K);
  });
});
