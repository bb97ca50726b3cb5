/**
 * The scope a nested SDFG's body is walked in (analysis/index-ranges.ts): its symbols' values, ranges and roots
 * from the symbol mapping, and the carriers its connectors receive. Apart from the walk because it only
 * translates names across the boundary.
 *
 * An expression `f(v)` is written in the caller's names. The callee need not map them (ICON's
 * velocity_tendencies computes `tmp_index = edge_blk[…] - SOA_vn_d_2` in one nested SDFG and passes only
 * `tmp_index` to the next, which never sees `SOA_vn_d_2`), and a name it does have may mean something else
 * there. So the caller's known values are folded in first.
 */
import type { DataflowNode, MemletEdge, SdfgFile } from '../model/sdfg.js';
import { freeSymbols, substitute, type Expr } from '../symbolic/index.js';
import type { JointRanges } from './index-joint.js';
import { carriersOf, corners, memberName, trySym, tryEval, type Carrier, type LazyInterval, type Scope } from './index-scope.js';
import { integerConstants } from './symbols.js';

/** `f` with every name that has a value in `env` replaced by that value (names without one stay). */
function foldKnown(f: Expr, env: ReadonlyMap<string, bigint>): Expr {
  const known = new Map<string, Expr>();
  for (const n of freeSymbols(f)) {
    const v = env.get(n);
    if (v !== undefined) known.set(n, { k: 'int', v });
  }
  return substitute(f, known);
}

/** The scope `n`'s SDFG is walked in, called from `scope` with the memlets `ins`. */
export function nestedScope(
  scope: Scope,
  n: Extract<DataflowNode, { kind: 'nested_sdfg' }>,
  ins: MemletEdge[],
  grammar: SdfgFile['grammar'],
  joint: JointRanges | null,
): Scope {
  const inner = n.sdfg!;
  const env = new Map<string, bigint>(integerConstants(inner));
  const symbols = new Map<string, Carrier[]>();
  const roots = new Map<string, string>();
  const ranges = new Map<string, [bigint, bigint]>();
  const lazy = new Map<string, LazyInterval>();
  // What a carrier holds is written in this scope's names: the callee sees it with their values (foldKnown, above).
  const inCaller = (cs: Carrier[]): Carrier[] => cs.map((c) => ({ ...c, f: foldKnown(c.f, scope.env) }));
  for (const [name, src] of Object.entries(n.symbolMapping)) {
    const e = trySym(src, grammar);
    if (!e) continue;
    const root = e.k === 'sym' ? scope.roots.get(e.name) : undefined;
    if (root !== undefined) roots.set(name, root);
    const v = tryEval(e, scope.env);
    if (v !== null) env.set(name, v);
    else {
      // A mapping over the caller's loop variables ranges with them (its extremes at their bounds).
      const names = [...freeSymbols(e)].filter((x) => !scope.env.has(x));
      if (names.length && names.length <= 3 && names.every((x) => scope.ranges.has(x))) {
        const vals = corners(names, scope.ranges).map((c) => tryEval(e, new Map([...scope.env, ...c])));
        if (vals.every((x) => x !== null)) {
          const sorted = vals.sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
          ranges.set(name, [sorted[0]!, sorted[sorted.length - 1]!]);
        }
      }
    }
    // The joint pass sees a mapping over the caller's data at the caller's intervals, asked when needed.
    if (v === null && !ranges.has(name) && joint)
      lazy.set(
        name,
        joint.lazy((depth) => joint.exprInterval(scope, e, depth)),
      );
    const cs = inCaller(carriersOf(scope, e, null));
    if (cs.length) symbols.set(name, cs);
  }
  const containers = new Map<string, Carrier[]>();
  for (const e of ins) {
    if (!e.dstConnector || !e.memlet.data) continue;
    const found = scope.containers.get(memberName(e.memlet.data));
    if (!found) continue;
    const cs = inCaller(found);
    containers.set(e.dstConnector, cs);
    const d = inner.arrays.get(e.dstConnector);
    if (d && !d.arrayLike) symbols.set(e.dstConnector, cs);
  }
  // Structure arguments pass whole: their members keep the carriers (and values) under the inner name.
  const members = new Map<string, bigint>();
  for (const e of ins) {
    if (!e.dstConnector || !e.memlet.data) continue;
    const prefix = `${memberName(e.memlet.data)}.`;
    for (const [name, cs] of scope.containers) {
      if (name.startsWith(prefix)) containers.set(`${e.dstConnector}.${name.slice(prefix.length)}`, inCaller(cs));
    }
    for (const [name, v] of scope.members) {
      if (name.startsWith(prefix)) members.set(`${e.dstConnector}.${name.slice(prefix.length)}`, v);
    }
  }
  return { sdfg: inner, env, containers, symbols, roots, ranges, lazy, defs: new Map(), members };
}
