/**
 * Hierarchical layout, bottom-up: every expanded region is laid out on its own as a flat graph in which each
 * collapsed child is one box and each expanded child is a box the size of its own (already laid out) frame.
 * Layouts are cached by what they depend on (the sizes of expanded children), so expanding one element lays out
 * that element and the chain of its ancestors, nothing else. Pure; runs in the layout worker.
 *
 * Coordinates of a RegionLayout are those of its frame: (0, 0) is the frame's top-left corner and the content
 * already sits inside the insets (header, padding). The root region has no frame.
 */
import type { GraphEdge, GraphNode, GraphRegion, RegionId } from '../../../electron/engine/view/public.js';
import { collapsedSize, connectorX, frameInsets, frameSize, SCOPE_FOOTER_H, SCOPE_GAP, type Insets, type Size } from './geometry.js';
import { layoutFlat, type FlatEdge, type FlatGraph, type FlatLayout, type FlatNode, type LayoutEngineName } from './flat-layout.js';
import { LINE_H, type Measure } from './text.js';

export interface RegionLayout {
  id: RegionId;
  /** What the layout was computed from; unchanged key = unchanged layout. */
  key: string;
  /** Frame size (content + insets; content size for the root). */
  width: number;
  height: number;
  insets: Insets;
  /** x, y, w, h of every node, in `region.nodes` order. */
  nodes: Float64Array;
  /** Connector names of each node in the order drawn (null for nodes without connectors). */
  ports: Array<{ in: string[]; out: string[] } | null>;
  /** For a scope: the inner connectors of its entry (bottom of the header) and exit (top of the footer). */
  boundary: { entryOut: string[]; exitIn: string[] } | null;
  /** Polylines of all edges packed in one array (one buffer crosses the worker boundary, not thousands):
   * edge `k` is `points[offsets[k] .. offsets[k + 1])`, as x, y pairs, endpoints on the connectors. */
  points: Float64Array;
  offsets: Uint32Array;
  /** Label centre per edge (NaN when none). */
  labels: Float64Array;
  /** Milliseconds the flat layout took (for the bench). */
  ms: number;
}

export interface LayoutHooks {
  /** Called after each region with the regions done and the regions known to need work so far. */
  progress?(done: number, total: number): void;
  /** Checked between regions: true stops the run (throws `LayoutCancelled`). */
  cancelled?(): boolean;
  /** Lets queued messages (a cancel) in between regions. */
  pause?(): Promise<void>;
}

export class LayoutCancelled extends Error {
  constructor() {
    super('layout cancelled');
  }
}

const ENTRY = '\u0000entry';
const EXIT = '\u0000exit';
/** Height of the invisible rows that stand for a scope's entry and exit inside the scope. */
const BOUNDARY_H = 2;

export class HierLayout {
  private readonly regions = new Map<RegionId, GraphRegion>();
  private readonly layouts = new Map<RegionId, RegionLayout>();
  private readonly sizes = new Map<string, Size>();

  constructor(
    private readonly measure: Measure,
    public engine: LayoutEngineName,
  ) {}

  /** A region sent again replaces the one held (a preview's root once the whole file is read): its layout and
   * its nodes' sizes are measured anew. */
  addRegions(regions: GraphRegion[]): void {
    for (const r of regions) {
      const old = this.regions.get(r.id);
      if (old) {
        this.layouts.delete(r.id);
        for (const n of old.nodes) this.sizes.delete(n.id);
      }
      this.regions.set(r.id, r);
    }
  }

  hasRegion(id: RegionId): boolean {
    return this.regions.has(id);
  }

  cached(id: RegionId): RegionLayout | undefined {
    return this.layouts.get(id);
  }

  /** Lays out what is visible from `root` with `expanded` open; returns every visible region's layout
   * (children before parents), reusing the cached ones. */
  async run(root: RegionId, expanded: ReadonlySet<RegionId>, hooks: LayoutHooks = {}): Promise<RegionLayout[]> {
    // Post-order: children before parents.
    const order: Array<{ id: RegionId; owner: GraphNode | null }> = [];
    const visit = (id: RegionId, owner: GraphNode | null, depth: number): void => {
      const region = this.regions.get(id);
      if (!region || depth > 200) return;
      for (const n of region.nodes)
        if (n.expand !== null && expanded.has(n.expand) && this.regions.has(n.expand)) visit(n.expand, n, depth + 1);
      order.push({ id, owner });
    };
    visit(root, null, 0);
    const visible: RegionLayout[] = [];
    for (let k = 0; k < order.length; k++) {
      const { id, owner } = order[k]!;
      if (hooks.cancelled?.()) throw new LayoutCancelled();
      const region = this.regions.get(id)!;
      const key = this.keyOf(region, owner, expanded);
      let layout = this.layouts.get(id);
      if (!layout || layout.key !== key) {
        layout = await this.layoutRegion(region, owner, expanded, key);
        this.layouts.set(id, layout);
        hooks.progress?.(k + 1, order.length);
        await hooks.pause?.();
      }
      visible.push(layout);
    }
    return visible;
  }

