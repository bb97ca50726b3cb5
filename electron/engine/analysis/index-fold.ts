/**
 * Carriers crossing a nested SDFG's boundary (analysis/index-ranges.ts): an expression `f(v)` is written in the
 * caller's names. The callee need not map them (ICON's velocity_tendencies computes `tmp_index = edge_blk[…] -
 * SOA_vn_d_2` in one nested SDFG and passes only `tmp_index` to the next, which never sees `SOA_vn_d_2`), and
 * a name it does have may mean something else there. So the caller's known values are folded in first.
 */
import { freeSymbols, substitute, type Expr } from '../symbolic/index.js';

/** `f` with every name that has a value in `env` replaced by that value (names without one stay). */
export function foldKnown(f: Expr, env: ReadonlyMap<string, bigint>): Expr {
  const known = new Map<string, Expr>();
  for (const n of freeSymbols(f)) {
    const v = env.get(n);
    if (v !== undefined) known.set(n, { k: 'int', v });
  }
  return substitute(f, known);
}
