/**
 * Solving one bound (analysis/index-ranges.ts): the values of an argument element `v` for which an index `f(v)`
 * stays inside an extent. Apart from the walk that finds the indices because it is plain arithmetic on one
 * expression: no scope, no SDFG, and the one place the scan window and its flat edges (index-flat-edges.ts) meet.
 */
import type { Expr } from '../symbolic/index.js';
import { trimFlatEdges } from './index-flat-edges.js';
import { tryEval, V } from './index-scope.js';

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
const ceilDivBig = (a: bigint, b: bigint): bigint => -floorDivBig(-a, b);

/** The values of V for which lo <= f(V) < hi: exact for linear f, else the widest run found by a scan. */
export function solve(f: Expr, env: Map<string, bigint>, lo: bigint, hi: bigint): [bigint, bigint] | null {
  const at = (v: bigint): bigint | null => {
    env.set(V, v);
    const r = tryEval(f, env);
    env.delete(V);
    return r;
  };
  const g0 = at(0n);
  const g1 = at(1n);
  const g2 = at(2n);
  if (g0 !== null && g1 !== null && g2 !== null && g1 - g0 === g2 - g1 && g1 !== g0) {
    const a = g1 - g0;
    // lo <= a v + g0 <= hi - 1
    const min = a > 0n ? ceilDivBig(lo - g0, a) : ceilDivBig(hi - 1n - g0, a);
    const max = a > 0n ? floorDivBig(hi - 1n - g0, a) : floorDivBig(lo - g0, a);
    return min <= max ? [min, max] : null;
  }
  const span = hi - lo;
  const from = lo - 2n * span - 64n;
  const to = hi + 2n * span + 64n;
  if (to - from > 20_000n) return null;
  let best: [bigint, bigint] | null = null;
  let runStart: bigint | null = null;
  for (let v = from; v <= to + 1n; v++) {
    const r = v <= to ? at(v) : null;
    const ok = r !== null && r >= lo && r < hi;
    if (ok && runStart === null) runStart = v;
    if (!ok && runStart !== null) {
      if (!best || v - 1n - runStart > best[1] - best[0]) best = [runStart, v - 1n];
      runStart = null;
    }
  }
  // A run touching the window's edge is not bounded there: the scan cannot tell its true extent, unless the
  // index is flat out there (`max(1, v)`, a clamped loop start), when the flat part adds nothing.
  if (best && (best[0] === from || best[1] === to)) return trimFlatEdges(best, from, to, at);
  return best;
}
