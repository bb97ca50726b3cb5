/**
 * `--library-impl blas`: MatMul, Gemm, Gemv and Dot expanded into CBLAS calls (OpenBLAS), generated in every
 * mode and layout, compiled with AddressSanitizer and linked with -lopenblas, run by the C++ driver and
 * compared with the products written here; what the analysis sees (no transient: DaCe's BLAS expansions
 * create none); per-node choices; Potrf (LAPACKE only).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { libraryLinkFlags } from '../../../electron/engine/sdfg/expand/libraries.js';
import { parseLibraryImpl } from '../../../electron/engine/sdfg/expand/impl.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'library_blas.sdfg');
const POTRF = join(
  packageRoot(),
  '..',
  'shared',
  'corpus',
  'sdfg',
  'spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg',
);
const [N, M, K] = [7, 6, 5];
const symbols = () =>
  new Map([
    ['N', BigInt(N)],
    ['M', BigInt(M)],
    ['K', BigInt(K)],
  ]);
const BLAS = parseLibraryImpl('blas');

/** C = A·B, y = A·x, d = x·x, G = 2·A·B + 0.5·Cin, E = A·B2ᵀ, z = 3·Aᵀ·w, v = w·A, from the driver's inputs. */
function expected(p: GeneratedProgram): Record<string, Float64Array> {
  const [A, B, B2, Cin, x, w] = ['A', 'B', 'B2', 'Cin', 'x', 'w'].map((n) => inputFor(p, n));
  if (!A || !B || !B2 || !Cin || !x || !w) throw new Error('missing input');
  const [C, G, E] = [new Float64Array(N * M), new Float64Array(N * M), new Float64Array(N * M)];
  const [y, z, v] = [new Float64Array(N), new Float64Array(K), new Float64Array(K)];
  let dot = 0;
  for (let k = 0; k < K; k++) dot += x[k]! * x[k]!;
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < K; k++) {
      y[i] = y[i]! + A[i * K + k]! * x[k]!;
      z[k] = z[k]! + 3 * A[i * K + k]! * w[i]!;
      v[k] = v[k]! + w[i]! * A[i * K + k]!;
    }
    for (let j = 0; j < M; j++) {
      let [ab, abt] = [0, 0];
      for (let k = 0; k < K; k++) {
        ab += A[i * K + k]! * B[k * M + j]!;
        abt += A[i * K + k]! * B2[j * K + k]!;
      }
      C[i * M + j] = ab;
      G[i * M + j] = 2 * ab + 0.5 * Cin[i * M + j]!;
      E[i * M + j] = abt;
    }
  }
  return { A, B, B2, Cin, x, w, C, y, d: new Float64Array([dot]), G, E, z, v };
}

function expectClose(name: string, actual: Float64Array, want: Float64Array): void {
  expect(actual.length, name).toBe(want.length);
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i]! - want[i]!) / Math.max(1, Math.abs(want[i]!));
    if (!(err <= 1e-12)) expect.fail(`${name}[${i}]: ${actual[i]} but expected ${want[i]}`);
  }
}

