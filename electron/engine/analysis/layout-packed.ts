/**
 * Lifetime-aware workspace layout: buffers whose live sets never overlap may share bytes.
 *
 * Greedy placement by size, largest first; each buffer goes to the lowest aligned offset where it does not
 * collide with an already placed buffer whose live set overlaps its own. A live set is one interval or
 * several (docs/liveness.md §3.7). Only overlapping buffers are looked at: the intervals of placed buffers
 * sit in a max-segment-tree over "sorted by first step" positions that reports every placed interval with
 * first ≤ my.last and last ≥ my.first in O((k + 1) log n). The layout never exceeds the sequential aligned
 * layout (it falls back to it if the heuristic ever did worse).
 */
import type { PackedStorageLayout } from './types.js';

export interface PackItem {
  id: string;
  bytes: bigint;
  /** Inclusive live range over program steps (the hull of `segments`). */
  first: number;
  last: number;
  /** The steps it is live in, as disjoint inclusive intervals; absent: all of [first, last]. */
  segments?: ReadonlyArray<{ first: number; last: number }>;
}

const segmentsOf = (it: PackItem): ReadonlyArray<{ first: number; last: number }> => it.segments ?? [it];

export const alignUp = (v: bigint, alignment: bigint): bigint => ((v + alignment - 1n) / alignment) * alignment;

/** 256 B for GPU memory (what cudaMalloc guarantees), 64 B for host memory (DaCe's aligned new). */
export function alignmentFor(storage: string): number {
  return storage.startsWith('GPU_') ? 256 : 64;
}

export function packLayout(items: PackItem[], alignment: number): PackedStorageLayout {
  const align = BigInt(alignment);
  const n = items.length;
  const sizes = items.map((it) => alignUp(it.bytes, align));
  const alignedSum = sizes.reduce((a, b) => a + b, 0n);
  const lowerBound = peakOverlap(items);

  // One tree position per interval of every item.
  const owner: number[] = [];
  const spans: Array<{ first: number; last: number }> = [];
  items.forEach((it, i) => {
    for (const seg of segmentsOf(it)) {
      owner.push(i);
      spans.push(seg);
    }
  });
  const byStart = [...spans.keys()].sort((a, b) => spans[a]!.first - spans[b]!.first || spans[a]!.last - spans[b]!.last);
  const position = new Int32Array(spans.length);
  byStart.forEach((span, pos) => (position[span] = pos));
  const starts = byStart.map((k) => spans[k]!.first);
  const tree = new MaxTree(spans.length);
  const spansOf: number[][] = items.map(() => []);
  spans.forEach((_, k) => spansOf[owner[k]!]!.push(k));

  const order = [...items.keys()].sort((a, b) => {
    const d = sizes[b]! - sizes[a]!;
    if (d !== 0n) return d > 0n ? 1 : -1;
    return items[a]!.first - items[b]!.first || (items[a]!.id < items[b]!.id ? -1 : items[a]!.id > items[b]!.id ? 1 : 0);
  });
  const offsets = new Array<bigint>(n).fill(0n);
  let total = 0n;
  const blocks: Array<[bigint, bigint]> = [];
  for (const i of order) {
    const size = sizes[i]!;
    if (size > 0n) {
      blocks.length = 0;
      for (const k of spansOf[i]!) {
        const hi = upperBound(starts, spans[k]!.last) - 1;
        tree.report(hi, spans[k]!.first, (pos) => {
          const j = owner[byStart[pos]!]!;
          blocks.push([offsets[j]!, offsets[j]! + sizes[j]!]);
        });
      }
      blocks.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      let candidate = 0n;
      for (const [start, end] of blocks) {
        if (start - candidate >= size) break;
        if (end > candidate) candidate = end;
      }
      offsets[i] = candidate;
      if (candidate + size > total) total = candidate + size;
    }
    for (const k of spansOf[i]!) tree.set(position[k]!, spans[k]!.last);
  }

  if (total > alignedSum) {
    // Cannot happen with lowest-gap placement; kept so that the bound holds even if the heuristic changes.
    let at = 0n;
    for (let i = 0; i < n; i++) {
      offsets[i] = at;
      at += sizes[i]!;
    }
    total = alignedSum;
  }
  const map = new Map<string, bigint>();
  items.forEach((it, i) => map.set(it.id, offsets[i]!));
  return { bytes: total, alignment, offsets: map, lowerBound, alignedSum };
}

/** Peak of Σ bytes over steps: no layout, aligned or not, can be smaller. */
export function peakOverlap(
  items: ReadonlyArray<{ bytes: bigint; first: number; last: number; segments?: ReadonlyArray<{ first: number; last: number }> }>,
): bigint {
  const events: Array<[number, bigint]> = [];
  for (const it of items) {
    if (it.bytes === 0n) continue;
    for (const seg of it.segments ?? [it]) events.push([seg.first, it.bytes], [seg.last + 1, -it.bytes]);
  }
  // Ends before starts at the same position: [a, b] and [b + 1, c] do not overlap.
  events.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  let live = 0n;
  let peak = 0n;
  for (const [, delta] of events) {
    live += delta;
    if (live > peak) peak = live;
  }
  return peak;
}

function upperBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Max over positions; positions without a placed item hold -1. */
class MaxTree {
  private readonly size: number;
  private readonly max: Int32Array;

  constructor(n: number) {
    let size = 1;
    while (size < Math.max(1, n)) size <<= 1;
    this.size = size;
    this.max = new Int32Array(2 * size).fill(-1);
  }

  set(pos: number, value: number): void {
    let i = pos + this.size;
    this.max[i] = value;
    for (i >>= 1; i >= 1; i >>= 1) this.max[i] = Math.max(this.max[2 * i]!, this.max[2 * i + 1]!);
  }

  /** Calls `visit` for every position in [0, hi] whose value is ≥ min. */
  report(hi: number, min: number, visit: (pos: number) => void): void {
    if (hi < 0) return;
    const stack: Array<[number, number, number]> = [[1, 0, this.size - 1]];
    while (stack.length) {
      const [node, lo, hiNode] = stack.pop()!;
      if (lo > hi || this.max[node]! < min) continue;
      if (node >= this.size) {
        visit(node - this.size);
        continue;
      }
      const mid = (lo + hiNode) >>> 1;
      stack.push([2 * node + 1, mid + 1, hiNode], [2 * node, lo, mid]);
    }
  }
}
