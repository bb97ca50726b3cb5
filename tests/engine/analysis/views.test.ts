/**
 * Views and references own no bytes (docs/memory-views.md "Views and references"): what each one aliases
 * (`viewOf`, resolved as DaCe's `get_view_edge` does, through chains of views, nested connectors and `set`
 * edges), and that no sum, plan or layout counts them.
 *
 * tests/fixtures/sdfg/views.sdfg (N = 16): T (N doubles) written in s0, read in s1 through VV, a view of the
 * view VT of T; s2 points the reference R at T; s3 writes T3 through the out-view VO from VA, a view of the
 * argument A; s4 reads R, T3 and T2 (4N doubles) into B; s5 calls a nested SDFG whose view vx views its
 * connector x.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { humanReport } from '../../../electron/cli/analyze.js';
import { analyze, type Analysis } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { placeTransient } from '../../../electron/engine/codegen/placement.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { aliasOf, analysisDocument, ownedBytes } from '../../../electron/engine/view/analysis-doc.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { aliasText } from '../../../electron/engine/view/format.js';
import type { StateBlock } from '../../../electron/engine/model/sdfg.js';
import type { TransientJson } from '../../../electron/engine/view/types.js';
import { access, desc, file, loop, mapEntry, mapExit, memlet, sdfg, state, tasklet } from '../../../bench/lib/model-builder.js';

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'views.sdfg');

async function run(path: string, symbols: Record<string, bigint> = { N: 16n }): Promise<Analysis> {
  return analyze(await readSdfgFile(path), { symbols: new Map(Object.entries(symbols)), defaultSymbol: null, target: null });
}

const byId = (a: Analysis) => new Map(a.transients.map((t) => [t.id, t]));
const jsonOf = (a: Analysis) => new Map((toAnalysisJson(a) as { transients: TransientJson[] }).transients.map((t) => [t.id, t]));

describe('what a view or reference aliases', () => {
  it('resolves in-views, out-views, chains of views, views of arguments and of nested connectors, and a set reference', async () => {
    const t = byId(await run(FIXTURE));
    const viewOf = (id: string) => t.get(id)!.alias?.viewOf;
    expect(viewOf('0:VT')).toBe('0:T'); // in-view through its `views` connector
    expect(viewOf('0:VV')).toBe('0:T'); // a view of the view VT: the root data
    expect(viewOf('0:VO')).toBe('0:T3'); // out-view: its outgoing edge reaches T3
    expect(viewOf('0:VA')).toBe('A'); // a view of the argument A: its name
    expect(viewOf('1:vx')).toBe('x'); // in the nested SDFG: the connector's name
    expect(viewOf('0:R')).toBe('0:T'); // the only container its `set` edge points it at
    for (const id of ['0:T', '0:T2', '0:T3']) expect(t.get(id)!.alias).toBeNull();
  });

  it('writes viewOf on views and references only, and says why when it is not known statically', async () => {
    const json = jsonOf(await run(FIXTURE));
    expect(json.get('0:VV')!.viewOf).toBe('0:T');
    expect(json.get('0:VA')!.viewOf).toBe('A');
    expect(json.get('0:VV')).not.toHaveProperty('viewOfReason');
    expect(json.get('0:T')).not.toHaveProperty('viewOf');
    // DaCe's documentation example: `ref` is set to A in one branch and to B in the other.
    const ref = jsonOf(await run(join(corpusDir(), 'spcl__dace__doc___static__sdfg__reference.sdfg'), {})).get('0:ref')!;
    expect(ref.viewOf).toBeNull();
    expect(ref.viewOfReason).toBe('reference, set at run time (to A or B)');
  });

  it('carries viewOf through the AnalysisView: its table rebuilds the same analysis@1 document', async () => {
    const a = await run(FIXTURE);
    const view = buildAnalysisView(a);
    expect(JSON.stringify(analysisDocument(view))).toBe(JSON.stringify(toAnalysisJson(a)));
    const row = view.table.id.indexOf('0:VV');
    expect(aliasOf(view.table, row)).toEqual({ viewOf: '0:T', reason: null });
    expect(ownedBytes(view.table, row)).toBe(0);
    expect(ownedBytes(view.table, view.table.id.indexOf('0:T2'))).toBe(512);
  });

  it('resolves views of structure members and of views of members (container_group jacobi)', async () => {
    const t = byId(await run(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__container_group_jacobi_ContainerArray.sdfg'), {}));
    expect(t.get('0:v_AB_As')!.alias?.viewOf).toBe('AB.As');
    expect(t.get('0:v_A')!.alias?.viewOf).toBe('AB.As.AsArray');
  });

  it('never counts a view or reference in a plan, a layout or a peak', async () => {
    const a = await run(FIXTURE);
    const owners = ['0:T', '0:T2', '0:T3'];
    // 16 + 64 + 16 doubles: the views (5 × 128 B) and the reference (128 B) add nothing.
    expect(a.modes.SCOPED.perCall).toEqual({ allocs: 3n, frees: 3n, bytes: 768n });
    expect(a.modes.SCOPED.stillAllocating.sort()).toEqual(owners);
    expect(a.modes.PERSISTENT.init).toEqual({ allocs: 3, bytes: 768n });
    expect([...a.layouts.dace['CPU_Heap']!.offsets.keys()].sort()).toEqual(owners);
    expect(a.layouts.dace['CPU_Heap']!.bytes).toBe(768n);
    expect([...a.layouts.packed['CPU_Heap']!.offsets.keys()].sort()).toEqual(owners);
    for (const t of a.transients.filter((x) => x.alias)) {
      expect(t.allocation.kind).toBe('none');
      expect(t.executionsPerCall).toBe(0n);
      expect(t.eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
    }
  });

  it('never hands a view to the code generator as something to allocate, whatever its lifetime says', async () => {
    const a = await run(FIXTURE);
    const root = a.file.root;
    const vt = root.arrays.get('VT')!;
    const info = byId(a).get('0:VT')!;
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'] as const) {
      const opts = { mode, layout: 'packed' } as Parameters<typeof placeTransient>[3];
      expect(placeTransient(root, vt, info, opts, true)).toEqual({ kind: 'none' });
      // A file that (wrongly) gives a view an External or Persistent lifetime still gets no slot.
      for (const lifetime of ['External', 'Persistent'])
        expect(placeTransient(root, { ...vt, lifetime }, info, opts, true)).toEqual({ kind: 'none' });
    }
  });

  it('prints what an alias stands for in place of bytes in the CLI summary', async () => {
    const lines = humanReport(await run(FIXTURE), null, true);
    const row = (id: string) => lines.find((l) => l.startsWith(`${id} `))!;
    expect(row('0:VV')).toContain('view of T');
    expect(row('0:VA')).toContain('view of argument A');
    expect(row('0:R')).toContain('reference to T');
    expect(row('0:VV')).not.toContain('128 B');
    expect(row('0:T2')).toContain('512 B');
  });

  it('says in words what an alias stands for', () => {
    expect(aliasText('ArrayView', '0:T')).toBe('view of T');
    expect(aliasText('ArrayView', 'A')).toBe('view of argument A');
    expect(aliasText('ArrayReference', '3:buf')).toBe('reference to buf');
    expect(aliasText('ArrayReference', null, 'reference, set at run time (to A or B)')).toBe('reference, set at run time');
  });
});

describe('a reference keeps what it points at live (docs/liveness.md §2.2)', () => {
  it('counts the uses of a reference as uses of the container its set edge points it at', async () => {
    const a = await run(FIXTURE);
    const t = byId(a);
    // T: written at step 0, read through the views at 1, R pointed at it at 2, read through R at 4.
    expect(t.get('0:T')!.live).toEqual({ first: 0, last: 4 });
    expect(t.get('0:T3')!.live).toEqual({ first: 3, last: 4 });
    // So T3 (written at 3 while R still points at T) gets bytes of its own: 128 + 512 + 128, all live at step 4.
    const packed = a.layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:T')).not.toBe(packed.offsets.get('0:T3'));
    expect(packed.bytes).toBe(768n);
    expect(a.peakLiveBytes['CPU_Heap']).toBe(768n);
    expect(a.modes.EXTERNAL.workspace['CPU_Heap']).toBe(768n);
  });

  it('skips no write-first loop for a container a reference may read first', () => {
    // R is pointed at T before the loop; each iteration reads R (the previous iteration's T), then overwrites
    // all of T, then writes X. X must not get T's bytes: the value T holds at the end of an iteration is read
    // through R at the start of the next.
    const writeAll = (label: string, name: string): StateBlock =>
      state(
        label,
        [mapEntry(`${label}_m`, ['i'], [['0', 'N - 1']]), tasklet(`${label}_t`, 'o = 1', 0), mapExit(0, 0), access(name)],
        [
          memlet(1, 2, name, ['i'], { srcConnector: 'o', dstConnector: `IN_${name}` }),
          memlet(2, 3, name, ['0:N - 1'], { srcConnector: `OUT_${name}` }),
        ],
      );
    const root = sdfg(
      'm',
      [desc('T', ['N']), desc('X', ['N']), desc('R', ['N'], { type: 'ArrayReference' })],
      [
        state('point', [access('T'), access('R')], [memlet(0, 1, 'T', ['0:N - 1'], { dstConnector: 'set' })]),
        loop('L', 'k', 'k = 0', 'k < 4', 'k = k + 1', [
          state('read_R', [access('R'), tasklet('use', 'pass')], [memlet(0, 1, 'R', ['0:N - 1'], { dstConnector: 'x' })]),
          writeAll('overwrite_T', 'T'),
          writeAll('make_X', 'X'),
        ]),
      ],
      { symbols: ['N'] },
    );
    const a = analyze(file(root), { symbols: new Map([['N', 8n]]), defaultSymbol: null, target: null });
    const t = byId(a);
    expect(t.get('0:T')!.live).toEqual({ first: 0, last: 3 });
    expect(t.get('0:X')!.live).toEqual({ first: 3, last: 3 });
    const packed = a.layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:T')).not.toBe(packed.offsets.get('0:X'));
  });
});