describe('library nodes with --library-impl blas', () => {
  const dir = scratchDir('library-blas');
  let driver = '';
  let file: SdfgFile;
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    file = await readSdfgFile(FIXTURE);
    const analysis = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null, libraryImpl: BLAS });
    programs.push(...(await compileAllVariants(file, analysis, dir, 'blas', (p) => libraryLinkFlags(p.libraries))));
  }, 600_000);

  test('every node becomes one CBLAS call; the program includes cblas.h and links OpenBLAS', () => {
    const p = programs[0]!.p;
    expect(p.libraries).toEqual(['OpenBLAS']);
    expect(p.source).toContain('#include <cblas.h>');
    for (const f of ['cblas_dgemm', 'cblas_dgemv', 'cblas_ddot']) expect(p.source).toContain(f);
    // Gemm's beta: Cin is copied into G, then dgemm scales it by 0.5.
    expect(p.source).toMatch(/cblas_dgemm\(CblasRowMajor, CblasNoTrans, CblasNoTrans, [^;]*, 2, _a, [^;]*, 0\.5, _c, /);
    // E = A·B2ᵀ: transB; z = 3·Aᵀ·w: transA; v = w·A: Aᵀ·w as a transposed gemv.
    expect(p.source).toMatch(/cblas_dgemm\(CblasRowMajor, CblasNoTrans, CblasTrans, /);
    expect(p.source).toMatch(/cblas_dgemv\(CblasRowMajor, CblasTrans, [^;]*, 3, _A, /);
    expect(p.source).not.toMatch(/for \(int64_t _k = /);
  });

  test('the analysis sees the expansion that runs: no _tmp under blas, one under pure', () => {
    const blas = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null, libraryImpl: BLAS });
    expect(blas.transients.filter((t) => t.expandedFrom !== undefined)).toEqual([]);
    expect(blas.libraryExpansions.map((e) => [e.label, e.className, e.implementation, e.library])).toEqual([
      ['mm', 'MatMul', 'blas', 'OpenBLAS'],
      ['mv', 'MatMul', 'blas', 'OpenBLAS'],
      ['dot', 'Dot', 'blas', 'OpenBLAS'],
      ['gemm', 'Gemm', 'blas', 'OpenBLAS'],
      ['gemm_tb', 'Gemm', 'blas', 'OpenBLAS'],
      ['gemv_t', 'Gemv', 'blas', 'OpenBLAS'],
      ['vm', 'MatMul', 'blas', 'OpenBLAS'],
    ]);
    // One node back to pure: its _tmp comes back, the others stay calls.
    const mixed = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null, libraryImpl: parseLibraryImpl('blas,gemm=pure') });
    expect(mixed.transients.filter((t) => t.expandedFrom !== undefined).map((t) => [t.name, t.expandedFrom])).toEqual([['_tmp', 'gemm']]);
    expect(mixed.libraryExpansions.find((e) => e.label === 'gemm')).toMatchObject({ implementation: 'pure', library: null });
    expect(mixed.libraryExpansions.find((e) => e.label === 'mm')).toMatchObject({ implementation: 'blas', library: 'OpenBLAS' });
    const pure = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null });
    expect(pure.libraryExpansions.every((e) => e.implementation === 'pure' && e.library === null)).toBe(true);
  });

  test('every mode compiles against OpenBLAS', () => {
    expect(programs.length).toBe(ALL_VARIANTS.length);
    for (const b of programs) expect(b.ok, `${b.p.mode} ${b.p.layout}:\n${b.output}`).toBe(true);
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) matches the products computed here`, async () => {
      const b = programs.find((x) => x.p.mode === v.mode && x.p.layout === v.layout)!;
      expect(b.ok).toBe(true);
      const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${v.mode}_${v.layout}.out`));
      for (const [name, values] of Object.entries(expected(b.p))) expectClose(name, result.arrays.get(name)!, values);
    });
  }

  test('Potrf: refused under pure with a finding that says to use blas; generated as one LAPACKE call under blas', async () => {
    const potrf = await readSdfgFile(POTRF);
    const [finding] = findUnsupported(potrf);
    expect(finding?.message).toMatch(/no pure expansion of Potrf.*--library-impl blas/);
    expect(findUnsupported(potrf, 'cpu', BLAS)).toEqual([]);
    const analysis = analyze(potrf, { symbols: new Map([['n', 8n]]), defaultSymbol: null, target: null, libraryImpl: BLAS });
    const p = generateProgram(potrf, analysis, { mode: 'SCOPED', layout: 'dace' });
    expect(p.libraries).toEqual(['LAPACKE']);
    expect(p.source).toContain('#include <lapacke.h>');
    expect(p.source).toContain("LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', ");
  });

  test('a node with no blas implementation runs pure under the blas default, and is refused when named', async () => {
    const reduce = await readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'library_transpose.sdfg'));
    expect(findUnsupported(reduce, 'cpu', BLAS)).toEqual([]);
    const label = analyze(reduce, { symbols: symbols(), defaultSymbol: null, target: null }).libraryExpansions[0]!.label;
    const [finding] = findUnsupported(reduce, 'cpu', parseLibraryImpl(`${label}=blas`));
    expect(finding?.message).toMatch(/Transpose has no blas implementation \(MatMul, Gemm, Gemv, Dot, Potrf do\)/);
  });
});
