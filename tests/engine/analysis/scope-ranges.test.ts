/**
 * Map parameter ranges per scope (analysis/scope-ranges.ts): two maps of one state that share a parameter name
 * over different ranges (DaCe's `__i0` in every elementwise map; bert_specialized has it over B = 8 and over
 * H = 16 in one state) must each bound their own accesses. The index analysis used to keep one range per name
 * for the whole state, so the last map's range reached the first map's reads and every run of bert_specialized
 * warned that "attn_dropout dim 0 is read at 15, outside [0, 8)" whatever the symbol values.
 */
import { describe, expect, test } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';

const range = (end: string) => ({ type: 'Range', ranges: [{ start: '0', end, step: '1', tile: '1' }] });
const memlet = (data: string, end: string) => ({ type: 'Memlet', attributes: { data, subset: range(end) } });
const edge = (src: number, dst: number, sc: string | null, dc: string | null, m: object) => ({
  type: 'MultiConnectorEdge',
  attributes: { data: m },
  src: String(src),
  dst: String(dst),
  src_connector: sc,
  dst_connector: dc,
});

/** Nodes base..base+4 of one map `i` over [0, end]: in ← src[i], out → dst[i]. */
function copyMap(base: number, end: string, src: string, srcExtent: string, dst: string, dstExtent: string) {
  const conn = (c: string) => ({ [c]: null });
  const nodes = [
    {
      type: 'MapEntry',
      label: `m${base}`,
      attributes: {
        label: `m${base}`,
        params: ['i'],
        range: range(end),
        schedule: 'Sequential',
        in_connectors: conn('IN_a'),
        out_connectors: conn('OUT_a'),
      },
      id: base,
      scope_entry: null,
      scope_exit: String(base + 1),
    },
    {
      type: 'MapExit',
      label: `m${base}`,
      attributes: { in_connectors: conn('IN_b'), out_connectors: conn('OUT_b') },
      id: base + 1,
      scope_entry: String(base),
      scope_exit: String(base + 1),
    },
    { type: 'AccessNode', label: src, attributes: { data: src }, id: base + 2, scope_entry: null, scope_exit: null },
    {
      type: 'Tasklet',
      label: 't',
      attributes: { code: { string_data: 'o = a', language: 'Python' }, label: 't', in_connectors: conn('a'), out_connectors: conn('o') },
      id: base + 3,
      scope_entry: String(base),
      scope_exit: null,
    },
    { type: 'AccessNode', label: dst, attributes: { data: dst }, id: base + 4, scope_entry: null, scope_exit: null },
  ];
  const edges = [
    edge(base + 2, base, null, 'IN_a', memlet(src, `${srcExtent} - 1`)),
    edge(base, base + 3, 'OUT_a', 'a', {
      type: 'Memlet',
      attributes: { data: src, subset: { type: 'Range', ranges: [{ start: 'i', end: 'i', step: '1', tile: '1' }] } },
    }),
    edge(base + 3, base + 1, 'o', 'IN_b', {
      type: 'Memlet',
      attributes: { data: dst, subset: { type: 'Range', ranges: [{ start: 'i', end: 'i', step: '1', tile: '1' }] } },
    }),
    edge(base + 1, base + 4, 'OUT_b', null, memlet(dst, `${dstExtent} - 1`)),
  ];
  return { nodes, edges };
}

/** One state: map 1 over [0, firstEnd] copies A (M elements) to Bv; map 2 over [0, N - 1] copies C to D (N each). */
function sdfg(firstEnd: string) {
  const a = copyMap(0, firstEnd, 'A', 'M', 'Bv', 'M');
  const b = copyMap(5, 'N - 1', 'C', 'N', 'D', 'N');
  const arr = (n: string) => ({ type: 'Array', attributes: { dtype: 'float64', shape: [n] } });
  const doc = {
    type: 'SDFG',
    attributes: {
      name: 'shared_params',
      _arrays: { A: arr('M'), Bv: arr('M'), C: arr('N'), D: arr('N') },
      symbols: { M: 'int32', N: 'int32' },
    },
    nodes: [
      {
        type: 'SDFGState',
        label: 's',
        id: 0,
        collapsed: false,
        nodes: [...a.nodes, ...b.nodes],
        edges: [...a.edges, ...b.edges],
        attributes: {},
      },
    ],
    edges: [],
  };
  return parseSdfgBytes(new TextEncoder().encode(JSON.stringify(doc)), 'shared_params.sdfg');
}

describe('map parameter ranges are per scope', () => {
  test('a parameter name reused by a longer map of the same state does not widen the first map`s reads', () => {
    const { outside } = indexRanges(sdfg('M - 1'), { M: 4n, N: 16n }, []);
    expect(outside).toEqual([]);
  });

  test('a read that does leave its array is still reported', () => {
    const { outside } = indexRanges(sdfg('N - 1'), { M: 4n, N: 16n }, []);
    expect(outside).toContain('A dim 0 is read at 15, outside [0, 4) with these symbol values (i at i = 15)');
  });
});
