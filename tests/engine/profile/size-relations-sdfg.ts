/**
 * Test helper: two small SDFGs shaped as ICON's velocity_tendencies sizes its arrays (docs/profile.md, "Symbols
 * of Fortran programs"; analysis/interstate-values.ts). Under --default-symbol both read past an array unless the
 * size relations they imply are derived.
 *
 * `rowBoundSdfgText()` — a row bound set to a constant on some paths (nproma = 48 in interior blocks):
 *   arguments A[N], B[N] (float64), endidx[1] (int32); symbols N, NB;
 *   edges start → rows: `e = 8` if NB > 1, else `e = endidx[0]`;
 *   state `rows`: map i in [1, e]: B[i - 1] = 2 A[i - 1].
 *   N must be at least 8 wherever NB > 1.
 *
 * `memberLevelsSdfgText()` — levels copied from a structure member (nlev, nlevp1 = nlev + 1):
 *   structure p with int32 members nlev, nlevp1; init code `L0 = p->nlev; L1 = p->nlevp1; L2 = p->nlevp1;`;
 *   arguments A[L0], B[L0], C[L2] (float64); transient W[L1];
 *   edge start → fill: `nlev = p[0].nlev; nlevp1 = p[0].nlevp1`;
 *   state `fill`: map k in [0, nlev - 1]: W[k] = A[k]; tasklet W[nlevp1 - 1] = 1 (the half level on top);
 *   state `use`: map k in [0, nlev - 1]: B[k] = W[k] + W[nlev]; map k in [0, nlevp1 - 1]: C[k] = W[k].
 *   W[nlev] needs L1 > nlev, so nlevp1 (L1, L2 and the member the caller passes) must be nlev + 1.
 */
import { access, edge, memlet, r, state, tasklet } from './index-sdfg.js';

type Dim = ReturnType<typeof r>;
interface Read {
  conn: string;
  data: string;
  at: Dim[];
  whole: Dim[];
}

/** Nodes and edges of one map `param in range` around a tasklet that reads `reads` and writes `write`, ids from `base`. */
function mapped(base: number, label: string, param: string, range: Dim, code: string, reads: Read[], write: Read) {
  const entry = {
    type: 'MapEntry',
    label,
    attributes: {
      label,
      params: [param],
      range: { type: 'Range', ranges: [range] },
      schedule: 'Sequential',
      in_connectors: Object.fromEntries(reads.map((x) => [`IN_${x.conn}`, null])),
      out_connectors: Object.fromEntries(reads.map((x) => [`OUT_${x.conn}`, null])),
    },
    id: base,
    scope_entry: null,
    scope_exit: String(base + 1),
  };
  const exit = {
    type: 'MapExit',
    label,
    attributes: { in_connectors: { IN_o: null }, out_connectors: { OUT_o: null } },
    id: base + 1,
    scope_entry: String(base),
    scope_exit: String(base + 1),
  };
  const t = tasklet(
    base + 2,
    `${label}_t`,
    code,
    reads.map((x) => x.conn),
    ['o'],
    String(base),
  );
  const sources = reads.map((x, i) => access(base + 3 + i, x.data));
  const sink = access(base + 3 + reads.length, write.data);
  const edges = [
    ...reads.flatMap((x, i) => [
      edge(base + 3 + i, base, null, `IN_${x.conn}`, memlet(x.data, x.whole)),
      edge(base, base + 2, `OUT_${x.conn}`, x.conn, memlet(x.data, x.at)),
    ]),
    edge(base + 2, base + 1, 'o', 'IN_o', memlet(write.data, write.at)),
    edge(base + 1, base + 3 + reads.length, 'OUT_o', null, memlet(write.data, write.whole)),
  ];
  return { nodes: [entry, exit, t, ...sources, sink], edges, next: base + 4 + reads.length };
}

const interstate = (src: number, dst: number, assignments: Record<string, string>, condition = '1') => ({
  type: 'Edge',
  attributes: { data: { type: 'InterstateEdge', attributes: { assignments, condition: { string_data: condition, language: 'Python' } } } },
  src: String(src),
  dst: String(dst),
});

const array = (dtype: string, shape: string[], transient = false) => ({ type: 'Array', attributes: { dtype, shape, transient } });

function sdfg(name: string, arrays: Record<string, unknown>, symbols: Record<string, string>, nodes: object[], edges: object[], init = '') {
  return JSON.stringify({
    type: 'SDFG',
    attributes: {
      name,
      _arrays: arrays,
      symbols,
      ...(init ? { init_code: { frame: { string_data: init, language: 'CPP' } } } : {}),
    },
    nodes,
    edges,
    start_block: 0,
    collapsed: false,
    label: '',
    id: null,
    cfg_list_id: 0,
    dace_version: '1.0.0',
  });
}

export function rowBoundSdfgText(): string {
  const rows = mapped(0, 'rows', 'i', r('1', 'e'), 'o = 2.0 * a', [{ conn: 'a', data: 'A', at: [r('i - 1')], whole: [r('0', 'N - 1')] }], {
    conn: 'o',
    data: 'B',
    at: [r('i - 1')],
    whole: [r('0', 'N - 1')],
  });
  return sdfg(
    'row_bound',
    { A: array('float64', ['N']), B: array('float64', ['N']), endidx: array('int32', ['1']) },
    { N: 'int32', NB: 'int32', e: 'int32' },
    [state(0, 'start', [], []), state(1, 'rows', rows.nodes, rows.edges)],
    [interstate(0, 1, { e: '8' }, '(NB > 1)'), interstate(0, 1, { e: 'endidx[0]' }, '(not (NB > 1))')],
  );
}

