/**
 * The loop order of an expanded Reduce. DaCe's pure expansion runs a map over the output elements around a loop
 * over the reduced axes: a column sum of a row-major A[N, M] reads A with stride M in its inner loop. Here an
 * output axis whose input stride is smaller than every reduced axis's runs inside the reduced axes instead
 * (`S[j] += A[i, j]` with j innermost), which reads the input in unit stride.
 *
 * The result stays bitwise identical to DaCe's order: each output element is written by one iteration of the
 * parallel loop only, and receives its additions in the lexicographic order of the reduced axes whatever loops
 * over other output elements are interleaved with them (the reduced axes keep their relative order; only output
 * axes move). When no output axis stays outside to be the parallel loop, the moved axis with the largest stride is
 * cut into tiles of TILE elements and the tiles are the parallel loop, so the reduction keeps its parallelism.
 *
 * Kept in DaCe's order: reductions on GPU data outside a kernel (the output map is then a GPU_Device kernel
 * whose neighbouring threads read neighbouring elements: DaCe's order is the coalesced one), reductions inside a
 * kernel (per-thread code, left as DaCe schedules it), and a tiled order where the node's own output memlet
 * has a WCR: the write-conflict analysis (codegen/wcr-conflicts.ts) cannot prove a tile range free of other
 * threads, so the update would become atomic.
 */
import { evalInt, freeSymbols, parseSym } from '../../symbolic/index.js';
import type { Grammar } from '../../model/sdfg.js';
import type { Operand } from './operand.js';

/** Output elements per tile of the parallel loop: 16 KiB of float64 outputs, which stay in a 32 KiB L1 cache next to
 * the input they are read with. Over a 2000×2000 input on this machine, tiles of 1024 ran about 1.4× slower than
 * tiles of 2048 or 4096 (each row then streams in two pieces); M ≤ 2048 is one tile, so it runs on one thread. */
export const REDUCE_TILE = 2048;

/** Stand-in for every symbol when strides are compared (strides are products of sizes: any large value orders them). */
const STRIDE_PROBE = 4096n;

export interface ReduceLoops {
  /** Output axes (k of `_o<k>`) of the parallel map around the reduced axes, in order. */
  outer: number[];
  /** Output axes run inside the reduced axes, largest input stride first. Empty: DaCe's order. */
  inner: number[];
  /** The first inner axis is cut into tiles whose map is the parallel one (`outer` is then empty). */
  tiled: boolean;
}

/** A stride's value with every symbol at STRIDE_PROBE, or null when it does not evaluate. */
function probe(stride: string, grammar: Grammar): bigint | null {
  try {
    const e = parseSym(stride, grammar);
    return evalInt(e, new Map([...freeSymbols(e)].map((n) => [n, STRIDE_PROBE])));
  } catch {
    return null;
  }
}

export interface ReduceContext {
  grammar: Grammar;
  inKernel: boolean;
  /** The node's output memlet has no WCR: no other writer shares the output (the expansion's writes are nonatomic). */
  nonatomic: boolean;
}

/** The loop order for reducing `axes` (container dimensions of `inp`) into `out`. */
export function reduceLoops(inp: Operand, out: Operand, axes: readonly number[], schedule: string, c: ReduceContext): ReduceLoops {
  const outputDims = inp.kept.filter((d) => !axes.includes(d));
  const dace: ReduceLoops = { outer: outputDims.map((_, k) => k), inner: [], tiled: false };
  const gpuData = [inp, out].some((op) => op.desc.storage.startsWith('GPU_'));
  if (c.inKernel || gpuData || outputDims.length === 0) return dace;
  const strides = new Map<number, bigint>();
  for (const d of inp.kept) {
    const v = probe(inp.desc.strides[d] ?? '1', c.grammar);
    if (v === null) return dace;
    strides.set(d, v);
  }
  const strideOf = (d: number): bigint => strides.get(d)!;
  const fastestReduced = axes.map(strideOf).reduce((a, b) => (a < b ? a : b));
  const moved = outputDims.flatMap((d, k) => (strideOf(d) < fastestReduced ? [k] : []));
  if (moved.length === 0) return dace;
  const outer = dace.outer.filter((k) => !moved.includes(k));
  const inner = [...moved].sort((a, b) => {
    const sa = strideOf(outputDims[a]!);
    const sb = strideOf(outputDims[b]!);
    return sa > sb ? -1 : sa < sb ? 1 : a - b;
  });
  if (outer.length > 0 || schedule === 'Sequential') return { outer, inner, tiled: false };
  if (!c.nonatomic) return dace;
  return { outer, inner, tiled: true };
}
