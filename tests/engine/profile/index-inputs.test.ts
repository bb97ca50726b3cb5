/**
 * Index-safe generated inputs (analysis/index-ranges.ts, profile/index-inputs.ts): integer arguments whose values
 * index data are generated inside the range their uses allow. The fixture (index-sdfg.ts) has a 1-based
 * indirection in a tasklet, a symbol read from data on an interstate edge, and a dynamic map range bound read from
 * data; with the generator's old 0…7 every one of them goes out of bounds at these sizes.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { planIndexInputs } from '../../../electron/engine/profile/index-inputs.js';
import { prepareInputs } from '../../../electron/engine/profile/inputs.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { planProfile } from '../../../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { indexSdfgText } from './index-sdfg.js';
import { sdfgInTempDir } from '../temp-sdfg.js';

const N = 6;
const M = 4;
const K = 5;
const SYMBOLS = { N: BigInt(N), M: BigInt(M), K: BigInt(K) };

const sdfg = sdfgInTempDir('tlab-index-', 'index_inputs.sdfg', indexSdfgText);

describe('index ranges of integer arguments', () => {
  test('an indirection, a symbol read from data and a dynamic range bound each get the range their use allows', () => {
    const parsed = parseSdfgBytes(new TextEncoder().encode(indexSdfgText()), 'index_inputs.sdfg');
    const { ranges, outside } = indexRanges(parsed, SYMBOLS, ['idx', 'sel', 'cnt']);
    const by = Object.fromEntries(ranges.map((r) => [r.argument, r]));
    // a[j - 1] with a ← A[0:M]: j in [1, M].
    expect(by.idx).toMatchObject({ min: 1n, max: BigInt(M), roles: ['index'], reason: 'indexes A dim 0 in a tasklet' });
    // s = sel[0] + 2 indexes A: sel in [-2, M - 3].
    expect(by.sel).toMatchObject({ min: -2n, max: BigInt(M - 3), roles: ['index'], reason: 'indexes A dim 0' });
    // k in [0, n - 1] indexes C: n - 1 in [0, K), n in [1, K]; n bounds the map from above.
    expect(by.cnt).toMatchObject({ min: 1n, max: BigInt(K), roles: ['upper'], reason: 'indexes C dim 0' });
    expect(outside).toEqual([]);
  });

  test('a store through a tasklet subscript bounds its indices too (mlir-dace indirect: A[(i, i)] = v)', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg', 'spcl__mlir-dace__indirect.sdfg');
    const parsed = parseSdfgBytes(await readFile(path), path);
    const { ranges } = indexRanges(parsed, { s_0: 16n }, ['_arg0']);
    // Loaded as _arg1[0, i] (i < 900) and stored as _arg1[i, i] (i < s_0 = 16): the store is the tighter bound.
    expect(ranges.find((r) => r.argument === '_arg0')).toMatchObject({ min: 0n, max: 15n, reason: 'indexes _arg1 dim 0 in a tasklet' });
  });

  test('a read fixed by the symbols alone is reported with the symbol value that keeps it in bounds', () => {
    const text = indexSdfgText().replace('"(sel[0] + 2)"', '"(sel[1 - L] + 2)"').replace('"s": "int64"', '"s": "int64", "L": "int32"');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'index_inputs.sdfg');
    const a = indexRanges(parsed, { ...SYMBOLS, L: 16n }, ['idx', 'sel', 'cnt']);
    expect(a.outside).toEqual(['sel dim 0 is read at -15, outside [0, 1) with these symbol values (1 - L)']);
    expect(a.advice).toEqual([{ symbol: 'L', value: 16n, suggested: 1n, min: 1n, max: 1n }]);
  });

  test('a read over a loop of known bounds is checked at the loop bounds, and the symbol value is advised', () => {
    // gather reads idx[i + 1 - L] for i in [0, N - 1]: with L = 16 the first iteration reads idx[-15].
    const text = indexSdfgText()
      .replace(
        '"data":"idx","subset":{"type":"Range","ranges":[{"start":"i","end":"i"',
        '"data":"idx","subset":{"type":"Range","ranges":[{"start":"i + 1 - L","end":"i + 1 - L"',
      )
      .replace('"s":"int64"', '"s":"int64","L":"int32"');
    expect(text).toContain('i + 1 - L');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'index_inputs.sdfg');
    const a = indexRanges(parsed, { ...SYMBOLS, L: 16n }, ['idx', 'sel', 'cnt']);
    expect(a.outside).toEqual([`idx dim 0 is read at -15, outside [0, ${N}) with these symbol values (i + 1 - L at i = 0)`]);
    // i + 1 - L in [0, N) at i = 0 and at i = N - 1: L = 1 only.
    expect(a.advice).toEqual([{ symbol: 'L', value: 16n, suggested: 1n, min: 1n, max: 1n }]);
  });

  test("a scalar argument X with the Fortran frontend's size symbol sym_X takes that symbol's value", async () => {
    const fixture = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'nested_scalar_symbol.sdfg');
    const plan = await planProfile(fixture, { ...DEFAULT_PROFILE_OPTIONS, modes: ['SCOPED'], symbols: new Map([['N', 32n]]) });
    const { inputs } = planIndexInputs(plan.file, plan.args, { ...plan.symbols, sym_m: 5n }, new Map());
    expect(inputs).toEqual([{ argument: 'm', min: 5, max: 5, reason: "the Fortran frontend's size symbol sym_m" }]);
    // Without sym_m, m bounds the nested map i in [0, M - 1] over A[0:N]: M in [1, 32], an upper bound.
    expect(planIndexInputs(plan.file, plan.args, plan.symbols, new Map()).inputs).toEqual([
      { argument: 'm', min: 32, max: 32, reason: 'indexes A dim 0 (loop end: its highest value)' },
    ]);
  });
});

describe('profile with index-safe generated inputs', () => {
  test('every mode stays in bounds and computes what the inputs say', async () => {
    const symbols = new Map(Object.entries(SYMBOLS));
    const out = join(sdfg.dir, 'out');
    const result = await profile(sdfg.file, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols,
      saveOutputs: out,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    expect(result.indexInputs?.map((i) => [i.argument, i.min, i.max])).toEqual([
      ['cnt', K, K], // the highest value of [1, K]: a loop end runs the whole range
      ['idx', 1, M],
      ['sel', -2, M - 3],
    ]);

    // The same inputs, prepared here from the same seed: the values lie in the derived ranges.
    const plan = await planProfile(sdfg.file, { ...DEFAULT_PROFILE_OPTIONS, modes: ['SCOPED'], symbols });
    const { inputs } = planIndexInputs(plan.file, plan.args, plan.symbols, new Map());
    const prepared = await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map(), indexInputs: inputs });
    const buf = (name: string) => prepared.find((p) => p.arg.name === name)!.bytes;
    const f64 = (b: Uint8Array) => [...new Float64Array(b.slice().buffer)];
    const idx = [...new Int32Array(buf('idx').slice().buffer)];
    const sel = Number(new BigInt64Array(buf('sel').slice().buffer)[0]);
    const cnt = new Int32Array(buf('cnt').slice().buffer)[0]!;
    const A = f64(buf('A'));
    expect(idx.every((j) => j >= 1 && j <= M)).toBe(true);
    expect(new Set(idx).size).toBeGreaterThan(1);
    expect(sel >= -2 && sel <= M - 3).toBe(true);
    expect(cnt >= 3 && cnt <= K).toBe(true);

    // Independent computation of the outputs.
    const B = idx.map((j) => A[j - 1]!);
    const P = [A[sel + 2]!];
    const C = f64(buf('C'));
    for (let k = 0; k < cnt; k++) C[k] = k * 2;
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const read = async (name: string) => f64((await readNpy(join(out, m, `${name}.npy`))).data);
      expect(await read('B'), m).toEqual(B);
      expect(await read('P'), m).toEqual(P);
      expect(await read('C'), m).toEqual(C);
    }
  }, 300_000);
});
