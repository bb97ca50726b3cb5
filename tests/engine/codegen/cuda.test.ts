/**
 * The CUDA generator on the GPU examples: every mode compiles with nvcc (compile only, no GPU needed), and the
 * generated code has the properties of reference dace-memory-abi.md §5.11 — alloc/free pairs on the same stream,
 * the pool threshold exactly when a pooled transient exists, no per-call allocation of eligible transients in
 * EXTERNAL, 256-B aligned packed offsets. Runtime GPU tests belong to the runner (docs/gpu.md).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { examplesDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';

afterAll(removeScratchDirs);

const EXAMPLES = ['hdiff_gpu', 'chain_gpu', 'vadv_gpu'];
const SYMBOLS = new Map([
  ['I', 16n],
  ['J', 12n],
  ['K', 7n],
  ['N', 100n],
]);
const VARIANTS = [
  { mode: 'SCOPED', layout: 'dace' },
  { mode: 'PERSISTENT', layout: 'dace' },
  { mode: 'POOL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'packed' },
] as const;
const nvcc = findNvcc();

interface Site {
  fn: string;
  index: number;
  stream: string | null;
  line: string;
}

/** Every device allocation/free call of the generated source with its transient index and stream. */
function deviceSites(text: string): Site[] {
  const sites: Site[] = [];
  for (const line of text.split('\n')) {
    const m = /(tlab_cuda_(?:malloc_async|free_async|malloc|free))\((.*)\)\)?( [+-] \d+)?;\s*$/.exec(line);
    if (!m) continue;
    const args = m[2]!.split(', ');
    const fn = m[1]!;
    const index = Number(args[args.length - 1]!.replace(/\)+$/, ''));
    const stream = fn.endsWith('_async') ? args[args.length - 2]! : null;
    sites.push({ fn, index, stream, line: line.trim() });
  }
  return sites;
}

function sections(source: string, name: string): { program: string; init: string; exit: string } {
  const start = source.indexOf(`struct ${name}_state_t`);
  const init = source.indexOf(`__dace_init_${name}(`);
  const exit = source.indexOf(`__dace_exit_${name}(`);
  const after = source.indexOf('__tlab_init', exit);
  return { program: source.slice(start, init), init: source.slice(init, exit), exit: source.slice(exit, after) };
}

