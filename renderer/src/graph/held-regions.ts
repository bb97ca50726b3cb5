/**
 * The regions a graph view holds for its document, and how it gets more: fetched a few at a time through
 * `fetchRegion`, handed to the layout worker as they come, all dropped with the document. It also decides what
 * to open for the user (a small root's children; "expand level" and "expand all" within a node budget). Which
 * regions are open is the view's (`expanded`, passed in); laying them out and drawing them is too (view.ts).
 */
import type { GraphNode, GraphRegion, RegionId } from '../../../electron/engine/view/public.js';
import type { GraphViewOptions } from './api.js';
import type { LayoutClient } from './layout-client.js';
import { closedVisible, estimateDirect, visibleCount } from './regions.js';

/** Roots with fewer blocks than this open with their children open (see autoExpansion). */
const SMALL_ROOT = 8;

export class HeldRegions {
  /** The document's root region (null before the first one is held). */
  root: RegionId | null = null;
  readonly byId = new Map<RegionId, GraphRegion>();
  /** The document the regions belong to (1, 2, …): a fetch that finishes after the next open is dropped. */
  doc = 0;

  constructor(
    private readonly fetchRegion: GraphViewOptions['fetchRegion'],
    private readonly client: LayoutClient,
  ) {}

  /** A new document: everything held goes, the worker's copies too. Returns the document's number. */
  reset(): number {
    const doc = ++this.doc;
    this.client.reset();
    this.byId.clear();
    return doc;
  }

  add(regions: GraphRegion[]): void {
    for (const r of regions) this.byId.set(r.id, r);
    this.client.addRegions(regions);
  }

  /** Fetches the regions not held yet, a few at a time; returns all of `ids` in order. */
  async fetchAll(ids: RegionId[], progress?: (done: number, total: number) => void): Promise<GraphRegion[]> {
    const missing = ids.filter((id) => !this.byId.has(id));
    let done = 0;
    let next = 0;
    const doc = this.doc;
    const fresh: GraphRegion[] = [];
    const worker = async (): Promise<void> => {
      while (next < missing.length) {
        const id = missing[next++]!;
        const r = await this.fetchRegion(id);
        if (doc !== this.doc) return;
        fresh.push(r);
        done++;
        progress?.(done, missing.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, missing.length) }, worker));
    if (doc === this.doc) this.add(fresh);
    return ids.map((id) => this.byId.get(id)).filter((r): r is GraphRegion => r !== undefined);
  }

  /** A root this small says little closed (a single state, say): its children are opened in one round of
   * requests before the first frame. Anything bigger opens collapsed, and the user opens what they want. */
  autoExpansion(expanded: ReadonlySet<RegionId>, budget: number): GraphNode[] {
    const root = this.root ? this.byId.get(this.root) : undefined;
    if (!root || root.nodes.length >= SMALL_ROOT) return [];
    let count = visibleCount(this.byId, this.root, expanded);
    const closed = closedVisible(this.byId, this.root, expanded);
    // Control flow first (it shows the program's structure), then the smallest states.
    const cf = (n: GraphNode): number => (n.kind === 'state' || n.kind === 'map' || n.kind === 'consume' ? 1 : 0);
    closed.sort((a, b) => cf(a) - cf(b) || (a.summary?.nodes ?? 0) - (b.summary?.nodes ?? 0));
    const picked: GraphNode[] = [];
    for (const n of closed) {
      const direct = estimateDirect(this.byId, n);
      if (count + direct > budget) continue;
      count += direct;
      picked.push(n);
    }
    return picked;
  }

  /** Opens up to `levels` levels of what is closed on screen, into the view's expanded set (read anew after each
   * fetch: a cancelled layout replaces it), while the nodes shown stay within `budget`. */
  async openLevels(
    expanded: () => Set<RegionId>,
    levels: number,
    budget: number,
    progress: (done: number, total: number) => void,
  ): Promise<{ stoppedAtBudget: boolean; nodes: number }> {
    const doc = this.doc;
    let count = visibleCount(this.byId, this.root, expanded());
    let stopped = false;
    for (let level = 0; level < levels; level++) {
      const closed = closedVisible(this.byId, this.root, expanded());
      if (closed.length === 0) break;
      const regions = await this.fetchAll(
        closed.map((n) => n.expand!),
        progress,
      );
      if (doc !== this.doc) break;
      let added = 0;
      for (const r of regions) {
        if (count + r.nodes.length > budget) {
          stopped = true;
          continue;
        }
        count += r.nodes.length;
        expanded().add(r.id);
        added++;
      }
      if (stopped || added === 0) break;
    }
    return { stoppedAtBudget: stopped, nodes: count };
  }
}
