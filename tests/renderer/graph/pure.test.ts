/** Level of detail, marks from an analysis, labels and box sizes: the graph module's small pure decisions. */
import { describe, expect, it } from 'vitest';
import { lodFor, MIN_TEXT_PX } from '../../../renderer/src/graph/lod.js';
import { fateBytes, transientMarks } from '../../../renderer/src/graph/marks.js';
import { formatBytes, loopHeader, nodeLines, summaryText, estimateMeasure, FONT_PX } from '../../../renderer/src/graph/text.js';
import { collapsedSize, connectorX, frameSize } from '../../../renderer/src/graph/geometry.js';
import type { GraphNode, GraphSummary } from '../../../electron/engine/view/types.js';
import { palette, storageFamily } from '../../../renderer/src/theme/index.js';
import { join } from 'node:path';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';

const summary = (over: Partial<GraphSummary> = {}): GraphSummary => ({
  states: 1,
  nodes: 5,
  maps: 1,
  tasklets: 1,
  loops: 0,
  sdfgs: 0,
  transients: [],
  ...over,
});

describe('level of detail', () => {
  it('drops text before shapes, and keeps more as the zoom grows', () => {
    const far = lodFor(0.05);
    const mid = lodFor(0.5);
    const near = lodFor(1.5);
    expect(far).toMatchObject({ text: false, detail: false, connectors: false, memletLabels: false, arrows: false });
    expect(mid.text).toBe(FONT_PX.title * 0.5 >= MIN_TEXT_PX);
    expect(near).toMatchObject({ text: true, detail: true, connectors: true, memletLabels: true, arrows: true, curves: true });
    // Monotone: nothing that is shown at one zoom disappears when zooming in.
    let prev = lodFor(0.01);
    for (let k = 0.02; k < 3; k *= 1.2) {
      const cur = lodFor(k);
      for (const key of ['text', 'detail', 'connectors', 'memletLabels', 'interstateLabels', 'arrows', 'curves'] as const)
        if (prev[key]) expect(cur[key]).toBe(true);
      prev = cur;
    }
  });
});

describe('transient marks', () => {
  const analysis = {
    target: 'gpu',
    transients: [
      {
        id: '0:a',
        effectiveStorage: 'GPU_Global',
        bytes: 1024,
        eligible: { PERSISTENT: true, EXTERNAL: true },
        reason: null,
        allocation: { kind: 'sdfg' },
      },
      {
        id: '0:b',
        effectiveStorage: 'CPU_Heap',
        bytes: '9007199254740993',
        eligible: { PERSISTENT: true, EXTERNAL: false },
        reason: 'EXTERNAL only: x',
        allocation: { kind: 'state' },
      },
      {
        id: '0:c',
        effectiveStorage: 'Register',
        bytes: 8,
        eligible: { PERSISTENT: false, EXTERNAL: false },
        reason: 'stack',
        allocation: { kind: 'none', why: 'stack' },
      },
      {
        id: '1:d',
        effectiveStorage: 'CPU_Heap',
        bytes: null,
        eligible: { PERSISTENT: false, EXTERNAL: false },
        reason: 'no',
        allocation: { kind: 'init' },
      },
    ],
  };

  it('each mode gives each transient the fate the analysis says', () => {
    const fate = (mode: Parameters<typeof transientMarks>[1]) =>
      Object.fromEntries([...transientMarks(analysis, mode)].map(([id, m]) => [id, m.fate]));
    expect(fate('SCOPED')).toEqual({ '0:a': 'SCOPED', '0:b': 'SCOPED', '0:c': null, '1:d': 'PERSISTENT' });
    expect(fate('PERSISTENT')).toEqual({ '0:a': 'PERSISTENT', '0:b': 'PERSISTENT', '0:c': null, '1:d': 'PERSISTENT' });
    expect(fate('EXTERNAL')).toEqual({ '0:a': 'EXTERNAL', '0:b': 'SCOPED', '0:c': null, '1:d': 'PERSISTENT' });
    expect(fate('POOL')).toEqual({ '0:a': 'POOL', '0:b': 'SCOPED', '0:c': null, '1:d': 'PERSISTENT' });
    expect(fate('ALL')).toEqual({ '0:a': 'EXTERNAL', '0:b': 'PERSISTENT', '0:c': null, '1:d': 'PERSISTENT' });
    expect(transientMarks(analysis, 'ALL').get('0:b')!.tag).toBe('P only');
    expect(transientMarks(analysis, 'ALL').get('0:c')!.tag).toBe('stack');
  });

  it('on CPU, POOL is SCOPED', () => {
    expect(transientMarks({ ...analysis, target: 'cpu' }, 'POOL').get('0:a')!.fate).toBe('SCOPED');
  });

  it('badge bytes add up per fate and count symbolic sizes apart', () => {
    const marks = transientMarks(analysis, 'EXTERNAL');
    const fb = fateBytes(['0:a', '0:c', '1:d', 'unknown:id'], marks);
    expect(fb).toEqual({ total: 1032, unknown: 1, aliases: 0, byFate: { EXTERNAL: 1024 } });
  });

  it('reads the AnalysisView the contract returns exactly as the analysis@1 document', async () => {
    const file = await readSdfgFile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg'));
    const a = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null });
    const view = buildAnalysisView(a);
    const doc = toAnalysisJson(a) as { transients: unknown[] };
    expect(doc.transients.length).toBeGreaterThan(50);
    for (const mode of ['ALL', 'SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const)
      expect(transientMarks(view, mode)).toEqual(transientMarks(doc, mode));
    // Ineligible, PERSISTENT-only and EXTERNAL-eligible transients all occur in this file, so the comparison means something.
    const fates = new Set([...transientMarks(view, 'ALL').values()].map((m) => m.tag));
    expect(fates.size).toBeGreaterThan(2);
  });

  it('tolerates a missing or malformed analysis', () => {
    expect(transientMarks(null, 'ALL').size).toBe(0);
    expect(transientMarks({ transients: [{ nope: 1 }] }, 'ALL').size).toBe(0);
  });
});

