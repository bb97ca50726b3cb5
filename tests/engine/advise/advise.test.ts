import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advise, checkBudgets } from '../../../electron/engine/advise/index.js';
import { loadSubject, type SubjectOptions } from '../../../electron/engine/advise/subject.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';

const EXAMPLES = join(packageRoot(), 'assets', 'examples');
const NO_SYMBOLS: SubjectOptions = { symbols: new Map(), defaultSymbol: null, target: null };

const align = (b: bigint): bigint => ((b + 63n) / 64n) * 64n;
// Independent sizes of the examples' transients (assets/examples/README.md), float64 each.
const hdiff = (i: bigint, j: bigint, k: bigint) => [(i + 2n) * (j + 2n) * k * 8n, (i + 1n) * j * k * 8n, i * (j + 1n) * k * 8n];
const vadv = (i: bigint, j: bigint, k: bigint) => [i * j * k * 8n, i * j * k * 8n, i * j * k * 8n];
// All of either program's transients are live at once (state 3 of hdiff; across both sweeps in vadv): the
// packed workspace is the sum of the 64-byte aligned slots.
const packed = (sizes: bigint[]) => sizes.reduce((a, b) => a + align(b), 0n);
const sum = (sizes: bigint[]) => sizes.reduce((a, b) => a + b, 0n);

function workload(doc: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'tlab-workload-'));
  const path = join(dir, 'w.json');
  writeFileSync(path, JSON.stringify({ schema: 'transient-lab/workload@1', ...doc }));
  return path;
}

const programs = { hdiff: { sdfg: join(EXAMPLES, 'hdiff.sdfg') }, vadv: { sdfg: join(EXAMPLES, 'vadv.sdfg') } };

describe('advise: a workload shares one workspace per storage', () => {
  it('sizes EXTERNAL to the largest call, PERSISTENT to the sum over programs, and counts allocations per step', async () => {
    const path = workload({ programs, symbols: { I: 32, J: 32, K: 8 }, sequence: ['hdiff', 'vadv', 'hdiff'] });
    const a = advise(await loadSubject(path, NO_SYMBOLS), { ...NO_SYMBOLS, layout: 'packed' });
    const h = hdiff(32n, 32n, 8n);
    const v = vadv(32n, 32n, 8n);
    expect(a.subject).toMatchObject({ kind: 'workload', programs: 2, calls: 3 });
    expect(a.footprint.EXTERNAL.CPU_Heap).toBe(packed(h) > packed(v) ? packed(h) : packed(v));
    expect(a.footprint.PERSISTENT.CPU_Heap).toBe(sum(h) + sum(v));
    // SCOPED allocates each of the three transients of every call once: 3 calls × 3.
    expect(a.allocations.SCOPED).toBe(9n);
    expect(a.allocations.EXTERNAL).toBe(0n);
    const rec = a.recommendations.find((r) => r.storage === 'CPU_Heap')!;
    expect(rec).toMatchObject({ mode: 'EXTERNAL', layout: 'packed', alignment: 64, workspaceBytes: a.footprint.EXTERNAL.CPU_Heap });
    expect(rec.reasons.join('\n')).toMatch(/no timing backs this/);
    expect(a.hazards).toEqual([]);
    expect(a.perProgram.hdiff).toEqual({ calls: 2, workspace: { CPU_Heap: packed(h) }, persistent: { CPU_Heap: sum(h) } });
    expect(a.perProgram.vadv).toEqual({ calls: 1, workspace: { CPU_Heap: packed(v) }, persistent: { CPU_Heap: sum(v) } });
  });

  it('advises the bundled example workload: four programs, one called twice', async () => {
    const path = join(EXAMPLES, 'workload-dycore.json');
    const a = advise(await loadSubject(path, NO_SYMBOLS), { ...NO_SYMBOLS, layout: 'packed' });
    const h = hdiff(128n, 128n, 80n);
    const v = vadv(128n, 128n, 80n);
    const s = [128n * 128n * 81n * 8n, 128n * 128n * 80n * 8n, 128n * 128n * 80n * 8n];
    const c = [1310720n * 8n, 1310720n * 8n, 1310720n * 8n, 1310720n * 8n];
    expect(a.subject).toMatchObject({ kind: 'workload', name: 'dycore-step', programs: 4, calls: 5 });
    expect(a.footprint.PERSISTENT.CPU_Heap).toBe(sum(h) + sum(v) + sum(s) + sum(c));
    expect(a.footprint.EXTERNAL.CPU_Heap).toBe(packed(h));
    // vsmooth's flux reuses avg's slot: avg is dead once grad is computed.
    expect(a.perProgram.vsmooth!.workspace.CPU_Heap).toBe(align(s[0]!) + align(s[1]!));
  });

  it("reports the call that overruns a workspace configured at each program's first call", async () => {
    const path = workload({
      programs,
      symbols: { I: 32, J: 32, K: 8 },
      sequence: ['hdiff', 'vadv', { program: 'hdiff', symbols: { I: 64, J: 64 } }],
    });
    const a = advise(await loadSubject(path, NO_SYMBOLS), { ...NO_SYMBOLS, layout: 'packed' });
    const configured = [packed(hdiff(32n, 32n, 8n)), packed(vadv(32n, 32n, 8n))].reduce((x, y) => (x > y ? x : y));
    expect(a.hazards).toEqual([
      {
        storage: 'CPU_Heap',
        program: 'hdiff',
        position: 2,
        jsonPath: '$.sequence[2]',
        configuredBytes: configured,
        neededBytes: packed(hdiff(64n, 64n, 8n)),
      },
    ]);
    // The recommendation covers every position.
    expect(a.recommendations[0]!.workspaceBytes).toBe(packed(hdiff(64n, 64n, 8n)));
  });

  it('gives the workspace need as a closed form in the swept symbol, equal to the independent sizes', async () => {
    const subject = await loadSubject(join(EXAMPLES, 'hdiff.sdfg'), {
      ...NO_SYMBOLS,
      symbols: new Map([
        ['J', 16n],
        ['K', 8n],
      ]),
    });
    const values = [16n, 32n, 64n, 128n, 256n];
    const a = advise(subject, {
      ...NO_SYMBOLS,
      symbols: new Map([
        ['J', 16n],
        ['K', 8n],
      ]),
      layout: 'packed',
      sweep: { symbol: 'I', values },
    });
    const s = a.sweep!.storages.CPU_Heap!;
    expect(s.packed.bytes).toEqual(values.map((i) => packed(hdiff(i, 16n, 8n))));
    // (I+2)·18·8·8 + (I+1)·16·8·8 + I·17·8·8 = 3264·I + 3328: every slot a multiple of 64 at J=16, K=8.
    expect(s.packed.closedForm).toBe('3264*N + 3328'.replace(/N/g, 'I'));
  });

  it('decides by measurement when a profile result is given', async () => {
    const result = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'profile', 'hdiff-cpu.json'), 'utf8')) as ProfileResult;
    const subject = await loadSubject(join(EXAMPLES, 'hdiff.sdfg'), { ...NO_SYMBOLS, defaultSymbol: 32n });
    const a = advise(subject, { ...NO_SYMBOLS, defaultSymbol: 32n, layout: 'packed', result });
    expect(a.basis).toBe('measured');
    expect(a.recommendations[0]!.reasons[0]).toMatch(/^measured: /);
    expect(a.recommendations[0]!.reasons.join('\n')).not.toMatch(/no timing backs this/);
  });
});

