/**
 * The layout-library comparison of docs/graph.md, run by `npm run bench graph` in the harness page: every
 * state of a file with its scopes closed, and every state with everything inside it open, laid out alone by
 * dagre and by ELK (the same code the worker runs); time, crossings and area.
 */
import type { GraphRegion } from '../../../../electron/engine/view/public.js';
import { countCrossings, type LayoutEngineName } from '../flat-layout.js';
import { edgePoints, HierLayout, type RegionLayout } from '../hier-layout.js';
import { font, type Measure } from '../text.js';

const ctx = document.createElement('canvas').getContext('2d')!;
const measure: Measure = (text, role) => {
  ctx.font = font(role);
  return ctx.measureText(text).width;
};

export interface EngineScore {
  engine: LayoutEngineName;
  /** Summed over the graphs laid out. */
  ms: number;
  maxMs: number;
  crossings: number;
  /** Megapixels² of the laid-out graphs. */
  area: number;
  graphs: number;
  nodes: number;
}

function crossingsOf(layouts: RegionLayout[]): number {
  let c = 0;
  for (const l of layouts) {
    const edges: Float64Array[] = [];
    for (let k = 0; k + 1 < l.offsets.length; k++) edges.push(edgePoints(l, k));
    c += countCrossings({ width: l.width, height: l.height, nodes: new Float64Array(), edges, labels: new Float64Array() });
  }
  return c;
}

/** `states`: the state regions to lay out; `all`: every region of the file (to open what is inside). */
export async function compareEngines(
  all: GraphRegion[],
  states: GraphRegion[],
  open: boolean,
  engine: LayoutEngineName,
): Promise<EngineScore> {
  const inside = new Set(all.filter((r) => r.kind === 'scope' || r.kind === 'cfg' || r.kind === 'conditional').map((r) => r.id));
  const score: EngineScore = { engine, ms: 0, maxMs: 0, crossings: 0, area: 0, graphs: 0, nodes: 0 };
  for (const st of states) {
    const h = new HierLayout(measure, engine);
    h.addRegions(all);
    const t0 = performance.now();
    const layouts = await h.run(st.id, open ? inside : new Set());
    const ms = performance.now() - t0;
    const top = layouts.find((l) => l.id === st.id)!;
    score.ms += ms;
    score.maxMs = Math.max(score.maxMs, ms);
    score.crossings += crossingsOf(layouts);
    score.area += (top.width * top.height) / 1e6;
    score.graphs++;
    score.nodes += layouts.reduce((s, l) => s + l.nodes.length / 4, 0);
    // Let the page breathe between graphs (the bench watches nothing else, but Chromium does).
    await new Promise((r) => setTimeout(r, 0));
  }
  return score;
}
