/**
 * GPU_Warp maps and argument arrays inside kernels (docs/gpu.md, "Kernels"). The warp indexing is checked by
 * running the generated index arithmetic: the host prelude and the kernel body up to the tasklet are turned
 * into BigInt JavaScript and executed for every block and thread, and the elements the tasklet touches must
 * cover the map's iteration space exactly once. nvcc compiles are in cuda-corpus.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const A2 = 'spcl__dace__tests__codegen__a2.sdfgz';

/** The attributes of a2's map entries that these tests edit. */
interface MapAttributes {
  range: { ranges: Array<{ end: string; step: string }> };
  schedule: string;
}

/** a2 (b_i=0:N:32 device map, w_i=0:32:32 thread-block map, i=0:32 warp map), edited by `edit`. */
function a2Variant(edit: (nodes: Array<{ id: number; scope_entry: string | null; attributes: MapAttributes }>) => void) {
  const json = JSON.parse(readFileSync(join(corpusDir(), A2), 'utf8'));
  edit(json.nodes[0].nodes);
  const text = JSON.stringify(json);
  return parseSdfgJson(json, `a2-variant.sdfg`, text.length, false);
}

function setRange(node: { attributes: MapAttributes }, end: string, step: string) {
  const r = node.attributes.range.ranges[0]!;
  r.end = end;
  r.step = step;
}

/** C++ of the generated index arithmetic → JavaScript over BigInt (every value here is a non-negative int64). */
function toJs(cpp: string): string {
  return cpp
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, '').trim())
    .filter((l) => l && !l.startsWith('(void)') && !l.startsWith('float ') && l !== '__syncthreads();' && l !== '__syncwarp();')
    .map((l) =>
      l
        .replace(/\bconst int64_t |\bint64_t (?=\w+ =)/g, 'let ')
        .replace(/int64_t\(/g, '(')
        .replace(/__trap\(\)/g, 'trap()')
        .replace(/\b(\d+)\b/g, '$1n')
        .replace(/threadIdx\.x/g, 'BigInt(threadIdx)')
        .replace(/blockIdx\.x/g, 'BigInt(blockIdx)')
        .replace(/blockDim\.x/g, 'BigInt(blockDim)'),
    )
    .join('\n');
}

/** Runs the kernel of `source` (one kernel, one tasklet writing `A[...]`) and counts each element it writes. */
function simulate(source: string, N: bigint): { threads: number; hits: Map<bigint, number>; traps: number } {
  const launch = source.indexOf('tlab_launch');
  const preludeStart = source.lastIndexOf('const int64_t __tlab_k0_n0', launch);
  const prelude = source.slice(preludeStart, source.lastIndexOf('if (__tlab_k0_total > 0)', launch));
  const bodyStart = source.indexOf('\n', launch) + 1;
  const write = /float &__tlab_out\d+ = A\[int64_t\((.*)\)\];/.exec(source.slice(bodyStart))!;
  const body = source.slice(bodyStart, bodyStart + write.index);
  // The tasklet sits inside the guards opened since the launch; close them after recording the element.
  const open = (body.match(/\{/g) ?? []).length - (body.match(/\}/g) ?? []).length;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point of the test: the generated index arithmetic, translated to JavaScript, runs for every block and thread
  const run = new Function(
    'N',
    'tlab_max',
    `${toJs(prelude)}\nreturn { blocks: Number(__tlab_k0_total), threads: Number(__tlab_k0_threads), kernel: (blockIdx, threadIdx, blockDim, trap, hit) => {\n${toJs(body)}\nhit(${toJs(write[1]!)});\n${'}'.repeat(open)}\n} };`,
  );
  const { blocks, threads, kernel } = run(N, (a: bigint, b: bigint) => (a > b ? a : b));
  const hits = new Map<bigint, number>();
  let traps = 0;
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < threads; t++) {
      kernel(
        b,
        t,
        threads,
        () => traps++,
        (e: bigint) => hits.set(e, (hits.get(e) ?? 0) + 1),
      );
    }
  }
  return { threads, hits, traps };
}

function exactlyOnce(hits: Map<bigint, number>, N: bigint) {
  expect([...hits.keys()].sort((a, b) => Number(a - b))).toEqual(Array.from({ length: Number(N) }, (_, i) => BigInt(i)));
  expect([...hits.values()].every((c) => c === 1)).toBe(true);
}

