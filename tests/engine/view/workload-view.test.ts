import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advise } from '../../../electron/engine/advise/index.js';
import { loadSubject, type SubjectOptions } from '../../../electron/engine/advise/subject.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { BLOCKER_LIMIT, buildAdviceView } from '../../../electron/engine/view/advice.js';
import { buildWorkloadView } from '../../../electron/engine/view/workload.js';
import { resultFixture, summary } from '../../fixtures/workload/result-fixture.js';

const EXAMPLES = join(packageRoot(), 'assets', 'examples');
const NONE: SubjectOptions = { symbols: new Map(), defaultSymbol: null, target: null };

// Independent sizes of the examples' transients at I=J=128, K=80 (assets/examples/README.md), float64 each.
const I = 128n;
const J = 128n;
const K = 80n;
const N = 1310720n;
const align = (b: bigint): bigint => ((b + 63n) / 64n) * 64n;
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
const hdiff = [(I + 2n) * (J + 2n) * K * 8n, (I + 1n) * J * K * 8n, I * (J + 1n) * K * 8n];
const vsmooth = [I * J * (K + 1n) * 8n, I * J * K * 8n, I * J * K * 8n];
const vadv = [I * J * K * 8n, I * J * K * 8n, I * J * K * 8n];
const chain = [N * 8n, N * 8n, N * 8n, N * 8n];
// Workspace needs per program (packed): hdiff's and vadv's transients are all live at once; vsmooth's flux reuses
// avg's slot; chain's four temporaries pack into two slots (each is dead two steps after it is written).
const need = { hdiff: sum(hdiff.map(align)), vsmooth: align(vsmooth[0]!) + align(vsmooth[1]!), vadv: sum(vadv.map(align)) };

async function dycore() {
  const subject = await loadSubject(join(EXAMPLES, 'workload-dycore.json'), NONE);
  return advise(subject, { ...NONE, layout: 'packed' });
}

describe('the Workload view model, from the advisor (static)', () => {
  it('draws PERSISTENT as the sum of every program, EXTERNAL as one band the largest need sizes', async () => {
    const files = Object.fromEntries(['hdiff', 'vsmooth', 'vadv', 'chain'].map((k) => [k, join(EXAMPLES, `${k}.sdfg`)]));
    const v = buildWorkloadView({ advice: await dycore(), result: null, steps: 4, files });
    expect(v).toMatchObject({ kind: 'workload', name: 'dycore-step', basis: 'static', steps: 4, layout: 'packed', measured: null });
    expect(v.calls.map((c) => c.program)).toEqual(['hdiff', 'vsmooth', 'vadv', 'chain', 'hdiff']);
    expect(v.programs.map((p) => [p.key, p.file, p.positions])).toEqual([
      ['hdiff', 'hdiff.sdfg', [0, 4]],
      ['vsmooth', 'vsmooth.sdfg', [1]],
      ['vadv', 'vadv.sdfg', [2]],
      ['chain', 'chain.sdfg', [3]],
    ]);
    expect(v.storages[0]).toBe('CPU_Heap');
    const t = v.timelines[0]!;
    // PERSISTENT: one block per program, each its own transients, stacked.
    expect(t.persistent.blocks.map((b) => BigInt(b.bytes!))).toEqual([sum(hdiff), sum(vsmooth), sum(vadv), sum(chain)]);
    expect(BigInt(t.persistent.total!)).toBe(sum(hdiff) + sum(vsmooth) + sum(vadv) + sum(chain));
    // EXTERNAL: each call's use is its program's need; the band is the largest of them.
    expect(t.external.use.slice(0, 3).map((u) => BigInt(u!))).toEqual([need.hdiff, need.vsmooth, need.vadv]);
    expect(BigInt(t.external.band!)).toBe([...t.external.use].map((u) => BigInt(u!)).reduce((a, b) => (a > b ? a : b)));
    expect(BigInt(t.external.band!)).toBe(need.hdiff);
    expect(t.external.sizedBy).toBe('hdiff');
    // POOL: the running maximum of the calls' peaks never falls, and ends at the largest peak.
    const hw = t.pool.highWater.map((x) => BigInt(x!));
    for (let i = 1; i < hw.length; i++) expect(hw[i]! >= hw[i - 1]!).toBe(true);
    const peaks = v.calls.map((c) => BigInt(c.peak.CPU_Heap!));
    expect(hw.at(-1)).toBe(peaks.reduce((a, b) => (a > b ? a : b)));
    expect(hw[0]).toBe(sum(hdiff));
  });

  it('keeps the per-program workspace needs the bars draw', async () => {
    const v = buildWorkloadView({ advice: await dycore(), result: null });
    const byKey = Object.fromEntries(v.programs.map((p) => [p.key, BigInt(p.workspace.CPU_Heap!)]));
    expect(byKey).toMatchObject({ hdiff: need.hdiff, vsmooth: need.vsmooth, vadv: need.vadv });
    expect(Object.values(byKey).reduce((a, b) => (a > b ? a : b))).toBe(BigInt(v.footprint.EXTERNAL.CPU_Heap!));
  });
});

