/**
 * The one place where the service turns engine models into view models. The builders belong to the view work
 * of issue 7 (engine/view/graph.ts for the graph, engine/view/analysis.ts for the memory views); hosts and
 * tests may inject their own.
 *
 * Not wired yet: engine/view/graph.ts has not landed. Until it does, `graph` and `search` answer with an
 * `unsupported` error that says so; wiring it is one line per method below.
 */
import type { Analysis } from '../engine/analysis/index.js';
import type { SdfgFile } from '../engine/model/sdfg.js';
import type { AnalysisView, GraphRegion, RegionId, SearchHit } from '../engine/view/types.js';
import { ContractFailure } from '../ipc/errors.js';
import { interimAnalysisView } from './analysis-view.js';

export interface ViewBuilders {
  analysis(analysis: Analysis): AnalysisView;
  /** `analysis` is the document's latest analysis in this session (for storage colours and mode marks), if any. */
  graph(file: SdfgFile, region: RegionId | null, analysis: Analysis | null): GraphRegion;
  search(file: SdfgFile, query: string, limit: number): SearchHit[];
}

const notYet = (what: string): never => {
  throw new ContractFailure('unsupported', `the ${what} is not available in this build yet (engine/view/graph.ts, issue 7)`);
};

export const DEFAULT_VIEWS: ViewBuilders = {
  analysis: interimAnalysisView,
  graph: () => notYet('graph view'),
  search: () => notYet('graph search'),
};
