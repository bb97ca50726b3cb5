/**
 * Test helper: a DaCe-shaped SDFG whose integer arguments hold indices, as ICON's connectivity tables and
 * start/end members do (tests/engine/profile/index-inputs.test.ts).
 *
 * - state `gather`: map i in [0, N): `o = a[j - 1]` with j ← idx[i] (a Fortran, 1-based indirection), a ← A[0:M],
 *   o → B[i];
 * - interstate edge: `s = sel[0] + 2` (a symbol read from data), then state `pick`: `o = a` with a ← A[s], o → P[0];
 * - state `fill`: a map over k in [0, n - 1] whose bound n is a dynamic range input read from cnt[0]: `o = k * 2`,
 *   o → C[k].
 * Symbols N, M (A's extent) and K (C's extent).
 */

export const r = (start: string, end = start) => ({ start, end, step: '1', tile: '1' });
export const memlet = (data: string | null, dims: Array<ReturnType<typeof r>>) => ({
  type: 'Memlet',
  attributes: data === null ? {} : { data, subset: { type: 'Range', ranges: dims } },
});
export const edge = (src: number, dst: number, srcConn: string | null, dstConn: string | null, m: object) => ({
  type: 'MultiConnectorEdge',
  attributes: { data: m },
  src: String(src),
  dst: String(dst),
  src_connector: srcConn,
  dst_connector: dstConn,
});
export const access = (id: number, data: string, scope: string | null = null) => ({
  type: 'AccessNode',
  label: data,
  attributes: { data },
  id,
  scope_entry: scope,
  scope_exit: null,
});
export const tasklet = (id: number, label: string, code: string, ins: string[], outs: string[], scope: string | null) => ({
  type: 'Tasklet',
  label,
  attributes: {
    code: { string_data: code, language: 'Python' },
    label,
    in_connectors: Object.fromEntries(ins.map((c) => [c, null])),
    out_connectors: Object.fromEntries(outs.map((c) => [c, null])),
  },
  id,
  scope_entry: scope,
  scope_exit: null,
});
export const mapEntry = (
  id: number,
  label: string,
  param: string,
  range: ReturnType<typeof r>,
  ins: Record<string, unknown>,
  outs: string[],
) => ({
  type: 'MapEntry',
  label,
  attributes: {
    label,
    params: [param],
    range: { type: 'Range', ranges: [range] },
    schedule: 'Sequential',
    in_connectors: ins,
    out_connectors: Object.fromEntries(outs.map((c) => [c, null])),
  },
  id,
  scope_entry: null,
  scope_exit: String(id + 1),
});
export const mapExit = (id: number, label: string, data: string) => ({
  type: 'MapExit',
  label,
  attributes: { in_connectors: { [`IN_${data}`]: null }, out_connectors: { [`OUT_${data}`]: null } },
  id,
  scope_entry: String(id - 1),
  scope_exit: String(id),
});
export const state = (id: number, label: string, nodes: object[], edges: object[]) => ({
  type: 'SDFGState',
  label,
  id,
  collapsed: false,
  nodes,
  edges,
  attributes: {},
});

const whole = (n: string) => [r('0', `${n} - 1`)];

export function indexSdfgText(): string {
  const arrays: Record<string, { dtype: string; shape: string[] }> = {
    idx: { dtype: 'int32', shape: ['N'] },
    sel: { dtype: 'int64', shape: ['1'] },
    cnt: { dtype: 'int32', shape: ['1'] },
    A: { dtype: 'float64', shape: ['M'] },
    B: { dtype: 'float64', shape: ['N'] },
    P: { dtype: 'float64', shape: ['1'] },
    C: { dtype: 'float64', shape: ['K'] },
  };
  const gather = state(
    0,
    'gather',
    [
      mapEntry(0, 'gather', 'i', r('0', 'N - 1'), { IN_idx: null, IN_A: null }, ['OUT_idx', 'OUT_A']),
      mapExit(1, 'gather', 'B'),
      tasklet(2, 'gather_t', 'o = a[j - 1]', ['j', 'a'], ['o'], '0'),
      access(3, 'idx'),
      access(4, 'A'),
      access(5, 'B'),
    ],
    [
      edge(3, 0, null, 'IN_idx', memlet('idx', whole('N'))),
      edge(4, 0, null, 'IN_A', memlet('A', whole('M'))),
      edge(0, 2, 'OUT_idx', 'j', memlet('idx', [r('i')])),
      edge(0, 2, 'OUT_A', 'a', memlet('A', whole('M'))),
      edge(2, 1, 'o', 'IN_B', memlet('B', [r('i')])),
      edge(1, 5, 'OUT_B', null, memlet('B', whole('N'))),
    ],
  );
  const pick = state(
    1,
    'pick',
    [access(0, 'A'), tasklet(1, 'pick_t', 'o = a', ['a'], ['o'], null), access(2, 'P')],
    [edge(0, 1, null, 'a', memlet('A', [r('s')])), edge(1, 2, 'o', null, memlet('P', [r('0')]))],
  );
  const fill = state(
    2,
    'fill',
    [
      mapEntry(0, 'fill', 'k', r('0', 'n - 1'), { n: 'int32' }, []),
      mapExit(1, 'fill', 'C'),
      tasklet(2, 'fill_t', 'o = k * 2', [], ['o'], '0'),
      access(3, 'cnt'),
      access(4, 'C'),
    ],
    [
      edge(3, 0, null, 'n', memlet('cnt', [r('0')])),
      edge(0, 2, null, null, memlet(null, [])),
      edge(2, 1, 'o', 'IN_C', memlet('C', [r('k')])),
      edge(1, 4, 'OUT_C', null, memlet('C', whole('K'))),
    ],
  );
  const interstate = (src: number, dst: number, assignments: Record<string, string>) => ({
    type: 'Edge',
    attributes: { data: { type: 'InterstateEdge', attributes: { assignments, condition: { string_data: '1', language: 'Python' } } } },
    src: String(src),
    dst: String(dst),
  });
  return JSON.stringify({
    type: 'SDFG',
    attributes: {
      name: 'index_inputs',
      _arrays: Object.fromEntries(
        Object.entries(arrays).map(([name, a]) => [
          name,
          { type: 'Array', attributes: { dtype: a.dtype, shape: a.shape, transient: false } },
        ]),
      ),
      symbols: { N: 'int32', M: 'int32', K: 'int32', s: 'int64' },
    },
    nodes: [gather, pick, fill],
    edges: [interstate(0, 1, { s: '(sel[0] + 2)' }), interstate(1, 2, {})],
    start_block: 0,
    collapsed: false,
    label: '',
    id: null,
    cfg_list_id: 0,
    dace_version: '1.0.0',
  });
}
