/**
 * Index ranges across nested SDFGs (analysis/index-ranges.ts, index-nested.ts), shaped as ICON's
 * velocity_tendencies does it: one SDFG computes `tmp_index = edge_blk[jv, jb, 6] - SOA_vn_d_2` on an interstate
 * edge and passes only `tmp_index` to the nested SDFG that reads `vn[…, tmp_index]`; the offset symbol is not
 * mapped into it. The carrier's offset is the caller's, so the callee must see it with the caller's value.
 */
import { describe, expect, test } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { access, edge, memlet, r, state, tasklet } from '../profile/index-sdfg.js';

const array = (dtype: string, shape: string[]) => ({ type: 'Array', attributes: { dtype, shape, transient: false } });

/** Root: `j_0 = idx[0] - O` on an interstate edge, then a nested SDFG (symbols N and j ← j_0, not O) reading A[j]. */
function nestedIndexSdfg(): string {
  const inner = {
    type: 'SDFG',
    attributes: { name: 'inner', _arrays: { A: array('float64', ['N']), B: array('float64', ['1']) }, symbols: { N: 'int32', j: 'int64' } },
    nodes: [
      state(
        0,
        'read',
        [access(0, 'A'), tasklet(1, 'read_t', 'o = a', ['a'], ['o'], null), access(2, 'B')],
        [edge(0, 1, null, 'a', memlet('A', [r('j')])), edge(1, 2, 'o', null, memlet('B', [r('0')]))],
      ),
    ],
    edges: [],
    start_block: 0,
  };
  const nested = {
    type: 'NestedSDFG',
    label: 'inner',
    attributes: {
      label: 'inner',
      sdfg: inner,
      symbol_mapping: { N: 'N', j: 'j_0' },
      in_connectors: { A: null },
      out_connectors: { B: null },
    },
    id: 0,
    scope_entry: null,
    scope_exit: null,
  };
  const call = state(
    1,
    'call',
    [nested, access(1, 'A'), access(2, 'B')],
    [edge(1, 0, null, 'A', memlet('A', [r('0', 'N - 1')])), edge(0, 2, 'B', null, memlet('B', [r('0')]))],
  );
  const interstate = {
    type: 'Edge',
    attributes: {
      data: {
        type: 'InterstateEdge',
        attributes: { assignments: { j_0: '(idx[0] - O)' }, condition: { string_data: '1', language: 'Python' } },
      },
    },
    src: '0',
    dst: '1',
  };
  return JSON.stringify({
    type: 'SDFG',
    attributes: {
      name: 'nested_index',
      _arrays: { idx: array('int32', ['N']), A: array('float64', ['N']), B: array('float64', ['1']) },
      symbols: { N: 'int32', O: 'int32', j_0: 'int64' },
    },
    nodes: [state(0, 'start', [], []), call],
    edges: [interstate],
    start_block: 0,
    dace_version: '1.0.0',
  });
}

describe('index ranges across a nested SDFG', () => {
  test("a symbol the caller computed from data keeps the caller's offset in the callee that does not map it", () => {
    const parsed = parseSdfgBytes(new TextEncoder().encode(nestedIndexSdfg()), 'nested_index.sdfg');
    const { ranges } = indexRanges(parsed, { N: 6n, O: 16n }, ['idx']);
    // A[j] with j = idx[0] - 16 and A of 6: idx in [16, 21].
    expect(ranges).toMatchObject([{ argument: 'idx', min: 16n, max: 21n, roles: ['index'], reason: 'indexes A dim 0' }]);
  });

  test("a callee symbol of the caller's name does not stand for the caller's", () => {
    // The inner SDFG has its own O = 0 (mapped from a constant): the carrier still means idx[0] - 16.
    const text = nestedIndexSdfg()
      .replace('"symbol_mapping":{"N":"N","j":"j_0"}', '"symbol_mapping":{"N":"N","j":"j_0","O":"0"}')
      .replace('"symbols":{"N":"int32","j":"int64"}', '"symbols":{"N":"int32","j":"int64","O":"int32"}');
    expect(text).toContain('"O":"0"');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'nested_index.sdfg');
    const { ranges } = indexRanges(parsed, { N: 6n, O: 16n }, ['idx']);
    expect(ranges.find((x) => x.argument === 'idx')).toMatchObject({ min: 16n, max: 21n });
  });
});
