/**
 * Reduce, expanded as DaCe's ExpandReducePure does: an SDFG with `_in` and `_out` (the squeezed subsets of
 * the node's memlets), an initialisation state writing `identity` into every output element when the node
 * has one (without one, the output's current value is the start, as in DaCe), then a map over the output
 * elements around a map over the reduced axes whose tasklet passes each input element to `_out` through
 * the node's WCR. The reduced axes are a Sequential map (one loop per output element, no atomics where the
 * output map is the parallel one); a reduction over every axis is one Sequential loop.
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole, type Dim, type MapSpec } from './graph-json.js';
import type { ExpansionSite, Operand } from './operand.js';
import { REDUCE_TILE, reduceLoops } from './reduce-order.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);

/** The identity as Python source, or null for none; a string says why it cannot be used. */
function identityCode(raw: unknown): string | null | { problem: string } {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : { problem: `identity ${String(raw)} is not a finite number` };
  if (typeof raw === 'boolean') return raw ? 'True' : 'False';
  if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
  return { problem: `identity ${JSON.stringify(raw)} is neither a number nor an expression` };
}

function readAxes(raw: unknown, rank: number): number[] | string {
  if (raw === null || raw === undefined) return [...Array(rank).keys()];
  if (!Array.isArray(raw) || raw.some((a) => typeof a !== 'number' || !Number.isInteger(a) || a < 0 || a >= rank))
    return `axes ${JSON.stringify(raw)} are not axes of a ${rank}-dimensional input`;
  return [...new Set(raw as number[])].sort((a, b) => a - b);
}

