/**
 * One coverage row at a time (bench/lib/coverage-row.ts, what bench/coverage-file.ts computes), without the whole corpus run of `npm run bench --
 * coverage`: a GPU corpus file runs and verifies through the host backend (cuda-host); a tiled one after the
 * out-of-bounds retries; a GPU program the host backend cannot compile falls back to nvcc and says why; the
 * Potrf file, which has no pure expansion, verifies with blas; cloudsc_for_1133 names the transients it reads
 * before anything writes them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../bench/lib/coverage-row.js';
import { packageRoot } from '../../electron/engine/paths.js';

const CORPUS = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const ALL_MODES = ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL (dace)', 'EXTERNAL (packed)'];
/** Each row compiles five variants and runs them; the machine may be shared. */
const SLOW = 600_000;

// The corpus is part of the test set (.ci/run refuses to start without it): a missing one fails here, never skips.
describe('coverage rows', () => {
  it('finds the corpus', () => expect(existsSync(CORPUS)).toBe(true));

  it(
    'a GPU corpus file runs and verifies in every mode on the host backend',
    async () => {
      const row = await coverageOf(join(CORPUS, 'spcl__dace__tests__codegen__a.sdfgz'));
      expect(row).toMatchObject({ target: 'gpu', status: 'verifies', backend: 'cuda-host', libraryImpl: 'pure', defaultSymbol: 16 });
      expect(row.modes).toEqual(ALL_MODES);
      expect(row.detail).toBeUndefined();
    },
    SLOW,
  );

  it(
    'a GPU program tiled by 128 verifies at 128 after out-of-bounds runs at 16 and 64, which the row names',
    async () => {
      const row = await coverageOf(join(CORPUS, 'spcl__dace__dace__soft_hier__test__old_config__matmul__tiled_matmul.sdfg'));
      expect(row).toMatchObject({ status: 'verifies', backend: 'cuda-host', defaultSymbol: 128 });
      expect(row.modes).toEqual(ALL_MODES);
      expect(row.detail).toMatch(/^at 16: .*device memory fault.*; at 64: .*device memory fault/);
    },
    SLOW,
  );

  it(
    'a GPU program the host backend cannot compile (float16: no cuda_fp16.h on the host) is built with nvcc, and the row says why it did not run',
    async () => {
      const row = await coverageOf(join(FIXTURES, 'float16_gpu.sdfg'));
      expect(row.target).toBe('gpu');
      expect(row.status).toBe('builds');
      expect(row.backend).toBeUndefined();
      expect(row.modes).toEqual(ALL_MODES);
      expect(row.detail).toMatch(
        /^compiled with nvcc only; not run: the host backend \(--gpu host\) could not run it: at 16: g\+\+ .*cuda_fp16\.h/,
      );
    },
    SLOW,
  );

  it(
    'Potrf, which has no pure expansion, verifies with --library-impl blas and the row records it',
    async () => {
      const row = await coverageOf(join(CORPUS, 'spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg'));
      expect(row).toMatchObject({ target: 'cpu', status: 'verifies', backend: 'cpu', libraryImpl: 'blas', defaultSymbol: 16 });
      expect(row.modes).toEqual(ALL_MODES);
      expect(row.finding).toBeUndefined();
    },
    SLOW,
  );

  it(
    'cloudsc_for_1133 (a loop cut out of CLOUDSC) reads six transients that nothing in it writes: the row names them',
    async () => {
      const row = await coverageOf(join(CORPUS, 'spcl__dace__tests__passes__fixtures__cloudsc_for_1133.sdfgz'));
      expect(row).toMatchObject({ target: 'cpu', status: 'reads-uninitialised', backend: 'cpu' });
      expect(row.modes).toEqual(ALL_MODES);
      expect(row.uninitialised).toEqual(['0:zfoealfa', '0:zlneg', '0:zqtmst', '0:zqx0', '0:zqxn2d', '0:zrg_r']);
      expect(row.detail).toContain('nothing in the program ever writes 0:zfoealfa, 0:zlneg, 0:zqtmst, 0:zqx0, 0:zqxn2d, 0:zrg_r');
    },
    SLOW,
  );

  it(
    'velocity_no_nproma reads vcflmax, which only a Reduce without identity writes: the row names it alone',
    async () => {
      const row = await coverageOf(
        join(CORPUS, 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__velocity_no_nproma_if_prop_lvn_only_0_istep_1.sdfgz'),
      );
      expect(row).toMatchObject({ target: 'cpu', status: 'reads-uninitialised', backend: 'cpu', defaultSymbol: 16 });
      expect(row.uninitialised).toEqual(['0:vcflmax']);
    },
    SLOW,
  );
});
