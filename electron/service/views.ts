/**
 * The one place where the service turns engine models into view models. The builders belong to the view work
 * of issue 7 (engine/view/graph.ts for the graph, engine/view/analysis.ts for the memory views); hosts and
 * tests may inject their own.
 */
import type { Analysis } from '../engine/analysis/index.js';
import type { SdfgFile } from '../engine/model/sdfg.js';
import type { AnalysisView, GraphRegion, ProfileCheck, RegionId, SearchHit } from '../engine/view/types.js';
import { buildAnalysisView } from '../engine/view/analysis.js';
import { graphRegion, searchGraph } from '../engine/view/graph.js';

export interface ViewBuilders {
  /** `profile`: the code generator's verdict for the analysis' target (codegen profileCheck), carried in the view. */
  analysis(analysis: Analysis, profile?: ProfileCheck): AnalysisView;
  /** `analysis` is the document's latest analysis in this session (for storage colours and mode marks), if any. */
  graph(file: SdfgFile, region: RegionId | null, analysis: Analysis | null): GraphRegion;
  search(file: SdfgFile, query: string, limit: number): SearchHit[];
}

export const DEFAULT_VIEWS: ViewBuilders = {
  analysis: buildAnalysisView,
  // The graph needs no analysis: marks and memory badges come from the AnalysisView in the renderer.
  graph: (file, region) => graphRegion(file, region),
  search: (file, query, limit) => searchGraph(file, query, limit),
};
