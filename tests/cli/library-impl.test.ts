/**
 * `--library-impl pure|blas[,NODE=IMPL…]` on profile, build and analyze, through the built CLI: parsing and its
 * errors, the result's and the summary's record of which expansion ran, the manifest, and Potrf (LAPACKE only)
 * on a symmetric positive definite input whose factor is checked here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { encodeNpy, readNpy } from '../../electron/engine/profile/npy.js';

const main = join(packageRoot(), 'dist', 'electron', 'cli', 'main.js');
const blasFixture = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'library_blas.sdfg');
const potrf = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-cli-libimpl-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, ...args],
      { env: { ...process.env, TRANSIENT_LAB_CACHE: join(dir, 'cache'), OPENBLAS_NUM_THREADS: '1', ...env }, timeout: 300_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('--library-impl usage errors (exit 2)', () => {
  it.each([
    [['profile', blasFixture, '--library-impl', 'fast'], /profile: --library-impl: 'fast' is not an implementation \(pure or blas/],
    [['profile', blasFixture, '--library-impl', 'blas,pure'], /names more than one default implementation/],
    [['profile', blasFixture, '--library-impl', 'gemm=cuda'], /'cuda' \(for node 'gemm'\) is not an implementation/],
    [['profile', blasFixture, '--library-impl', 'blas,'], /empty entry/],
    [['profile', blasFixture, '--library-impl', '=blas'], /names no library node before '='/],
    [
      ['profile', blasFixture, '--library-impl', 'gemx=blas', '--default-symbol', '4'],
      /no library node is labelled 'gemx' \(library nodes: dot, gemm, gemm_tb/,
    ],
    [['build', blasFixture, '--out', '/nonexistent/x', '--library-impl', 'blsa'], /build: --library-impl: 'blsa' is not an implementation/],
    [['analyze', blasFixture, '--library-impl', 'gemm=blas,gemm=pure'], /node 'gemm' is named twice/],
    [['profile', '--prebuilt', '/nonexistent', '--library-impl', 'blas'], /--library-impl cannot be used with --prebuilt/],
  ])('%j', async (args, message) => {
    const r = await cli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });
});

describe('--library-impl runs', () => {
  it('analyze says which implementation replaces each node, and the JSON lists them', async () => {
    const r = await cli(['analyze', blasFixture, '--default-symbol', '4', '--library-impl', 'blas,gemm=pure']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Library: {4}MatMul 'mm' → blas \(OpenBLAS\); .*Gemm 'gemm' → pure; Gemm 'gemm_tb' → blas \(OpenBLAS\)/m);
    const j = await cli(['analyze', blasFixture, '--default-symbol', '4', '--library-impl', 'blas', '--json']);
    const doc = JSON.parse(j.stdout) as { libraryNodes: Array<{ label: string; implementation: string }>; transients: unknown[] };
    expect(doc.libraryNodes.find((n) => n.label === 'gemm')?.implementation).toBe('blas');
    // Gemm's pure expansion multiplies into a transient _tmp; its blas call needs none.
    expect(doc.transients).toEqual([]);
  });

  it('profile records the implementation per library node in the result and prints it', async () => {
    const out = join(dir, 'blas.json');
    const r = await cli([
      'profile',
      blasFixture,
      '--default-symbol',
      '16',
      '--calls',
      '3',
      '--processes',
      '1',
      '--modes',
      'scoped,external',
      '--library-impl',
      'blas',
      '--out',
      out,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "library nodes (every mode's time includes them): MatMul 'mm' → blas (OpenBLAS); MatMul 'mv' → blas (OpenBLAS); Dot 'dot' → blas (OpenBLAS)",
    );
    const result = JSON.parse(await readFile(out, 'utf8')) as {
      settings: { libraryImpl?: string };
      libraryNodes: Array<{ label: string; className: string; implementation: string; library: string | null }>;
    };
    expect(result.settings.libraryImpl).toBe('blas');
    expect(result.libraryNodes.map((n) => `${n.className} ${n.label} ${n.implementation} ${n.library}`)).toEqual([
      'MatMul mm blas OpenBLAS',
      'MatMul mv blas OpenBLAS',
      'Dot dot blas OpenBLAS',
      'Gemm gemm blas OpenBLAS',
      'Gemm gemm_tb blas OpenBLAS',
      'Gemv gemv_t blas OpenBLAS',
      'MatMul vm blas OpenBLAS',
    ]);
  });

  it('Potrf: pure is refused saying to use blas; blas factors an SPD matrix into L with L·Lᵀ = A', async () => {
    const refused = await cli(['profile', potrf, '--default-symbol', '6', '--calls', '2']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/DaCe has no pure expansion of Potrf .*use --library-impl blas/);

    const n = 6;
    // A = B·Bᵀ + n·I: symmetric positive definite.
    const B = Array.from({ length: n * n }, (_, i) => ((i * 7) % 11) / 11 - 0.4);
    const A = new Float32Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = i === j ? n : 0;
        for (let k = 0; k < n; k++) s += B[i * n + k]! * B[j * n + k]!;
        A[i * n + j] = s;
      }
    const input = join(dir, 'spd.npy');
    await writeFile(input, encodeNpy({ dtype: 'float32', shape: [n, n], data: new Uint8Array(A.buffer) }));
    const saved = join(dir, 'potrf-out');
    const r = await cli([
      'profile',
      potrf,
      '--symbols',
      `n=${n}`,
      '--calls',
      '2',
      '--processes',
      '1',
      '--modes',
      'scoped',
      '--library-impl',
      'blas',
      '--input',
      `x=${input}`,
      '--save-outputs',
      saved,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("library nodes (every mode's time includes them): Potrf 'potrf' → blas (LAPACKE)");
    const x = await readNpy(join(saved, 'SCOPED', 'x.npy'));
    const res = await readNpy(join(saved, 'SCOPED', 'result.npy'));
    expect(new Int32Array(res.data.buffer, res.data.byteOffset, 1)[0]).toBe(0);
    const L = new Float32Array(x.data.buffer.slice(x.data.byteOffset, x.data.byteOffset + n * n * 4));
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let k = 0; k <= j; k++) s += L[i * n + k]! * L[j * n + k]!;
        expect(Math.abs(s - A[i * n + j]!), `(L·Lᵀ)[${i},${j}]`).toBeLessThan(1e-4 * n);
      }
  });

  it('a machine without OpenBLAS gets one line naming the library and the package to install (exit 5)', async () => {
    // g++ as on a machine where libopenblas is absent: the link names a library that does not exist.
    const fake = join(dir, 'no-openblas-g++');
    await writeFile(
      fake,
      '#!/bin/bash\na=(); for x in "$@"; do [ "$x" = -lopenblas ] && x=-lopenblas_tlab_absent; a+=("$x"); done\nexec g++ "${a[@]}"\n',
      {
        mode: 0o755,
      },
    );
    const r = await cli(['profile', blasFixture, '--default-symbol', '4', '--calls', '2', '--modes', 'scoped', '--library-impl', 'blas'], {
      CXX: fake,
      TRANSIENT_LAB_CACHE: join(dir, 'cache-no-openblas'),
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /OpenBLAS is not installed \(the linker cannot find -lopenblas\).*apt-get install libopenblas-dev.*--library-impl pure/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('build records the choice in manifest.json and profile --prebuilt runs the same expansion', async () => {
    const out = join(dir, 'built');
    const b = await cli([
      'build',
      blasFixture,
      '--out',
      out,
      '--default-symbol',
      '8',
      '--modes',
      'scoped',
      '--library-impl',
      'blas,vm=pure',
    ]);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { libraryImpl?: string };
    expect(manifest.libraryImpl).toBe('blas,vm=pure');
    const r = await cli(['profile', '--prebuilt', out, '--calls', '2', '--processes', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("MatMul 'mm' → blas (OpenBLAS)");
    expect(r.stdout).toContain("MatMul 'vm' → pure");
  });
});
