/**
 * The layout pipeline without a browser: flat layouts by both libraries, the bottom-up hierarchical layout with
 * its cache (expanding one element lays out only it and its ancestors), scope frames and connectors, and the
 * scene composed from it. Text is measured by the estimate the tests share with nothing else.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { graphRegion } from '../../../electron/engine/view/graph.js';
import type { GraphRegion } from '../../../electron/engine/view/types.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { countCrossings, layoutDagre, layoutElk, type FlatGraph } from '../../../renderer/src/graph/flat-layout.js';
import { edgePoints, forLayout, HierLayout } from '../../../renderer/src/graph/hier-layout.js';
import { buildScene, hitTest, toggleRect } from '../../../renderer/src/graph/scene.js';
import { estimateMeasure } from '../../../renderer/src/graph/text.js';
import { SCOPE_FOOTER_H, SCOPE_GAP } from '../../../renderer/src/graph/geometry.js';

const chain = (n: number): FlatGraph => ({
  nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, width: 80 + 10 * i, height: 30, inPorts: ['a', 'b'], outPorts: ['o'] })),
  edges: Array.from({ length: n - 1 }, (_, i) => ({
    id: `e${i}`,
    src: `n${i}`,
    dst: `n${i + 1}`,
    srcPort: 'o',
    dstPort: 'b',
    label: null,
    invisible: false,
  })),
});

const overlaps = (nodes: Float64Array, sizes: Array<{ width: number; height: number }>): boolean => {
  for (let i = 0; i < sizes.length; i++)
    for (let j = i + 1; j < sizes.length; j++) {
      const [ax, ay, bx, by] = [nodes[2 * i]!, nodes[2 * i + 1]!, nodes[2 * j]!, nodes[2 * j + 1]!];
      if (ax < bx + sizes[j]!.width && bx < ax + sizes[i]!.width && ay < by + sizes[j]!.height && by < ay + sizes[i]!.height) return true;
    }
  return false;
};

describe('flat layouts', () => {
  for (const [name, run] of [
    ['dagre', async (g: FlatGraph) => layoutDagre(g)],
    ['elk', layoutElk],
  ] as const) {
    it(`${name}: a chain goes top to bottom without overlaps, every edge has a polyline`, async () => {
      const g = chain(6);
      const l = await run(g);
      for (let i = 1; i < 6; i++) expect(l.nodes[2 * i + 1]!).toBeGreaterThan(l.nodes[2 * (i - 1) + 1]!);
      expect(overlaps(l.nodes, g.nodes)).toBe(false);
      expect(l.edges.every((p) => p.length >= 4)).toBe(true);
      expect(l.width).toBeGreaterThanOrEqual(130);
      expect(countCrossings(l)).toBe(0);
    });

    it(`${name}: invisible edges shape the layout but are not drawn; unknown ends are dropped`, async () => {
      const g = chain(3);
      g.edges.push({ id: 'x', src: 'n0', dst: 'n2', srcPort: null, dstPort: null, label: null, invisible: true });
      g.edges.push({ id: 'y', src: 'n0', dst: 'nowhere', srcPort: null, dstPort: null, label: null, invisible: false });
      const l = await run(g);
      expect(l.edges[2]!.length).toBe(0);
      expect(l.edges[3]!.length).toBe(0);
    });
  }

  it('dagre reserves room for edge labels', () => {
    const g = chain(2);
    const plain = layoutDagre(g);
    g.edges[0]!.label = { width: 300, height: 40 };
    const labelled = layoutDagre(g);
    expect(labelled.height).toBeGreaterThan(plain.height);
    expect(Number.isNaN(labelled.labels[0]!)).toBe(false);
  });
});

describe('connector order', () => {
  it('connectors take the order their edges come from, so edges do not cross at the node', async () => {
    const access = (id: string, data: string) => ({
      kind: 'access' as const,
      id,
      label: data,
      data,
      transient: null,
      storage: 'Default',
      descriptor: null,
      inConnectors: [],
      outConnectors: [],
      expand: null,
      summary: null,
    });
    const memlet = (id: string, src: string, dst: string, dstConnector: string) => ({
      kind: 'memlet' as const,
      id,
      src,
      dst,
      srcConnector: null,
      dstConnector,
      label: '',
      data: 'x',
      volume: '1',
      dynamic: false,
      wcr: null,
      transient: null,
    });
    // File order of the tasklet's connectors is [fromRight, fromLeft]; the layout puts L left of R.
    const region: GraphRegion = {
      id: 's',
      kind: 'state',
      sdfg: 0,
      label: 's',
      nodes: [
        access('L', 'left'),
        access('R', 'right'),
        {
          kind: 'tasklet',
          id: 'T',
          label: 't',
          language: 'Python',
          code: 'c = a + b',
          codeLines: 1,
          inConnectors: ['fromRight', 'fromLeft'],
          outConnectors: [],
          expand: null,
          summary: null,
        },
      ],
      edges: [memlet('e1', 'L', 'T', 'fromLeft'), memlet('e2', 'R', 'T', 'fromRight')],
    };
    const h = new HierLayout(estimateMeasure, 'dagre');
    h.addRegions([region]);
    const [l] = await h.run('s', new Set());
    const leftFirst = l!.nodes[0]! < l!.nodes[4]!;
    expect(l!.ports[2]!.in).toEqual(leftFirst ? ['fromLeft', 'fromRight'] : ['fromRight', 'fromLeft']);
    // Each edge ends on its own connector: the left edge on the left one.
    const endX = (k: number) => edgePoints(l!, k).at(-2)!;
    expect(endX(0) < endX(1)).toBe(leftFirst);
  });
});

describe('hierarchical layout on corpus regions', () => {
  let file: SdfgFile;
  let regions: Map<string, GraphRegion>;
  beforeAll(async () => {
    file = await readSdfgFile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__nbody_nbody.sdfg'));
    regions = new Map();
    const queue: Array<string | null> = [null];
    while (queue.length) {
      const r = graphRegion(file, queue.shift()!);
      regions.set(r.id, r);
      for (const n of r.nodes) if (n.expand) queue.push(n.expand);
    }
  });

  const stateWithMap = (): { state: GraphRegion; mapId: string } => {
    for (const r of regions.values()) {
      if (r.kind !== 'state') continue;
      const m = r.nodes.find((n) => n.kind === 'map');
      if (m) return { state: r, mapId: m.expand! };
    }
    throw new Error('no state with a map');
  };

  it('collapsed children are boxes; an expanded child is as big as its frame', async () => {
    const h = new HierLayout(estimateMeasure, 'dagre');
    h.addRegions([...regions.values()]);
    const { state, mapId } = stateWithMap();
    const closed = (await h.run(state.id, new Set())).find((l) => l.id === state.id)!;
    const open = await h.run(state.id, new Set([mapId]));
    const inner = open.find((l) => l.id === mapId)!;
    const outer = open.find((l) => l.id === state.id)!;
    const i = state.nodes.findIndex((n) => n.expand === mapId);
    expect(outer.nodes[4 * i + 2]).toBe(inner.width);
    expect(outer.nodes[4 * i + 3]).toBe(inner.height);
    expect(inner.height).toBeGreaterThan(closed.nodes[4 * i + 3]!);
    // Every node of the inside sits within the frame, below the header and above the footer.
    const region = regions.get(mapId)!;
    for (let k = 0; k < region.nodes.length; k++) {
      expect(inner.nodes[4 * k]!).toBeGreaterThanOrEqual(0);
      expect(inner.nodes[4 * k + 1]!).toBeGreaterThanOrEqual(inner.insets.top);
      expect(inner.nodes[4 * k + 1]! + inner.nodes[4 * k + 3]!).toBeLessThanOrEqual(inner.height - inner.insets.bottom + 0.5);
      expect(inner.nodes[4 * k]! + inner.nodes[4 * k + 2]!).toBeLessThanOrEqual(inner.width + 0.5);
    }
    // Edges leaving the entry start on the header's bottom edge, edges into the exit end on the footer's top,
    // each on its own connector.
    region.edges.forEach((e, k) => {
      if (e.src === region.id) expect(edgePoints(inner, k)[1]).toBeCloseTo(inner.insets.top - SCOPE_GAP, 5);
      if (e.dst === region.id) expect(edgePoints(inner, k).at(-1)).toBeCloseTo(inner.height - SCOPE_FOOTER_H, 5);
    });
    expect(new Set(inner.boundary!.entryOut)).toEqual(
      new Set(regions.get(state.id)!.nodes[i]!.kind === 'map' ? (regions.get(state.id)!.nodes[i] as { entryOut: string[] }).entryOut : []),
    );
  });

  it('expanding one element lays out only it and its ancestors; collapsing reuses the cache', async () => {
    const h = new HierLayout(estimateMeasure, 'dagre');
    h.addRegions([...regions.values()]);
    const root = regions.get('$')!;
    const expandable = root.nodes.filter((n) => n.expand !== null).map((n) => n.expand!);
    const first = new Set(expandable.slice(0, 3));
    const before = await h.run('$', first);
    const ms = new Map(before.map((l) => [l.id, l]));
    const more = new Set([...first, expandable[3]!]);
    const after = await h.run('$', more);
    const recomputed = after.filter((l) => ms.get(l.id) !== l).map((l) => l.id);
    expect(recomputed.sort()).toEqual(['$', expandable[3]!].sort());
    const back = await h.run('$', first);
    expect(back.find((l) => l.id === '$')!.key).toBe(ms.get('$')!.key);
  });

  it('the scene places every visible node inside its frame and hit-tests nodes, toggles, edges and frames', async () => {
    const h = new HierLayout(estimateMeasure, 'dagre');
    h.addRegions([...regions.values()]);
    const { state, mapId } = stateWithMap();
    // Open the path from the root down to the map.
    const parentOf = new Map<string, string>();
    for (const r of regions.values()) for (const n of r.nodes) if (n.expand) parentOf.set(n.expand, r.id);
    const chainIds: string[] = [];
    for (let id: string | undefined = mapId; id && id !== '$'; id = parentOf.get(id)) chainIds.unshift(id);
    const expanded = new Set(chainIds);
    const layouts = new Map((await h.run('$', expanded)).map((l) => [l.id, l]));
    const scene = buildScene('$', regions, layouts, expanded);
    expect(scene.nodes.length).toBe([...expanded, '$'].reduce((s, id) => s + regions.get(id)!.nodes.length, 0));
    for (const [i, n] of scene.nodes.entries()) {
      if (n.parent < 0) continue;
      const p = scene.nodes[n.parent]!;
      expect(n.x).toBeGreaterThanOrEqual(p.x - 0.5);
      expect(n.y).toBeGreaterThanOrEqual(p.y + p.insets!.top - 0.5);
      expect(n.x + n.w).toBeLessThanOrEqual(p.x + p.w + 0.5);
      expect(n.y + n.h).toBeLessThanOrEqual(p.y + p.h + 0.5);
      expect(i).toBeLessThan(p.end);
    }
    const mapIdx = scene.byId.get(mapId)!;
    const map = scene.nodes[mapIdx]!;
    expect(map.expanded).toBe(true);
    const [tx, ty, tw, th] = toggleRect(map);
    expect(hitTest(scene, tx + tw / 2, ty + th / 2, 4)).toEqual({ kind: 'toggle', index: mapIdx });
    const leafIdx = mapIdx + 1;
    const leaf = scene.nodes[leafIdx]!;
    expect(hitTest(scene, leaf.x + leaf.w / 2, leaf.y + leaf.h / 2, 4)).toEqual({ kind: 'node', index: leafIdx });
    const edge = scene.edges.find((e) => e.region === state.id)!;
    const k = scene.edges.indexOf(edge);
    const mx = (edge.points[0]! + edge.points[2]!) / 2,
      my = (edge.points[1]! + edge.points[3]!) / 2;
    expect(hitTest(scene, mx, my, 3)).toEqual({ kind: 'edge', index: k });
    // Empty space inside the state's frame selects the state.
    const stateIdx = scene.byId.get(state.id)!;
    const s = scene.nodes[stateIdx]!;
    expect(hitTest(scene, s.x + 3, s.y + s.h - 3, 0.5)).toEqual({ kind: 'node', index: stateIdx });
    expect(hitTest(scene, -1000, -1000, 4)).toBeNull();
  });

  it('the worker gets regions without the transient lists it does not need', () => {
    const big = [...regions.values()].find((r) => r.nodes.some((n) => (n.summary?.transients.length ?? 0) > 1))!;
    const slim = forLayout(big);
    expect(slim.nodes.every((n) => (n.summary?.transients.length ?? 0) <= 1)).toBe(true);
    expect(slim.nodes.map((n) => (n.summary?.transients.length ?? 0) > 0)).toEqual(
      big.nodes.map((n) => (n.summary?.transients.length ?? 0) > 0),
    );
  });
});

describe('a region sent again replaces the one held (a preview root once the whole file is read)', () => {
  const region = (summaryLine: string): GraphRegion =>
    ({
      id: '$',
      kind: 'cfg',
      sdfg: 0,
      label: 'root',
      nodes: [
        { id: 'a', kind: 'state', label: 'a', start: true, expand: 'a', summary: null },
        { id: 'b', kind: 'state', label: summaryLine, start: false, expand: 'b', summary: null },
      ],
      edges: [{ id: 'e', kind: 'interstate', src: 'a', dst: 'b', label: '' }],
    }) as unknown as GraphRegion;

  it('lays it out again with its new node sizes instead of serving the cached layout', async () => {
    const h = new HierLayout(estimateMeasure, 'dagre');
    h.addRegions([region('b')]);
    const [before] = await h.run('$', new Set());
    expect((await h.run('$', new Set()))[0]).toBe(before);
    h.addRegions([region('b, whose label grew much wider once its nested SDFGs were read')]);
    const [after] = await h.run('$', new Set());
    expect(after).not.toBe(before);
    expect(after!.width).toBeGreaterThan(before!.width);
  });
});
