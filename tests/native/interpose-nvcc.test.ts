/**
 * Interposition of the real CUDA runtime's allocation API (docs/interpose.md): a library nvcc built with
 * -cudart=shared, like our GPU programs, imports cudaMalloc & co. from libcudart.so, and those GOT slots are patched.
 * Nothing is executed (this machine has no GPU): that the hooks then time real device allocations is untested here
 * (the host-memory stand-in of interpose.test.ts runs them). A file of its own: the hooks remember the first
 * cudaMalloc they forward to, and the stand-in's would refuse libcudart's. Skipped without nvcc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/engine/paths.js';
import { loadNativeAddon } from '../../electron/runner/native.js';
import { fixtureBuilds, type FixtureBuilds } from './fixtureBuild.js';

const CUDA = '/usr/local/cuda';
const nvcc = [join(CUDA, 'bin', 'nvcc'), '/usr/local/bin/nvcc'].find((p) => existsSync(p));

describe.skipIf(!nvcc)('interposition of an nvcc-built library', () => {
  let builds: FixtureBuilds;
  let lib: string;
  beforeAll(() => {
    builds = fixtureBuilds();
    lib = join(builds.dir, 'libinterpose_cuda.so');
    const source = join(packageRoot(), 'tests', 'native', 'fixtures', 'interpose_cuda.cu');
    const include = join(packageRoot(), 'native', 'include');
    execFileSync(
      nvcc!,
      ['-std=c++17', '-shared', '-Xcompiler=-fPIC', '-cudart=shared', '-I', include, source, '-o', lib, `-Xlinker`, `-rpath=${CUDA}/lib64`],
      {
        stdio: 'pipe',
      },
    );
  }, 300_000);
  afterAll(() => builds?.dispose());

  it("patches the GOT slots of libcudart's allocation functions", () => {
    const library = loadNativeAddon().load(lib);
    const report = library.interpose(true);
    expect(report.patched).toEqual([
      'cudaFree',
      'cudaFreeAsync',
      'cudaFreeHost',
      'cudaMalloc',
      'cudaMallocAsync',
      'cudaMallocFromPoolAsync',
      'cudaMallocHost',
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.slots).toBe(7);
  });
});