describe('the Workload view model, from a measured workload-result@1', () => {
  it('takes programs, footprints, times and findings from the result alone', () => {
    const v = buildWorkloadView({ advice: null, result: resultFixture() });
    expect(v).toMatchObject({ kind: 'workload', name: 'step', basis: 'measured', steps: 4, target: 'cpu' });
    expect(v.calls.map((c) => [c.program, c.workspace.CPU_Heap])).toEqual([
      ['a', 4096],
      ['b', 8192],
      ['a', 4096],
    ]);
    const t = v.timelines[0]!;
    expect(t.persistent.total).toBe(15000);
    expect(t.external).toEqual({ band: 8192, use: [4096, 8192, 4096], sizedBy: 'b' });
    expect(t.pool.measured).toBe(12288);
    expect(v.measured!.verification['EXTERNAL (packed)']).toEqual({ checked: 2, failed: 1 });
    expect(v.measured!.findings).toEqual(["program 'b' read workspace bytes another program left behind"]);
    expect(v.programs[0]!.measured).toEqual({ SCOPED: summary(1000, 2), 'EXTERNAL (packed)': summary(600, 0) });
    expect(v.notes.join(' ')).toMatch(/largest call/);
  });

  it('with the advice, draws the static figures and adds the measured ones', async () => {
    const r = resultFixture();
    const v = buildWorkloadView({ advice: await dycore(), result: { ...r, programs: [], sequence: [] } });
    expect(v.basis).toBe('measured');
    expect(v.calls).toHaveLength(5);
    expect(v.measured!.perStep['EXTERNAL (packed)']!.medianNs).toBe(2000);
    expect(v.notes).toEqual([]);
  });
});

describe('the advisor panel model', () => {
  it('leads with the storage to size, its mode and bytes, and says that no timing backs it', async () => {
    const a = buildAdviceView(await dycore());
    expect(a.recommendations[0]).toMatchObject({ storage: 'CPU_Heap', mode: 'EXTERNAL', layout: 'packed', alignment: 64 });
    expect(BigInt(a.recommendations[0]!.workspaceBytes!)).toBe(need.hdiff);
    expect(a.basis).toBe('static');
    expect(a.basisNote).toMatch(/^No timing backs this/);
    expect(a.recommendations[0]!.reasons.join('\n')).not.toMatch(/no timing backs this/i);
    expect(a.allocationUnit).toBe('step');
    expect(a.allocations.EXTERNAL).toBe(0);
  });

  it('lists blockers with the change and the bytes, capped, and sums the bytes that would move', async () => {
    const file = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_0.sdfg');
    const advice = advise(await loadSubject(file, { ...NONE, defaultSymbol: 16n }), { ...NONE, defaultSymbol: 16n, layout: 'packed' });
    const a = buildAdviceView(advice);
    const b = a.blockers.find((x) => x.id === '0:tmp')!;
    expect(b).toMatchObject({ name: 'tmp', bytes: 128 });
    expect(b.change).toMatch(/^allocate it outside map/);
    const perStorage = new Map<string, bigint>();
    for (const x of advice.blockers) perStorage.set(x.storage, (perStorage.get(x.storage) ?? 0n) + x.bytes!);
    for (const [s, bytes] of perStorage) expect(BigInt(a.blockedBytes[s]!)).toBe(bytes);
    const many = buildAdviceView({ ...advice, blockers: Array.from({ length: BLOCKER_LIMIT + 5 }, () => advice.blockers[0]!) });
    expect(many.blockers).toHaveLength(BLOCKER_LIMIT);
    expect(many.blockersLeft).toBe(5);
  });

  it('carries a sweep with its closed form', async () => {
    const opts = {
      ...NONE,
      symbols: new Map([
        ['J', 16n],
        ['K', 8n],
      ]),
    };
    const advice = advise(await loadSubject(join(EXAMPLES, 'hdiff.sdfg'), opts), {
      ...opts,
      layout: 'packed',
      sweep: { symbol: 'I', values: [16n, 32n, 64n, 128n] },
    });
    const a = buildAdviceView(advice);
    expect(a.sweep).toMatchObject({ symbol: 'I', values: [16, 32, 64, 128] });
    expect(a.sweep!.storages[0]).toMatchObject({ storage: 'CPU_Heap', packed: { closedForm: '3264*I + 3328' } });
  });
});