export function memberLevelsSdfgText(): string {
  const scalar = { type: 'Scalar', attributes: { dtype: 'int32', shape: ['1'] } };
  const p = {
    type: 'Structure',
    attributes: {
      members: [
        ['nlev', scalar],
        ['nlevp1', scalar],
      ],
      name: 't_patch',
      dtype: {
        type: 'pointer',
        dtype: {
          type: 'struct',
          name: 't_patch',
          data: [
            ['nlev', 'int32'],
            ['nlevp1', 'int32'],
          ],
          length: [],
          bytes: 8,
        },
      },
      shape: ['1'],
    },
  };
  const copy = mapped(0, 'copy', 'k', r('0', 'nlev - 1'), 'o = a', [{ conn: 'a', data: 'A', at: [r('k')], whole: [r('0', 'L0 - 1')] }], {
    conn: 'o',
    data: 'W',
    at: [r('k')],
    whole: [r('0', 'L1 - 1')],
  });
  const top = [tasklet(copy.next, 'top_t', 'o = 1.0', [], ['o'], null), access(copy.next + 1, 'W')];
  const topEdge = edge(copy.next, copy.next + 1, 'o', null, memlet('W', [r('nlevp1 - 1')]));
  const use = mapped(
    0,
    'use',
    'k',
    r('0', 'nlev - 1'),
    'o = w + t',
    [
      { conn: 'w', data: 'W', at: [r('k')], whole: [r('0', 'L1 - 1')] },
      { conn: 't', data: 'W', at: [r('nlev')], whole: [r('0', 'L1 - 1')] },
    ],
    { conn: 'o', data: 'B', at: [r('k')], whole: [r('0', 'L0 - 1')] },
  );
  const half = mapped(
    use.next,
    'half',
    'k',
    r('0', 'nlevp1 - 1'),
    'o = w',
    [{ conn: 'w', data: 'W', at: [r('k')], whole: [r('0', 'L1 - 1')] }],
    { conn: 'o', data: 'C', at: [r('k')], whole: [r('0', 'L2 - 1')] },
  );
  return sdfg(
    'member_levels',
    { p, A: array('float64', ['L0']), B: array('float64', ['L0']), C: array('float64', ['L2']), W: array('float64', ['L1'], true) },
    { L0: 'int32', L1: 'int32', L2: 'int32', nlev: 'int32', nlevp1: 'int32' },
    [
      state(0, 'start', [], []),
      state(1, 'fill', [...copy.nodes, ...top], [...copy.edges, topEdge]),
      state(2, 'use', [...use.nodes, ...half.nodes], [...use.edges, ...half.edges]),
    ],
    [interstate(0, 1, { nlev: 'p[0].nlev', nlevp1: 'p[0].nlevp1' }), interstate(1, 2, {})],
    'L0 = p->nlev;\nL1 = p->nlevp1;\nL2 = p->nlevp1;\n',
  );
}

/** A LoopRegion `v = init; cond` around one state that copies `read` of A into `write` of B. */
function loop(id: number, v: string, init: string, cond: string, read: string, write: string) {
  const body = state(
    0,
    `body_${id}`,
    [access(0, 'A'), tasklet(1, `copy_${id}`, 'o = a', ['a'], ['o'], null), access(2, 'B')],
    [edge(0, 1, null, 'a', memlet('A', [r(read)])), edge(1, 2, 'o', null, memlet('B', [r(write)]))],
  );
  return {
    type: 'LoopRegion',
    label: `loop_${id}`,
    id,
    collapsed: false,
    cfg_list_id: id + 1,
    start_block: 0,
    attributes: {
      loop_variable: v,
      init_statement: { string_data: `${v} = ${init}`, language: 'Python' },
      loop_condition: { string_data: cond, language: 'Python' },
      update_statement: { string_data: `${v} = (${v} + 1)`, language: 'Python' },
    },
    nodes: [body],
    edges: [],
  };
}

/**
 * `reusedLoopVariableSdfgText()` — two loops over one variable, as CLOUDSC runs `jk` (regression guard for the
 * ranges above): `i = 0; i < N` reads A[i], then `i = s; i < N - 1` (s an int32 scalar argument) reads A[i + 1] into B[i].
 * Arguments A[N], B[N] (float64), s. The second loop's range is not the first's: A[i + 1] stays in bounds.
 */
export function reusedLoopVariableSdfgText(): string {
  return sdfg(
    'reused_loop_variable',
    { A: array('float64', ['N']), B: array('float64', ['N']), s: { type: 'Scalar', attributes: { dtype: 'int32', shape: ['1'] } } },
    { N: 'int32' },
    [loop(0, 'i', '0', '(i < N)', 'i', 'i'), loop(1, 'i', 's', '(i < (N - 1))', 'i + 1', 'i')],
    [interstate(0, 1, {})],
  );
}