describe('CUDA generation of the GPU examples', () => {
  const loaded = new Map<string, { file: SdfgFile; analysis: Analysis; programs: Map<string, GeneratedProgram> }>();
  beforeAll(async () => {
    for (const example of EXAMPLES) {
      const file = await readSdfgFile(join(examplesDir(), 'gpu', `${example}.sdfg`));
      const analysis = analyze(file, { symbols: SYMBOLS, defaultSymbol: null, target: null });
      const programs = new Map<string, GeneratedProgram>();
      for (const v of VARIANTS) programs.set(`${v.mode}/${v.layout}`, generateProgram(file, analysis, v));
      loaded.set(example, { file, analysis, programs });
    }
  });

  for (const example of EXAMPLES) {
    test(`${example}: a GPU program inside the CUDA subset, outside the CPU one`, () => {
      const { file, analysis, programs } = loaded.get(example)!;
      expect(analysis.target).toBe('gpu');
      expect(findUnsupported(file, 'gpu')).toEqual([]);
      expect(
        findUnsupported(file)
          .map((f) => f.message)
          .join('\n'),
      ).toMatch(/GPU_(Global|Device).*CPU generator/);
      const p = programs.get('SCOPED/dace')!;
      expect(p.gpu?.language).toBe('cuda');
      expect(p.gpu!.kernels).toBeGreaterThanOrEqual(example === 'chain_gpu' ? 5 : 3);
      expect(p.source).toContain('#include "transient_cuda_runtime.h"');
      expect(p.source).toMatch(/tlab_launch\(dim3\(.*\), dim3\(.*\), 0, nullptr, \[=\] __device__ \(\) \{/);
      expect(p.source).toContain('extern "C" int __tlab_gpu_timed_program(');
      // The timing events are created once, in init (tlab_cuda_init), not in every timed call.
      const hook = p.source.slice(p.source.indexOf('extern "C" int __tlab_gpu_timed_program('));
      expect(hook.slice(0, hook.indexOf('\n}'))).not.toMatch(/cudaEvent(Create|Destroy)/);
      expect(hook).toContain('cudaEventRecord(tlab_cuda_event_start, nullptr);');
      expect(p.source).toContain('extern "C" const char *__tlab_gpu_transient_name(uint32_t __i) {');
    });

    test(`${example}: SCOPED cudaMalloc/cudaFree per call, PERSISTENT in init/exit, POOL async pairs on one stream`, () => {
      const { file, analysis, programs } = loaded.get(example)!;
      const gpuTransients = analysis.transients
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => t.effectiveStorage === 'GPU_Global' && t.type === 'Array');
      expect(gpuTransients.length).toBeGreaterThanOrEqual(3);

      const scoped = sections(programs.get('SCOPED/dace')!.source, file.root.name);
      for (const { i } of gpuTransients) {
        expect(
          deviceSites(scoped.program)
            .filter((s) => s.index === i)
            .map((s) => s.fn)
            .sort(),
        ).toEqual(['tlab_cuda_free', 'tlab_cuda_malloc']);
        expect(deviceSites(scoped.init).filter((s) => s.index === i)).toEqual([]);
      }
      expect(scoped.init).not.toContain('tlab_cuda_set_release_threshold');

      const persistent = sections(programs.get('PERSISTENT/dace')!.source, file.root.name);
      for (const { t, i } of gpuTransients) {
        if (!t.eligible.PERSISTENT) continue;
        expect(deviceSites(persistent.program).filter((s) => s.index === i)).toEqual([]);
        expect(
          deviceSites(persistent.init)
            .filter((s) => s.index === i)
            .map((s) => s.fn),
        ).toEqual(['tlab_cuda_malloc']);
        expect(
          deviceSites(persistent.exit)
            .filter((s) => s.index === i)
            .map((s) => s.fn),
        ).toEqual(['tlab_cuda_free']);
      }

      const poolProgram = programs.get('POOL/dace')!;
      const pool = deviceSites(poolProgram.source);
      // gt4py's POOL: every transient GPU_Global Array is pooled; nothing synchronous is left.
      expect(pool.filter((s) => s.fn === 'tlab_cuda_malloc' || s.fn === 'tlab_cuda_free')).toEqual([]);
      for (const { i } of gpuTransients) {
        const allocs = pool.filter((s) => s.index === i && s.fn === 'tlab_cuda_malloc_async');
        const frees = pool.filter((s) => s.index === i && s.fn === 'tlab_cuda_free_async');
        expect(allocs.length).toBe(1);
        expect(frees.length).toBe(1);
        expect(frees[0]!.stream).toBe(allocs[0]!.stream);
        expect(allocs[0]!.stream).toBe('nullptr');
      }
    });

    test(`${example}: the release threshold is set exactly when a pooled transient exists`, () => {
      const { file, analysis, programs } = loaded.get(example)!;
      for (const [key, p] of programs) {
        const pooled = deviceSites(p.source).some((s) => s.fn === 'tlab_cuda_malloc_async');
        const init = sections(p.source, file.root.name).init;
        expect(p.gpu!.pooled, key).toBe(pooled);
        expect(init.includes('tlab_cuda_set_release_threshold(UINT64_MAX)'), key).toBe(pooled);
        expect(pooled, key).toBe(key.startsWith('POOL'));
      }
      // Configurable: 0 releases everything at each synchronisation.
      const zero = generateProgram(file, analysis, { mode: 'POOL', layout: 'dace', poolReleaseThreshold: 0n });
      expect(zero.gpu!.poolReleaseThreshold).toBe(0n);
      expect(sections(zero.source, file.root.name).init).toContain('tlab_cuda_set_release_threshold(uint64_t(0ULL))');
    });

    test(`${example}: EXTERNAL never allocates eligible transients; packed offsets are 256-B aligned`, () => {
      const { analysis, programs } = loaded.get(example)!;
      const eligible = analysis.transients.map((t, i) => ({ t, i })).filter(({ t }) => t.eligible.EXTERNAL);
      expect(eligible.length).toBeGreaterThanOrEqual(3);
      for (const layout of ['dace', 'packed'] as const) {
        const p = programs.get(`EXTERNAL/${layout}`)!;
        const sites = deviceSites(p.source);
        for (const { i } of eligible) expect(sites.filter((s) => s.index === i)).toEqual([]);
        expect(p.source).toContain('__dace_get_external_memory_size_GPU_Global(');
        expect(p.source).toContain('__dace_set_external_memory_GPU_Global(');
        const ext = p.externals.find((e) => e.storage === 'GPU_Global')!;
        expect(ext.slots.map((s) => s.id).sort()).toEqual(eligible.map(({ t }) => t.id).sort());
        if (layout === 'packed') {
          expect(analysis.layouts.packed.GPU_Global!.alignment).toBe(256);
          for (const s of ext.slots) expect(s.offset % 256n, s.id).toBe(0n);
          // The set function installs exactly those offsets.
          const installed = [...p.source.matchAll(/reinterpret_cast<[^>]+>\(__base \+ (\d+)ULL\)/g)].map((m) => BigInt(m[1]!));
          expect(installed.sort()).toEqual(ext.slots.map((s) => s.offset).sort());
          for (const o of installed) expect(o % 256n).toBe(0n);
        }
      }
    });
  }

  test("chain_gpu: lifetimes pack: the packed device workspace is smaller than DaCe's", () => {
    const { programs } = loaded.get('chain_gpu')!;
    const dace = programs.get('EXTERNAL/dace')!.externals.find((e) => e.storage === 'GPU_Global')!;
    const packed = programs.get('EXTERNAL/packed')!.externals.find((e) => e.storage === 'GPU_Global')!;
    expect(packed.bytes).toBeLessThan(dace.bytes);
  });

  test('the CPU examples stay CPU code: no CUDA anywhere', async () => {
    const file = await readSdfgFile(join(examplesDir(), 'chain.sdfg'));
    const analysis = analyze(file, { symbols: SYMBOLS, defaultSymbol: null, target: null });
    const p = generateProgram(file, analysis, { mode: 'POOL', layout: 'dace' });
    expect(p.gpu).toBeUndefined();
    expect(p.source).not.toMatch(/cuda|__device__|__global__/);
  });

  test.skipIf(!nvcc)(
    'every GPU example compiles with nvcc in every mode and layout',
    async () => {
      const dir = scratchDir('cuda');
      const jobs = EXAMPLES.flatMap((example) => VARIANTS.map((v) => ({ example, key: `${v.mode}/${v.layout}` })));
      const results = await inParallel(jobs, 2, async ({ example, key }) => {
        const p = loaded.get(example)!.programs.get(key)!;
        const r = await nvccCompile(nvcc!, p.source, dir, `${example}_${key.replace('/', '_')}`);
        return { name: `${example} ${key}`, ok: r.ok, errors: r.ok ? '' : firstErrors(r.output) };
      });
      expect(results.filter((r) => !r.ok)).toEqual([]);
    },
    1_800_000,
  );
});
