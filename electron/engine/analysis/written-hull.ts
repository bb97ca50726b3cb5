/**
 * The part of a transient array that any memlet writes, per dimension (analysis/index-ranges.ts uses it).
 *
 * DaCe's Fortran frontend turns module arrays into transients that the program fills only in part:
 * velocity_tendencies writes `nflatlev[0] = 31` and `nrdmax[0] = 9` (the values of domain 1) and then reads
 * `nflatlev[p_patch.id - 1]`. Every id in [1, 10] is in bounds, but only id = 1 reads a written element; any
 * other reads memory nothing initialised (SCOPED's poison -1 then became the loop start `jk = 0`, an index
 * below `z_w_con_c`). So an index into a transient is kept inside what is written, when that is known.
 *
 * Known means: every write to the container in this SDFG (an edge into one of its access nodes, `setzero`)
 * names it with a subset whose bounds have values. A write through another name (a view next to it, a copy
 * whose memlet names the source) or one with unknown bounds makes the container unknown (absent). Writes
 * from a nested SDFG are the output memlet's subset, which covers what the callee may write.
 */
import { statesOf } from '../model/queries.js';
import type { Sdfg, SdfgFile, Subset } from '../model/sdfg.js';
import { evalInt, parseSym } from '../symbolic/index.js';

type Grammar = SdfgFile['grammar'];

/** Inclusive [min, max] per dimension of what is written. */
export type Hull = Array<[bigint, bigint]>;

function value(src: string, env: ReadonlyMap<string, bigint>, grammar: Grammar): bigint | null {
  try {
    return evalInt(parseSym(src, grammar), env);
  } catch {
    return null;
  }
}

function subsetHull(subset: Subset | null, rank: number, env: ReadonlyMap<string, bigint>, grammar: Grammar): Hull | null {
  if (!subset) return null;
  if (subset.kind === 'range' && subset.dims.length === rank) {
    const out: Hull = [];
    for (const d of subset.dims) {
      const a = value(d.start, env, grammar);
      const b = value(d.end, env, grammar);
      if (a === null || b === null) return null;
      out.push(a <= b ? [a, b] : [b, a]);
    }
    return out;
  }
  if (subset.kind === 'indices' && subset.indices.length === rank) {
    const out: Hull = [];
    for (const i of subset.indices) {
      const a = value(i, env, grammar);
      if (a === null) return null;
      out.push([a, a]);
    }
    return out;
  }
  return null;
}

/** Each transient array of `sdfg` whose written part is known (see the module comment), and that part. */
export function writtenHulls(sdfg: Sdfg, env: ReadonlyMap<string, bigint>, grammar: Grammar): Map<string, Hull> {
  const hulls = new Map<string, Hull>();
  const unknown = new Set<string>();
  const isView = (name: string) => sdfg.arrays.get(name)?.type.includes('View') ?? false;
  for (const st of statesOf(sdfg)) {
    for (const n of st.nodes) {
      if (n.kind !== 'access') continue;
      const d = sdfg.arrays.get(n.data);
      if (!d?.transient || !d.arrayLike || isView(n.data)) continue;
      if (n.setzero) unknown.add(n.data);
    }
    for (const e of st.edges) {
      const src = st.nodes[e.src];
      const dst = st.nodes[e.dst];
      // A view next to the container aliases it: writes through the view are not seen here.
      if (src?.kind === 'access' && dst?.kind === 'access') {
        if (isView(src.data)) unknown.add(dst.data);
        if (isView(dst.data)) unknown.add(src.data);
      }
      if (dst?.kind !== 'access') continue;
      const name = dst.data;
      const d = sdfg.arrays.get(name);
      if (!d?.transient || !d.arrayLike || isView(name) || unknown.has(name)) continue;
      const h = e.memlet.data === name ? subsetHull(e.memlet.subset, d.shape.length, env, grammar) : null;
      if (!h) {
        unknown.add(name);
        continue;
      }
      const prev = hulls.get(name);
      hulls.set(name, prev ? prev.map(([a, b], i) => [a < h[i]![0] ? a : h[i]![0], b > h[i]![1] ? b : h[i]![1]]) : h);
    }
  }
  for (const name of unknown) hulls.delete(name);
  return hulls;
}
