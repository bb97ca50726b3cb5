/** The analysis view model: curves, peaks, workspace rectangles, columns, on hand-built models and real files. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { analysisDocument, num, transientJson } from '../../../electron/engine/view/analysis-doc.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { FATES, type AnalysisView, type MemoryCurve } from '../../../electron/engine/view/types.js';
import { access, desc, file, mapEntry, mapExit, scalar, sdfg, state } from '../../../bench/lib/model-builder.js';

/**
 * s0: t1, sc      s1: t1, p      s2: t2, m (inside a map)      s3: t2
 * t1, t2: float64[N] (8N B), eligible for both modes, live [0,1] and [2,3] → packed share one slot.
 * p: float64[10] Persistent in the file (80 B). m: float64[50] on CPU_Heap (400 B) accessed in a map → stays
 * scoped (allocated per map iteration).
 * sc: a CPU scalar (stack) → holds no memory.
 */
function model() {
  return sdfg(
    'prog',
    [
      desc('t1', ['N']),
      desc('t2', ['N']),
      desc('p', ['10'], { lifetime: 'Persistent' }),
      desc('m', ['50'], { storage: 'CPU_Heap' }),
      scalar('sc'),
    ],
    [
      state('s0', [access('t1'), access('sc')]),
      state('s1', [access('t1'), access('p')]),
      state('s2', [access('t2'), mapEntry('k', ['i'], [['0', '9']]), access('m', 1), mapExit(1, 1)]),
      state('s3', [access('t2')]),
    ],
    { symbols: ['N'] },
  );
}

const analyseModel = (n: bigint | null): Analysis =>
  analyze(file(model()), { symbols: n === null ? new Map() : new Map([['N', n]]), defaultSymbol: null, target: null });

const curve = (v: AnalysisView, storage: string, mode: string): MemoryCurve =>
  v.memory.find((m) => m.storage === storage)!.curves!.find((c) => c.mode === mode)!;