  private nodeSize(n: GraphNode, expanded: ReadonlySet<RegionId>): Size {
    if (n.expand !== null && expanded.has(n.expand)) {
      const l = this.layouts.get(n.expand);
      if (l) return { width: l.width, height: l.height };
    }
    let s = this.sizes.get(n.id);
    if (!s) {
      s = collapsedSize(n, this.measure);
      this.sizes.set(n.id, s);
    }
    return s;
  }

  private keyOf(region: GraphRegion, owner: GraphNode | null, expanded: ReadonlySet<RegionId>): string {
    const parts = [this.engine, owner === null ? '' : owner.id];
    region.nodes.forEach((n, i) => {
      if (n.expand !== null && expanded.has(n.expand)) {
        const s = this.nodeSize(n, expanded);
        parts.push(`${i}:${s.width}x${s.height}`);
      }
    });
    return parts.join('|');
  }

  private edgeLabel(e: GraphEdge): FlatEdge['label'] {
    if (e.kind !== 'interstate' || e.label === '') return null;
    const lines = e.label.split('; ');
    return {
      width:
        Math.min(
          360,
          lines.reduce((w, l) => Math.max(w, this.measure(l, 'mono')), -Infinity),
        ) + 8,
      height: Math.min(lines.length, 4) * LINE_H.mono + 4,
    };
  }

  private async layoutRegion(
    region: GraphRegion,
    owner: GraphNode | null,
    expanded: ReadonlySet<RegionId>,
    key: string,
  ): Promise<RegionLayout> {
    const scope = region.kind === 'scope';
    const nodes: FlatNode[] = region.nodes.map((n) => {
      const s = this.nodeSize(n, expanded);
      return {
        id: n.id,
        width: s.width,
        height: s.height,
        inPorts: 'inConnectors' in n ? n.inConnectors : [],
        outPorts: 'outConnectors' in n ? n.outConnectors : [],
      };
    });
    const edges: FlatEdge[] = region.edges.map((e) => ({
      id: e.id,
      src: scope && e.src === region.id ? ENTRY : e.src,
      dst: scope && e.dst === region.id ? EXIT : e.dst,
      srcPort: e.kind === 'memlet' ? e.srcConnector : null,
      dstPort: e.kind === 'memlet' ? e.dstConnector : null,
      label: this.edgeLabel(e),
      invisible: false,
    }));
    if (scope) {
      // The entry row above everything and the exit row below: each inner node hangs off them when nothing
      // else reaches it.
      const o = owner && (owner.kind === 'map' || owner.kind === 'consume') ? owner : null;
      nodes.push({ id: ENTRY, width: 8, height: BOUNDARY_H, inPorts: [], outPorts: o?.entryOut ?? [] });
      nodes.push({ id: EXIT, width: 8, height: BOUNDARY_H, inPorts: o?.exitIn ?? [], outPorts: [] });
      const hasIn = new Set(edges.map((e) => e.dst));
      const hasOut = new Set(edges.map((e) => e.src));
      for (const n of region.nodes) {
        if (!hasIn.has(n.id))
          edges.push({ id: `${n.id}\u0000in`, src: ENTRY, dst: n.id, srcPort: null, dstPort: null, label: null, invisible: true });
        if (!hasOut.has(n.id))
          edges.push({ id: `${n.id}\u0000out`, src: n.id, dst: EXIT, srcPort: null, dstPort: null, label: null, invisible: true });
      }
      if (region.nodes.length === 0)
        edges.push({ id: '\u0000through', src: ENTRY, dst: EXIT, srcPort: null, dstPort: null, label: null, invisible: true });
    }
    const graph: FlatGraph = { nodes, edges, controlFlow: region.kind === 'cfg' };
    const t0 = performance.now();
    const flat = await layoutFlat(graph, this.engine);
    const ms = performance.now() - t0;
    return this.place(region, owner, graph, flat, key, ms);
  }

