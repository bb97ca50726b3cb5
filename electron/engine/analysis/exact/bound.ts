/**
 * The exact bound of a packed workspace (docs/liveness.md §8), from the reference run (interpret.ts):
 *
 *   exact = max over dynamic points p of Σ alignUp(bytes(T), alignment) over the workspace transients T
 *           that hold, at p, a value that is still read (or are accessed at p).
 *
 * Any layout that gives two transients the same bytes while both hold needed values corrupts one of them,
 * so no correct aligned layout for these symbol values is smaller. The static analysis' live ranges must
 * contain every dynamic live point (`liveSteps`), and its packed layout is judged against `bytes`.
 */
import type { Analysis } from '../types.js';
import type { SdfgFile } from '../../model/sdfg.js';
import { interpret, type Trace } from './interpret.js';

interface ExactStorageBound {
  storage: string;
  /** The exact bound (aligned sizes). */
  bytes: bigint;
  /** Static step of the first dynamic point where the bound is reached (null: nothing is ever live). */
  step: number | null;
  /** The transients live there. */
  live: string[];
}

export interface ExactBound {
  /** Dynamic points of the run (state executions). */
  points: number;
  storages: ExactStorageBound[];
  /** Per transient id: the static steps of the dynamic points where it holds a value that is still read. */
  liveSteps: Map<string, Set<number>>;
  /** Per transient id: those dynamic points, as sorted disjoint inclusive intervals. */
  liveTimes: Map<string, Array<[number, number]>>;
}

/** Runs `file` for the analysis' symbol values and measures the exact bound of each packed storage. */
export function exactBound(file: SdfgFile, analysis: Analysis, limits: { maxPoints?: number; maxElementOps?: number } = {}): ExactBound {
  const stepOf = new Map(analysis.steps.map((s) => [s.jsonPath, s.index]));
  const symbols = new Map([...analysis.symbols].map(([name, v]) => [name, v.value]));
  const trace = interpret(file, { symbols, stepOf, ...limits });
  return boundOf(trace, analysis);
}

function boundOf(trace: Trace, analysis: Analysis): ExactBound {
  const points = trace.steps.length;
  const merged = new Map<string, Array<[number, number]>>();
  for (const [id, intervals] of trace.live) merged.set(id, merge(intervals));
  const liveSteps = new Map<string, Set<number>>();
  for (const [id, intervals] of merged) {
    const steps = new Set<number>();
    for (const [a, b] of intervals) for (let p = a; p <= b; p++) steps.add(trace.steps[p]!);
    liveSteps.set(id, steps);
  }
  const bytesOf = new Map(analysis.transients.map((t) => [t.id, t.bytes]));
  const storages: ExactStorageBound[] = [];
  for (const [storage, layout] of Object.entries(analysis.layouts.packed)) {
    if (!layout) continue;
    const align = BigInt(layout.alignment);
    const delta = new Array<bigint>(points + 1).fill(0n);
    for (const id of layout.offsets.keys()) {
      const bytes = bytesOf.get(id);
      if (bytes === null || bytes === undefined) continue;
      const size = ((bytes + align - 1n) / align) * align;
      for (const [a, b] of merged.get(id) ?? []) {
        delta[a] = delta[a]! + size;
        delta[b + 1] = delta[b + 1]! - size;
      }
    }
    let live = 0n;
    let best = 0n;
    let at: number | null = null;
    for (let p = 0; p < points; p++) {
      live += delta[p]!;
      if (live > best) {
        best = live;
        at = p;
      }
    }
    const liveAt =
      at === null ? [] : [...layout.offsets.keys()].filter((id) => (merged.get(id) ?? []).some(([a, b]) => a <= at && at <= b));
    storages.push({ storage, bytes: best, step: at === null ? null : trace.steps[at]!, live: liveAt });
  }
  return { points, storages, liveSteps, liveTimes: merged };
}

function merge(intervals: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...intervals].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
