/**
 * Graph view models on every corpus file: the root region builds, expanding every element reaches every
 * state, dataflow node and edge of the model exactly once, ids are unique, edges join drawn nodes, summaries
 * add up, search paths lead to their hits, and labels read like DaCe's.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { statesOf } from '../../../electron/engine/model/queries.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { graphRegion, searchGraph } from '../../../electron/engine/view/graph.js';
import type { GraphNode, GraphRegion } from '../../../electron/engine/view/types.js';
import { TlabError } from '../../../electron/engine/errors.js';

const files = readdirSync(corpusDir())
  .filter((n) => /\.sdfgz?$/.test(n))
  .sort();
const load = (name: string): Promise<SdfgFile> => readSdfgFile(join(corpusDir(), name));

interface Walk {
  regions: GraphRegion[];
  problems: string[];
}

/** Expands everything, breadth first, checking each region as it comes. */
function expandAll(file: SdfgFile): Walk {
  const problems: string[] = [];
  const note = (ok: boolean, what: string) => {
    if (!ok && problems.length < 20) problems.push(what);
  };
  const regions: GraphRegion[] = [];
  const nodeIds = new Set<string>();
  const edgeIds = new Set<string>();
  const queue: Array<string | null> = [null];
  while (queue.length) {
    const r = graphRegion(file, queue.shift()!);
    regions.push(r);
    note(JSON.stringify(JSON.parse(JSON.stringify(r))) === JSON.stringify(r), `${r.id}: not plain JSON`);
    const local = new Set(r.nodes.map((n) => n.id));
    for (const n of r.nodes) {
      note(!nodeIds.has(n.id), `${r.id}: node id ${n.id} seen twice`);
      nodeIds.add(n.id);
      note((n.expand === null) === (n.summary === null), `${n.id}: expand and summary disagree`);
      if (n.expand !== null) queue.push(n.expand);
    }
    for (const e of r.edges) {
      note(!edgeIds.has(e.id), `${r.id}: edge id ${e.id} seen twice`);
      edgeIds.add(e.id);
      const ok = (end: string) => local.has(end) || (r.kind === 'scope' && end === r.id);
      note(ok(e.src) && ok(e.dst), `${r.id}: edge ${e.id} joins ${e.src} → ${e.dst}, not drawn here`);
    }
  }
  return { regions, problems };
}

/** Dataflow nodes a region stands for: a paired scope is its entry and its exit. */
const modelNodes = (n: GraphNode): number => ((n.kind === 'map' || n.kind === 'consume') && n.exitId !== null ? 2 : 1);

describe('graph view models on the corpus', () => {
  for (const name of files) {
    it(`${name}: every element, once`, async () => {
      const file = await load(name);
      const root = graphRegion(file, null);
      expect(root.id).toBe('$');
      expect(root.kind).toBe('cfg');
      expect(root.nodes.length).toBe(file.root.body.blocks.length);

      const { regions, problems } = expandAll(file);
      expect(problems).toEqual([]);
      const states = file.sdfgs.flatMap((s) => [...statesOf(s)]);
      const dataflow = regions.filter((r) => r.kind === 'state' || r.kind === 'scope');
      // Every state is a region to open, except empty ones (nothing inside): those are plain boxes.
      const emptyStates = regions.flatMap((r) => r.nodes).filter((n) => n.kind === 'state' && n.expand === null).length;
      expect(emptyStates).toBe(states.filter((s) => s.nodes.length === 0).length);
      expect(regions.filter((r) => r.kind === 'state').length + emptyStates).toBe(states.length);
      expect(dataflow.reduce((s, r) => s + r.nodes.reduce((k, n) => k + modelNodes(n), 0), 0)).toBe(
        states.reduce((s, st) => s + st.nodes.length, 0),
      );
      expect(dataflow.reduce((s, r) => s + r.edges.length, 0)).toBe(states.reduce((s, st) => s + st.edges.length, 0));

      // The root's summaries cover every state and dataflow node of the file.
      const sum = root.nodes.reduce(
        (acc, n) => ({
          states: acc.states + (n.summary?.states ?? (n.kind === 'state' ? 1 : 0)),
          nodes: acc.nodes + (n.summary?.nodes ?? 0),
        }),
        { states: 0, nodes: 0 },
      );
      expect(sum).toEqual({ states: file.stats.states, nodes: file.stats.nodes });
      const transients = new Set(
        file.sdfgs.flatMap((s) => [...s.arrays.values()].filter((d) => d.transient).map((d) => `${s.sdfgIndex}:${d.name}`)),
      );
      for (const n of root.nodes)
        for (const t of n.summary?.transients ?? []) expect(transients.has(t.split('.')[0]!) || transients.has(t)).toBe(true);
    });
  }
});

