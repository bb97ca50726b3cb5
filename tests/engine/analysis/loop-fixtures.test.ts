/**
 * The loop fixtures against the exact bound (docs/liveness.md §8): for each packing fixture
 * (tests/engine/codegen/packing-fixtures.ts) and the other loop fixtures, N = 16, the packed EXTERNAL
 * workspace of the refined live sets is within 5 % of the exact bound that the reference run
 * (analysis/exact) measures, the live sets contain every point where the run needs a value, and the
 * interval and baseline rules give the bytes recorded as the "before" of each refinement.
 *
 * That the packed layouts are also correct when run — SCOPED and EXTERNAL (packed) agree bitwise through the
 * runner's poisoned, guarded verification — is tests/engine/profile/packing.test.ts; the five variants against
 * the math, tests/engine/codegen/fixtures.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze, type Analysis, type LivenessRules } from '../../../electron/engine/analysis/index.js';
import { exactBound } from '../../../electron/engine/analysis/exact/bound.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { PACKING_FIXTURES } from '../codegen/packing-fixtures.js';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const GOAL = 1.05;

const load = (name: string): Promise<SdfgFile> => readSdfgFile(join(FIXTURES, `${name}.sdfg`));
const analyse = (file: SdfgFile, liveness: LivenessRules = 'refined', N = 16n): Analysis =>
  analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null, liveness });

/** Every point of the reference run where a transient holds a needed value lies in its live set. */
function expectContainsRun(file: SdfgFile, a: Analysis): void {
  const exact = exactBound(file, a);
  for (const t of a.transients) {
    const needed = [...(exact.liveSteps.get(t.id) ?? [])].sort((x, y) => x - y);
    const outside = needed.filter((s) => !(t.liveSegments ?? []).some((seg) => seg.first <= s && s <= seg.last));
    expect(outside, `${t.id}: live set ${JSON.stringify(t.liveSegments)}`).toEqual([]);
  }
}

describe('loop fixtures against the exact bound', () => {
  test.each(Object.entries(PACKING_FIXTURES))('%s: packed ≤ 1.05 × exact, with the live sets as designed', async (name, f) => {
    const file = await load(name);
    const a = analyse(file);
    const segments = Object.fromEntries(a.transients.map((t) => [t.id, t.liveSegments?.map((s) => [s.first, s.last])]));
    expect(segments).toEqual(Object.fromEntries(Object.entries(f.live).map(([id, range]) => [id, f.segments?.[id] ?? [range]])));
    const packed = a.layouts.packed['CPU_Heap']!;
    const exact = exactBound(file, a).storages.find((s) => s.storage === 'CPU_Heap')!;
    expect([packed.bytes, exact.bytes]).toEqual([f.packedBytes, f.exactBytes]);
    expect(Number(packed.bytes)).toBeLessThanOrEqual(GOAL * Number(exact.bytes));
    expect(analyse(file, 'interval').layouts.packed['CPU_Heap']!.bytes).toBe(f.intervalBytes);
    expect(analyse(file, 'baseline').layouts.packed['CPU_Heap']!.bytes).toBe(f.baselineBytes);
    expectContainsRun(file, a);
  });

  test.each(Object.keys(PACKING_FIXTURES))('%s: the live sets contain the run for other sizes too (N = 5, 64)', async (name) => {
    const file = await load(name);
    for (const N of [5n, 64n]) {
      const a = analyse(file, 'refined', N);
      expectContainsRun(file, a);
      const packed = a.layouts.packed['CPU_Heap']!;
      const exact = exactBound(file, a).storages.find((s) => s.storage === 'CPU_Heap')!;
      expect(Number(packed.bytes), `N = ${N}`).toBeLessThanOrEqual(GOAL * Number(exact.bytes));
    }
  });

  test('loop_write_first is at the exact bound; loop_variable_size has no packed layout (its size changes per iteration)', async () => {
    const first = await load('loop_write_first');
    const a = analyse(first);
    expect(a.layouts.packed['CPU_Heap']!.bytes).toBe(exactBound(first, a).storages[0]!.bytes);
    expectContainsRun(first, a);
    const variable = await load('loop_variable_size');
    const v = analyse(variable);
    expect(Object.values(v.layouts.packed).every((l) => l === null)).toBe(true);
    expectContainsRun(variable, v);
  });
});
