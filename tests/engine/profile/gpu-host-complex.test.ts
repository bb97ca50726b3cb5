/**
 * Complex numbers in a GPU program (docs/gpu.md, "Complex numbers"), shaped like DaCe-Fortran's addusxx_g: complex128
 * arrays in kernels, a complex literal (`1j`) and `conj` in tasklets, and an interstate edge that reads a CPU_Heap
 * argument on the host (`k = flag[0]`, as addusxx_g's `scal_okvan_0 = okvan[0]`). The generated CUDA compiles with
 * nvcc (thrust::complex there, std::complex on the host backend), and every mode runs on the host backend with
 * outputs checked against the formula computed here: C = a·conj(a) = |a|², B = C + i·a + k.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { readNpy } from '../../../electron/engine/profile/npy.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { runCli } from '../../cli/run-cli.js';
import { removeScratchDirs, scratchDir } from '../codegen/compile.js';
import { findNvcc, firstErrors, nvccCompile } from '../codegen/nvcc.js';
import { sdfgText } from '../codegen/tasklet-sdfg.js';

const N = 40;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-host-complex-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  removeScratchDirs();
});

function complexSdfg(): string {
  const doc = JSON.parse(
    sdfgText({
      name: 'gpu_complex',
      gpu: true,
      arrays: {
        A: { shape: ['N'], dtype: 'complex128' },
        B: { shape: ['N'], dtype: 'complex128' },
        C: { shape: ['N'], dtype: 'complex128' },
        flag: { shape: ['1'], dtype: 'int32' },
      },
      states: [
        {
          label: 'norm',
          inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
          outputs: [{ conn: 'c', data: 'C', index: ['i'] }],
          code: 'c = a * conj(a)',
        },
        {
          label: 'shift',
          inputs: [
            { conn: 'a', data: 'A', index: ['i'] },
            { conn: 'c', data: 'C', index: ['i'] },
          ],
          outputs: [{ conn: 'b', data: 'B', index: ['i'] }],
          code: 'b = c + 1j * a + float(k)',
        },
      ],
    }),
  ) as {
    attributes: { _arrays: Record<string, { attributes: { storage: string } }>; symbols: Record<string, string> };
    edges: Array<{ attributes: { data: { attributes: Record<string, unknown> } } }>;
  };
  // The scalar the host reads lives in host memory, as DaCe's caller passes a CPU_Heap argument.
  doc.attributes._arrays.flag!.attributes.storage = 'CPU_Heap';
  doc.attributes.symbols.k = 'int64';
  doc.edges[0]!.attributes.data.attributes.assignments = { k: 'flag[0]' };
  return JSON.stringify(doc);
}

/** [re, im] pairs of a saved complex128 output. */
async function complexes(path: string): Promise<Array<[number, number]>> {
  const a = await readNpy(path);
  expect(a.dtype).toBe('complex128');
  const f = new Float64Array(a.data.buffer.slice(a.data.byteOffset, a.data.byteOffset + a.data.byteLength));
  return Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i]!, f[2 * i + 1]!]);
}

describe('complex numbers in a GPU program', () => {
  it('generates thrust-compatible code that nvcc compiles', async () => {
    const file = parseSdfgBytes(new TextEncoder().encode(complexSdfg()), 'gpu_complex.sdfg');
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: 'gpu' });
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    expect(p.source).toContain('tlab_complex128(0, 1.0)');
    expect(p.source).not.toContain('std::complex');
    // No kernel reads `flag`: it is host memory; the arrays the kernels use are device memory.
    expect(p.args.filter((a) => a.hostMemory).map((a) => a.name)).toEqual(['flag']);
    const nvcc = findNvcc();
    if (!nvcc) {
      console.log('nvcc not found: compile step not run');
      return;
    }
    const r = await nvccCompile(nvcc, p.source, scratchDir('cuda-complex'), 'gpu_complex');
    expect(r.ok, firstErrors(r.output)).toBe(true);
  }, 300_000);

  it('runs on the host backend in every mode, and B and C match the formula', async () => {
    const sdfg = join(dir, 'gpu_complex.sdfg');
    await writeFile(sdfg, complexSdfg());
    const out = join(dir, 'result.json');
    const saved = join(dir, 'outputs');
    const r = await runCli(
      ['profile', sdfg, '--gpu', 'host', '--symbols', `N=${N}`, '--calls', '1', '--warmup', '0', '--processes', '1'].concat([
        '--save-outputs',
        saved,
        '--out',
        out,
      ]),
      { cache: join(dir, 'cache'), timeoutMs: 600_000 },
    );
    expect(r.stderr, r.stdout).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
    expect(result.backend).toBe('cuda-host');
    expect(result.modes.map((m) => m.mode)).toEqual(['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']);
    expect(result.verification.ok).toBe(true);
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']) {
      const a = await complexes(join(saved, mode, 'A.npy'));
      const b = await complexes(join(saved, mode, 'B.npy'));
      const c = await complexes(join(saved, mode, 'C.npy'));
      const flag = await readNpy(join(saved, mode, 'flag.npy'));
      const k = new Int32Array(flag.data.buffer.slice(flag.data.byteOffset, flag.data.byteOffset + 4))[0]!;
      expect(a.length).toBe(N);
      a.forEach(([re, im], i) => {
        const norm = re * re + im * im;
        expect(c[i]![0]).toBeCloseTo(norm, 9);
        expect(c[i]![1]).toBeCloseTo(0, 9);
        expect(b[i]![0]).toBeCloseTo(norm - im + k, 6);
        expect(b[i]![1]).toBeCloseTo(re, 9);
      });
    }
  }, 600_000);
});
