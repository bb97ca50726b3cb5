/**
 * GPU_Persistent maps (docs/gpu.md, "Kernels"; codegen/cuda/fused.ts), shaped like DaCe's
 * tests/persistent_map_cudatest.py: a one-point GPU_Persistent map (`ignore`) around a Default map over the data,
 * which resolves to GPU_Device there. The launch has DaCe's persistent geometry (SMs × 2 blocks, grid-stride loop),
 * so with N larger than the grid's threads every thread visits several points; each point must be written once,
 * with B[i] = 2·A[i] + 1 checked here in every mode on the host backend. The CUDA compiles with nvcc.
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

/** Well above SMs × 2 blocks × 256 threads on this machine's emulation (one SM per OpenMP thread). */
const N = 5000;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-gpu-host-persistent-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  removeScratchDirs();
});

interface Doc {
  nodes: Array<{ nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> }>;
}

/** B[i] = 2·A[i] + 1 in a Default map inside a one-point GPU_Persistent map. */
function persistentSdfg(innerSchedule = 'Default'): string {
  const doc = JSON.parse(
    sdfgText({
      name: 'gpu_persistent',
      gpu: true,
      arrays: { A: { shape: ['N'] }, B: { shape: ['N'] } },
      states: [
        {
          label: 'axpb',
          inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
          outputs: [{ conn: 'b', data: 'B', index: ['i'] }],
          code: 'b = 2.0 * a + 1.0',
        },
      ],
    }),
  ) as Doc;
  const state = doc.nodes[0]!;
  // sdfgText's nodes: 0 map entry, 1 map exit, 2 tasklet, 3 access A, 4 access B. The outer map gets ids 5, 6.
  const inner = state.nodes[0]! as { attributes: Record<string, unknown> };
  inner.attributes.schedule = innerSchedule;
  const range = { type: 'Range', ranges: [{ start: '0', end: '0', step: '1', tile: '1' }] };
  state.nodes.push(
    {
      type: 'MapEntry',
      label: 'persistent',
      attributes: {
        label: 'persistent',
        params: ['ignore'],
        range,
        schedule: 'GPU_Persistent',
        in_connectors: { IN_A: null },
        out_connectors: { OUT_A: null },
      },
      scope_entry: null,
      scope_exit: '6',
      id: 5,
    },
    {
      type: 'MapExit',
      label: 'persistent',
      attributes: { in_connectors: { IN_B: null }, out_connectors: { OUT_B: null } },
      scope_entry: '5',
      scope_exit: '6',
      id: 6,
    },
  );
  for (const n of state.nodes.slice(0, 3)) {
    n.scope_entry = n.scope_entry === null ? '5' : n.scope_entry;
  }
  const whole = {
    type: 'Memlet',
    attributes: { data: 'A', subset: { type: 'Range', ranges: [{ start: '0', end: 'N - 1', step: '1', tile: '1' }] } },
  };
  const wholeB = { type: 'Memlet', attributes: { data: 'B', subset: whole.attributes.subset } };
  // A → inner entry becomes A → outer entry → inner entry; inner exit → B becomes inner exit → outer exit → B.
  for (const e of state.edges as Array<{ src: string; dst: string; src_connector: string | null; dst_connector: string | null }>) {
    if (e.src === '3' && e.dst === '0') e.src = '5';
    if (e.src === '1' && e.dst === '4') e.dst = '6';
    if (e.src === '5') e.src_connector = 'OUT_A';
    if (e.dst === '6') e.dst_connector = 'IN_B';
  }
  state.edges.push(
    { type: 'MultiConnectorEdge', attributes: { data: whole }, src: '3', dst: '5', src_connector: null, dst_connector: 'IN_A' },
    { type: 'MultiConnectorEdge', attributes: { data: wholeB }, src: '6', dst: '4', src_connector: 'OUT_B', dst_connector: null },
  );
  return JSON.stringify(doc);
}

async function doubles(path: string): Promise<number[]> {
  const a = await readNpy(path);
  expect(a.dtype).toBe('float64');
  return Array.from(new Float64Array(a.data.buffer.slice(a.data.byteOffset, a.data.byteOffset + a.data.byteLength)));
}

describe('GPU_Persistent maps', () => {
  it('launch a fixed grid that loops in grid strides, and compile with nvcc', async () => {
    const file = parseSdfgBytes(new TextEncoder().encode(persistentSdfg()), 'gpu_persistent.sdfg');
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: 'gpu' });
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    expect(p.source).toContain('tlab_persistent_blocks()');
    expect(p.source).toMatch(
      /for \(int64_t __tlab_k0_point = [^;]+; __tlab_k0_point < __tlab_k0_total; __tlab_k0_point \+= int64_t\(gridDim\.x\) \* int64_t\(blockDim\.x\)\)/,
    );
    const nvcc = findNvcc();
    if (!nvcc) {
      console.log('nvcc not found: compile step not run');
      return;
    }
    const r = await nvccCompile(nvcc, p.source, scratchDir('cuda-persistent'), 'gpu_persistent');
    expect(r.ok, firstErrors(r.output)).toBe(true);
  }, 300_000);

  it('a GPU_Persistent map with no GPU_Device map inside is refused, naming it', () => {
    const file = parseSdfgBytes(new TextEncoder().encode(persistentSdfg('Sequential')), 'gpu_persistent.sdfg');
    const findings = findUnsupported(file, 'gpu');
    expect(findings.map((f) => [f.jsonPath, f.message])).toEqual([
      [
        '$.nodes[0].nodes[5]',
        'a GPU_Persistent map whose body holds no GPU_Device map is not supported (nothing to spread over the persistent grid)',
      ],
    ]);
  });

  it('runs on the host backend in every mode: every point once, B = 2A + 1', async () => {
    const sdfg = join(dir, 'gpu_persistent.sdfg');
    await writeFile(sdfg, persistentSdfg());
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
    expect(result.verification.ok).toBe(true);
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL']) {
      const a = await doubles(join(saved, mode, 'A.npy'));
      const b = await doubles(join(saved, mode, 'B.npy'));
      expect(a.length).toBe(N);
      expect(b).toEqual(a.map((x) => 2 * x + 1));
    }
  }, 600_000);
});
