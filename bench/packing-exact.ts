/**
 * The loop fixtures against the exact bound (part of the `packing` bench section): each loop fixture of
 * tests/fixtures/sdfg (pack_*, loop_*) packed under the refined, interval and baseline live-range rules
 * (docs/liveness.md), and the exact bound of the reference run (analysis/exact, docs/liveness.md §8). The goal:
 * packed ≤ 1.05 × exact under the refined rules. In-process: the fixtures are small.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type LivenessRules } from '../electron/engine/analysis/index.js';
import { exactBound } from '../electron/engine/analysis/exact/bound.js';
import { packageRoot } from '../electron/engine/paths.js';
import { readSdfgFile } from '../electron/engine/sdfg/index.js';

const EXACT_GOAL = 1.05;
const SIZES = [16n, 64n];
const RULES: LivenessRules[] = ['refined', 'interval', 'baseline'];

interface FixtureRow {
  fixture: string;
  N: number;
  /** Packed workspace bytes (all storages) per rule set. */
  packed: Record<LivenessRules, string>;
  exactBytes: string;
  /** packed / exact per rule set (null when nothing is ever live). */
  ratio: Record<LivenessRules, number | null>;
  withinGoal: boolean;
}

export interface FixtureSummary {
  goal: number;
  rows: FixtureRow[];
  /** Fixtures without a sized workspace, or that the reference run cannot follow, and why. */
  skipped: Array<{ fixture: string; why: string }>;
  /** Rows whose refined packing is within the goal. */
  withinGoal: number;
  worstRefined: number | null;
  worstInterval: number | null;
}

const ratio = (a: bigint, b: bigint): number | null => (b === 0n ? null : Number((a * 1_000_000n) / b) / 1_000_000);
const fmt = (r: number | null): string => (r === null ? '-' : `${r.toFixed(3)}×`);
const worst = (xs: Array<number | null>): number | null => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? Math.max(...known) : null;
};

export async function loopFixtures(): Promise<{ result: FixtureSummary; lines: string[] }> {
  const dir = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
  const names = readdirSync(dir)
    .filter((f) => /^(pack|loop)_.*\.sdfg$/.test(f))
    .map((f) => f.replace(/\.sdfg$/, ''))
    .sort();
  const rows: FixtureRow[] = [];
  const skipped: FixtureSummary['skipped'] = [];
  for (const fixture of names) {
    const file = await readSdfgFile(join(dir, `${fixture}.sdfg`));
    for (const N of SIZES) {
      const runs = RULES.map((liveness) => analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null, liveness }));
      const refined = runs[0]!;
      if (!Object.values(refined.layouts.packed).some((l) => l && l.offsets.size)) {
        if (N === SIZES[0]) skipped.push({ fixture, why: 'no sized workspace (no transient eligible for EXTERNAL with a known size)' });
        continue;
      }
      let exactBytes: bigint;
      try {
        exactBytes = exactBound(file, refined).storages.reduce((s, x) => s + x.bytes, 0n);
      } catch (err) {
        if (N === SIZES[0]) skipped.push({ fixture, why: (err as Error).message });
        continue;
      }
      const packed = runs.map((a) => Object.values(a.layouts.packed).reduce((s, l) => s + (l?.bytes ?? 0n), 0n));
      const r = packed.map((p) => ratio(p, exactBytes));
      rows.push({
        fixture,
        N: Number(N),
        packed: Object.fromEntries(RULES.map((rule, i) => [rule, String(packed[i])])) as Record<LivenessRules, string>,
        exactBytes: String(exactBytes),
        ratio: Object.fromEntries(RULES.map((rule, i) => [rule, r[i]!])) as Record<LivenessRules, number | null>,
        withinGoal: r[0] === null ? packed[0] === 0n : r[0]! <= EXACT_GOAL,
      });
    }
  }
  const result: FixtureSummary = {
    goal: EXACT_GOAL,
    rows,
    skipped,
    withinGoal: rows.filter((x) => x.withinGoal).length,
    worstRefined: worst(rows.map((x) => x.ratio.refined)),
    worstInterval: worst(rows.map((x) => x.ratio.interval)),
  };
  const first = rows.filter((x) => x.N === Number(SIZES[0]));
  const lines = [
    `loop fixtures, N = ${SIZES[0]}: packed workspace against the exact bound of the reference run (goal: refined ≤ ${EXACT_GOAL}×)`,
    `${'fixture'.padEnd(24)} ${'exact B'.padStart(8)} ${'refined B'.padStart(10)} ${'ratio'.padStart(7)} ${'interval B'.padStart(11)} ${'ratio'.padStart(7)} ${'baseline B'.padStart(11)} ${'ratio'.padStart(7)}`,
    ...first.map(
      (x) =>
        `${x.fixture.padEnd(24)} ${x.exactBytes.padStart(8)} ${x.packed.refined.padStart(10)} ${fmt(x.ratio.refined).padStart(7)} ${x.packed.interval.padStart(11)} ${fmt(x.ratio.interval).padStart(7)} ${x.packed.baseline.padStart(11)} ${fmt(x.ratio.baseline).padStart(7)}${x.withinGoal ? '' : '  ABOVE GOAL'}`,
    ),
    `goal ≤ ${EXACT_GOAL}× of exact: ${result.withinGoal} of ${rows.length} rows (N = ${SIZES.join(', ')}); worst refined ${fmt(result.worstRefined)}, worst interval ${fmt(result.worstInterval)}`,
    ...skipped.map((x) => `  ${x.fixture}: no exact bound (${x.why})`),
  ];
  return { result, lines };
}
