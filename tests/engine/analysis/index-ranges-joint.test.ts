/**
 * Joint index ranges (analysis/index-joint.ts): an index that two generated arguments reach at once, shaped as
 * DaCe-Fortran's addusxx_g reads `qgm[ig - 1, ijtoh_at0 + nij - 1]` (an offset table read on a host interstate
 * edge plus a local index read on one inside the kernel's nested SDFG), and an offset added to a map parameter
 * whose range is a dynamic range input read from data (joint-index-sdfg.ts). The first pass bounds neither
 * argument of such an index (each has another name of unknown value); at the generator's 0…7 they read Q out of
 * bounds.
 */
import { readFile } from 'node:fs/promises';
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
import { jointIndexSdfgText } from '../profile/joint-index-sdfg.js';
import { sdfgInTempDir } from '../temp-sdfg.js';

const N = 6;
const M = 8;
const K = 5;
const SYMBOLS = { N: BigInt(N), M: BigInt(M), K: BigInt(K) };

const sdfg = sdfgInTempDir('tlab-joint-index-', 'joint_index.sdfg', jointIndexSdfgText);

describe('an index two arguments reach at once', () => {
  test('each argument is bounded so that every combination of their values stays in bounds', () => {
    const parsed = parseSdfgBytes(new TextEncoder().encode(jointIndexSdfgText()), 'joint_index.sdfg');
    const { ranges, outside } = indexRanges(parsed, SYMBOLS, ['off', 'loc', 'cnt']);
    const by = Object.fromEntries(ranges.map((r) => [r.argument, r]));
    // C[j] for j < cnt[0]: cnt in [1, K] (the first pass). off is the smaller table: solved first against loc's
    // planned 0…7, Q[l + o - 1] gives off = 1; loc then keeps 0…7; Q[o + j] at off = 1 keeps cnt in [1, K].
    expect(by.off).toMatchObject({ min: 1n, max: 1n, roles: ['index'], reason: 'indexes Q dim 0' });
    expect(by.loc).toMatchObject({ min: 0n, max: 7n, roles: ['index'], reason: 'indexes Q dim 0' });
    expect(by.cnt).toMatchObject({ min: 1n, max: BigInt(K), roles: ['upper'] });
    expect(outside).toEqual([]);
    // Every combination of the derived values reads Q inside [0, M).
    for (let o = by.off!.min; o <= by.off!.max; o++) {
      for (let l = by.loc!.min; l <= by.loc!.max; l++) expect(l + o - 1n >= 0n && l + o - 1n < BigInt(M)).toBe(true);
      for (let n = by.cnt!.min; n <= by.cnt!.max; n++) expect(o >= 0n && o + n - 1n < BigInt(M)).toBe(true);
    }
  });

  test('a name assigned in two places takes the hull of both: every value either assignment gives stays in bounds', () => {
    // `o = off[0]` before gather, `o = off[0] + 3` between gather and fill: the analysis is not flow-sensitive,
    // so each state's index holds for either value.
    const text = jointIndexSdfgText().replace('"assignments":{}', '"assignments":{"o":"(off[0] + 3)"}');
    expect(text).toContain('(off[0] + 3)');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'joint_index.sdfg');
    const { ranges } = indexRanges(parsed, SYMBOLS, ['off', 'loc', 'cnt']);
    const by = Object.fromEntries(ranges.map((r) => [r.argument, r]));
    expect([by.off, by.loc, by.cnt].map((r) => [r!.min, r!.max])).toEqual([
      [1n, 1n],
      [0n, 4n],
      [1n, 4n],
    ]);
    for (let v = by.off!.min; v <= by.off!.max; v++)
      for (const o of [v, v + 3n]) {
        for (let l = by.loc!.min; l <= by.loc!.max; l++) expect(l + o - 1n >= 0n && l + o - 1n < BigInt(M)).toBe(true);
        for (let n = by.cnt!.min; n <= by.cnt!.max; n++) expect(o >= 0n && o + n - 1n < BigInt(M)).toBe(true);
      }
  });

  test("a callee's own assignment of a symbol its caller maps in counts too", () => {
    // The nested SDFG sets `o = 5` next to `l = loc[i]`: its read Q[l + o - 1] sees 5, not the caller's off[0].
    const text = jointIndexSdfgText().replace('"assignments":{"l":"(loc[i])"}', '"assignments":{"l":"(loc[i])","o":"5"}');
    expect(text).toContain('"o":"5"');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'joint_index.sdfg');
    const { ranges } = indexRanges(parsed, SYMBOLS, ['off', 'loc', 'cnt']);
    const loc = ranges.find((r) => r.argument === 'loc')!;
    // l + 5 - 1 < M: loc at most 3 (with the caller's o = off[0] = 1 alone it would be 7); the first pass, which
    // knows o = 5 from the callee's own assignment (interstate-values.ts), may also allow loc down to -4.
    expect(loc.max).toBe(3n);
    for (let l = loc.min; l <= loc.max; l++) expect(l + 5n - 1n >= 0n && l + 5n - 1n < BigInt(M)).toBe(true);
  });

  test('a name assigned from itself has no interval: neither argument is bounded by it, and the pass ends', () => {
    const text = jointIndexSdfgText().replace('"o":"(off[0])"', '"o":"(o + off[0])"');
    expect(text).toContain('(o + off[0])');
    const parsed = parseSdfgBytes(new TextEncoder().encode(text), 'joint_index.sdfg');
    const { ranges } = indexRanges(parsed, SYMBOLS, ['off', 'loc', 'cnt']);
    expect(ranges.map((r) => r.argument)).toEqual(['cnt']);
  });

  test("addusxx_g: ijtoh and nij_type keep qgm's column ijtoh + nij - 1 in bounds, ofsbeta keeps becpsi_c's", async () => {
    const path = join(
      packageRoot(),
      '..',
      'shared',
      'corpus',
      'sdfg',
      'spcl__dace-fortran__samples__addusxx_g__.dacecache__addusxx_g_gpu__program.sdfgz',
    );
    const parsed = parseSdfgBytes(await readFile(path), path);
    const symbols: Record<string, bigint> = {};
    for (const s of [
      'qgm_d0',
      'qgm_d1',
      'ijtoh_d0',
      'ijtoh_d1',
      'ijtoh_d2',
      'nh_d0',
      'nij_type_d0',
      'ofsbeta_d0',
      'ityp_d0',
      'upf_tvanp_d0',
    ])
      symbols[s] = 16n;
    Object.assign(symbols, { nat: 16n, nsp: 16n, nkb: 16n, offset_upf_tvanp_d0: 1n });
    const { ranges } = indexRanges(parsed, symbols, ['ijtoh', 'nij_type', 'ofsbeta', 'nh', 'ityp']);
    const by = Object.fromEntries(ranges.map((r) => [r.argument, r]));
    expect(by.ijtoh).toMatchObject({ reason: 'indexes gpu_qgm dim 1' });
    expect(by.nij_type).toMatchObject({ reason: 'indexes gpu_qgm dim 1' });
    // qgm[ig - 1, ijtoh_at0 + nij - 1] with qgm_d1 = 16.
    expect(by.ijtoh!.min + by.nij_type!.min - 1n).toBeGreaterThanOrEqual(0n);
    expect(by.ijtoh!.max + by.nij_type!.max - 1n).toBeLessThan(16n);
    // becpsi_c[ijkb0 + jh - 1] (nkb = 16) for jh up to nh[nt - 1] (a loop end: 16): ofsbeta = 0.
    expect(by.ofsbeta).toMatchObject({ min: 0n, max: 0n });
    expect(by.nh).toMatchObject({ min: 1n, max: 16n });
  });
});

