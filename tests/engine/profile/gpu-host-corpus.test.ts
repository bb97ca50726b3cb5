/**
 * `profile --gpu host` on the corpus GPU files that the CUDA generator compiles (docs/gpu.md, "Coverage";
 * tests/engine/codegen/cuda-corpus.test.ts): every mode runs on this CPU and verifies. The corpus has no CPU twin of
 * these files, so the two DaCe doc examples get an independent check of their outputs (B = A + 1); the others are
 * checked across modes (verification ok, every mode ran). Symbols fit each file's tiling: smaller ones make the
 * programs index past their arrays, which the host runtime reports (docs/gpu-host.md). gpu-tb indexes `gpu_A[32*i +
 * j]` with `i` already stepping by 32, so it stays in bounds only for N ≤ 32 (N = 32 here); tiled_matmul tiles M
 * and N by 128.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { runCli } from '../../cli/run-cli.js';

const CORPUS = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
/**
 * DaCe-Fortran's addusxx_g (74 Fortran size symbols). Profile derives its lower bound `offset_upf_tvanp_d0 = 1`
 * from its reads (profile/derive-symbols.ts), so the branch behind the `upf_tvanp` flags runs and reads
 * `gpu_qgm[ig - 1, ijtoh_at0 + nij - 1]`: `nij = nij_type[nt - 1]` on a host interstate edge, `ijtoh_at0 =
 * gpu_ijtoh[ih - 1, jh - 1, nt - 1]` on one inside the kernel's nested SDFGs. Two generated arguments reach that
 * column at once; the joint pass of the index-safe inputs (analysis/index-joint.ts) bounds both, so the
 * generated values keep it inside qgm (before, a generated 0 in each read column -1 and the host backend's guard
 * stopped the run).
 */
const ADDUSXX = 'spcl__dace-fortran__samples__addusxx_g__.dacecache__addusxx_g_gpu__program.sdfgz';
/** `--default-symbol` per file (64 unless named). */
const SYMBOL: Record<string, string> = {
  'spcl__dace__doc___static__sdfg__gpu-tb.sdfg': '32',
  'spcl__dace__dace__soft_hier__test__old_config__matmul__tiled_matmul.sdfg': '128',
  [ADDUSXX]: '16',
};
const FILES = [
  'spcl__dace__doc___static__sdfg__gpu-notb.sdfg',
  'spcl__dace__doc___static__sdfg__gpu-tb.sdfg',
  'spcl__dace__tests__codegen__a.sdfgz',
  'spcl__dace__tests__codegen__a2.sdfgz',
  'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_0.sdfg',
  'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_1.sdfg',
  'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_2.sdfg',
  'spcl__dace__tests__sdfg_corpus__cuda_mempooler.sdfg',
  'spcl__dace__tests__sdfg_corpus__cuda_mempooler_1.sdfg',
  'spcl__dace__tests__sdfg_corpus__device_annotations_add2.sdfg',
  'spcl__dace__dace__soft_hier__test__old_config__matmul__tiled_matmul.sdfg',
  'spcl__dace__tests__sdfg_corpus__kernel_fusion_cudatest_kernel_fusion_1.sdfg',
  ADDUSXX,
];
const present = existsSync(CORPUS);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-host-corpus-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cache: join(dir, 'cache'), timeoutMs: 600_000 });

/** float64 elements of a saved output. */
async function doubles(path: string): Promise<Float64Array> {
  const a = await readNpy(path);
  expect(a.dtype).toBe('float64');
  return new Float64Array(a.data.buffer.slice(a.data.byteOffset, a.data.byteOffset + a.data.byteLength));
}

// The corpus is part of the test set (.ci/run refuses to start without it): a missing one fails here, never skips.
describe('profile --gpu host on the corpus GPU files', () => {
  it('finds the corpus', () => expect(present).toBe(true));
  for (const [i, name] of FILES.entries()) {
    it(`${name}: every mode runs on the host and verifies`, async () => {
      const out = join(dir, `${i}.json`);
      const saved = join(dir, `outputs-${i}`);
      const r = await cli([
        'profile',
        join(CORPUS, name),
        '--gpu',
        'host',
        '--default-symbol',
        SYMBOL[name] ?? '64',
        '--calls',
        '1',
        '--warmup',
        '0',
        '--processes',
        '1',
        '--save-outputs',
        saved,
        '--out',
        out,
      ]);
      expect(r.stderr, r.stdout).toBe('');
      expect(r.code).toBe(0);
      const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
      expect(result.backend).toBe('cuda-host');
      expect(result.modes.map((m) => m.mode)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']);
      expect(result.verification.ok).toBe(true);
      if (name.includes('_static__sdfg__gpu-')) {
        // DaCe's doc example: B[i] = A[i] + 1 on the GPU (gpu_A, gpu_B copies around the kernel).
        for (const mode of ['SCOPED', 'POOL', 'EXTERNAL']) {
          const a = await doubles(join(saved, mode, 'A.npy'));
          const b = await doubles(join(saved, mode, 'B.npy'));
          expect(a.length).toBe(Number(SYMBOL[name] ?? '64'));
          expect(Array.from(b)).toEqual(Array.from(a, (x) => x + 1));
        }
      }
      if (name === ADDUSXX) {
        // The branch reading qgm through ijtoh runs (the derived lower bound) and its column stays inside qgm_d1 = 16.
        expect(result.settings.derivedSymbols).toEqual({ offset_upf_tvanp_d0: 1 });
        const range = (a: string) => result.indexInputs?.find((i) => i.argument === a);
        expect(range('ijtoh')?.reason).toBe('indexes gpu_qgm dim 1');
        expect(range('ijtoh')!.min + range('nij_type')!.min - 1).toBeGreaterThanOrEqual(0);
        expect(range('ijtoh')!.max + range('nij_type')!.max - 1).toBeLessThan(16);
      }
      if (name.includes('kernel_fusion')) {
        // DaCe's tests/kernel_fusion_cudatest.py: hB = hA[:, ::-1] * 5 + 1 over 4×32, through tmp between the two
        // fused GPU_Device maps (the second reads what the first wrote: the launch boundary is the grid barrier).
        for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']) {
          const a = await doubles(join(saved, mode, 'hA.npy'));
          const b = await doubles(join(saved, mode, 'hB.npy'));
          expect(a.length).toBe(128);
          expect(Array.from(b)).toEqual(Array.from(a, (_, x) => a[Math.floor(x / 32) * 32 + 31 - (x % 32)]! * 5 + 1));
        }
      }
    });
  }
});
