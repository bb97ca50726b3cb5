/**
 * View models: what the renderer draws, built by the engine on demand (engine/view/*.ts) and carried by the
 * contract (electron/ipc/contract.ts). Plain JSON only: no bigint (`JsonInt` = number, or a decimal string
 * past 2^53), no Map. The renderer never sees the SDFG JSON itself.
 *
 * Ownership while the renderer is being built: graph types by the graph work, analysis types by the
 * memory-views work. Change them together with their builders and the renderer modules that read them.
 */
import type { JsonInt } from '../analysis/json.js';
import type { SdfgSummary } from '../model/sdfgs.js';

/** One SDFG of the file (root and nested), pre-order: index 0 is the root. Also `analysis@1`'s `sdfgs[]`. */
export type { SdfgSummary };

export interface DocInfo {
  /** Session-scoped handle of the opened file. */
  doc: string;
  /** File name for display. */
  name: string;
  /** Path as opened, or null for an upload. */
  path: string | null;
  fileBytes: number;
  jsonBytes: number;
  compressed: boolean;
  generation: string;
  daceVersion: string | null;
  stats: { sdfgs: number; states: number; nodes: number; edges: number; transients: number };
  sdfgs: SdfgSummary[];
  /** Free symbols of the root SDFG (what the symbols panel edits), in a stable order. */
  symbols: Array<{ name: string; dtype: string }>;
  target: 'cpu' | 'gpu';
  targetReason: string;
  /** Non-fatal parser findings, each with its JSON path. */
  warnings: Array<{ jsonPath: string; message: string }>;
  /** Milliseconds the host spent reading + parsing (for the status bar and the bench). */
  parseMs: number;
}

// ---------------------------------------------------------------------------------------------------------
// Graph (owned by the graph work: engine/view/graph.ts + renderer/graph/)
// ---------------------------------------------------------------------------------------------------------

/** Identifies an expandable element: the JSON path of an SDFG, control-flow region, loop, conditional
 * branch, state, or nested SDFG node. Stable for a given file. */
export type RegionId = string;

export interface GraphRegion {
  id: RegionId;
  /** Laid-out content of this region: its blocks (control flow) or its dataflow nodes (a state). */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphNode {
  /** Unique within the doc (a JSON path). */
  id: string;
  kind: string;
  label: string;
  /** When set, this node has content that `graph({region: expand})` returns; drawn collapsed until then. */
  expand: RegionId | null;
}

export interface GraphEdge {
  id: string;
  src: string;
  dst: string;
  label: string;
}

export interface SearchHit {
  /** The element's id (JSON path). */
  id: string;
  /** Regions to expand, outermost first, to make it visible. */
  path: RegionId[];
  label: string;
  kind: string;
}

// ---------------------------------------------------------------------------------------------------------
// Analysis (owned by the memory-views work: engine/view/analysis.ts + renderer/charts/)
// ---------------------------------------------------------------------------------------------------------

export interface AnalysisView {
  /** The `transient-lab/analysis@1` document, as `analyze --json` writes it. */
  analysis: Record<string, unknown>;
  /** Live bytes after each step, per mode and storage: the memory-over-steps curves. */
  memory: Record<string, Record<string, JsonInt[]>>;
}