/** The states of the expansion, or why the node cannot be expanded. */
export function reduceStates(
  node: LibraryNode,
  inp: Operand,
  out: Operand,
  sym: (name: string) => string,
  site: ExpansionSite,
): { states: StateJson[] } | string {
  const attrs = node.attributes;
  const wcr = attrs['wcr'];
  if (typeof wcr !== 'string' || wcr.trim() === '') return 'it has no wcr lambda';
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  const identity = identityCode(attrs['identity']);
  if (identity !== null && typeof identity === 'object') return identity.problem;
  const axesAll = readAxes(attrs['axes'], inp.dims.length);
  if (typeof axesAll === 'string') return axesAll;
  const axes = axesAll.filter((a) => inp.kept.includes(a));
  const states: StateJson[] = [];

  if (axes.length === 0) {
    // Degenerate: nothing is reduced, the input is copied (as DaCe does, identity and WCR unused).
    if (inp.shape.length !== out.shape.length) return 'it reduces no axis and its input and output shapes differ';
    const st = new StateJson('reduce_copy');
    const r = st.access('_in');
    const w = st.access('_out');
    st.edge(r, null, w, null, memlet('_in', whole(inp.shape), { other: whole(out.shape) }));
    return { states: [st] };
  }

  const outerCount = inp.kept.length - axes.length;
  const outRank = out.kept.length;
  if (outerCount !== outRank) return `it keeps ${outerCount} input axes but its output has ${outRank} dimensions other than 1`;
  const outIndex = outRank === 0 ? ['0'] : out.shape.map((_, k) => sym(`_o${k}`));
  const outRanges: Dim[] = out.shape.map((s) => ({ start: '0', end: `${s} - 1` }));

  if (identity !== null) {
    const init = new StateJson('reduce_init');
    const w = init.access('_out');
    if (outRank === 0) {
      const t = init.tasklet('reduce_init', `__out = ${identity}`, [], ['__out'], null);
      init.edge(t, '__out', w, null, memlet('_out', at(['0'])));
    } else {
      const params = out.shape.map((_, k) => `_o${k}`);
      const m = init.map({ label: 'reduce_init', params, ranges: outRanges, schedule: node.schedule }, { ins: [], outs: ['_out'] }, null);
      const t = init.tasklet('reduce_init', `__out = ${identity}`, [], ['__out'], m.entry);
      init.edge(m.entry, null, t, null, { type: 'Memlet', attributes: {} });
      init.edge(t, '__out', m.exit, 'IN__out', memlet('_out', at(outIndex)));
      init.edge(m.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape)));
    }
    states.push(init);
  }

  const st = new StateJson('reduce');
  const r = st.access('_in');
  const w = st.access('_out');
  let ictr = 0;
  let octr = 0;
  const inIndex = inp.kept.map((d) => (axes.includes(d) ? sym(`_i${ictr++}`) : sym(`_o${octr++}`)));
  const values = {
    label: 'reduce_values',
    params: axes.map((_, k) => `_i${k}`),
    ranges: axes.map((a) => ({ start: '0', end: `${inp.dims[a]!.size} - 1` })),
    schedule: 'Sequential',
  };
  const through = { ins: ['_in'], outs: ['_out'] };
  // Each output element is combined by one iteration of the output map only (one loop over the reduced
  // axes): no atomics, unless the node's own output memlet says that several writers share it.
  const red = { wcr, nonatomic: out.edge.memlet.wcr === null };
  if (outRank === 0) {
    const m = st.map(values, through, null);
    const t = st.tasklet('identity', '__out = __inp', ['__inp'], ['__out'], m.entry);
    st.edge(r, null, m.entry, 'IN__in', memlet('_in', whole(inp.shape)));
    st.edge(m.entry, 'OUT__in', t, '__inp', memlet('_in', at(inIndex)));
    st.edge(t, '__out', m.exit, 'IN__out', memlet('_out', at(outIndex), red));
    st.edge(m.exit, 'OUT__out', w, null, memlet('_out', at(outIndex), red));
    states.push(st);
    return { states };
  }
  const loops = reduceLoops(inp, out, axes, node.schedule, { ...site, nonatomic: red.nonatomic });
  // Per output axis, what the innermost map's loop covers: the whole axis, or one tile of it.
  const innerRange = (k: number): Dim => {
    if (!loops.tiled || k !== loops.inner[0]) return outRanges[k]!;
    const first = `${REDUCE_TILE}*${sym('_t0')}`;
    return { start: first, end: `Min(${out.shape[k]!} - 1, ${first} + ${REDUCE_TILE - 1})` };
  };
  const maps: MapSpec[] = [];
  if (loops.tiled) {
    const size = out.shape[loops.inner[0]!]!;
    maps.push({
      label: 'reduce_tiles',
      params: ['_t0'],
      ranges: [{ start: '0', end: `int_ceil(${size}, ${REDUCE_TILE}) - 1` }],
      schedule: node.schedule,
    });
  } else if (loops.outer.length > 0) {
    const ranges = loops.outer.map((k) => outRanges[k]!);
    maps.push({ label: 'reduce_output', params: loops.outer.map((k) => `_o${k}`), ranges, schedule: node.schedule });
  }
  maps.push(values);
  if (loops.inner.length > 0)
    maps.push({
      label: 'reduce_inner',
      params: loops.inner.map((k) => `_o${k}`),
      ranges: loops.inner.map(innerRange),
      schedule: 'Sequential',
    });
  // What one iteration of the maps around the innermost one writes: its output axes' elements, one each of the
  // outer axes.
  const written: Dim[] = out.shape.map((_, k) => (loops.inner.includes(k) ? innerRange(k) : { start: sym(`_o${k}`), end: sym(`_o${k}`) }));
  const scopes: Array<{ entry: number; exit: number }> = [];
  for (const spec of maps) scopes.push(st.map(spec, through, scopes.at(-1)?.entry ?? null));
  const innermost = scopes.at(-1)!;
  const t = st.tasklet('identity', '__out = __inp', ['__inp'], ['__out'], innermost.entry);
  st.edge(r, null, scopes[0]!.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  for (let i = 1; i < scopes.length; i++)
    st.edge(scopes[i - 1]!.entry, 'OUT__in', scopes[i]!.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  st.edge(innermost.entry, 'OUT__in', t, '__inp', memlet('_in', at(inIndex)));
  st.edge(t, '__out', innermost.exit, 'IN__out', memlet('_out', at(outIndex), red));
  for (let i = scopes.length - 1; i > 0; i--)
    st.edge(scopes[i]!.exit, 'OUT__out', scopes[i - 1]!.exit, 'IN__out', memlet('_out', written, red));
  st.edge(scopes[0]!.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape), red));
  states.push(st);
  return { states };
}
