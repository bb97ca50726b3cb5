/**
 * Per-mode numbers of coverage rows (bench/lib/coverage-modes.ts): a row that verifies carries each mode's median
 * time per call, allocations per call and workspace bytes; the section prints the per-mode table of files over
 * 2 MB and of the programs issue 22 names, and of no other.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modeTables, type ModeNumbers } from '../../bench/lib/coverage-modes.js';
import { coverageOf, SMALL_BYTES, timedCalls } from '../../bench/lib/coverage-row.js';
import { packageRoot } from '../../electron/engine/paths.js';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');

describe('per-mode numbers of coverage rows', () => {
  it('a verifying row carries every mode: time, allocations per call, workspace bytes', async () => {
    // pack_chain: four transients of N doubles; at --default-symbol 16 SCOPED allocates them per call.
    const row = await coverageOf(join(FIXTURES, 'pack_chain.sdfg'));
    expect(row.status).toBe('verifies');
    const by = new Map(row.perMode!.map((m) => [m.label, m]));
    expect([...by.keys()]).toEqual(row.modes);
    for (const m of row.perMode!) expect(m.medianNs).toBeGreaterThan(0);
    expect(by.get('SCOPED')!.allocsPerCall).toBeGreaterThan(0);
    expect(by.get('SCOPED')!.workspaceBytes).toBe(0);
    expect(by.get('EXTERNAL (packed)')!.allocsPerCall).toBe(0);
    expect(by.get('EXTERNAL (packed)')!.workspaceBytes).toBeGreaterThan(0);
    // The packed layout never needs more than DaCe's one slot per transient.
    expect(by.get('EXTERNAL (packed)')!.workspaceBytes).toBeLessThanOrEqual(by.get('EXTERNAL (dace)')!.workspaceBytes);
  }, 300_000);

  it('the section prints tables for files over 2 MB and the named programs only', () => {
    const perMode: ModeNumbers[] = [
      { label: 'SCOPED', medianNs: 2e6, p10Ns: 1e6, allocsPerCall: 3, allocBytesPerCall: 2 ** 20, workspaceBytes: 0, initBytes: 0 },
    ];
    const lines = modeTables(
      [
        { file: 'big.sdfg', bytes: SMALL_BYTES + 1, perMode },
        { file: 'x__nbody.sdfg', bytes: 10, perMode },
        { file: 'small.sdfg', bytes: 10, perMode },
        { file: 'big-failed.sdfg', bytes: SMALL_BYTES + 1 },
      ],
      SMALL_BYTES,
    );
    expect(lines.filter((l) => l.endsWith(': per mode'))).toEqual(['big.sdfg: per mode', 'x__nbody.sdfg: per mode']);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}SCOPED +2\.000 +3\.0 +1\.00 +0\.00 +0\.00$/));
  });

  describe('TLAB_BENCH_COVERAGE_CALLS', () => {
    const saved = process.env.TLAB_BENCH_COVERAGE_CALLS;
    afterEach(() => {
      if (saved === undefined) delete process.env.TLAB_BENCH_COVERAGE_CALLS;
      else process.env.TLAB_BENCH_COVERAGE_CALLS = saved;
    });

    it('sets the timed calls per mode (2 without it) and refuses what is not a positive integer', () => {
      delete process.env.TLAB_BENCH_COVERAGE_CALLS;
      expect(timedCalls()).toBe(2);
      process.env.TLAB_BENCH_COVERAGE_CALLS = '10';
      expect(timedCalls()).toBe(10);
      for (const bad of ['0', '2.5', 'ten']) {
        process.env.TLAB_BENCH_COVERAGE_CALLS = bad;
        expect(() => timedCalls()).toThrow(`TLAB_BENCH_COVERAGE_CALLS must be a positive integer, got ${bad}`);
      }
    });
  });
});
