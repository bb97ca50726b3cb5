/**
 * Symbol values derived from the program's own reads (profile/derive-symbols.ts): a loop over a fixed range
 * reads a transient whose extent is a symbol, as get_albedos reads 140 g-point rows of a transient sized by a
 * Fortran SA symbol. The fixture: `t[i] = A[i] + 1` for i < S, then `B[i] = 2 t[i]` for i < 10 (B has 10
 * elements). Under --default-symbol 8 the second loop reads t past its 8 elements; profile must take S = 10.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { planWithDerivedSymbols } from '../../../electron/engine/profile/derive-symbols.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { sdfgInTempDir } from '../temp-sdfg.js';

const WARNING =
  "symbol values derived from the program's own reads (a read at a fixed index needs them to stay in bounds; --symbols overrides): S=10 (not 8)";

function fixedReadText(): string {
  const json = JSON.parse(readFileSync(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'overrun_one_past.sdfg'), 'utf8'));
  json.attributes.name = 'fixed_read';
  json.attributes.symbols = { S: 'int32' };
  json.attributes._arrays.A.attributes.shape = ['S'];
  json.attributes._arrays.t.attributes.shape = ['S'];
  json.attributes._arrays.B.attributes.shape = ['10'];
  const all = (ranges: Array<{ start: string; end: string }>, end: string) => ranges.forEach((r) => ((r.start = '0'), (r.end = end)));
  const [make, shift] = json.nodes;
  all(make.nodes[0].attributes.range.ranges, 'S - 1');
  for (const e of make.edges)
    if (e.src_connector === null || e.dst_connector === null) all(e.attributes.data.attributes.subset.ranges, 'S - 1');
  all(shift.nodes[0].attributes.range.ranges, '9');
  for (const e of shift.edges)
    if (e.src_connector === null || e.dst_connector === null) all(e.attributes.data.attributes.subset.ranges, '9');
  const write = shift.edges.find((e: { dst_connector: string | null }) => e.dst_connector === 'IN_B');
  write.attributes.data.attributes.subset.ranges[0] = { start: 'i', end: 'i', step: '1', tile: '1' };
  return JSON.stringify(json);
}

const sdfg = sdfgInTempDir('tlab-derive-', 'fixed_read.sdfg', fixedReadText);

describe('symbols derived from fixed-index reads', () => {
  test('a defaulted extent symbol grows to what the loop reads; a given one is kept', async () => {
    const plan = await planWithDerivedSymbols(sdfg.file, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 8n }, () => {});
    expect(plan.symbols['S']).toBe(10n);
    expect(plan.analysis.warnings[0]).toBe(WARNING);
    const given = await planWithDerivedSymbols(sdfg.file, { ...DEFAULT_PROFILE_OPTIONS, symbols: new Map([['S', 8n]]) }, () => {});
    expect(given.symbols['S']).toBe(8n);
  });

  test('an extent whose out-of-bounds access moves with it (B[i + 1] for i < N) is never grown', async () => {
    const overrun = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'overrun_one_past.sdfg');
    const plan = await planWithDerivedSymbols(overrun, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 16n }, () => {});
    expect(plan.symbols['N']).toBe(16n);
    expect(plan.analysis.warnings.filter((w) => w.startsWith('symbol values derived'))).toEqual([]);
  });

  test('the profile reads t in bounds and computes B = 2 (A + 1) in every mode', async () => {
    const out = join(sdfg.dir, 'out');
    const result = await profile(sdfg.file, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      defaultSymbol: 8n,
      saveOutputs: out,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    expect(result.warnings).toContain(WARNING);
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const f64 = async (name: string) => {
        const { data } = await readNpy(join(result.savedOutputs?.dir ?? out, mode, `${name}.npy`));
        return [...new Float64Array(data.buffer, data.byteOffset, data.byteLength / 8)];
      };
      const A = await f64('A');
      expect(A).toHaveLength(10);
      expect(await f64('B')).toEqual(A.map((a) => 2 * (a + 1)));
    }
  }, 300_000);
});