  /** Moves the flat layout into the owner's frame, orders connectors and puts edge ends on them. */
  private place(region: GraphRegion, owner: GraphNode | null, graph: FlatGraph, flat: FlatLayout, key: string, ms: number): RegionLayout {
    const scope = region.kind === 'scope';
    const n = region.nodes.length;
    // Inside a scope the boundary rows are replaced by the frame's header and footer.
    let top = 0;
    let contentH = flat.height;
    if (scope && n + 2 === graph.nodes.length) {
      top = flat.nodes[2 * n + 1]! + BOUNDARY_H;
      contentH = flat.nodes[2 * (n + 1) + 1]! - top;
    }
    const insets: Insets = owner ? frameInsets(owner, this.measure) : { top: 0, bottom: 0, left: 0, right: 0 };
    const { width, height } = owner
      ? frameSize(owner, { width: flat.width, height: contentH }, this.measure)
      : { width: flat.width, height: flat.height };
    const dx = (width - flat.width) / 2;
    const dy = insets.top - top;

    const nodes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      nodes[4 * i] = flat.nodes[2 * i]! + dx;
      nodes[4 * i + 1] = flat.nodes[2 * i + 1]! + dy;
      nodes[4 * i + 2] = graph.nodes[i]!.width;
      nodes[4 * i + 3] = graph.nodes[i]!.height;
    }
    const index = new Map<string, number>();
    region.nodes.forEach((node, i) => index.set(node.id, i));

    const offsets = new Uint32Array(region.edges.length + 1);
    for (let k = 0; k < region.edges.length; k++) offsets[k + 1] = offsets[k]! + flat.edges[k]!.length;
    const points = new Float64Array(offsets[region.edges.length]!);
    const labels = new Float64Array(2 * region.edges.length).fill(NaN);
    region.edges.forEach((_e, k) => {
      const raw = flat.edges[k]!;
      const pts = points.subarray(offsets[k], offsets[k + 1]);
      for (let j = 0; j < raw.length; j += 2) {
        pts[j] = raw[j]! + dx;
        pts[j + 1] = raw[j + 1]! + dy;
      }
      if (!Number.isNaN(flat.labels[2 * k]!)) {
        labels[2 * k] = flat.labels[2 * k]! + dx;
        labels[2 * k + 1] = flat.labels[2 * k + 1]! + dy;
      }
    });

    // Connectors in the order their edges arrive and leave (by where the route comes from / goes to), so edges
    // do not cross each other at the node: the order of connectors carries no meaning in DaCe.
    const ports = orderPorts(region, owner, index, offsets, points);
    const boxes = (id: string): { x: number; w: number; y: number; h: number } | null => {
      const i = index.get(id);
      return i === undefined ? null : { x: nodes[4 * i]!, y: nodes[4 * i + 1]!, w: nodes[4 * i + 2]!, h: nodes[4 * i + 3]! };
    };
    region.edges.forEach((e, k) => {
      const pts = points.subarray(offsets[k], offsets[k + 1]);
      if (pts.length < 4) return;
      if (e.kind === 'interstate') {
        // Control flow runs downwards: a forward edge leaves its block at the bottom and enters the next at the
        // top (dagre aims at the centre, which for a big open block is a point on its side).
        const a = boxes(e.src);
        const b = boxes(e.dst);
        if (a && b && b.y >= a.y + a.h) {
          const clampX = (x: number, box: { x: number; w: number }): number => Math.min(Math.max(x, box.x + 10), box.x + box.w - 10);
          pts[0] = clampX(pts.length > 4 ? pts[2]! : pts[pts.length - 2]!, a);
          pts[1] = a.y + a.h;
          pts[pts.length - 2] = clampX(pts.length > 4 ? pts[pts.length - 4]! : pts[0], b);
          pts[pts.length - 1] = b.y;
        }
        return;
      }
      const boundary = scope && owner !== null;
      // Leaving the entry (bottom of the header) or entering the exit (top of the footer).
      let src: [number, number] | null = null;
      let dst: [number, number] | null = null;
      if (boundary && e.src === region.id) src = at(0, width, insets.top - SCOPE_GAP, ports.entryOut, e.srcConnector);
      else {
        const b = boxes(e.src);
        const i = index.get(e.src);
        if (b && i !== undefined) src = at(b.x, b.w, b.y + b.h, ports.nodes[i]?.out ?? [], e.srcConnector);
      }
      if (boundary && e.dst === region.id) dst = at(0, width, height - SCOPE_FOOTER_H, ports.exitIn, e.dstConnector);
      else {
        const b = boxes(e.dst);
        const i = index.get(e.dst);
        if (b && i !== undefined) dst = at(b.x, b.w, b.y, ports.nodes[i]?.in ?? [], e.dstConnector);
      }
      if (src) {
        pts[0] = src[0];
        pts[1] = src[1];
      }
      if (dst) {
        pts[pts.length - 2] = dst[0];
        pts[pts.length - 1] = dst[1];
      }
    });
    return {
      id: region.id,
      key,
      width,
      height,
      insets,
      nodes,
      points,
      offsets,
      labels,
      ports: ports.nodes,
      boundary: scope ? { entryOut: ports.entryOut, exitIn: ports.exitIn } : null,
      ms,
    };
  }
}

