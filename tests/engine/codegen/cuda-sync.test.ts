/**
 * DaCe-Fortran's GPU programs end with a host tasklet `DACE_GPU_CHECK(gpuStreamSynchronize(nullptr));`
 * (addusxx_g's `_stream0_sync`): DaCe's runtime spelling of a synchronisation on the legacy default stream,
 * which is the stream generated code uses. The subset check accepts exactly that spelling (not other runtime
 * calls, nor other streams), and the CUDA runtime header defines its names, so the program compiles with nvcc.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';
import { sdfgText } from './tasklet-sdfg.js';

afterAll(removeScratchDirs);

/** B[i] = A[i] + 1 in a GPU kernel, then a host state whose C++ tasklet is `code`. */
function withSyncTasklet(code: string): Uint8Array {
  const doc = JSON.parse(
    sdfgText({
      name: 'gpu_sync',
      gpu: true,
      arrays: { A: { shape: ['N'] }, B: { shape: ['N'] } },
      states: [
        {
          label: 'add',
          inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
          outputs: [{ conn: 'b', data: 'B', index: ['i'] }],
          code: 'b = a + 1.0',
        },
      ],
    }),
  ) as { nodes: object[]; edges: object[] };
  doc.nodes.push({
    type: 'SDFGState',
    label: 'sync',
    id: 1,
    collapsed: false,
    nodes: [
      {
        type: 'Tasklet',
        label: 'stream0_sync',
        attributes: {
          code: { string_data: code, language: 'CPP' },
          side_effects: true,
          label: 'stream0_sync',
          in_connectors: {},
          out_connectors: {},
        },
        id: 0,
        scope_entry: null,
        scope_exit: null,
      },
    ],
    edges: [],
    attributes: {},
  });
  doc.edges.push({ type: 'Edge', attributes: { data: { type: 'InterstateEdge', attributes: {} } }, src: '0', dst: '1' });
  return new TextEncoder().encode(JSON.stringify(doc));
}

describe("DaCe's GPU stream synchronisation in a host tasklet", () => {
  test('is accepted on the default stream and compiles with nvcc', async () => {
    const file = parseSdfgBytes(withSyncTasklet('DACE_GPU_CHECK(gpuStreamSynchronize(nullptr));'), 'gpu_sync.sdfg');
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', 64n]]), defaultSymbol: null, target: 'gpu' });
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    expect(p.source).toContain('DACE_GPU_CHECK(gpuStreamSynchronize(nullptr));');
    const nvcc = findNvcc();
    if (!nvcc) {
      console.log('nvcc not found: compile step not run');
      return;
    }
    const r = await nvccCompile(nvcc, p.source, scratchDir('cuda-sync'), 'gpu_sync');
    expect(r.ok, firstErrors(r.output)).toBe(true);
  }, 300_000);

  test.each([
    ['another stream', 'DACE_GPU_CHECK(gpuStreamSynchronize(__state->gpu_context->streams[0]));'],
    ['another runtime call', 'DACE_GPU_CHECK(gpuMemsetAsync(p, 0, 8, nullptr));'],
  ])('still refuses %s', (_what, code) => {
    const file = parseSdfgBytes(withSyncTasklet(code), 'gpu_sync.sdfg');
    expect(findUnsupported(file, 'gpu').map((f) => f.message)).toEqual([`the C++ code uses DaCe runtime API ('DACE_')`]);
  });
});
