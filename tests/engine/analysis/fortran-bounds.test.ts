/**
 * Lower-bound symbols of DaCe's Fortran frontend (analysis/fortran-bounds.ts): where --default-symbol gives
 * values, `__f2dace_SOA_*`/`__f2dace_OA_*` (and their shortened forms) take Fortran's default lower bound 1,
 * not the default size, which would shift every `i - SOA` index out of its array.
 */
import { describe, expect, test } from 'vitest';
import { analyze, isFortranLowerBound } from '../../../electron/engine/analysis/index.js';
import { planIndexInputs } from '../../../electron/engine/profile/index-inputs.js';
import { planProfile } from '../../../electron/engine/profile/plan.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { fortranSdfgText } from './fortran-sdfg.js';
import { sdfgInTempDir } from '../temp-sdfg.js';

const SOA = '__f2dace_SOA_a_d_0_s_1';
const parse = (soa: string) => parseSdfgBytes(new TextEncoder().encode(fortranSdfgText(soa)), 'fortran_lower_bound.sdfg');

const sdfg = sdfgInTempDir('tlab-fortran-bounds-', 'fortran_lower_bound.sdfg', () => fortranSdfgText(SOA));

describe('Fortran lower-bound symbols', () => {
  test('are recognised in the frontend’s full and shortened names, and sizes are not', () => {
    for (const n of [
      '__f2dace_SOA_sw_albedo_d_1_s_17_single_level_1',
      '__f2dace_OA_z_d_0_s_3',
      'OA_z_kin_hor_e_d_0',
      'SOA_area_d_0_cells_p_patch_2',
      '__CG_p_diag__m_SOA_vt_d_1',
    ])
      expect(isFortranLowerBound(n), n).toBe(true);
    for (const n of ['__f2dace_SA_sw_albedo_d_1_s_17', '__f2dace_A_z_d_0_s_3', 'A_z_kin_hor_e_d_0', 'sym_istartcol', 'N', 'SOAP'])
      expect(isFortranLowerBound(n), n).toBe(false);
  });

  test('--default-symbol gives them 1 and says so; a size keeps the default; a given value wins', () => {
    for (const soa of [SOA, 'OA_a_d_0', '__CG_p__m_SOA_a_d_0']) {
      const a = analyze(parse(soa), { symbols: new Map(), defaultSymbol: 16n, target: null });
      expect(a.symbols.get(soa)).toEqual({ value: 1n, source: 'default' });
      expect(a.symbols.get('N')).toEqual({ value: 16n, source: 'default' });
      expect(a.warnings).toContain('--default-symbol 16 used for 1 symbol(s): N');
      expect(a.warnings).toContain(
        `1 Fortran lower-bound symbol(s) without a value take 1, Fortran's default lower bound (give --symbols to change): ${soa}`,
      );
    }
    const given = analyze(parse(SOA), { symbols: new Map([[SOA, 3n]]), defaultSymbol: 16n, target: null });
    expect(given.symbols.get(SOA)).toEqual({ value: 3n, source: 'user' });
    const none = analyze(parse(SOA), { symbols: new Map(), defaultSymbol: null, target: null });
    expect(none.unresolvedSymbols).toEqual(['N', SOA]);
  });

  test('the program reads A in bounds at --default-symbol 16 and verifies in every mode', async () => {
    const options = { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 16n };
    const plan = await planProfile(sdfg.file, options);
    expect(plan.symbols[SOA]).toBe(1n);
    expect(planIndexInputs(plan.file, plan.args, plan.symbols, new Map()).warnings).toEqual([]);
    const result = await profile(sdfg.file, {
      ...options,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
  }, 300_000);
});
