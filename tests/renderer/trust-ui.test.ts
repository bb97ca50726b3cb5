/** Pure parts of the window's trust fixes: where names are cut (app/text/cut.ts), where Fit puts the camera
 * (graph/fit.ts), the shelf of last results (profile/shelf.ts) and what Compare says about its runs
 * (profile/compare-model.ts). The browser checks are tests/e2e/trust-velocity.test.ts and trust-profile.test.ts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';
import { compareWarnings, runFacts, wantsLogAxis } from '../../renderer/src/app/profile/compare-model.js';
import {
  fileKey,
  MAX_FILES,
  MAX_PER_FILE,
  memoryShelf,
  recall,
  shelfKey,
  shelve,
  type ShelfEntry,
} from '../../renderer/src/app/profile/shelf.js';
import { headTail, matchParts } from '../../renderer/src/app/text/cut.js';
import { fitMiddle, textWidth } from '../../renderer/src/charts/text.js';
import { FIT_MIN_K, fitCamera, initialCamera, READABLE_K } from '../../renderer/src/graph/fit.js';
import type { Scene, SceneNode } from '../../renderer/src/graph/scene.js';

const joined = (parts: Array<{ text: string }>): string => parts.map((p) => p.text).join('');
const hdiff = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), 'utf8')) as ProfileResult;

describe('names cut in the middle', () => {
  it("keeps a generated name's distinguishing end whole", () => {
    const parts = headTail('__f2dace_SA_airmass_new_d_0_s_4869_p_diag_45');
    expect(joined(parts)).toBe('__f2dace_SA_airmass_new_d_0_s_4869_p_diag_45');
    expect(parts.at(-1)).toEqual({ text: '4869_p_diag_45'.slice(-12), keep: true });
    expect(headTail('jb')).toEqual([{ text: 'jb' }]);
  });

  it("keeps a search match whole and marked, and the name's end", () => {
    const parts = matchParts('ptr_patch_1.edges.__f2dace_SA_tangent_orientation_d_0_s_3206', 'TANGENT');
    expect(joined(parts)).toBe('ptr_patch_1.edges.__f2dace_SA_tangent_orientation_d_0_s_3206');
    expect(parts.find((p) => p.mark)).toEqual({ text: 'tangent', keep: true, mark: true });
    expect(parts.at(-1)).toEqual({ text: '0_s_3206', keep: true });
    expect(matchParts('tangent', 'tangent')).toEqual([{ text: 'tangent', keep: true, mark: true }]);
    expect(joined(matchParts('abc', 'zz'))).toBe('abc');
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

describe('the shelf of last results', () => {
  const entry = (i: number): ShelfEntry => ({ savedAt: new Date(2026, 11, 1, 0, i).toISOString(), name: `run ${i}`, result: hdiff });

  it('keeps the last 5 results of a file, newest first', async () => {
    const b = memoryShelf();
    const key = shelfKey(fileKey({ path: '/data/hdiff.sdfg', name: 'hdiff.sdfg' }), hdiff.program.hash);
    for (let i = 0; i < 7; i++) await shelve(b, key, entry(i), i);
    expect((await recall(b, key)).map((e) => e.name)).toEqual(['run 6', 'run 5', 'run 4', 'run 3', 'run 2']);
    expect(MAX_PER_FILE).toBe(5);
    // Another content hash of the same path is another shelf; an upload is known by its name.
    expect(await recall(b, shelfKey('/data/hdiff.sdfg', 'f'.repeat(64)))).toEqual([]);
    expect(fileKey({ path: null, name: 'up.sdfg' })).toBe('upload:up.sdfg');
  });

  it('keeps 20 files, dropping the one used longest ago (a recall counts as a use)', async () => {
    const b = memoryShelf();
    for (let f = 0; f < MAX_FILES; f++) await shelve(b, `file${f}`, entry(f), f);
    await recall(b, 'file0', 100); // file0 is used again: file1 is now the oldest
    await shelve(b, 'file-new', entry(99), 101);
    const keys = (await b.index()).map((r) => r.key);
    expect(keys).toHaveLength(MAX_FILES);
    expect(keys).toContain('file0');
    expect(keys).toContain('file-new');
    expect(keys).not.toContain('file1');
    expect(await b.get('file1')).toBeNull();
  });
});

describe('what Compare says about the runs', () => {
  const hello = {
    ...hdiff,
    program: { ...hdiff.program, name: 'hello_world', hash: 'a'.repeat(64), file: '/c/example.sdfg' },
    settings: { ...hdiff.settings, symbols: { N: 2 } },
  };

  it('names file, symbols, modes, calls and machine from the result', () => {
    const f = runFacts(hdiff);
    expect(f.file).toBe('hdiff.sdfg');
    expect(f.symbols).toBe('I=128 J=128 K=40');
    expect(f.modes).toBe(hdiff.modes.map((m) => m.label).join(', '));
    expect(f.calls).toBe('40 calls × 3 processes');
    expect(f.machine).toMatch(/^AMD EPYC.* · \d+ cores$/);
  });

  it('writes the settings line of one process in the singular', () => {
    expect(runFacts(hdiff).settings).toMatch(/^40 calls × 3 processes, \d+ warm-up · I=128 J=128 K=40 · AMD EPYC/);
    const one = { ...hdiff, settings: { ...hdiff.settings, calls: 20, processes: 1 } };
    expect(runFacts(one).settings).toMatch(/^20 calls × 1 process, \d+ warm-up · /);
  });

  it('warns of different programs, and of different symbols within one program', () => {
    const big = { ...hdiff, settings: { ...hdiff.settings, symbols: { I: 256, J: 128, K: 40 } } };
    expect(
      compareWarnings([
        { label: 'a', result: hdiff },
        { label: 'b', result: hdiff },
      ]),
    ).toEqual([]);
    const w = compareWarnings([
      { label: 'a', result: hdiff },
      { label: 'b', result: big },
      { label: 'c', result: hello },
    ]);
    expect(w.map((x) => x.kind)).toEqual(['program', 'symbols']);
    expect(w[0]!.text).toMatch(/c is hello_world \(sha256 aaaaaaaaaa…\)/);
    expect(w[1]!.text).toMatch(/b: I = 256 \(reference 128\)/);
    expect(w[1]!.text).not.toMatch(/c:/);
  });

  it('wants a log axis when the medians differ tenfold', () => {
    const slow = { ...hdiff, modes: hdiff.modes.map((m) => ({ ...m, summary: { ...m.summary, medianNs: m.summary.medianNs * 20 } })) };
    expect(wantsLogAxis([{ label: 'a', result: hdiff }])).toBe(false);
    expect(
      wantsLogAxis([
        { label: 'a', result: hdiff },
        { label: 'b', result: slow },
      ]),
    ).toBe(true);
  });
});

describe('chart labels cut in the middle', () => {
  it('keeps the start and the end of a run label that does not fit', () => {
    const label = 'SCOPED · hello_world · run 20:30:06';
    const cut = fitMiddle(label, 12, 180, true);
    expect(textWidth(cut, 12, true)).toBeLessThanOrEqual(180);
    expect(cut.startsWith('SCOPED')).toBe(true);
    expect(cut.endsWith('20:30:06')).toBe(true);
    expect(cut).toContain('…');
    expect(fitMiddle('POOL', 12, 180)).toBe('POOL');
  });
});