/** A connector's position: its slot on a side of width `w` at `y`, or the middle for a null/unknown name. */
function at(x: number, w: number, y: number, names: string[], connector: string | null): [number, number] {
  const i = connector === null ? -1 : names.indexOf(connector);
  return [i < 0 ? x + w / 2 : connectorX(x, w, i, names.length), y];
}

/** Sorts connected `names` by the mean x their edges come from / go to (file order breaks ties). */
function sortByX(names: string[], xs: Map<string, number[]>): string[] {
  if (names.length < 2) return names;
  const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
  return names
    .map((name, i) => ({ name, k: mean(xs.get(name)!), i }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.name);
}

function orderPorts(
  region: GraphRegion,
  owner: GraphNode | null,
  index: Map<string, number>,
  offsets: Uint32Array,
  points: Float64Array,
): { nodes: Array<{ in: string[]; out: string[] } | null>; entryOut: string[]; exitIn: string[] } {
  const ins = new Map<number, Map<string, number[]>>();
  const outs = new Map<number, Map<string, number[]>>();
  const entry = new Map<string, number[]>();
  const exit = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, name: string, x: number): void => {
    const l = m.get(name);
    if (l) l.push(x);
    else m.set(name, [x]);
  };
  const scope = region.kind === 'scope';
  region.edges.forEach((e, k) => {
    if (e.kind !== 'memlet') return;
    const a = offsets[k]!,
      b = offsets[k + 1]!;
    if (b - a < 4) return;
    // Where the route goes after leaving the source, and where it comes from before the destination.
    const afterSrc = points[a + 2]!;
    const beforeDst = points[b - 4]!;
    if (e.srcConnector !== null) {
      if (scope && e.src === region.id) push(entry, e.srcConnector, afterSrc);
      else {
        const i = index.get(e.src);
        if (i !== undefined) push(outs.get(i) ?? outs.set(i, new Map()).get(i)!, e.srcConnector, afterSrc);
      }
    }
    if (e.dstConnector !== null) {
      if (scope && e.dst === region.id) push(exit, e.dstConnector, beforeDst);
      else {
        const i = index.get(e.dst);
        if (i !== undefined) push(ins.get(i) ?? ins.set(i, new Map()).get(i)!, e.dstConnector, beforeDst);
      }
    }
  });
  const none = new Map<string, number[]>();
  const nodes = region.nodes.map((node, i) =>
    'inConnectors' in node
      ? { in: sortConnected(node.inConnectors, ins.get(i) ?? none), out: sortConnected(node.outConnectors, outs.get(i) ?? none) }
      : null,
  );
  const o = owner && (owner.kind === 'map' || owner.kind === 'consume') ? owner : null;
  return { nodes, entryOut: o ? sortConnected(o.entryOut, entry) : [], exitIn: o ? sortConnected(o.exitIn, exit) : [] };
}

/** Connected names by the x of their routes; unconnected ones after them, in file order. */
function sortConnected(names: string[], xs: Map<string, number[]>): string[] {
  const connected = names.filter((n) => xs.has(n));
  const rest = names.filter((n) => !xs.has(n));
  return [...sortByX(connected, xs), ...rest];
}

/** Polyline of edge `k` of a layout (a view into the packed array, not a copy). */
export function edgePoints(l: RegionLayout, k: number): Float64Array {
  return l.points.subarray(l.offsets[k], l.offsets[k + 1]);
}

/** The buffers of a layout, to transfer instead of copy. */
export function layoutBuffers(l: RegionLayout): ArrayBuffer[] {
  return [l.nodes.buffer as ArrayBuffer, l.points.buffer as ArrayBuffer, l.offsets.buffer as ArrayBuffer, l.labels.buffer as ArrayBuffer];
}

/** What the worker needs of a region: everything but the transient id lists of summaries (it only asks whether
 * there is a memory badge to make room for), which are most of the bytes of big regions. */
export function forLayout(r: GraphRegion): GraphRegion {
  let slim = false;
  for (const n of r.nodes) if ((n.summary?.transients.length ?? 0) > 1) slim = true;
  if (!slim) return r;
  return {
    ...r,
    nodes: r.nodes.map<GraphRegion['nodes'][number]>((n) =>
      n.summary && n.summary.transients.length > 1 ? { ...n, summary: { ...n.summary, transients: n.summary.transients.slice(0, 1) } } : n,
    ),
  };
}
