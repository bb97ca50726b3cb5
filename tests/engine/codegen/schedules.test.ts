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
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';

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

describe('CPU_Pinned storage (host memory; page-locked by cudaMallocHost only where DaCe has a CUDA target)', () => {
  test('pinned runs in every mode: B = 2·(A + 1) through a pinned transient, into a pinned argument', async () => {
    await runEveryMode('pinned', { N: 40n }, (p) => {
      const A = inputFor(p, 'A');
      return { A, B: A.map((a) => 2 * (a + 1)) };
    });
  }, 240_000);

  test('a pinned transient is ordinary host memory in the CPU program; its workspace slot has its own storage pair', async () => {
    const file = await load('pinned');
    const analysis = analyse(file, { N: 40n });
    const scoped = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
    expect(scoped).toMatch(/tmp = static_cast<double \*>\(tlab_alloc\(/);
    const external = generateProgram(file, analysis, { mode: 'EXTERNAL', layout: 'dace' });
    expect(external.externals.map((e) => e.storage).sort()).toEqual(['CPU_Heap', 'CPU_Pinned']);
  });
});

describe('CPU_Pinned in a GPU program (cuda.py: cudaMallocHost)', () => {
  test('pinned_gpu: page-locked with cudaMallocHost, freed with cudaFreeHost, copies synchronised; compiles with nvcc', async () => {
    const file = await load('pinned_gpu');
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyse(file, { N: 40n });
    const nvcc = findNvcc();
    for (const v of ALL_VARIANTS) {
      const p = generateProgram(file, analysis, v);
      // Allocated where its placement says (PERSISTENT: in init; EXTERNAL: a CPU_Pinned workspace slot).
      if (v.mode === 'EXTERNAL') expect(p.externals.map((x) => x.storage)).toContain('CPU_Pinned');
      else {
        expect(p.source).toMatch(/(\s|__state->__0_)p = static_cast<double \*>\(tlab_cuda_malloc_host\(/);
        expect(p.source).toMatch(/tlab_cuda_free_host\((__state->__0_)?p, /);
      }
      // d → p (device to pinned) is followed by a synchronisation before the host map reads p.
      expect(p.source).toMatch(/tlab_cuda_copy\(p \+ 0,[^\n]*\n\s*\}\n\s*TLAB_CUDA\(cudaStreamSynchronize\(nullptr\)\);/);
      if (nvcc) {
        const r = await nvccCompile(nvcc, p.source, scratchDir('sched-nvcc'), `pinned_gpu_${v.mode}_${v.layout}`);
        expect(r.ok, firstErrors(r.output)).toBe(true);
      }
    }
  }, 600_000);
});

describe('CPU_Persistent maps (one OpenMP parallel region, as cpu.py)', () => {
  test('cpu_persistent runs in every mode with 3 threads: B = 2·A, C[t] = t per thread, cnt += team size', async () => {
    const before = process.env.OMP_NUM_THREADS;
    process.env.OMP_NUM_THREADS = '3';
    try {
      await runEveryMode('cpu_persistent', { N: 16n }, (p) => {
        const A = inputFor(p, 'A');
        const C = inputFor(p, 'C');
        const cnt = inputFor(p, 'cnt');
        for (let t = 0; t < 3; t++) C[t] = t;
        cnt[0] = cnt[0]! + 3;
        return { A, B: A.map((a) => 2 * a), C, cnt };
      });
    } finally {
      if (before === undefined) delete process.env.OMP_NUM_THREADS;
      else process.env.OMP_NUM_THREADS = before;
    }
  }, 240_000);

  test('the region is `omp parallel` with the thread number as the parameter; a map inside shares its loop (`omp for`)', async () => {
    const file = await load('cpu_persistent');
    const p = generateProgram(file, analyse(file, { N: 16n }), { mode: 'SCOPED', layout: 'dace' });
    expect(p.usesOpenMP).toBe(true);
    expect(p.source).toContain('#include <omp.h>');
    expect(p.source).toMatch(
      /#pragma omp parallel\n\s*\{\n\s*const int64_t t = omp_get_thread_num\(\);\n\s*const int64_t __omp_num_threads = omp_get_num_threads\(\);/,
    );
    expect(p.source).toMatch(/#pragma omp for\n\s*for \(int64_t i = 0;/);
    expect(p.source).not.toContain('#pragma omp parallel for');
    // Every thread adds: the WCR is atomic.
    expect(p.source).toMatch(/#pragma omp atomic\n\s*cnt\[0\] \+= /);
  });

  test('a CPU_Persistent map with two parameters is refused', async () => {
    const file = await load('cpu_persistent');
    const entry = file.root.body.blocks[0]!;
    if (entry.kind !== 'state') throw new Error('fixture changed');
    const team = entry.nodes.find((n) => n.kind === 'map_entry' && n.map.schedule === 'CPU_Persistent');
    if (team?.kind !== 'map_entry') throw new Error('fixture changed');
    team.map.params.push('u');
    team.map.range.push({ ...team.map.range[0]! });
    expect(findUnsupported(file).map((f) => f.message)).toEqual([
      'a CPU_Persistent map has one parameter (the OpenMP thread number), not 2',
    ]);
  });
});

describe('tiled ranges (Range tile ≠ 1: start:end:1:t holds start … end + t - 1)', () => {
  test('tiled_ranges runs in every mode: a tiled connector (B[i] = A[2i] + A[2i+1]) and a tiled copy (C = A)', async () => {
    await runEveryMode('tiled_ranges', { N: 12n }, (p) => {
      const A = inputFor(p, 'A');
      return { A, B: Float64Array.from({ length: 6 }, (_, i) => A[2 * i]! + A[2 * i + 1]!), C: A.slice() };
    });
  }, 240_000);

  test('tiles with another step, or under write-conflict resolution, are refused', async () => {
    const file = await load('tiled_ranges');
    const copy = file.root.body.blocks[1]!;
    if (copy.kind !== 'state' || copy.edges[0]!.memlet.subset?.kind !== 'range') throw new Error('fixture changed');
    const dim = copy.edges[0]!.memlet.subset.dims[0]!;
    dim.step = '2';
    expect(findUnsupported(file).map((f) => f.message)).toEqual([
      'tiled ranges with a step other than 1 (tile 3, step 2) are not supported',
    ]);
    dim.step = '1';
    copy.edges[0]!.memlet.wcr = '(lambda x, y: (x + y))';
    expect(findUnsupported(file).map((f) => f.message)).toEqual(['a tiled range (tile 3) with write-conflict resolution is not supported']);
  });
});

/** IEEE binary16 rounding (nearest, ties to even) of a positive normal number. */
function toHalf(x: number): number {
  const q = 2 ** (Math.floor(Math.log2(x)) - 10);
  const r = x / q;
  let n = Math.round(r);
  if (r - Math.floor(r) === 0.5 && n % 2 !== 0) n -= 1;
  return n * q;
}

describe('float16 (tlab_half: _Float16 on the CPU, __half in CUDA code)', () => {
  test('float16 runs in every mode: B = half(half(A)·3) through two half transients', async () => {
    await runEveryMode('float16', { N: 16n }, (p) => {
      const A = inputFor(p, 'A');
      return { A, B: A.map((a) => toHalf(toHalf(a) * 3)) };
    });
  }, 240_000);

  test('float16_gpu: __half in kernels (mixed with int and double as C mixes _Float16); compiles with nvcc', async () => {
    const file = await load('float16_gpu');
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyse(file, { N: 16n });
    const nvcc = findNvcc();
    for (const v of ALL_VARIANTS) {
      const p = generateProgram(file, analysis, v);
      expect(p.source).toContain('using tlab_half = __half;');
      if (nvcc) {
        const r = await nvccCompile(nvcc, p.source, scratchDir('sched-nvcc'), `float16_gpu_${v.mode}_${v.layout}`);
        expect(r.ok, firstErrors(r.output)).toBe(true);
      }
    }
  }, 600_000);

  test('the half type is defined per target', async () => {
    const file = await load('float16');
    const p = generateProgram(file, analyse(file, { N: 16n }), { mode: 'SCOPED', layout: 'dace' });
    expect(p.source).toContain('using tlab_half = _Float16;');
    const chain = await readSdfgFile(join(packageRoot(), 'assets', 'examples', 'chain.sdfg'));
    expect(generateProgram(chain, analyse(chain, { N: 16n }), { mode: 'SCOPED', layout: 'dace' }).source).not.toContain('tlab_half');
  });
});
