/**
 * The contract suite's view and workload requests: analyze, graph and search on an SDFG; workloadView, advise,
 * openProgram and fileKind on a workload.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analysisDocument } from '../../electron/engine/view/analysis-doc.js';
import type { TransientLabClient } from '../../electron/ipc/contract.js';
import { fileBytes, type Scratch } from './fixtures.js';
import { failure, type SuiteContext } from './suite-kit.js';

export function viewTests(ctx: () => SuiteContext): void {
  let client: TransientLabClient;
  let scratch: Scratch;
  beforeAll(() => {
    ({ client, scratch } = ctx());
  });

  describe('views', () => {
    it('analyze returns analysis@1 (with sdfgs[]) and one memory curve point per step', async () => {
      const doc = await client.openExample({ id: 'chain' });
      const view = await client.analyze({ doc: doc.doc, symbols: { N: '1000' }, defaultSymbol: null, target: null });
      const analysis = analysisDocument(view);
      expect(analysis.schema).toBe('transient-lab/analysis@1');
      // The code generator's verdict rides along (the window's Profile button follows it).
      expect(view.analysis.profile).toEqual({ ok: true });
      expect(view.sdfgs).toEqual(doc.sdfgs);
      expect(analysis.transients.map((t) => t.bytes)).toEqual([8000, 8000, 8000, 8000]);
      const heap = view.memory.find((m) => m.storage === 'CPU_Heap')!;
      const curve = (mode: string) => heap.curves!.find((c) => c.mode === mode)!.bytes.map(Number);
      expect(curve('SCOPED')).toHaveLength(analysis.steps.length);
      // chain: at most two of the four 8000-byte transients are live at a time.
      expect(Math.max(...curve('SCOPED'))).toBe(16000);
      expect(curve('PERSISTENT').every((b) => b === 32000)).toBe(true);
      // Symbols change the sizes.
      const bigger = await client.analyze({ doc: doc.doc, symbols: { N: '2000' }, defaultSymbol: null, target: null });
      expect(bigger.table.bytes[0]).toBe(16000);
      await client.closeDoc({ doc: doc.doc });
    });

    it('graph returns the root region and search finds a transient', async () => {
      const doc = await client.openExample({ id: 'hdiff' });
      const root = await client.graph({ doc: doc.doc, region: null });
      expect(root.nodes.length).toBeGreaterThan(0);
      const hits = await client.search({ doc: doc.doc, query: 'lap', limit: 10 });
      expect(hits.length).toBeGreaterThan(0);
      await client.closeDoc({ doc: doc.doc });
    });
  });

  describe('workloads', () => {
    it('opens a workload: its programs in DocInfo, the Workload view, the advisor, and a program as an SDFG', async () => {
      const doc = await client.openExample({ id: 'workload-dycore' });
      expect(doc.workload).toMatchObject({ name: 'dycore-step', sequence: ['hdiff', 'vsmooth', 'vadv', 'chain', 'hdiff'], steps: 4 });
      expect(doc.workload!.programs.map((p) => p.file)).toEqual(['hdiff.sdfg', 'vsmooth.sdfg', 'vadv.sdfg', 'chain.sdfg']);
      const req = { doc: doc.doc, symbols: {}, defaultSymbol: null, target: null, layout: 'packed' as const };
      const view = await client.workloadView(req);
      const heap = view.timelines.find((t) => t.storage === 'CPU_Heap')!;
      expect(view.calls).toHaveLength(5);
      expect(Number(heap.external.band)).toBe(Math.max(...heap.external.use.map(Number)));
      expect(Number(heap.persistent.total)).toBe(heap.persistent.blocks.reduce((a, b) => a + Number(b.bytes), 0));
      expect(heap.external.sizedBy).toBe('hdiff');
      const advice = await client.advise({ ...req, sweep: { symbol: 'K', values: ['20', '40', '80', '160'] } });
      expect(advice.recommendations[0]).toMatchObject({ storage: 'CPU_Heap', mode: 'EXTERNAL', workspaceBytes: heap.external.band });
      expect(advice.sweep!.values).toEqual([20, 40, 80, 160]);
      expect(advice.sweep!.storages[0]!.packed.bytes[2]).toBe(heap.external.band);
      // Symbols override the workload's shared ones.
      const small = await client.workloadView({ ...req, symbols: { I: '64', J: '64' } });
      expect(Number(small.timelines[0]!.persistent.blocks[0]!.bytes)).toBeLessThan(Number(heap.persistent.blocks[0]!.bytes));
      // A workload has no graph of its own.
      expect((await failure(client.graph({ doc: doc.doc, region: null }))).kind).toBe('usage');
      const program = await client.openProgram({ doc: doc.doc, program: 'vadv' });
      expect(program).toMatchObject({ name: 'vadv.sdfg' });
      expect((await client.graph({ doc: program.doc, region: null })).nodes.length).toBeGreaterThan(0);
      // The advisor works on a single SDFG too.
      const one = await client.advise({ ...req, doc: program.doc, symbols: { I: '128', J: '128', K: '80' }, sweep: null });
      expect(one.subject).toMatchObject({ kind: 'sdfg', calls: 1 });
      expect((await failure(client.openProgram({ doc: doc.doc, program: 'nope' }))).jsonPath).toBe('$.program');
      await client.closeDoc({ doc: program.doc });
      await client.closeDoc({ doc: doc.doc });
    });

    it('says what a file is, and holds a workload to the allowed folders', async () => {
      const inside = join(scratch.root, 'w-in.json');
      const outside = join(scratch.root, 'w-out.json');
      const workload = (sdfg: string) => JSON.stringify({ schema: 'transient-lab/workload@1', programs: { a: { sdfg } }, sequence: ['a'] });
      await writeFile(inside, workload('hdiff-copy.sdfg'));
      await writeFile(outside, workload(join(scratch.outside, 'secret.sdfg')));
      expect(await client.fileKind({ path: inside })).toEqual({ kind: 'workload' });
      expect(await client.fileKind({ path: 'notes.json' })).toEqual({ kind: 'result' });
      expect(await client.fileKind({ path: 'hdiff-copy.sdfg' })).toEqual({ kind: 'sdfg' });
      const doc = await client.openFile({ path: inside });
      expect(doc.workload!.programs).toEqual([{ key: 'a', file: 'hdiff-copy.sdfg' }]);
      await client.closeDoc({ doc: doc.doc });
      // A DaCe build folder as a program: the SDFG DaCe saved in it.
      const dace = join(scratch.root, 'w-dace.json');
      await writeFile(
        dace,
        JSON.stringify({ schema: 'transient-lab/workload@1', programs: { h: { prebuilt: '.dacecache/hdiff' } }, sequence: ['h'] }),
      );
      const daceDoc = await client.openFile({ path: dace });
      expect(daceDoc.workload!.programs).toEqual([{ key: 'h', file: 'program.sdfg' }]);
      await client.closeDoc({ doc: daceDoc.doc });
      const refused = await failure(client.openFile({ path: outside }));
      expect(refused.jsonPath).toBe('$.programs.a.sdfg');
      expect(refused.message).toMatch(/program 'a'/);
      const upload = await failure(client.openUpload({ name: 'w.json', bytes: await fileBytes(inside) }));
      expect(upload).toMatchObject({ kind: 'unsupported', file: 'w.json' });
      expect(upload.message).toMatch(/open it by path/);
    });
  });
}