describe('AnalysisView on a hand-built model', () => {
  const a = analyseModel(100n);
  const v = buildAnalysisView(a);
  const row = (id: string) => v.table.id.indexOf(id);

  it('starts from the premises the curves rely on', () => {
    const t = (id: string) => a.transients.find((x) => x.id === id)!;
    expect(t('0:t1').live).toEqual({ first: 0, last: 1 });
    expect(t('0:t2').live).toEqual({ first: 2, last: 3 });
    expect(t('0:t1').eligible).toEqual({ PERSISTENT: true, EXTERNAL: true });
    expect(t('0:m').eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
    expect(t('0:m').allocation.kind).toBe('scope');
    expect(t('0:p').allocation.kind).toBe('init');
    expect(t('0:sc').allocation.kind).toBe('none');
  });

  it('gives every transient its fate', () => {
    const fate = (id: string) => FATES[v.table.fate[row(id)]!];
    expect([fate('0:t1'), fate('0:t2'), fate('0:p'), fate('0:m'), fate('0:sc')]).toEqual([
      'external',
      'external',
      'init',
      'scoped',
      'none',
    ]);
    expect(v.totals).toEqual({ transients: 5, holdingMemory: 4, eligible: { PERSISTENT: 3, EXTERNAL: 2 }, fates: [2, 0, 1, 1, 0, 1, 0] });
  });

  it('draws SCOPED and POOL over live ranges, with file-Persistent data held all call', () => {
    expect(curve(v, 'CPU_Heap', 'SCOPED').bytes).toEqual([880, 880, 1280, 880]);
    expect(curve(v, 'CPU_Heap', 'POOL').bytes).toEqual([880, 880, 1280, 880]);
    expect(curve(v, 'CPU_Heap', 'SCOPED').peak).toEqual({ bytes: 1280, step: 2 });
    expect(curve(v, 'CPU_Heap', 'SCOPED').baseline).toBe(80);
  });

  it('holds PERSISTENT-eligible transients for the whole call in PERSISTENT', () => {
    const c = curve(v, 'CPU_Heap', 'PERSISTENT');
    expect(c.baseline).toBe(1680);
    expect(c.bytes).toEqual([1680, 1680, 2080, 1680]);
    expect(c.peak).toEqual({ bytes: 2080, step: 2 });
  });

  it('holds the packed workspace in EXTERNAL, plus what still allocates', () => {
    const ws = v.workspace.find((w) => w.storage === 'CPU_Heap')!;
    // t1 and t2 never overlap: one 64-B aligned slot of 832 B.
    expect(ws.packed!.bytes).toBe(832);
    const c = curve(v, 'CPU_Heap', 'EXTERNAL');
    expect(c.baseline).toBe(832 + 80);
    expect(c.bytes).toEqual([912, 912, 1312, 912]);
  });

  it('lays out both workspaces as rectangles over live ranges, with savings', () => {
    const ws = v.workspace.find((w) => w.storage === 'CPU_Heap')!;
    expect(ws.dace.bytes).toBe(1600);
    expect(ws.dace.rects).toEqual({ row: [row('0:t1'), row('0:t2')], offset: [0, 800], size: [800, 800], first: [0, 2], last: [1, 3] });
    expect(ws.packed!.rects).toEqual({ row: [row('0:t1'), row('0:t2')], offset: [0, 0], size: [800, 800], first: [0, 2], last: [1, 3] });
    expect(ws.packed!.lowerBound).toBe(800);
    expect(ws.packed!.alignedSum).toBe(1664);
    expect(ws.savings).toEqual({ bytes: 768, fraction: 768 / 1600 });
  });

  it('orders the timeline: memory holders by first step, then the rest', () => {
    expect(v.order.map((i) => v.table.id[i])).toEqual(['0:t1', '0:p', '0:m', '0:t2', '0:sc']);
  });

  it('rebuilds the analysis@1 document exactly, also after a JSON round trip', () => {
    const doc = JSON.stringify(toAnalysisJson(a));
    expect(JSON.stringify(analysisDocument(v))).toBe(doc);
    expect(JSON.stringify(analysisDocument(JSON.parse(JSON.stringify(v)) as AnalysisView))).toBe(doc);
    expect(transientJson(v.table, row('0:m'), v.sdfgs).allocation).toEqual({ kind: 'scope', sdfg: 0, state: '$.nodes[2]', mapEntry: 1 });
  });
});

describe('AnalysisView with symbolic sizes', () => {
  const v = buildAnalysisView(analyseModel(null));

  it('has no curves and says which size is unknown', () => {
    const m = v.memory.find((x) => x.storage === 'CPU_Heap')!;
    expect(m.curves).toBeNull();
    expect(m.symbolic).toEqual({ count: 2, example: '8*N' });
  });

  it('keeps the DaCe total symbolic and draws no rectangles', () => {
    const ws = v.workspace.find((w) => w.storage === 'CPU_Heap')!;
    expect(ws.dace.bytes).toBeNull();
    expect(ws.dace.bytesExpr.replace(/\s/g, '')).toBe('16*N');
    expect(ws.dace.rects).toBeNull();
    expect(ws.packed).toBeNull();
    expect(ws.savings).toBeNull();
  });
});

function checkInvariants(a: Analysis, v: AnalysisView): void {
  const steps = a.steps.length;
  expect(v.table.count).toBe(a.transients.length);
  expect([...v.order].sort((x, y) => x - y)).toEqual([...a.transients.keys()]);
  expect(v.totals.fates.reduce((s, x) => s + x, 0)).toBe(a.transients.length);
  // Memory holders come first in the timeline order; views and references (fate `alias`) hold none.
  v.order.forEach((row, k) =>
    expect(FATES[v.table.fate[row]!] !== 'none' && FATES[v.table.fate[row]!] !== 'alias').toBe(k < v.totals.holdingMemory),
  );
  for (let i = 0; i < v.table.count; i++) expect(FATES[v.table.fate[i]!] === 'alias').toBe(v.table.alias[i]! >= 0);
  for (const m of v.memory) {
    if (!m.curves) continue;
    const by = Object.fromEntries(m.curves.map((c) => [c.mode, c.bytes.map(num)]));
    expect(by['POOL']).toEqual(by['SCOPED']);
    for (const c of m.curves) {
      expect(c.bytes.length).toBe(steps);
      const values = c.bytes.map(num);
      const peak = Math.max(...values, num(c.baseline));
      if (steps) {
        expect(num(c.peak.bytes)).toBe(peak);
        expect(values.indexOf(peak)).toBe(c.peak.step);
      }
      for (const x of values) expect(x).toBeGreaterThanOrEqual(num(c.baseline));
    }
    for (let s = 0; s < steps; s++) expect(by['PERSISTENT']![s]!).toBeGreaterThanOrEqual(by['SCOPED']![s]!);
    const peakLive = a.peakLiveBytes[m.storage];
    if (peakLive !== null && peakLive !== undefined && steps) expect(num(m.curves[0]!.peak.bytes)).toBeGreaterThanOrEqual(Number(peakLive));
  }
  for (const w of v.workspace) {
    const packed = a.layouts.packed[w.storage];
    if (packed) {
      // One rectangle per interval of each live set.
      const intervals = [...packed.offsets.keys()].reduce(
        (k, id) => k + (a.transients.find((t) => t.id === id)!.liveSegments?.length ?? 1),
        0,
      );
      expect(w.packed!.rects.row.length).toBe(intervals);
      w.packed!.rects.row.forEach((row, k) => {
        expect(num(w.packed!.rects.offset[k]) + num(w.packed!.rects.size[k])).toBeLessThanOrEqual(num(w.packed!.bytes));
        expect(w.packed!.rects.first[k]!).toBeLessThanOrEqual(w.packed!.rects.last[k]!);
        expect(packed.offsets.get(v.table.id[row]!)).toBe(BigInt(w.packed!.rects.offset[k]!));
      });
    }
    for (const rects of [w.dace.rects, w.packed?.rects]) for (const row of rects?.row ?? []) expect(v.table.alias[row]).toBe(-1);
    if (w.dace.rects) {
      w.dace.rects.row.forEach((_, k) =>
        expect(num(w.dace.rects!.offset[k]) + num(w.dace.rects!.size[k])).toBeLessThanOrEqual(num(w.dace.bytes)),
      );
    }
    if (w.savings) expect(num(w.savings.bytes)).toBe(num(w.dace.bytes) - num(w.packed!.bytes));
  }
  expect(JSON.stringify(analysisDocument(JSON.parse(JSON.stringify(v)) as AnalysisView))).toBe(JSON.stringify(toAnalysisJson(a)));
}

const CORPUS = [
  'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg',
  'phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg',
  'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz',
  'spcl__dace__tests__sdfg_corpus__vadv_vadv_kernel.sdfg',
  'spcl__icon-dace__icon-model__sdfgs__get_albedos.sdfgz',
  'phschaad__fuzzyflow__tests__case_studies__mpi__vanilla_attention_inference.sdfg',
  'spcl__dace__berkay_workpace__scratch__yakups_examples__dbuff_related__double_buffering_async.sdfg',
  'spcl__dace__tests__sdfg_corpus__control_flow_control_flow.sdfgz',
];

describe('AnalysisView on real files', () => {
  for (const name of CORPUS) {
    it(`holds its invariants on ${name}`, async () => {
      const a = analyze(await readSdfgFile(join(corpusDir(), name)), { symbols: new Map(), defaultSymbol: 64n, target: null });
      checkInvariants(a, buildAnalysisView(a));
    });
  }

  it('holds its invariants on the bundled examples, symbolic and sized', async () => {
    for (const ex of ['hdiff', 'chain', 'vadv']) {
      const f = await readSdfgFile(join(packageRoot(), 'assets', 'examples', `${ex}.sdfg`));
      for (const dflt of [null, 32n]) {
        const a = analyze(f, { symbols: new Map(), defaultSymbol: dflt, target: null });
        checkInvariants(a, buildAnalysisView(a));
      }
    }
  });

  it('draws a live set with holes as one rectangle per interval: transients sharing bytes never overlap', async () => {
    // pack_loop_carried, N = 16: carry is live at init 0, use 1 and its rewrite 4; t at 2…3, in carry's bytes.
    const f = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'pack_loop_carried.sdfg'));
    const a = analyze(f, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null });
    const v = buildAnalysisView(a);
    const rects = v.workspace.find((w) => w.storage === 'CPU_Heap')!.packed!.rects;
    const id = (k: number) => v.table.id[rects.row[k]!];
    expect(rects.row.map((_, k) => [id(k), rects.offset[k], rects.first[k], rects.last[k]])).toEqual([
      ['0:carry', 0, 0, 1],
      ['0:carry', 0, 4, 4],
      ['0:t', 0, 2, 3],
    ]);
    checkInvariants(a, v);
  });

  it('keeps velocity_tendencies (30k transients) compact: a fraction of analysis@1', async () => {
    const f = await readSdfgFile(join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz'));
    const a = analyze(f, { symbols: new Map(), defaultSymbol: 64n, target: null });
    const v = buildAnalysisView(a);
    expect(v.table.count).toBeGreaterThan(30_000);
    checkInvariants(a, v);
    const viewBytes = JSON.stringify(v).length;
    const docBytes = JSON.stringify(toAnalysisJson(a)).length;
    expect(viewBytes).toBeLessThan(docBytes / 2);
  });
});
