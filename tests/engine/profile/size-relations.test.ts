/**
 * Size relations derived from the program's own reads (analysis/interstate-values.ts, profile/derive-symbols.ts),
 * on the two hand-written shapes of size-relations-sdfg.ts that ICON's velocity_tendencies has:
 * - a row bound that a path sets to a constant (`e = 8`, nproma = 48 in interior blocks) bounds a map over
 *   arrays of N rows: N must reach 8;
 * - levels copied from structure members (`nlev = p[0].nlev`, init `L1 = p->nlevp1`, `L2 = p->nlevp1`) and a
 *   read `W[nlev]` of an array of L1 levels: L1 and L2, copied from one member, must both be nlev + 1.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { indexRanges } from '../../../electron/engine/analysis/index-ranges.js';
import { planWithDerivedSymbols } from '../../../electron/engine/profile/derive-symbols.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { memberLevelsSdfgText, reusedLoopVariableSdfgText, rowBoundSdfgText } from './size-relations-sdfg.js';

const parse = (text: string, name: string) => parseSdfgBytes(new TextEncoder().encode(text), name);
const DERIVED =
  "symbol values derived from the program's own reads (a read at a fixed index needs them to stay in bounds; --symbols overrides): ";

let dir: string;
let rowBound: string;
let memberLevels: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-size-relations-'));
  rowBound = join(dir, 'row_bound.sdfg');
  memberLevels = join(dir, 'member_levels.sdfg');
  await writeFile(rowBound, rowBoundSdfgText());
  await writeFile(memberLevels, memberLevelsSdfgText());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function f64(out: string, mode: string, name: string): Promise<number[]> {
  const { data } = await readNpy(join(out, mode, `${name}.npy`));
  return [...new Float64Array(data.buffer, data.byteOffset, data.byteLength / 8)];
}

const MODES = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed'];
const run = (file: string, out: string) =>
  profile(file, {
    ...DEFAULT_PROFILE_OPTIONS,
    runner: new NodeRunnerHost(),
    layout: 'both',
    calls: 1,
    warmup: 0,
    processes: 1,
    defaultSymbol: 4n,
    saveOutputs: out,
    timeoutMs: 120_000,
  });

describe('a row bound some paths set to a constant', () => {
  test('the arrays the bounded map reads must reach the constant', () => {
    const { advice, outside } = indexRanges(parse(rowBoundSdfgText(), 'row_bound.sdfg'), { N: 4n, NB: 4n }, ['endidx']);
    expect(advice).toEqual([{ symbol: 'N', value: 4n, suggested: 8n, min: 8n, max: 2n ** 31n - 1n, extent: true }]);
    expect(outside[0]).toBe('A dim 0 is read at 7, outside [0, 4) with these symbol values (i - 1 at i = 8)');
  });

  test('the path that reads the argument still bounds it', () => {
    const { ranges } = indexRanges(parse(rowBoundSdfgText(), 'row_bound.sdfg'), { N: 8n, NB: 4n }, ['endidx']);
    expect(ranges).toMatchObject([{ argument: 'endidx', min: 1n, max: 8n, roles: ['upper'] }]);
  });

  test('--default-symbol 4 derives N = 8, and every mode computes B = 2 A over 8 rows', async () => {
    const plan = await planWithDerivedSymbols(rowBound, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 4n }, () => {});
    expect(plan.symbols['N']).toBe(8n);
    expect(plan.analysis.warnings[0]).toBe(`${DERIVED}N=8 (not 4)`);
    const out = join(dir, 'row-out');
    const result = await run(rowBound, out);
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    for (const mode of MODES) {
      const A = await f64(out, mode, 'A');
      expect(A).toHaveLength(8);
      expect(await f64(out, mode, 'B')).toEqual(A.map((a) => 2 * a));
    }
  }, 300_000);
});

describe('levels copied from structure members', () => {
  test('a read at the level a member gives needs the extent one past it', () => {
    const members = new Map([
      ['p.nlev', 'L0'],
      ['p.nlevp1', 'L2'],
    ]);
    const { advice } = indexRanges(parse(memberLevelsSdfgText(), 'member_levels.sdfg'), { L0: 4n, L1: 4n, L2: 4n }, [], {
      memberSymbols: members,
    });
    expect(advice).toEqual([{ symbol: 'L1', value: 4n, suggested: 5n, min: 5n, max: 2n ** 31n - 1n, extent: true }]);
  });

  test('--default-symbol 4 grows every symbol copied from p.nlevp1 to 5, and every mode agrees with B = A + 1', async () => {
    const plan = await planWithDerivedSymbols(memberLevels, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 4n }, () => {});
    expect([plan.symbols['L0'], plan.symbols['L1'], plan.symbols['L2']]).toEqual([4n, 5n, 5n]);
    expect(plan.analysis.warnings[0]).toBe(`${DERIVED}L1=5 (not 4), L2=5 (not 4)`);
    const out = join(dir, 'member-out');
    const result = await run(memberLevels, out);
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    for (const mode of MODES) {
      const A = await f64(out, mode, 'A');
      expect(A).toHaveLength(4);
      expect(await f64(out, mode, 'B')).toEqual(A.map((a) => a + 1));
      expect(await f64(out, mode, 'C')).toEqual([...A, 1]);
    }
  }, 300_000);
});

describe('a loop variable reused by a later loop', () => {
  test("the later loop's reads are not checked over the earlier loop's range", () => {
    // The first loop gives i [0, N); the second starts at an argument: its range is unknown, not the first's.
    const { outside, advice, ranges } = indexRanges(parse(reusedLoopVariableSdfgText(), 'reused_loop_variable.sdfg'), { N: 4n }, ['s']);
    expect(outside).toEqual([]);
    expect(advice).toEqual([]);
    expect(ranges).toMatchObject([{ argument: 's', min: 0n, max: 2n, roles: ['lower'] }]);
  });
});
