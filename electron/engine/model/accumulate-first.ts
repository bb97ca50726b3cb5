/**
 * Transients that the program only ever accumulates into. A WCR write (`x = max(x, v)`), a Reduce without
 * identity (DaCe's pure expansion then adds no init state, only a WCR into `_out`) and a tasklet whose inputs
 * derive, in its state, from the container itself (a blend `x = f·new + (1 − f)·x`) read the old value; when
 * no other write exists anywhere, the first of them reads memory the program never initialised (it runs
 * before any write, being the first write and reading first), so the outputs depend on what the allocator or
 * the workspace layout left there.
 */
import { statesOf } from './queries.js';
import type { MemletEdge, Sdfg, SdfgFile, StateBlock } from './sdfg.js';

interface WriteKinds {
  plain: boolean;
  accumulate: boolean;
}

const VIEW_LIKE = /View|Reference/;

/** How one edge into an access node of `name` writes it: plainly, by accumulating, or (a view) unknown. */
function edgeWrite(st: StateBlock, e: MemletEdge, kindsIn: (inner: Sdfg, name: string) => WriteKinds, name: string): WriteKinds {
  if (e.memlet.wcr !== null) return { plain: false, accumulate: true };
  const src = st.nodes[e.src];
  if ((src?.kind === 'map_exit' || src?.kind === 'consume_exit') && e.srcConnector?.startsWith('OUT_')) {
    // Through the scope exit to what writes inside it (the WCR usually sits on the inner edge too).
    const conn = `IN_${e.srcConnector.slice(4)}`;
    const inner = st.edges.filter((x) => x.dst === src.id && x.dstConnector === conn && x.memlet.data !== null);
    const ws = inner.map((x) => edgeWrite(st, x, kindsIn, name));
    if (!ws.length || ws.some((w) => w.plain)) return { plain: true, accumulate: false };
    return { plain: false, accumulate: true };
  }
  if (src?.kind === 'library' && src.className === 'Reduce') {
    const identity = src.attributes['identity'];
    return identity === null || identity === undefined ? { plain: false, accumulate: true } : { plain: true, accumulate: false };
  }
  if (src?.kind === 'nested_sdfg' && src.sdfg && e.srcConnector !== null) {
    const inner = kindsIn(src.sdfg, e.srcConnector);
    // A callee that writes nothing to the connector hands back what it got: count that as plain (no claim).
    return inner.plain || !inner.accumulate ? { plain: true, accumulate: false } : inner;
  }
  // A value computed from the container's own old value (stage8's if/else turned into a blend,
  // `x = f·new + (1 − f)·x`) reads it as an accumulation does.
  if (src?.kind === 'tasklet' && readsBefore(st, src.id, name)) return { plain: false, accumulate: true };
  return { plain: true, accumulate: false };
}

/** Whether node `id`'s dataflow in `st` starts, through edges that carry data, at an access node of `name`. */
function readsBefore(st: StateBlock, id: number, name: string): boolean {
  const seen = new Set<number>([id]);
  const todo = [id];
  while (todo.length) {
    const at = todo.pop()!;
    for (const e of st.edges) {
      if (e.dst !== at || e.memlet.data === null || seen.has(e.src)) continue;
      const from = st.nodes[e.src];
      if (from?.kind === 'access' && from.data === name) return true;
      seen.add(e.src);
      todo.push(e.src);
    }
  }
  return false;
}

/**
 * `<sdfgIndex>:<name>` of every transient with at least one accumulating write and no plain write (nor
 * `setzero`) in any state, following nested SDFG output connectors into their callees. Containers that a
 * view or reference touches are left out: a plain write through the view would not show as a write here.
 */
export function accumulatedBeforeWritten(file: SdfgFile): string[] {
  const memo = new Map<Sdfg, Map<string, WriteKinds>>();
  const kindsIn = (sdfg: Sdfg, name: string): WriteKinds => {
    let perSdfg = memo.get(sdfg);
    if (!perSdfg) memo.set(sdfg, (perSdfg = new Map<string, WriteKinds>()));
    const known = perSdfg.get(name);
    if (known) return known;
    // A recursive path (not expected in valid SDFGs) ends as "plain": no claim is made.
    perSdfg.set(name, { plain: true, accumulate: false });
    const kinds: WriteKinds = { plain: false, accumulate: false };
    for (const st of statesOf(sdfg)) {
      for (const n of st.nodes) if (n.kind === 'access' && n.data === name && n.setzero) kinds.plain = true;
      for (const e of st.edges) {
        if (e.memlet.data === null) continue;
        const src = st.nodes[e.src];
        const dst = st.nodes[e.dst];
        const touches = (a: typeof src, b: typeof dst) =>
          a?.kind === 'access' && a.data === name && b?.kind === 'access' && VIEW_LIKE.test(sdfg.arrays.get(b.data)?.type ?? '');
        if (touches(src, dst) || touches(dst, src)) kinds.plain = true;
        if (dst?.kind !== 'access' || dst.data !== name) continue;
        const w = edgeWrite(st, e, kindsIn, name);
        kinds.plain ||= w.plain;
        kinds.accumulate ||= w.accumulate;
      }
    }
    perSdfg.set(name, kinds);
    return kinds;
  };
  const out: string[] = [];
  for (const s of file.sdfgs) {
    for (const [name, d] of s.arrays) {
      // A view's bytes are its viewed container's, which other writes may have initialised.
      if (!d.transient || s.constants.has(name) || VIEW_LIKE.test(d.type)) continue;
      const k = kindsIn(s, name);
      if (k.accumulate && !k.plain) out.push(`${s.sdfgIndex}:${name}`);
    }
  }
  return out.sort();
}
