/**
 * Schedules, storages and types DaCe programs use beyond the basic subset (thread-local and pinned storage,
 * persistent schedules, tiled ranges, …): small hand-written fixtures (tests/fixtures/sdfg) generated in every
 * mode and layout, compiled with AddressSanitizer, run by the C++ driver and compared with a computation written
 * here from the math; and the emitted code's shape where DaCe's matters (an OpenMP region, threadprivate data).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const load = (name: string) => readSdfgFile(join(FIXTURES, `${name}.sdfg`));

function analyse(file: SdfgFile, symbols: Record<string, bigint>) {
  return analyze(file, { symbols: new Map(Object.entries(symbols)), defaultSymbol: null, target: null });
}

/**
 * LeakSanitizer (GCC 12, glibc 2.36) crashes while scanning the dynamic TLS of a dlopen()ed library that OpenMP
 * threads have touched (a threadprivate pointer): libraries with thread-local data are built with static TLS,
 * which the leak check scans. The runner's builds are not sanitized and keep the default model.
 */
const STATIC_TLS = ['-ftls-model=initial-exec'];

/** Generates, compiles (ASan) and runs `name` in every mode and layout; each run's arrays must equal `expected`. */
async function runEveryMode(
  name: string,
  symbols: Record<string, bigint>,
  expected: (p: GeneratedProgram) => Record<string, Float64Array>,
): Promise<void> {
  const file = await load(name);
  expect(findUnsupported(file)).toEqual([]);
  const analysis = analyse(file, symbols);
  const dir = scratchDir(`sched-${name}`);
  const driver = await compileDriver(dir, true);
  for (const v of ALL_VARIANTS) {
    const p = generateProgram(file, analysis, v);
    const tag = `${name}_${v.mode}_${v.layout}`;
    const lib = await compileLibrary(p.source, dir, tag, '-O1', [...ASAN_FLAGS, ...STATIC_TLS]);
    expect(lib.ok, `${tag}: ${lib.output.slice(0, 2000)}`).toBe(true);
    const result = await runProgram(driver, lib.library, p, {}, join(dir, `${tag}.out`));
    for (const [arg, want] of Object.entries(expected(p))) expect([...result.arrays.get(arg)!], `${tag} ${arg}`).toEqual([...want]);
  }
}

describe('CPU_ThreadLocal storage (one copy per OpenMP thread, as cpu.py)', () => {
  test('thread_local runs in every mode: C[i] = 3·(2·A[i] + 1) + A[i]', async () => {
    await runEveryMode('thread_local', { N: 64n }, (p) => {
      const A = inputFor(p, 'A');
      return { A, C: A.map((a) => (2 * a + 1) * 3 + a) };
    });
  }, 240_000);

  test('the pointer is threadprivate, allocated and freed by every thread, never a state field or a workspace slot', async () => {
    const file = await load('thread_local');
    const analysis = analyse(file, { N: 64n });
    const reasons = Object.fromEntries(analysis.transients.map((t) => [t.id, [t.eligible.PERSISTENT, t.eligible.EXTERNAL, t.reason]]));
    expect(reasons).toEqual({
      '0:T': [false, false, 'already Persistent in the file: allocated once in init, in every mode'],
      '0:U': [
        false,
        false,
        'storage CPU_ThreadLocal: one copy per OpenMP thread, each allocated by its thread (no single buffer to hoist)',
      ],
    });
    for (const v of ALL_VARIANTS) {
      const p = generateProgram(file, analysis, v);
      expect(p.usesOpenMP).toBe(true);
      expect(p.externals).toEqual([]);
      const src = p.source;
      for (const x of ['T', 'U']) expect(src, x).toMatch(new RegExp(`#pragma omp threadprivate\\(__tlab_tls_\\w*${x}\\)`));
      const struct = src.slice(src.indexOf('_state_t'), src.indexOf('};'));
      expect(struct).not.toMatch(/\*\s*\w*_T\b/);
      // T (Persistent) in init and exit, U (Scope) in the program: each inside a parallel region.
      expect(src.match(/#pragma omp parallel\n\s*\{\n\s*__tlab_tls_\w+ = static_cast<double \*>\(tlab_alloc/g)).toHaveLength(2);
      expect(src.match(/#pragma omp parallel\n\s*\{\n\s*tlab_free\(__tlab_tls_/g)).toHaveLength(2);
    }
  });

  test('External thread-local data is refused (one copy per thread cannot be one workspace slot)', async () => {
    const file = await load('thread_local');
    const d = file.root.arrays.get('U')!;
    file.root.arrays.set('U', { ...d, lifetime: 'External' });
    expect(findUnsupported(file).map((f) => [f.jsonPath, f.message])).toEqual([
      [d.jsonPath, 'a CPU_ThreadLocal transient cannot be External (one copy per thread, not one workspace slot)'],
    ]);
  });
});
