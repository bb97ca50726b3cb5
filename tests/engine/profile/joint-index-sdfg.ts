/**
 * Test helper: a DaCe-shaped SDFG whose index is the sum of two generated arguments, shaped as DaCe-Fortran's
 * addusxx_g reads `qgm(ig, ijtoh(ih, jh, nt) + nij)` (tests/engine/analysis/index-ranges-joint.test.ts):
 *
 * - interstate edge: `o = off[0]` (an offset table, addusxx_g's `nij = nij_type[nt - 1]`);
 * - state `gather`: a map over i in [0, N) around a nested SDFG (symbols i, o, N, M) whose own interstate edge
 *   reads `l = loc[i]` (addusxx_g's `ijtoh_at0 = gpu_ijtoh[…]`) and whose tasklet reads Q[l + o - 1] into its B,
 *   the caller's B[i];
 * - state `fill`: a map over j in [0, n - 1] whose bound n is a dynamic range input read from cnt[0]: Q[o + j]
 *   into C[j].
 * Symbols N (loc, B), M (Q) and K (C).
 */
import { access, edge, mapEntry, mapExit, memlet, r, state, tasklet } from './index-sdfg.js';

const array = (dtype: string, shape: string[]) => ({ type: 'Array', attributes: { dtype, shape, transient: false } });
const whole = (n: string) => [r('0', `${n} - 1`)];
const interstate = (src: number, dst: number, assignments: Record<string, string>) => ({
  type: 'Edge',
  attributes: { data: { type: 'InterstateEdge', attributes: { assignments, condition: { string_data: '1', language: 'Python' } } } },
  src: String(src),
  dst: String(dst),
});

function body(): object {
  const read = state(
    1,
    'read',
    [access(0, 'Q'), tasklet(1, 'read_t', 'b = q', ['q'], ['b'], null), access(2, 'B')],
    [edge(0, 1, null, 'q', memlet('Q', [r('l + o - 1')])), edge(1, 2, 'b', null, memlet('B', [r('0')]))],
  );
  return {
    type: 'SDFG',
    attributes: {
      name: 'body',
      _arrays: { loc: array('int32', ['N']), Q: array('float64', ['M']), B: array('float64', ['1']) },
      symbols: { N: 'int32', M: 'int32', i: 'int64', o: 'int64', l: 'int64' },
    },
    nodes: [state(0, 'pre', [], []), read],
    edges: [interstate(0, 1, { l: '(loc[i])' })],
    start_block: 0,
  };
}

export function jointIndexSdfgText(): string {
  const nested = {
    type: 'NestedSDFG',
    label: 'body',
    attributes: {
      label: 'body',
      sdfg: body(),
      symbol_mapping: { N: 'N', M: 'M', i: 'i', o: 'o' },
      in_connectors: { loc: null, Q: null },
      out_connectors: { B: null },
    },
    id: 2,
    scope_entry: '0',
    scope_exit: null,
  };
  const gather = state(
    1,
    'gather',
    [
      mapEntry(0, 'gather', 'i', r('0', 'N - 1'), { IN_loc: null, IN_Q: null }, ['OUT_loc', 'OUT_Q']),
      mapExit(1, 'gather', 'B'),
      nested,
      access(3, 'loc'),
      access(4, 'Q'),
      access(5, 'B'),
    ],
    [
      edge(3, 0, null, 'IN_loc', memlet('loc', whole('N'))),
      edge(4, 0, null, 'IN_Q', memlet('Q', whole('M'))),
      edge(0, 2, 'OUT_loc', 'loc', memlet('loc', whole('N'))),
      edge(0, 2, 'OUT_Q', 'Q', memlet('Q', whole('M'))),
      edge(2, 1, 'B', 'IN_B', memlet('B', [r('i')])),
      edge(1, 5, 'OUT_B', null, memlet('B', whole('N'))),
    ],
  );
  const fill = state(
    2,
    'fill',
    [
      mapEntry(0, 'fill', 'j', r('0', 'n - 1'), { n: 'int32', IN_Q: null }, ['OUT_Q']),
      mapExit(1, 'fill', 'C'),
      tasklet(2, 'fill_t', 'c = q', ['q'], ['c'], '0'),
      access(3, 'cnt'),
      access(4, 'Q'),
      access(5, 'C'),
    ],
    [
      edge(3, 0, null, 'n', memlet('cnt', [r('0')])),
      edge(4, 0, null, 'IN_Q', memlet('Q', whole('M'))),
      edge(0, 2, 'OUT_Q', 'q', memlet('Q', [r('o + j')])),
      edge(2, 1, 'c', 'IN_C', memlet('C', [r('j')])),
      edge(1, 5, 'OUT_C', null, memlet('C', whole('K'))),
    ],
  );
  return JSON.stringify({
    type: 'SDFG',
    attributes: {
      name: 'joint_index',
      _arrays: {
        off: array('int32', ['1']),
        loc: array('int32', ['N']),
        cnt: array('int32', ['1']),
        Q: array('float64', ['M']),
        B: array('float64', ['N']),
        C: array('float64', ['K']),
      },
      symbols: { N: 'int32', M: 'int32', K: 'int32', o: 'int64' },
    },
    nodes: [state(0, 'start', [], []), gather, fill],
    edges: [interstate(0, 1, { o: '(off[0])' }), interstate(1, 2, {})],
    start_block: 0,
    collapsed: false,
    label: '',
    id: null,
    cfg_list_id: 0,
    dace_version: '1.0.0',
  });
}