const generate = (file: Awaited<ReturnType<typeof readSdfgFile>>, N: bigint) => {
  const analysis = analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null });
  return generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
};

test('a2: one warp per thread-block point, one lane per warp-map point; every element written once', async () => {
  const file = await readSdfgFile(join(corpusDir(), A2));
  expect(findUnsupported(file, 'gpu')).toEqual([]);
  const source = generate(file, 128n);
  expect(source).toContain('if ((int64_t(threadIdx.x) / 32) < __tlab_tb7_total)');
  expect(source).toContain('const int64_t __tlab_w0_lane = int64_t(threadIdx.x) % 32;');
  expect(source).toContain('__syncwarp();');
  const { threads, hits, traps } = simulate(source, 128n);
  expect(threads).toBe(32);
  expect(traps).toBe(0);
  exactlyOnce(hits, 128n);
});

test('two warps per block (w_i=0:64:32, b_i=0:N:64): the block has 64 threads and still covers each element once', () => {
  const file = a2Variant((nodes) => {
    setRange(
      nodes.find((n) => n.id === 5)!,
      'N - 1',
      '64',
    );
    setRange(
      nodes.find((n) => n.id === 7)!,
      '63',
      '32',
    );
  });
  const { threads, hits, traps } = simulate(generate(file, 256n), 256n);
  expect(threads).toBe(64);
  expect(traps).toBe(0);
  exactlyOnce(hits, 256n);
});

test('a warp map of 16 points: lanes 16..31 of every warp stay idle', () => {
  const file = a2Variant((nodes) => {
    setRange(
      nodes.find((n) => n.id === 5)!,
      'N - 1',
      '16',
    );
    setRange(
      nodes.find((n) => n.id === 0)!,
      '15',
      '1',
    );
  });
  const { threads, hits } = simulate(generate(file, 64n), 64n);
  expect(threads).toBe(32);
  exactlyOnce(hits, 64n);
});

test('a warp map outside a thread-block map, or with code beside it, is a finding with its JSON path', () => {
  const noBlock = a2Variant((nodes) => {
    nodes.find((n) => n.id === 7)!.attributes.schedule = 'Sequential';
  });
  const f1 = findUnsupported(noBlock, 'gpu');
  expect(f1.map((f) => f.jsonPath)).toContain('$.nodes[0].nodes[0]');
  expect(f1.map((f) => f.message).join('\n')).toMatch(/GPU_Warp map must sit directly in the body of a GPU_ThreadBlock map/);

  const beside = a2Variant((nodes) => {
    nodes.find((n) => n.id === 4)!.scope_entry = '7';
  });
  const f2 = findUnsupported(beside, 'gpu');
  expect(f2.map((f) => f.jsonPath)).toContain('$.nodes[0].nodes[4]');
  expect(f2.map((f) => f.message).join('\n')).toMatch(
    /beside the GPU_Warp maps of thread-block map 'ThreadBlockMap' would run in every lane/,
  );
});

test('argument arrays (CPU_Heap A and B) are reached in the kernel through their argv pointers, not refused', async () => {
  const file = await readSdfgFile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_0.sdfg'));
  expect(findUnsupported(file, 'gpu')).toEqual([]);
  const source = generate(file, 32n);
  const kernel = source.slice(source.indexOf('tlab_launch'), source.indexOf('TLAB_CUDA(cudaGetLastError());'));
  expect(kernel).toContain('= A[int64_t(i + __k0 * 1)];');
  expect(kernel).toMatch(/tlab_atomic_add\(&B\[/);
  // Nothing is read on the host to shadow them.
  expect(source).not.toMatch(/__tlab_k0_v_[AB]\b/);
});

test('a host transient array read in a kernel stays a finding', async () => {
  const json = JSON.parse(readFileSync(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__allocation_lifetime_nested_0.sdfg'), 'utf8'));
  // A becomes a CPU_Heap transient written on the host: memory the program allocates with new[].
  json.attributes._arrays.A.attributes.transient = true;
  const file = parseSdfgJson(json, 'host-transient.sdfg', 1, false);
  const findings = findUnsupported(file, 'gpu');
  expect(findings.map((f) => f.message).join('\n')).toMatch(/host array 'A' \(storage CPU_Heap\) is accessed inside GPU kernel 'm2'/);
});
