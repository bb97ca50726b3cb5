/**
 * ICON's Fortran-frontend files as a new user runs them (`profile FILE --default-symbol 32`): lower bounds take 1
 * (analysis/fortran-bounds.ts), sizes the program's fixed-index reads need are derived (profile/derive-symbols.ts),
 * and a program that returns nothing says where its results went (profile/unobserved.ts). docs/profile.md,
 * "Symbols of Fortran programs".
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { planWithDerivedSymbols } from '../../../electron/engine/profile/derive-symbols.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { unobservedWrites } from '../../../electron/engine/profile/unobserved.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const GET_ALBEDOS = join(corpusDir(), 'spcl__icon-dace__icon-model__sdfgs__get_albedos.sdfgz');
const RADIATION = join(corpusDir(), 'spcl__icon-dace__.dacecache__radiation__program.sdfg');
const VELOCITY = join(
  corpusDir(),
  'spcl__dace__tests__sdfg__data__sdfg_reconstruction__velocity_no_nproma_if_prop_lvn_only_0_istep_1.sdfgz',
);
const quiet = () => {};

let cache: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-icon-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

describe('ICON Fortran-frontend files at --default-symbol 32', () => {
  test('get_albedos: lower bounds 1, the two longwave g-point extents 140, and every mode agrees', async () => {
    const plan = await planWithDerivedSymbols(GET_ALBEDOS, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 32n }, quiet);
    expect(plan.symbols['__f2dace_SOA_sw_albedo_weights_d_0_s_6_config_0']).toBe(1n);
    expect(plan.analysis.warnings[0]).toBe(
      "symbol values derived from the program's own reads (a read at a fixed index needs them to stay in bounds; --symbols overrides): " +
        '__f2dace_SA_i_band_from_reordered_g_lw_d_0_s_8_config_0=140 (not 32), __f2dace_SA_lw_emissivity_d_1_s_21_single_level_1=140 (not 32)',
    );
    const result = await profile(GET_ALBEDOS, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      defaultSymbol: 32n,
      timeoutMs: 120_000,
    });
    expect(result.verification.details.filter((d) => d.kind !== 'note')).toEqual([]);
    expect(result.verification.vacuous).toBe(false);
    expect(result.verification.compared).toEqual(['lw_albedo_var_599', 'sw_albedo_diffuse_var_601', 'sw_albedo_direct_var_600']);
  }, 600_000);

  test('radiation: its albedos stay in transients nothing reads; its only argument write is the scalar nulout', async () => {
    expect(unobservedWrites(await readSdfgFile(RADIATION))).toEqual({
      deadTransients: ['lw_albedo_var_599', 'sw_albedo_diffuse_var_601', 'sw_albedo_direct_var_600', 'tmp_noncontig_2_0'],
      scalarArgs: ['nulout'],
    });
  });

  test('velocity_no_nproma: the vertical extents its loops read (90) and the refinement-control lower bounds are derived', async () => {
    const plan = await planWithDerivedSymbols(VELOCITY, { ...DEFAULT_PROFILE_OPTIONS, defaultSymbol: 32n }, quiet);
    expect(plan.symbols['A_z_kin_hor_e_d_1']).toBe(90n);
    expect(plan.symbols['OA_z_kin_hor_e_d_1']).toBe(1n);
    expect(plan.symbols['SOA_end_block_d_0_edges_p_patch_4']).toBe(-10n);
    expect(plan.analysis.warnings[0]).toMatch(/^symbol values derived from the program's own reads .*A_z_kin_hor_e_d_1=90 \(not 32\)/);
  }, 300_000);
});