describe('advise: what blocks EXTERNAL', () => {
  it('names the map a transient is used inside, and the change', async () => {
    const file = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_0.sdfg');
    const a = advise(await loadSubject(file, { ...NO_SYMBOLS, defaultSymbol: 16n }), {
      ...NO_SYMBOLS,
      defaultSymbol: 16n,
      layout: 'packed',
    });
    const b = a.blockers.find((x) => x.id === '0:tmp')!;
    expect(b.reason).toMatch(/accessed inside map/);
    expect(b.change).toMatch(/^allocate it outside map '.+' \(state '.+'\): give it one slice per map iteration/);
    expect(b.bytes).toBe(128n);
  });

  it('says which symbol to make a program argument when the SDFG assigns it', async () => {
    const file = join(corpusDir(), 'spcl__dace-fortran__samples__vexx_bp_k__outputs__vexx_bp_k.sdfg');
    const a = advise(await loadSubject(file, { ...NO_SYMBOLS, defaultSymbol: 16n }), {
      ...NO_SYMBOLS,
      defaultSymbol: 16n,
      layout: 'packed',
    });
    const b = a.blockers.find((x) => x.id === '0:deexx')!;
    expect(b.change).toMatch(/^make '.+' a program argument: SDFG '.+' assigns it itself/);
  });
});

describe('check: budgets', () => {
  it('passes within budget, fails over it with one reason per budget', async () => {
    const subject = await loadSubject(join(EXAMPLES, 'hdiff.sdfg'), { ...NO_SYMBOLS, defaultSymbol: 32n });
    const a = advise(subject, { ...NO_SYMBOLS, defaultSymbol: 32n, layout: 'packed' });
    const need = packed(hdiff(32n, 32n, 32n));
    expect(checkBudgets(a, { maxWorkspace: new Map([['CPU_Heap', need]]), maxAllocsPerCall: 0n, mode: 'EXTERNAL' }).ok).toBe(true);
    const over = checkBudgets(a, { maxWorkspace: new Map([['CPU_Heap', need - 1n]]), maxAllocsPerCall: 2n, mode: 'SCOPED' });
    expect(over.ok).toBe(false);
    expect(over.failures).toEqual([
      `workspace CPU_Heap (EXTERNAL, packed layout) needs ${need} B, over the budget of ${need - 1n} B by 1 B`,
      'SCOPED makes 3 allocation(s) per call, over the budget of 2',
    ]);
  });

  it('refuses a workload whose program file is missing, naming the workload entry', async () => {
    const path = workload({ programs: { p: { sdfg: 'missing.sdfg' } }, sequence: ['p'] });
    const err = await loadSubject(path, NO_SYMBOLS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlabError);
    expect((err as TlabError).file).toBe(path);
    expect((err as TlabError).jsonPath).toBe('$.programs.p');
    expect((err as TlabError).message).toMatch(/missing\.sdfg/);
  });
});
