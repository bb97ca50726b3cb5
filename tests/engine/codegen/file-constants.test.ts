/**
 * A size over a name that is both a symbol and a file constant (`constants_prop`), as in fuzzyflow's
 * bert_specialized (B, H, N, … declared as symbols and given values in constants_prop): DaCe compiles the
 * constant in, so arguments are sized from the file's value, not from --default-symbol. Generated in every mode
 * and layout, compiled with AddressSanitizer and run: arguments sized from the default would be overrun.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor, runProgram } from './driver.js';
import { sdfgText } from './tasklet-sdfg.js';

afterAll(removeScratchDirs);

const CONSTANT_N = 40;

/** B[i] = 2·A[i] + N over i < N, with N = 40 in constants_prop and declared as a symbol too. */
const TEXT = sdfgText({
  name: 'file_constant_size',
  arrays: { A: { shape: ['N'] }, t: { shape: ['N'], transient: true }, B: { shape: ['N'] } },
  attributes: {
    constants_prop: { N: [{ type: 'Scalar', attributes: { dtype: 'int64', shape: ['1'], transient: false } }, CONSTANT_N] },
  },
  states: [
    {
      label: 'twice',
      inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
      outputs: [{ conn: 'o', data: 't', index: ['i'] }],
      code: 'o = 2.0 * a',
    },
    {
      label: 'plus',
      inputs: [{ conn: 'a', data: 't', index: ['i'] }],
      outputs: [{ conn: 'o', data: 'B', index: ['i'] }],
      code: 'o = a + N',
    },
  ],
});

describe('file constants in argument sizes', () => {
  test('arguments and transients are sized from constants_prop, not from --default-symbol', async () => {
    const file = parseSdfgBytes(new TextEncoder().encode(TEXT), 'file_constant_size.sdfg');
    expect(findUnsupported(file)).toEqual([]);
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 16n, target: null });
    // N is not a symbol the user is asked for: the file fixes it.
    expect([...analysis.symbols.keys()]).toEqual([]);
    expect(analysis.transients.map((t) => t.bytes)).toEqual([BigInt(CONSTANT_N * 8)]);
    const dir = scratchDir('file-constants');
    const driver = await compileDriver(dir, true);
    for (const v of ALL_VARIANTS) {
      const p = generateProgram(file, analysis, v);
      expect(p.args.map((a) => [a.name, a.kind, a.shape])).toEqual([
        ['A', 'array', [BigInt(CONSTANT_N)]],
        ['B', 'array', [BigInt(CONSTANT_N)]],
      ]);
      const lib = await compileLibrary(p.source, dir, `file_constant_${v.mode}_${v.layout}`, '-O1', [...ASAN_FLAGS]);
      expect(lib.ok, lib.output).toBe(true);
      const r = await runProgram(driver, lib.library, p, {}, join(dir, `out_${v.mode}_${v.layout}`));
      const A = inputFor(p, 'A');
      expect([...r.arrays.get('B')!]).toEqual([...A].map((a) => 2 * a + CONSTANT_N));
    }
  }, 240_000);
});
