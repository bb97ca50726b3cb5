/**
 * The scene: every visible node and edge with absolute coordinates, composed from the per-region layouts
 * (frame-relative) by walking the expanded tree once. Nodes are in pre-order (a frame before its content) and
 * each records where its subtree ends, so drawing can skip a whole frame's content in one step. Also the
 * hit testing. Pure: no DOM.
 */
import type { GraphEdge, GraphNode, GraphRegion, RegionId } from '../../../electron/engine/view/public.js';
import type { Insets } from './geometry.js';
import { TOGGLE } from './geometry.js';
import { edgePoints, type RegionLayout } from './hier-layout.js';

export interface SceneNode {
  node: GraphNode;
  /** The region the node is drawn in. */
  region: RegionId;
  x: number;
  y: number;
  w: number;
  h: number;
  depth: number;
  /** Index of the frame around it, or -1 at the root. */
  parent: number;
  /** Shown open: its content follows it in the array. */
  expanded: boolean;
  insets: Insets | null;
  /** Connectors in drawing order (top = in, bottom = out), null for control-flow elements. */
  ports: { in: string[]; out: string[] } | null;
  /** An open scope's inner connectors: under its header and above its footer. */
  boundary: { entryOut: string[]; exitIn: string[] } | null;
  /** One past the last index of its subtree. */
  end: number;
}

export interface SceneEdge {
  edge: GraphEdge;
  region: RegionId;
  /** Frame that holds it (-1 = root). */
  owner: number;
  /** Absolute polyline. */
  points: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  labelX: number;
  labelY: number;
  /** Scene indices of its ends (-1 = the owner's boundary). */
  src: number;
  dst: number;
}

export interface Scene {
  root: RegionId;
  nodes: SceneNode[];
  edges: SceneEdge[];
  width: number;
  height: number;
  byId: Map<string, number>;
  edgeById: Map<string, number>;
  /** Visible nodes (frames included). */
  total: number;
}

export function buildScene(
  root: RegionId,
  regions: ReadonlyMap<RegionId, GraphRegion>,
  layouts: ReadonlyMap<RegionId, RegionLayout>,
  expanded: ReadonlySet<RegionId>,
): Scene {
  const nodes: SceneNode[] = [];
  const edges: SceneEdge[] = [];
  const byId = new Map<string, number>();
  const edgeById = new Map<string, number>();
  const rootLayout = layouts.get(root);

  const place = (regionId: RegionId, ox: number, oy: number, depth: number, owner: number): void => {
    const region = regions.get(regionId);
    const layout = layouts.get(regionId);
    if (!region || !layout || layout.nodes.length !== 4 * region.nodes.length) return;
    const local: number[] = [];
    region.nodes.forEach((n, i) => {
      const idx = nodes.length;
      local.push(idx);
      const open = n.expand !== null && expanded.has(n.expand) && layouts.has(n.expand) && regions.has(n.expand);
      const x = ox + layout.nodes[4 * i]!;
      const y = oy + layout.nodes[4 * i + 1]!;
      const sn: SceneNode = {
        node: n,
        region: regionId,
        x,
        y,
        w: layout.nodes[4 * i + 2]!,
        h: layout.nodes[4 * i + 3]!,
        depth,
        parent: owner,
        expanded: open,
        insets: open ? layouts.get(n.expand!)!.insets : null,
        ports: layout.ports[i] ?? null,
        boundary: open ? layouts.get(n.expand!)!.boundary : null,
        end: idx + 1,
      };
      nodes.push(sn);
      byId.set(n.id, idx);
      if (open) {
        place(n.expand!, x, y, depth + 1, idx);
        sn.end = nodes.length;
      }
    });
    const index = new Map<string, number>();
    region.nodes.forEach((n, i) => index.set(n.id, local[i]!));
    region.edges.forEach((e, k) => {
      if (k + 1 >= layout.offsets.length) return;
      const raw = edgePoints(layout, k);
      if (raw.length < 4) return;
      const points = new Float64Array(raw.length);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let j = 0; j < raw.length; j += 2) {
        const px = raw[j]! + ox,
          py = raw[j + 1]! + oy;
        points[j] = px;
        points[j + 1] = py;
        if (px < minX) minX = px;
        if (px > maxX) maxX = px;
        if (py < minY) minY = py;
        if (py > maxY) maxY = py;
      }
      const lx = layout.labels[2 * k]!;
      edgeById.set(e.id, edges.length);
      edges.push({
        edge: e,
        region: regionId,
        owner,
        points,
        minX,
        minY,
        maxX,
        maxY,
        labelX: Number.isNaN(lx) ? NaN : lx + ox,
        labelY: Number.isNaN(lx) ? NaN : layout.labels[2 * k + 1]! + oy,
        src: index.get(e.src) ?? -1,
        dst: index.get(e.dst) ?? -1,
      });
    });
  };
  place(root, 0, 0, 0, -1);
  return { root, nodes, edges, width: rootLayout?.width ?? 0, height: rootLayout?.height ?? 0, byId, edgeById, total: nodes.length };
}

export type Hit = { kind: 'toggle'; index: number } | { kind: 'node'; index: number } | { kind: 'edge'; index: number } | null;

/** The toggle square of an expandable node (top-right corner). */
export function toggleRect(n: SceneNode): [number, number, number, number] {
  return [n.x + n.w - TOGGLE - 5, n.y + 5, TOGGLE, TOGGLE];
}

function distToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function distToPolyline(px: number, py: number, pts: Float64Array): number {
  let best = Infinity;
  for (let j = 0; j + 3 < pts.length; j += 2) best = Math.min(best, distToSegment(px, py, pts[j]!, pts[j + 1]!, pts[j + 2]!, pts[j + 3]!));
  return best;
}

/**
 * What is under graph point (x, y): a toggle, then the innermost leaf or collapsed node, then an edge within
 * `edgeTolerance` (graph units), then the innermost open frame.
 */
export function hitTest(scene: Scene, x: number, y: number, edgeTolerance: number): Hit {
  let frame = -1;
  let i = 0;
  const nodes = scene.nodes;
  // Walk down the pre-order tree: siblings that do not contain the point are skipped with their subtree.
  while (i < nodes.length) {
    const n = nodes[i]!;
    if (x >= n.x && x <= n.x + n.w && y >= n.y && y <= n.y + n.h) {
      if (n.node.expand !== null) {
        const [tx, ty, tw, th] = toggleRect(n);
        if (x >= tx - 2 && x <= tx + tw + 2 && y >= ty - 2 && y <= ty + th + 2) return { kind: 'toggle', index: i };
      }
      if (!n.expanded) return { kind: 'node', index: i };
      frame = i;
      i++;
      continue;
    }
    i = n.end;
  }
  let best = -1;
  let bestD = edgeTolerance;
  scene.edges.forEach((e, k) => {
    if (x < e.minX - edgeTolerance || x > e.maxX + edgeTolerance || y < e.minY - edgeTolerance || y > e.maxY + edgeTolerance) return;
    const d = distToPolyline(x, y, e.points);
    if (d <= bestD) {
      bestD = d;
      best = k;
    }
  });
  if (best >= 0) return { kind: 'edge', index: best };
  return frame >= 0 ? { kind: 'node', index: frame } : null;
}
