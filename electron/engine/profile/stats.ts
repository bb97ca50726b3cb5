/** Per-call statistics of a timed series. */
import type { VariantTiming } from '../../runner/messages.js';

export interface CallSummary {
  medianNs: number;
  p10Ns: number;
  p90Ns: number;
  meanNs: number;
  allocsPerCall: number;
  /** Share of call time spent inside instrumented allocations and frees (0…1). */
  allocShare: number;
  minorFaultsPerCall: number;
}

/** Linear interpolation between closest ranks (numpy's default), on an ascending array. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

export function summarize(t: VariantTiming): CallSummary {
  const n = t.totalNs.length;
  const sorted = [...t.totalNs].sort((a, b) => a - b);
  const total = sum(t.totalNs);
  return {
    medianNs: quantile(sorted, 0.5),
    p10Ns: quantile(sorted, 0.1),
    p90Ns: quantile(sorted, 0.9),
    meanNs: n ? total / n : NaN,
    allocsPerCall: n ? sum(t.allocs) / n : NaN,
    allocShare: total > 0 ? (sum(t.allocNs) + sum(t.freeNs)) / total : 0,
    minorFaultsPerCall: n ? sum(t.minorFaults) / n : NaN,
  };
}
