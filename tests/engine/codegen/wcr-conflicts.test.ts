/**
 * Write-conflict resolution without needless atomics (codegen/wcr-conflicts.ts): a WCR write that no other thread
 * can reach is a plain update. wcr_distinct holds the two shapes bert_specialized runs 56·10⁹ times per call: an
 * expanded GEMM (a parallel map (i, j, k) adding into C[i, j]: i is the distributed parameter and indexes C) and an
 * expanded Reduce (a sequential loop in a nested SDFG called from a parallel map over the output element: DaCe's
 * rule finds no conflict). wcr_overlap holds writes two threads can share, which stay atomic. Every mode runs
 * with 3 OpenMP threads and must give exactly the sequential result.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { compileAllVariants, compileDriver, inputFor, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const load = (name: string) => readSdfgFile(join(FIXTURES, `${name}.sdfg`));
const analyse = (file: SdfgFile, symbols: Record<string, bigint>) =>
  analyze(file, { symbols: new Map(Object.entries(symbols)), defaultSymbol: null, target: null });

const M = 13;
const N = 7;
const K = 33;
const SIZES = { M: BigInt(M), N: BigInt(N), K: BigInt(K) };

/** The nested SDFG's function: from its signature to the root program's. */
function nestedFunction(p: GeneratedProgram): string {
  return p.source.slice(p.source.indexOf('static void __tlab_nsdfg_1('), p.source.indexOf('static void __program_'));
}

/** C += A·Bm and Y = max(Y, max over each row of X), summed and compared in the program's own order. */
function expected(p: GeneratedProgram): Record<string, Float64Array> {
  const A = inputFor(p, 'A');
  const Bm = inputFor(p, 'Bm');
  const C = inputFor(p, 'C');
  const X = inputFor(p, 'X');
  const Y = inputFor(p, 'Y');
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let c = C[i * N + j]!;
      for (let k = 0; k < K; k++) c += A[i * K + k]! * Bm[k * N + j]!;
      C[i * N + j] = c;
    }
  for (let r = 0; r < M; r++) for (let c = 0; c < K; c++) Y[r] = Math.max(Y[r]!, X[r * K + c]!);
  return { A, Bm, C, X, Y };
}

describe('WCR writes no other thread reaches are plain updates', () => {
  test('wcr_distinct: the GEMM adds into C[i, j] and the nested reduction writes Y[r] without atomics', async () => {
    const file = await load('wcr_distinct');
    expect(findUnsupported(file)).toEqual([]);
    const p = generateProgram(file, analyse(file, SIZES), { mode: 'SCOPED', layout: 'dace' });
    expect(p.usesOpenMP).toBe(true);
    expect(p.source).toMatch(
      /#pragma omp parallel for\n\s*for \(int64_t i = 0;[^\n]*\n\s*for \(int64_t j = 0;[^\n]*\n\s*for \(int64_t k = 0;/,
    );
    expect(p.source).toMatch(/\n\s*C\[[^\n]*\] \+= __tlab_out\d+;/);
    expect(p.source).not.toContain('#pragma omp atomic');
    // The nested SDFG is called from the parallel map over r: DaCe's path check reaches Y[r] and finds r in it.
    expect(nestedFunction(p)).toMatch(/\n\s*yout\[0\] = tlab_max\(yout\[0\], __tlab_out\d+\);/);
    expect(p.source).not.toContain('#pragma omp critical');
    // Every element is updated by one thread in the loop's order: the float result is deterministic.
    expect(p.nondeterministicFloat).toBe(false);
  });

  test('wcr_distinct runs in every mode with 3 threads and equals the sequential sums bit for bit', async () => {
    const before = process.env.OMP_NUM_THREADS;
    process.env.OMP_NUM_THREADS = '3';
    try {
      const file = await load('wcr_distinct');
      const dir = scratchDir('wcr-distinct');
      const driver = await compileDriver(dir, true);
      for (const v of await compileAllVariants(file, analyse(file, SIZES), dir, 'wcr_distinct')) {
        const tag = `${v.p.mode} ${v.p.layout}`;
        expect(v.ok, `${tag}: ${v.output.slice(0, 2000)}`).toBe(true);
        const result = await runProgram(driver, v.library, v.p, {}, join(dir, `${v.p.mode}_${v.p.layout}.out`));
        for (const [arg, want] of Object.entries(expected(v.p))) expect([...result.arrays.get(arg)!], `${tag} ${arg}`).toEqual([...want]);
      }
    } finally {
      if (before === undefined) delete process.env.OMP_NUM_THREADS;
      else process.env.OMP_NUM_THREADS = before;
    }
  }, 240_000);

  test('wcr_overlap: D[i + j] over (i, j) and E[i] over a collapse(2) map stay atomic', async () => {
    const file = await load('wcr_overlap');
    expect(findUnsupported(file)).toEqual([]);
    const p = generateProgram(file, analyse(file, { M: 5n, N: 4n }), { mode: 'SCOPED', layout: 'dace' });
    expect(p.source).toMatch(/#pragma omp atomic\n\s*D\[[^\n]*\] \+= /);
    expect(p.source).toMatch(/#pragma omp parallel for collapse\(2\)/);
    expect(p.source).toMatch(/#pragma omp atomic\n\s*E\[[^\n]*\] \+= /);
    expect(p.nondeterministicFloat).toBe(true);
  });
});