describe('profile of the joint index', () => {
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
      ['cnt', K, K],
      ['loc', 0, 7],
      ['off', 1, 1],
    ]);

    // The same inputs, prepared here from the same seed, and the outputs computed from them independently.
    const plan = await planProfile(sdfg.file, { ...DEFAULT_PROFILE_OPTIONS, modes: ['SCOPED'], symbols });
    const { inputs } = planIndexInputs(plan.file, plan.args, plan.symbols, new Map());
    const prepared = await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map(), indexInputs: inputs });
    const buf = (name: string) => prepared.find((p) => p.arg.name === name)!.bytes;
    const f64 = (b: Uint8Array) => [...new Float64Array(b.slice().buffer)];
    const loc = [...new Int32Array(buf('loc').slice().buffer)];
    const off = new Int32Array(buf('off').slice().buffer)[0]!;
    const cnt = new Int32Array(buf('cnt').slice().buffer)[0]!;
    const Q = f64(buf('Q'));
    expect(new Set(loc).size).toBeGreaterThan(1);
    const B = loc.map((l) => Q[l + off - 1]!);
    const C = f64(buf('C'));
    for (let j = 0; j < cnt; j++) C[j] = Q[off + j]!;
    expect([...B, ...C].every((x) => x !== undefined)).toBe(true);
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const read = async (name: string) => f64((await readNpy(join(out, m, `${name}.npy`))).data);
      expect(await read('B'), m).toEqual(B);
      expect(await read('C'), m).toEqual(C);
    }
  }, 300_000);
});
