/**
 * The host CUDA runtime (native/include/transient_cuda_host_runtime.h, docs/gpu-host.md) on its own: barriers
 * with their CUDA meaning, atomics across OpenMP threads, device memory that host code and out-of-bounds kernels
 * cannot touch silently (each fault names the array), and the stream-ordered pool against CUDA's documented
 * behaviour. tests/fixtures/gpu-host/runtime_checks.cc holds the checks; each runs in its own process.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { crashHint } from '../../electron/runner/overrun.js';
import { removeScratchDirs, run, RUNTIME_INCLUDE, scratchDir } from '../engine/codegen/compile.js';

afterAll(removeScratchDirs);

let binary = '';
beforeAll(async () => {
  const dir = scratchDir('tlab-cuda-host-');
  binary = join(dir, 'runtime_checks');
  const source = join(packageRoot(), 'tests', 'fixtures', 'gpu-host', 'runtime_checks.cc');
  const r = await run('g++', ['-std=c++17', '-O2', '-fopenmp', '-DTLAB_CUDA_HOST', '-I', RUNTIME_INCLUDE, '-o', binary, source]);
  expect(r.code, r.output).toBe(0);
}, 120_000);

const check = (what: string) => run(binary, [what], 60_000);

/** `key=value` pairs of the line that starts with `label`. */
function fields(output: string, label: string): Record<string, number> {
  const line = output.split('\n').find((l) => l.startsWith(`${label} `));
  if (!line) throw new Error(`no line '${label}' in:\n${output}`);
  return Object.fromEntries([...line.matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
}

describe('kernels', () => {
  it('__syncthreads is a barrier: every thread reads its neighbour’s shared slot after the neighbour wrote it', async () => {
    const r = await check('syncthreads');
    expect(r.code, r.output).toBe(0);
    expect(fields(r.output, 'syncthreads')).toEqual({ wrong: 0, error: 0 });
  });

  it('__syncwarp releases a warp whose lanes all arrived, while the other warp never calls it', async () => {
    const r = await check('syncwarp');
    expect(r.code, r.output).toBe(0);
    expect(fields(r.output, 'syncwarp')).toEqual({ wrong: 0, error: 0 });
  });

  it('atomics from 64 blocks over OpenMP threads lose no update', async () => {
    const r = await check('atomics');
    expect(r.output).toContain('atomics sum=4096.0 count=8192');
  });
});

describe('device memory is not host memory', () => {
  it('a kernel writing past the end of an array dies on the guard page, naming the array', async () => {
    const r = await check('oob-guard-page');
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/device memory fault: kernel launch 0 accessed byte 0 after the end of device array 'flx' \(4096 bytes\)/);
    expect(r.output).not.toContain('not reached');
  });

  it('a write into the slack before the guard page is found at the end of the launch: cudaErrorIllegalAddress', async () => {
    const r = await check('oob-slack');
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/kernel launch 0 wrote byte 8 after the end of device array 'lap' \(800 bytes\)/);
    expect(r.output).toContain('slack error=700 an illegal memory access was encountered');
  });

  it('host code reading device memory directly dies, naming the array', async () => {
    const r = await check('host-access');
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/host code accessed device array 'lap' at byte 24 outside a kernel or a copy/);
  });

  it('a kernel touching a block freed to the pool dies, naming the array', async () => {
    const r = await check('use-after-free');
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/kernel launch 0 accessed device array 'flx' after it was freed to the pool/);
  });

  it('a copy that runs past a device allocation is refused with cudaErrorInvalidValue, naming the array', async () => {
    const r = await check('copy-overrun');
    expect(r.output).toMatch(/a copy of 256 bytes runs outside device memory of device array 'lap'/);
    expect(r.output).toContain('copy error=1');
  });

  it('the supervised runner turns the fault line into the error of the mode', () => {
    const output =
      "noise\ntransient-lab: device memory fault: kernel launch 2 accessed byte 0 after the end of device array 'lap' (800 bytes)\n";
    expect(crashHint('SIGSEGV', 'verify-1', output, { symbols: { I: '4' } })).toBe(
      "device memory fault: kernel launch 2 accessed byte 0 after the end of device array 'lap' (800 bytes), with symbols I=4: these sizes may not fit the program's tiling or loop bounds; try larger symbol values (--symbols NAME=V, --default-symbol V)",
    );
  });
});

describe('the stream-ordered pool', () => {
  it('threshold 0: a free block is reused on its stream, not on another before synchronisation; sync releases everything unused', async () => {
    const r = await check('pool-0');
    expect(r.code, r.output).toBe(0);
    expect(fields(r.output, 'alloc-a')).toEqual({ reserved: 12288, reservedHigh: 12288, used: 12288, usedHigh: 12288 });
    expect(fields(r.output, 'free-a')).toMatchObject({ reserved: 12288, used: 0 });
    expect(r.output).toContain('reuse-same-stream yes');
    expect(fields(r.output, 'alloc-b')).toMatchObject({ reserved: 12288, used: 12288 });
    expect(fields(r.output, 'alloc-c-other-stream')).toMatchObject({ reserved: 24576, reservedHigh: 24576 });
    expect(fields(r.output, 'after-sync')).toEqual({ reserved: 0, reservedHigh: 24576, used: 0, usedHigh: 12288 });
    expect(fields(r.output, 'alloc-d')).toMatchObject({ reserved: 4096, used: 4096 });
    // Resetting a high-water mark sets it to the current value (cudaMemPoolSetAttribute with 0).
    expect(fields(r.output, 'reset-high')).toEqual({ reserved: 4096, reservedHigh: 4096, used: 0, usedHigh: 0 });
    expect(fields(r.output, 'trim-0')).toMatchObject({ reserved: 0 });
  });

  it('threshold UINT64_MAX: synchronisation keeps every block, a later allocation reuses one, cudaMemPoolTrimTo releases them', async () => {
    const r = await check('pool-max');
    expect(r.code, r.output).toBe(0);
    expect(fields(r.output, 'after-sync')).toEqual({ reserved: 24576, reservedHigh: 24576, used: 0, usedHigh: 12288 });
    // The smallest cached block that fits, reusable on any stream after the synchronisation.
    expect(fields(r.output, 'alloc-d')).toMatchObject({ reserved: 24576, used: 12288 });
    expect(fields(r.output, 'trim-0')).toMatchObject({ reserved: 0, reservedHigh: 24576 });
  });
});
