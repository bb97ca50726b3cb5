/**
 * What memory.ts asks about a container's access nodes, found in one pass over an SDFG's states per emission:
 * whether any access node zeroes it (`setzero`), and the one map body where all of its access nodes are (a
 * stack array is declared there). Asked per transient and per map scope by scanning every state, these made the
 * dry-run emission behind `analyze`'s "Can profile" line (and the window's Profile button) quadratic: 9 of the
 * 10 s that analysing cloudsc_simplified took, and the window waited for it before showing any view.
 */
import type { Sdfg, StateBlock } from '../model/sdfg.js';
import type { EmitCore } from './core.js';
import { statesOf } from './graph.js';

/** The map body a container's access nodes all sit in; null: some sit at state level or in different bodies. */
export type StackScope = { state: StateBlock; entry: number } | null;

interface AccessIndex {
  setzero: Set<string>;
  scopes: Map<string, StackScope>;
}

// Per emission (the core), so that no model an expansion or a later pass changes is ever read from a stale index.
const indexes = new WeakMap<EmitCore, Map<Sdfg, AccessIndex>>();

function indexOf(core: EmitCore, s: Sdfg): AccessIndex {
  let bySdfg = indexes.get(core);
  if (!bySdfg) indexes.set(core, (bySdfg = new Map<Sdfg, AccessIndex>()));
  let index = bySdfg.get(s);
  if (index) return index;
  index = { setzero: new Set(), scopes: new Map() };
  for (const st of statesOf(s)) {
    for (const n of st.nodes) {
      if (n.kind !== 'access') continue;
      if (n.setzero) index.setzero.add(n.data);
      const had = index.scopes.get(n.data);
      if (had === null) continue;
      if (n.scopeEntry === null || (had && (had.state !== st || had.entry !== n.scopeEntry))) index.scopes.set(n.data, null);
      else if (!had) index.scopes.set(n.data, { state: st, entry: n.scopeEntry });
    }
  }
  bySdfg.set(s, index);
  return index;
}

/** Whether any access node of `name` in `s` has `setzero`. */
export function setzeroAnywhere(core: EmitCore, s: Sdfg, name: string): boolean {
  return indexOf(core, s).setzero.has(name);
}

/** The map entry whose body declares a stack transient, or null for function level. */
export function stackScope(core: EmitCore, s: Sdfg, name: string): StackScope {
  return indexOf(core, s).scopes.get(name) ?? null;
}
