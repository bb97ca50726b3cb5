/**
 * Dynamic map ranges in the CUDA generator (the spmv shape of tests/fixtures/sdfg/dynamic_map_range_gpu.sdfg):
 * a GPU_Device map's dynamic bounds size the grid, so they are read on the host before the launch (from host
 * memory only); a Sequential map inside a kernel reads its bounds in device code. Every mode compiles with nvcc
 * (compile only: the run is the device check of the CPU fixture's computation, docs/gpu.md).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import type { MapEntryNode, SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { statesOf } from '../../../electron/engine/model/queries.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';

afterAll(removeScratchDirs);

const load = () => readSdfgFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'dynamic_map_range_gpu.sdfg'));
const VARIANTS = [
  { mode: 'SCOPED', layout: 'dace' },
  { mode: 'PERSISTENT', layout: 'dace' },
  { mode: 'POOL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'dace' },
  { mode: 'EXTERNAL', layout: 'packed' },
] as const;

function map(file: SdfgFile, label: string): MapEntryNode {
  for (const st of statesOf(file.root)) for (const n of st.nodes) if (n.kind === 'map_entry' && n.map.label === label) return n;
  throw new Error(`no map ${label}`);
}

describe('dynamic map ranges, CUDA', () => {
  test('generated in every mode: host reads before the launch, device reads in the kernel; nvcc compiles them', async () => {
    const file = await load();
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyze(file, {
      symbols: new Map([
        ['H', 10n],
        ['W', 7n],
      ]),
      defaultSymbol: null,
      target: null,
    });
    expect(analysis.target).toBe('gpu');
    const nvcc = findNvcc();
    const dir = scratchDir('cuda-dynamic');
    for (const v of VARIANTS) {
      const p = generateProgram(file, analysis, v);
      const src = p.source;
      // kstart (a host Scalar) sizes the grid of kernel 'tail': read on the host, before its launch.
      const read = src.indexOf('const int64_t __tlab_dyn3_kstart = kstart[0];');
      expect(read).toBeGreaterThan(0);
      expect(src.slice(read, src.indexOf('tlab_launch', read))).toContain('__tlab_k2_n0 = (((H - 1) - (__tlab_dyn3_kstart)) / (1) + 1)');
      // rb/re (GPU_Global A_row) bound a Sequential map inside kernel 'rows': read in device code, after the launch.
      const launch = src.indexOf('tlab_launch', src.indexOf('__tlab_k1_total'));
      expect(src.indexOf('const int64_t __tlab_dyn6_rb = A_row[int64_t(i)];')).toBeGreaterThan(launch);
      expect(src).toContain('for (int64_t j = __tlab_dyn6_rb; j <= (__tlab_dyn6_re - 1); j += 1)');
      if (nvcc) {
        const r = await nvccCompile(nvcc, src, dir, `dynamic_${v.mode}_${v.layout}`);
        expect(r.ok, firstErrors(r.output)).toBe(true);
      }
    }
  }, 600_000);

  test('a kernel grid bounded by device memory, or a thread-block map with a dynamic range, is a finding', async () => {
    const file = await load();
    // 'cols' as the kernel: its bounds are in A_row (GPU_Global), which the host cannot read.
    map(file, 'rows').map.schedule = 'Sequential';
    map(file, 'cols').map.schedule = 'GPU_Device';
    const device = findUnsupported(file, 'gpu');
    expect(device.map((f) => f.message)).toContain("the grid of GPU kernel 'cols' depends on 'A_row', which is in device memory");
    expect(device[0]!.jsonPath).toMatch(/^\$\.nodes\[1\]\.edges\[\d+\]$/);

    const tb = await load();
    map(tb, 'cols').map.schedule = 'GPU_ThreadBlock';
    expect(findUnsupported(tb, 'gpu').map((f) => f.message)).toContain(
      'a GPU_ThreadBlock map with a dynamic range is not supported (its block is sized on the host before the kernel runs)',
    );
  });
});
