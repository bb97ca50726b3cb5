/**
 * Layout of one flat graph (one region's direct content; expanded children are already boxes of known size),
 * top to bottom, by either library behind one interface. docs/graph.md says which one is the default and why.
 * Pure: runs in the layout worker and in Node tests.
 */
import { graphlib, layout as dagreLayout } from '@dagrejs/dagre';
import type { ELK, ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api.js';

export type LayoutEngineName = 'dagre' | 'elk';

export interface FlatNode {
  id: string;
  width: number;
  height: number;
  /** Connector names on the top (in) and bottom (out) sides, in order. */
  inPorts: string[];
  outPorts: string[];
}

export interface FlatEdge {
  id: string;
  src: string;
  dst: string;
  srcPort: string | null;
  dstPort: string | null;
  /** Space to keep free for a label at the middle of the edge. */
  label: { width: number; height: number } | null;
  /** Layout-only edge (keeps a scope's entry above and its exit below everything): not drawn. */
  invisible: boolean;
}

export interface FlatGraph {
  nodes: FlatNode[];
  edges: FlatEdge[];
  /** Blocks and interstate edges (a state machine), not dataflow. */
  controlFlow?: boolean;
}

/**
 * From this many blocks on, a control-flow graph keeps dagre's first ordering (depth first) and skips its
 * crossing-minimisation sweeps. Measured on the corpus (bench/graph.ts): on velocity_tendencies' 99-state root
 * the sweeps took 85 of 154 ms and removed one crossing of six; on dataflow states they halve the crossings,
 * so those keep them at every size.
 */
const CFG_QUICK_ORDER_NODES = 60;

export interface FlatLayout {
  width: number;
  height: number;
  /** Top-left corner of each node, `[x0, y0, x1, y1, …]` in input order. */
  nodes: Float64Array;
  /** Polyline of each edge `[x0, y0, x1, y1, …]` in input order (empty for invisible or dropped edges). */
  edges: Float64Array[];
  /** Centre of each edge's label, `[x, y]` per edge, NaN when it has none. */
  labels: Float64Array;
}

const NODE_SEP = 28;
const RANK_SEP = 42;

export function layoutFlat(graph: FlatGraph, engine: LayoutEngineName): Promise<FlatLayout> {
  return engine === 'elk' ? layoutElk(graph) : Promise.resolve(layoutDagre(graph));
}

function emptyLayout(graph: FlatGraph): FlatLayout {
  return {
    width: 0,
    height: 0,
    nodes: new Float64Array(graph.nodes.length * 2),
    edges: graph.edges.map(() => new Float64Array(0)),
    labels: new Float64Array(graph.edges.length * 2).fill(NaN),
  };
}

// ---------------------------------------------------------------------------------------------------------
// dagre
// ---------------------------------------------------------------------------------------------------------

export function layoutDagre(graph: FlatGraph): FlatLayout {
  const out = emptyLayout(graph);
  if (graph.nodes.length === 0) return out;
  const g = new graphlib.Graph({ multigraph: true, directed: true });
  // Network simplex ranks best but is superlinear; dagre's own docs and SDFV switch to longest-path on big graphs.
  g.setGraph({
    rankdir: 'TB',
    nodesep: NODE_SEP,
    ranksep: RANK_SEP,
    edgesep: 12,
    marginx: 0,
    marginy: 0,
    ranker: graph.nodes.length >= 600 ? 'longest-path' : 'network-simplex',
  });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set<string>();
  for (const n of graph.nodes) {
    g.setNode(n.id, { width: n.width, height: n.height });
    known.add(n.id);
  }
  graph.edges.forEach((e, i) => {
    if (!known.has(e.src) || !known.has(e.dst)) return;
    const label = e.label ? { width: e.label.width, height: e.label.height, labelpos: 'c' as const } : {};
    g.setEdge(e.src, e.dst, { ...label, minlen: 1, weight: e.invisible ? 1 : 2, index: i }, e.id);
  });
  dagreLayout(g, graph.controlFlow && graph.nodes.length >= CFG_QUICK_ORDER_NODES ? { disableOptimalOrderHeuristic: true } : {});
  let maxX = 0;
  let maxY = 0;
  graph.nodes.forEach((n, i) => {
    const p = g.node(n.id) as { x: number; y: number };
    out.nodes[2 * i] = p.x - n.width / 2;
    out.nodes[2 * i + 1] = p.y - n.height / 2;
    maxX = Math.max(maxX, p.x + n.width / 2);
    maxY = Math.max(maxY, p.y + n.height / 2);
  });
  for (const ref of g.edges()) {
    const label = g.edge(ref) as { points?: Array<{ x: number; y: number }>; index: number; x?: number; y?: number };
    const e = graph.edges[label.index]!;
    if (e.invisible || !label.points) continue;
    const pts = new Float64Array(label.points.length * 2);
    label.points.forEach((p, k) => {
      pts[2 * k] = p.x;
      pts[2 * k + 1] = p.y;
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    });
    out.edges[label.index] = pts;
    if (e.label && label.x !== undefined && label.y !== undefined) {
      out.labels[2 * label.index] = label.x;
      out.labels[2 * label.index + 1] = label.y;
      maxX = Math.max(maxX, label.x + e.label.width / 2);
    }
  }
  out.width = Math.ceil(maxX);
  out.height = Math.ceil(maxY);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// ELK (layered)
// ---------------------------------------------------------------------------------------------------------

// Loaded on first use: ELK is 1.6 MB of JavaScript that the default (dagre) path never needs.
let elk: Promise<ELK> | null = null;

const ELK_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.spacing.nodeNode': String(NODE_SEP),
  'elk.layered.spacing.nodeNodeBetweenLayers': String(RANK_SEP),
  'elk.spacing.edgeNode': '12',
  'elk.spacing.edgeEdge': '8',
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

export async function layoutElk(graph: FlatGraph): Promise<FlatLayout> {
  const out = emptyLayout(graph);
  if (graph.nodes.length === 0) return out;
  // A UMD/CommonJS module: bundlers and Node hand its constructor over at different depths.
  elk ??= import('elkjs/lib/elk.bundled.js').then((m) => {
    const mod = m as unknown as { default?: { default?: new () => ELK } & (new () => ELK) };
    const Ctor = mod.default?.default ?? mod.default!;
    return new Ctor();
  });
  const engine = await elk;
  const portId = (node: number, side: 'i' | 'o', k: number): string => `p${node}${side}${k}`;
  const index = new Map<string, number>();
  const children: ElkNode[] = graph.nodes.map((n, i) => {
    index.set(n.id, i);
    const ports: ElkPort[] = [
      ...n.inPorts.map((_, k): ElkPort => ({
        id: portId(i, 'i', k),
        width: 1,
        height: 1,
        layoutOptions: { 'elk.port.side': 'NORTH', 'elk.port.index': String(k) },
      })),
      ...n.outPorts.map((_, k): ElkPort => ({
        id: portId(i, 'o', k),
        width: 1,
        height: 1,
        layoutOptions: { 'elk.port.side': 'SOUTH', 'elk.port.index': String(n.outPorts.length - 1 - k) },
      })),
    ];
    const layoutOptions: Record<string, string> = ports.length ? { 'elk.portConstraints': 'FIXED_ORDER' } : {};
    return { id: `n${i}`, width: n.width, height: n.height, ports, layoutOptions };
  });
  const edges: ElkExtendedEdge[] = [];
  graph.edges.forEach((e, i) => {
    const s = index.get(e.src);
    const d = index.get(e.dst);
    if (s === undefined || d === undefined) return;
    const sp = e.srcPort === null ? -1 : graph.nodes[s]!.outPorts.indexOf(e.srcPort);
    const dp = e.dstPort === null ? -1 : graph.nodes[d]!.inPorts.indexOf(e.dstPort);
    edges.push({
      id: `e${i}`,
      sources: [sp >= 0 ? portId(s, 'o', sp) : `n${s}`],
      targets: [dp >= 0 ? portId(d, 'i', dp) : `n${d}`],
      ...(e.label ? { labels: [{ width: e.label.width, height: e.label.height, text: '' }] } : {}),
    });
  });
  const result = await engine.layout({ id: 'root', layoutOptions: ELK_OPTIONS, children, edges });
  let maxX = 0;
  let maxY = 0;
  for (const c of result.children ?? []) {
    const i = Number(c.id.slice(1));
    out.nodes[2 * i] = c.x ?? 0;
    out.nodes[2 * i + 1] = c.y ?? 0;
    maxX = Math.max(maxX, (c.x ?? 0) + (c.width ?? 0));
    maxY = Math.max(maxY, (c.y ?? 0) + (c.height ?? 0));
  }
  for (const e of result.edges ?? []) {
    const i = Number(e.id.slice(1));
    if (graph.edges[i]!.invisible) continue;
    const pts: number[] = [];
    for (const s of e.sections ?? []) {
      pts.push(s.startPoint.x, s.startPoint.y);
      for (const b of s.bendPoints ?? []) pts.push(b.x, b.y);
      pts.push(s.endPoint.x, s.endPoint.y);
    }
    for (let k = 0; k < pts.length; k += 2) {
      maxX = Math.max(maxX, pts[k]!);
      maxY = Math.max(maxY, pts[k + 1]!);
    }
    out.edges[i] = Float64Array.from(pts);
    const label = e.labels?.[0];
    if (label && label.x !== undefined && label.y !== undefined) {
      out.labels[2 * i] = label.x + (label.width ?? 0) / 2;
      out.labels[2 * i + 1] = label.y + (label.height ?? 0) / 2;
    }
  }
  out.width = Math.ceil(maxX);
  out.height = Math.ceil(maxY);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Quality measures (used by the layout comparison in the bench and by tests)
// ---------------------------------------------------------------------------------------------------------

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Proper crossings between the drawn polylines (shared endpoints do not count). */
export function countCrossings(layout: FlatLayout): number {
  const segs: number[] = [];
  const owner: number[] = [];
  layout.edges.forEach((pts, e) => {
    for (let k = 0; k + 3 < pts.length; k += 2) {
      segs.push(pts[k]!, pts[k + 1]!, pts[k + 2]!, pts[k + 3]!);
      owner.push(e);
    }
  });
  let crossings = 0;
  const n = owner.length;
  for (let i = 0; i < n; i++) {
    const a = 4 * i;
    const minX = Math.min(segs[a]!, segs[a + 2]!),
      maxX = Math.max(segs[a]!, segs[a + 2]!);
    const minY = Math.min(segs[a + 1]!, segs[a + 3]!),
      maxY = Math.max(segs[a + 1]!, segs[a + 3]!);
    for (let j = i + 1; j < n; j++) {
      if (owner[j] === owner[i]) continue;
      const b = 4 * j;
      if (Math.max(segs[b]!, segs[b + 2]!) < minX || Math.min(segs[b]!, segs[b + 2]!) > maxX) continue;
      if (Math.max(segs[b + 1]!, segs[b + 3]!) < minY || Math.min(segs[b + 1]!, segs[b + 3]!) > maxY) continue;
      if (segmentsCross(segs[a]!, segs[a + 1]!, segs[a + 2]!, segs[a + 3]!, segs[b]!, segs[b + 1]!, segs[b + 2]!, segs[b + 3]!))
        crossings++;
    }
  }
  return crossings;
}
