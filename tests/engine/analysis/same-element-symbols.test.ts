/**
 * Defaulted symbols that name the same element (analysis/same-element-symbols.ts). The fixture
 * (tests/fixtures/sdfg/same_element_symbols.sdfg) is CLOUDSC's species indices in small: states write
 * `v[ql - 1]` and `v[qi - 1]`, a map reads `v[0 … nclv - 1]`. With every symbol at one default, both writes
 * land on `v[3]` and the map reads `v[0 … 2]`, which nothing wrote: the program's own uninitialised read for
 * those values. The analysis says so before anything runs; with distinct values it says nothing.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const fixture = () => readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'same_element_symbols.sdfg'));

describe('defaulted symbols that index the same element', () => {
  test('are named, with where they collide and what to do', async () => {
    const a = analyze(await fixture(), { symbols: new Map(), defaultSymbol: 4n, target: null });
    expect(a.warnings).toContain(
      'symbols qi, ql all got --default-symbol 4 and index the same element in 1 place (v[qi - 1], v[ql - 1]): where they ' +
        'name different elements (species, fields), only one is written and reads of the others are uninitialised; ' +
        'give them distinct values with --symbols',
    );
  });

  test('say nothing when the values are given, or only one symbol is defaulted', async () => {
    const file = await fixture();
    const given = analyze(file, {
      symbols: new Map([
        ['nclv', 2n],
        ['ql', 1n],
        ['qi', 2n],
      ]),
      defaultSymbol: 4n,
      target: null,
    });
    const one = analyze(file, { symbols: new Map([['ql', 1n]]), defaultSymbol: 4n, target: null });
    for (const a of [given, one]) expect(a.warnings.filter((w) => w.includes('index the same element'))).toEqual([]);
  });
});
