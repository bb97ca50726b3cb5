/**
 * An index into a transient filled only in part (analysis/written-hull.ts), shaped as ICON's velocity_tendencies:
 * the program writes `nflatlev[0] = 31` and reads `nflatlev[id - 1]` with `id` an argument. Every id in [1, 10] is
 * in bounds, only id = 1 reads what was written.
 */
import { describe, expect, test } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { access, edge, memlet, r, state, tasklet } from '../profile/index-sdfg.js';

const array = (dtype: string, shape: string[], transient: boolean) => ({ type: 'Array', attributes: { dtype, shape, transient } });

/** `lev[first] = 31` (first = 0 unless changed), then `o = lev[id - 1]` into B[0]; lev is a transient of 10. */
function partlyWrittenSdfg(first = '0'): string {
  const fill = state(
    0,
    'fill',
    [tasklet(0, 'fill_t', 'o = 31', [], ['o'], null), access(1, 'lev')],
    [edge(0, 1, 'o', null, memlet('lev', [r(first)]))],
  );
  const read = state(
    1,
    'read',
    [access(0, 'lev'), tasklet(1, 'read_t', 'o = a', ['a'], ['o'], null), access(2, 'B')],
    [edge(0, 1, null, 'a', memlet('lev', [r('id - 1')])), edge(1, 2, 'o', null, memlet('B', [r('0')]))],
  );
  const interstate = {
    type: 'Edge',
    attributes: {
      data: {
        type: 'InterstateEdge',
        attributes: { assignments: { id: 'id_arg[0]' }, condition: { string_data: '1', language: 'Python' } },
      },
    },
    src: '0',
    dst: '1',
  };
  return JSON.stringify({
    type: 'SDFG',
    attributes: {
      name: 'partly_written',
      _arrays: { id_arg: array('int32', ['1'], false), B: array('float64', ['1'], false), lev: array('int32', ['10'], true) },
      symbols: { id: 'int64' },
    },
    nodes: [fill, read],
    edges: [interstate],
    start_block: 0,
    dace_version: '1.0.0',
  });
}

describe('index ranges into a transient written in part', () => {
  test('an index into a transient stays inside what the program writes of it', () => {
    const parsed = parseSdfgBytes(new TextEncoder().encode(partlyWrittenSdfg()), 'partly_written.sdfg');
    const { ranges } = indexRanges(parsed, {}, ['id_arg']);
    expect(ranges).toMatchObject([{ argument: 'id_arg', min: 1n, max: 1n, reason: 'indexes lev dim 0, written only at [0, 1)' }]);
  });

  test('a write at an index with no known value leaves the whole extent', () => {
    const text = partlyWrittenSdfg('k').replace('"symbols":{"id":"int64"}', '"symbols":{"id":"int64","k":"int64"}');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'partly_written.sdfg');
    const { ranges } = indexRanges(parsed, {}, ['id_arg']);
    expect(ranges).toMatchObject([{ argument: 'id_arg', min: 1n, max: 10n, reason: 'indexes lev dim 0' }]);
  });
});