describe('labels and sizes', () => {
  const state: GraphNode = {
    kind: 'state',
    id: '$.nodes[0]',
    label: 'compute',
    start: true,
    expand: '$.nodes[0]',
    summary: summary({ transients: ['0:a', '0:b'] }),
  };
  const map: GraphNode = {
    kind: 'map',
    id: 'm',
    label: 'outer',
    expand: 'm',
    summary: summary(),
    params: ['i = 0:N', 'j = 0:M'],
    schedule: 'GPU_Device',
    inConnectors: ['IN_a', 'IN_b', 'IN_c', 'IN_d', 'IN_e', 'IN_f', 'IN_g', 'IN_h', 'IN_i', 'IN_j', 'IN_k', 'IN_l'],
    outConnectors: ['OUT_x'],
    entryOut: ['OUT_a'],
    exitIn: ['IN_x'],
    exitId: 'x',
  };

  it('summaries and loop headers read like the program', () => {
    expect(summaryText(state, state.summary!)).toBe('5 nodes · 1 map');
    expect(
      loopHeader({
        kind: 'loop',
        id: 'l',
        label: 'for_1',
        start: false,
        variable: 'i',
        init: 'i = 0',
        condition: 'i < N',
        update: 'i = i + 1',
        inverted: false,
        expand: 'l',
        summary: summary(),
      }),
    ).toBe('for i = 0; i < N; i = i + 1');
    expect(
      loopHeader({
        kind: 'loop',
        id: 'l',
        label: 'w',
        start: false,
        variable: '',
        init: null,
        condition: 'x > 0',
        update: null,
        inverted: false,
        expand: 'l',
        summary: summary(),
      }),
    ).toBe('while x > 0');
    expect(nodeLines(map).map((l) => l.text)).toEqual(['outer', '[i = 0:N, j = 0:M]', 'GPU_Device', '5 nodes · 1 map']);
  });

  it('bytes read in binary units with three significant digits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(30 * 2 ** 20)).toBe('30.0 MiB');
    expect(formatBytes(1.5 * 2 ** 30)).toBe('1.50 GiB');
    expect(formatBytes(123 * 2 ** 10)).toBe('123 KiB');
  });

  it('boxes hold their text, their connectors and their badge; frames hold their content', () => {
    const s = collapsedSize(state, estimateMeasure);
    expect(s.width).toBeGreaterThan(estimateMeasure('compute', 'title'));
    const noBadge = collapsedSize({ ...state, summary: summary() }, estimateMeasure);
    expect(s.height).toBeGreaterThan(noBadge.height);
    const m = collapsedSize(map, estimateMeasure);
    expect(m.width).toBeGreaterThanOrEqual(12 * 16);
    const f = frameSize(map, { width: 10, height: 100 }, estimateMeasure);
    expect(f.height).toBeGreaterThan(100);
    expect(f.width).toBeGreaterThanOrEqual(12 * 16);
    // Connectors spread evenly and stay on the box.
    const xs = [0, 1, 2].map((i) => connectorX(100, 200, i, 3));
    expect(xs[1]! - xs[0]!).toBeCloseTo(xs[2]! - xs[1]!);
    expect(xs[0]).toBeGreaterThan(100);
    expect(xs[2]).toBeLessThan(300);
  });

  it('every storage folds into a family with a colour in both themes', () => {
    for (const st of [
      'Default',
      'CPU_Heap',
      'CPU_Pinned',
      'CPU_ThreadLocal',
      'GPU_Global',
      'GPU_Shared',
      'Register',
      'FPGA_Global',
      'Ascend_Global',
    ]) {
      expect(palette('light').storage[storageFamily(st)]).toMatch(/^#/);
      expect(palette('dark').storage[storageFamily(st)]).toMatch(/^#/);
    }
  });
});
