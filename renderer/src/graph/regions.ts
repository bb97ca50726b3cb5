/** Walks over the regions the view holds: what is on screen with a given expanded set. Pure. */
import type { GraphNode, GraphRegion, RegionId } from '../../../electron/engine/view/public.js';

type Regions = ReadonlyMap<RegionId, GraphRegion>;

/** Nodes on screen (walking only open regions). */
export function visibleCount(regions: Regions, root: RegionId | null, expanded: ReadonlySet<RegionId>): number {
  let count = 0;
  const walk = (id: RegionId): void => {
    const r = regions.get(id);
    if (!r) return;
    count += r.nodes.length;
    for (const n of r.nodes) if (n.expand !== null && expanded.has(n.expand)) walk(n.expand);
  };
  if (root) walk(root);
  return count;
}

/** Closed expandable nodes on screen, in drawing order. */
export function closedVisible(regions: Regions, root: RegionId | null, expanded: ReadonlySet<RegionId>): GraphNode[] {
  const out: GraphNode[] = [];
  const walk = (id: RegionId): void => {
    const r = regions.get(id);
    if (!r) return;
    for (const n of r.nodes) {
      if (n.expand === null) continue;
      if (expanded.has(n.expand) && regions.has(n.expand)) walk(n.expand);
      else out.push(n);
    }
  };
  if (root) walk(root);
  return out;
}

/** A guess of how many nodes opening `n` shows, before its region is fetched. */
export function estimateDirect(regions: Regions, n: GraphNode): number {
  const r = n.expand ? regions.get(n.expand) : undefined;
  if (r) return r.nodes.length;
  const s = n.summary;
  if (!s) return 1;
  if (n.kind === 'state' || n.kind === 'map' || n.kind === 'consume') return Math.max(1, s.nodes - s.maps);
  return Math.max(1, Math.min(s.states + s.loops, s.nodes + s.states));
}