describe('graph view model details', () => {
  it('nbody: maps, tasklets, access nodes and memlets read like DaCe', async () => {
    const file = await load('spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg');
    const root = graphRegion(file, null);
    const binop = root.nodes.find((n) => n.label === 'BinOp_106')!;
    expect(binop.kind).toBe('state');
    expect(binop.summary).toMatchObject({ states: 1, nodes: 7, maps: 1, tasklets: 1 });
    const state = graphRegion(file, binop.expand);
    expect(state.kind).toBe('state');
    const map = state.nodes.find((n) => n.kind === 'map')!;
    expect(map).toMatchObject({ label: '_Mult__map', params: ['__i0 = 0:N', '__i1 = 0:3'], schedule: 'Default' });
    // Edges leaving the map exit are drawn from the scope node.
    expect(state.edges.some((e) => e.src === map.id)).toBe(true);
    expect(state.edges.some((e) => e.dst === map.id)).toBe(true);
    const inside = graphRegion(file, map.expand);
    expect(inside.kind).toBe('scope');
    const tasklet = inside.nodes.find((n) => n.kind === 'tasklet')!;
    expect(tasklet).toMatchObject({ label: '_Mult_', code: '__out = (__in1 * __in2)', language: 'Python' });
    expect(inside.edges.filter((e) => e.src === inside.id).length).toBeGreaterThan(0);
    expect(inside.edges.filter((e) => e.dst === inside.id).length).toBeGreaterThan(0);
    const mass = state.edges.find((e) => e.kind === 'memlet' && e.data === 'mass_0')!;
    expect(mass).toMatchObject({ label: 'mass_0[0:N, 0]', volume: '3*N' });
    const access = state.nodes.find((n) => n.kind === 'access' && n.transient !== null);
    expect(access).toBeDefined();
  });

  it('cloudsc_simplified: loop headers and conditional branches', async () => {
    const file = await load('spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz');
    const root = graphRegion(file, null);
    const loop = root.nodes.find((n) => n.kind === 'loop')!;
    expect(loop).toMatchObject({ kind: 'loop' });
    if (loop.kind !== 'loop') throw new Error('unreachable');
    expect(loop.variable).not.toBe('');
    expect(loop.condition).toMatch(loop.variable);
    // Find a conditional somewhere and check its branches.
    const queue = [null as string | null];
    let cond: GraphRegion | null = null;
    while (queue.length && !cond) {
      const r = graphRegion(file, queue.shift()!);
      for (const n of r.nodes) {
        if (n.kind === 'conditional') cond = graphRegion(file, n.expand);
        else if (n.expand && n.kind !== 'state') queue.push(n.expand);
      }
    }
    expect(cond!.kind).toBe('conditional');
    expect(cond!.nodes.every((n) => n.kind === 'branch')).toBe(true);
    expect(cond!.edges).toEqual([]);
  });

  it('interstate edges carry conditions and assignments', async () => {
    const file = await load('spcl__dace__doc___static__sdfg__scalarsym.sdfg');
    const root = graphRegion(file, null);
    const e = root.edges.find((x) => x.kind === 'interstate' && x.assignments.length > 0);
    expect(e).toBeDefined();
    if (e?.kind !== 'interstate') throw new Error('unreachable');
    expect(e.label).toContain(`${e.assignments[0]![0]} = `);
  });

  it('WCR memlets are marked', async () => {
    const file = await load('spcl__dace__doc___static__sdfg__spmv.sdfg');
    const { regions } = expandAll(file);
    const wcr = regions.flatMap((r) => r.edges).filter((e) => e.kind === 'memlet' && e.wcr !== null);
    expect(wcr.length).toBeGreaterThan(0);
    expect(wcr.some((e) => e.kind === 'memlet' && e.wcr === 'sum' && e.label.endsWith('(CR: sum)'))).toBe(true);
  });

  it('an unknown region id is a usage error naming the file', async () => {
    const file = await load('spcl__dace__doc___static__sdfg__example.sdfg');
    expect(() => graphRegion(file, '$.nodes[999]')).toThrow(TlabError);
    try {
      graphRegion(file, '$.nodes[999]');
    } catch (e) {
      expect((e as TlabError).kind).toBe('usage');
      expect((e as TlabError).file).toContain('example.sdfg');
    }
  });

  it('ids the renderer got elsewhere (analysis state paths) expand without a walk first', async () => {
    const file = await load('ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz');
    const deep = [...statesOf(file.sdfgs[3]!)][0]!;
    const r = graphRegion(file, deep.jsonPath);
    expect(r.kind).toBe('state');
    expect(r.sdfg).toBe(3);
  });
});

describe('graph search', () => {
  it('finds tasklet code, containers and conditions, with paths that lead to them', async () => {
    const file = await load('ThrudPrimrose__data_must_flow_artifacts__cloudsc__stage8.sdfgz');
    for (const query of ['zqtmst_out', 'ptsphy', '_if_cond_16']) {
      const hits = searchGraph(file, query, 20);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits.slice(0, 5)) {
        // Expanding the path, outermost first, shows the hit in the last region.
        let region = graphRegion(file, null);
        for (const id of hit.path) {
          expect(region.nodes.some((n) => n.expand === id)).toBe(true);
          region = graphRegion(file, id);
        }
        expect([...region.nodes.map((n) => n.id), ...region.edges.map((e) => e.id)]).toContain(hit.id);
        expect(hit.snippet.toLowerCase()).toContain(query.toLowerCase());
      }
    }
    expect(searchGraph(file, 'PTSPHY', 3).length).toBe(3);
    // An id finds exactly its element, memlets included, with the path to it.
    const deep = searchGraph(file, 'zqtmst_out', 1)[0]!;
    expect(searchGraph(file, deep.id, 5)).toEqual([{ ...deep, field: 'id', snippet: deep.id }]);
    const state = graphRegion(file, deep.path.at(-1)!);
    const memlet = state.edges.find((e) => e.kind === 'memlet')!;
    expect(searchGraph(file, memlet.id, 5)).toMatchObject([{ id: memlet.id, kind: 'memlet', path: deep.path }]);
    expect(searchGraph(file, '$.nodes[999]', 5)).toEqual([]);
    expect(searchGraph(file, '', 10)).toEqual([]);
    expect(searchGraph(file, 'no such text anywhere', 10)).toEqual([]);
  });
});
