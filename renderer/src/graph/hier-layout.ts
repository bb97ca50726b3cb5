/**
 * Hierarchical layout, bottom-up: every expanded region is laid out on its own as a flat graph in which each
 * collapsed child is one box and each expanded child is a box the size of its own (already laid out) frame.
 * Layouts are cached by what they depend on (the sizes of expanded children), so expanding one element lays out
 * that element and the chain of its ancestors, nothing else. Pure; runs in the layout worker.
 *
 * Coordinates of a RegionLayout are those of its frame: (0, 0) is the frame's top-left corner and the content
 * already sits inside the insets (header, padding). The root region has no frame.
 */
import type { GraphEdge, GraphNode, GraphRegion, RegionId } from '../../../electron/engine/view/types.js';
import { collapsedSize, connectorX, frameInsets, frameSize, type Insets, type Size } from './geometry.js';
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
  /** Polyline of every edge, in `region.edges` order (endpoints on the connectors). */
  edges: Float64Array[];
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

  addRegions(regions: GraphRegion[]): void {
    for (const r of regions) this.regions.set(r.id, r);
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
      for (const n of region.nodes) if (n.expand !== null && expanded.has(n.expand) && this.regions.has(n.expand)) visit(n.expand, n, depth + 1);
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
    return { width: Math.min(360, Math.max(...lines.map((l) => this.measure(l, 'mono')))) + 8, height: Math.min(lines.length, 4) * LINE_H.mono + 4 };
  }

  private async layoutRegion(region: GraphRegion, owner: GraphNode | null, expanded: ReadonlySet<RegionId>, key: string): Promise<RegionLayout> {
    const scope = region.kind === 'scope';
    const nodes: FlatNode[] = region.nodes.map((n) => {
      const s = this.nodeSize(n, expanded);
      return { id: n.id, width: s.width, height: s.height, inPorts: 'inConnectors' in n ? n.inConnectors : [], outPorts: 'outConnectors' in n ? n.outConnectors : [] };
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
        if (!hasIn.has(n.id)) edges.push({ id: `${n.id}\u0000in`, src: ENTRY, dst: n.id, srcPort: null, dstPort: null, label: null, invisible: true });
        if (!hasOut.has(n.id)) edges.push({ id: `${n.id}\u0000out`, src: n.id, dst: EXIT, srcPort: null, dstPort: null, label: null, invisible: true });
      }
      if (region.nodes.length === 0) edges.push({ id: '\u0000through', src: ENTRY, dst: EXIT, srcPort: null, dstPort: null, label: null, invisible: true });
    }
    const graph: FlatGraph = { nodes, edges };
    const t0 = performance.now();
    const flat = await layoutFlat(graph, this.engine);
    const ms = performance.now() - t0;
    return this.place(region, owner, graph, flat, key, ms);
  }

  /** Moves the flat layout into the owner's frame and puts edge ends on their connectors. */
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
    const { width, height } = owner ? frameSize(owner, { width: flat.width, height: contentH }, this.measure) : { width: flat.width, height: flat.height };
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

    const edges: Float64Array[] = [];
    const labels = new Float64Array(2 * region.edges.length).fill(NaN);
    region.edges.forEach((e, k) => {
      const raw = flat.edges[k]!;
      const pts = new Float64Array(raw.length);
      for (let j = 0; j < raw.length; j += 2) {
        pts[j] = raw[j]! + dx;
        pts[j + 1] = raw[j + 1]! + dy;
      }
      if (pts.length >= 4 && e.kind === 'memlet') {
        const src = this.anchor(region, owner, index, nodes, e.src, e.srcConnector, 'out', width, insets.top);
        const dst = this.anchor(region, owner, index, nodes, e.dst, e.dstConnector, 'in', width, height - insets.bottom);
        if (src) {
          pts[0] = src[0];
          pts[1] = src[1];
        }
        if (dst) {
          pts[pts.length - 2] = dst[0];
          pts[pts.length - 1] = dst[1];
        }
      }
      edges.push(pts);
      if (!Number.isNaN(flat.labels[2 * k]!)) {
        labels[2 * k] = flat.labels[2 * k]! + dx;
        labels[2 * k + 1] = flat.labels[2 * k + 1]! + dy;
      }
    });
    return { id: region.id, key, width, height, insets, nodes, edges, labels, ms };
  }

  /** Where an edge meets `end`: a connector on the node's top (in) or bottom (out), or the scope boundary. */
  private anchor(
    region: GraphRegion,
    owner: GraphNode | null,
    index: Map<string, number>,
    nodes: Float64Array,
    end: string,
    connector: string | null,
    side: 'in' | 'out',
    frameWidth: number,
    /** y of the header's bottom (side 'out') or of the footer's top (side 'in'). */
    boundaryY: number,
  ): [number, number] | null {
    if (region.kind === 'scope' && end === region.id && owner && (owner.kind === 'map' || owner.kind === 'consume')) {
      // Leaving the entry (bottom of the header) or entering the exit (top of the footer).
      const names = side === 'out' ? owner.entryOut : owner.exitIn;
      const i = connector === null ? -1 : names.indexOf(connector);
      return [i < 0 ? frameWidth / 2 : connectorX(0, frameWidth, i, names.length), boundaryY];
    }
    const i = index.get(end);
    if (i === undefined) return null;
    const node = region.nodes[i]!;
    const x = nodes[4 * i]!, y = nodes[4 * i + 1]!, w = nodes[4 * i + 2]!, h = nodes[4 * i + 3]!;
    const names = 'inConnectors' in node ? (side === 'in' ? node.inConnectors : node.outConnectors) : [];
    const k = connector === null ? -1 : names.indexOf(connector);
    if (k < 0) return [x + w / 2, side === 'in' ? y : y + h];
    return [connectorX(x, w, k, names.length), side === 'in' ? y : y + h];
  }
}
