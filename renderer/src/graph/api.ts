/** The graph module's public types: what the app passes in and what it gets back (docs/graph.md §2). */
import type { GraphEdge, GraphNode, GraphRegion, RegionId, SearchHit } from '../../../electron/engine/view/public.js';
import type { ThemeName } from '../theme/index.js';
import type { LayoutEngineName } from './flat-layout.js';
import type { TransientMarks } from './marks.js';

export interface GraphSelection {
  kind: 'node' | 'edge';
  id: string;
  node: GraphNode | null;
  edge: GraphEdge | null;
  /** The region it is drawn in. */
  region: RegionId;
}

export interface GraphProgress {
  phase: 'fetch' | 'layout';
  done: number;
  total: number;
}

export interface GraphViewOptions {
  /** The engine's `graph` method: one region's drawable content; `null` = the root. */
  fetchRegion(id: RegionId | null): Promise<GraphRegion>;
  /** The engine's `search` method. */
  search?(query: string, limit: number): Promise<SearchHit[]>;
  onSelect?(sel: GraphSelection | null): void;
  onHover?(sel: GraphSelection | null): void;
  /** The first frame of a newly opened graph is on screen (the app marks `tlab:first-frame` here). */
  onFirstFrame?(info: { ms: number; nodes: number }): void;
  /** Fetch/layout progress; null when done. The view also shows its own small progress bar with Cancel. */
  onProgress?(p: GraphProgress | null): void;
  /** Something failed (a fetch, a layout); the view stays usable. */
  onError?(err: unknown): void;
  theme?: ThemeName;
  layoutEngine?: LayoutEngineName;
  /** Nodes the view may show when it opens the children of a tiny root on its own (default 120). */
  initialBudget?: number;
  /** Most nodes `expandAll` / `expandNextLevel` will show. */
  expandBudget?: number;
  /** Replaces the bundled layout worker (tests, custom hosting). */
  createWorker?: () => Worker;
}

export interface GraphMetrics {
  /** Where the last `open` spent its time until the first frame (ms): root fetch, opening small elements
   * (fetches), layout (worker, including the message round trip), scene and first draw. */
  open: { fetchMs: number; expandMs: number; layoutMs: number; drawMs: number };
  /** Duration of each drawn frame (ms, main thread), the last 600. */
  frameTimes: number[];
  /** Layout time in the worker for the last layout, and the regions it returned. */
  lastLayoutMs: number;
  lastLayoutRegions: number;
  visibleNodes: number;
  visibleEdges: number;
  /** Texts (titles, second lines, labels) drawn in the last frame: 0 when the zoom hides every label. */
  visibleTexts: number;
  /** Current zoom (screen px per graph unit). */
  scale: number;
}

export interface GraphView {
  /** Shows a document: its root region (fetched when not given), a few levels opened within the initial budget. */
  open(root?: GraphRegion | null): Promise<void>;
  /** The same document's root again, with more in it (a preview's root once the whole file is read): redrawn
   * in place, keeping what is open and where the view looks. Anything else is `open`. */
  replaceRoot(root: GraphRegion): Promise<void>;
  expand(id: RegionId): Promise<void>;
  collapse(id: RegionId): Promise<void>;
  toggle(id: RegionId): Promise<void>;
  collapseAll(): Promise<void>;
  /** Opens every closed element on screen, within the node budget. */
  expandNextLevel(): Promise<{ stoppedAtBudget: boolean; nodes: number }>;
  /** Opens everything, level by level, until the node budget. */
  expandAll(budget?: number): Promise<{ stoppedAtBudget: boolean; nodes: number }>;
  fit(animate?: boolean): void;
  /** Zooms by `factor` around the middle of the view (toolbar buttons). */
  zoom(factor: number, animate?: boolean): void;
  /** Selects a node or edge by id (null clears); it is not revealed, see `reveal`. */
  select(id: string | null): void;
  highlightTransient(id: string | null): void;
  setTransientMarks(marks: TransientMarks): void;
  setTheme(theme: ThemeName): void;
  /** Searches, highlights the hits and reveals the first. */
  search(query: string): Promise<SearchHit[]>;
  /** Opens the path to an element and zooms to it. */
  reveal(target: { id: string; path: RegionId[] }): Promise<void>;
  /** Finds an element by id (a JSON path, e.g. a state the analysis names), opens the way to it, zooms to it
   * and selects it; false when the document has no such element. */
  revealId(id: string): Promise<boolean>;
  cancelLayout(): void;
  setLayoutEngine(name: LayoutEngineName): Promise<void>;
  readonly metrics: GraphMetrics;
  destroy(): void;
}
