/**
 * The GPU path's test seam on machines without a CUDA device (docs/gpu.md, "Tests without a device"):
 *
 * - `chainDoubleBuilder` compiles tests/fixtures/gpu/host_memory_device_chain.cc — a TEST DOUBLE of the library
 *   the CUDA generator builds for assets/examples/gpu/chain_gpu.sdfg, whose "device" is host memory — for one
 *   generated program (its mode, EXTERNAL slot offsets and pool release threshold), in place of nvcc. The
 *   runner then drives it through the real GPU path: device arguments, guarded device workspaces, the timed
 *   hook, pool attributes, copies back.
 * - `fakeCudaDevice` compiles tests/fixtures/gpu/host_memory_cudart.cc as a CUDA runtime and driver that list one
 *   device, for the device probe ($TLAB_CUDART and LD_LIBRARY_PATH), so `profile` gets past `requireDevice`.
 *
 * Nothing here is a result: every number a test checks is measured by the runner on the double.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildResult } from '../../../electron/engine/compile/index.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Mode } from '../../../electron/engine/analysis/types.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import type { GeneratedProgram, Layout } from '../../../electron/engine/codegen/types.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import type { ProgramBuilder } from '../../../electron/engine/profile/build-variants.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

export const CHAIN_GPU = join(packageRoot(), 'assets', 'examples', 'gpu', 'chain_gpu.sdfg');
const DOUBLE_SOURCE = join(packageRoot(), 'tests', 'fixtures', 'gpu', 'host_memory_device_chain.cc');
const CUDART_SOURCE = join(packageRoot(), 'tests', 'fixtures', 'gpu', 'host_memory_cudart.cc');
const INCLUDE = join(packageRoot(), 'native', 'include');

export type DoubleFault = 'none' | 'cuda-error' | 'uninitialised' | 'overflow' | 'wrong-result' | 'arg-overrun';
const FAULTS: Record<DoubleFault, number> = {
  none: 0,
  'cuda-error': 1,
  uninitialised: 2,
  overflow: 3,
  'wrong-result': 4,
  'arg-overrun': 5,
};
const MODES: Record<Mode, number> = { SCOPED: 0, PERSISTENT: 1, POOL: 2, EXTERNAL: 3 };

/** The generated chain_gpu program for a mode (N symbols from `n`): what the double must match. */
export async function chainGpuProgram(
  mode: Mode,
  opts: { n?: number; layout?: Layout; poolReleaseThreshold?: bigint } = {},
): Promise<GeneratedProgram> {
  const file = await readSdfgFile(CHAIN_GPU);
  const analysis = analyze(file, { symbols: new Map([['N', BigInt(opts.n ?? 64)]]), defaultSymbol: null, target: null });
  return generateProgram(file, analysis, {
    mode,
    layout: opts.layout ?? 'packed',
    ...(opts.poolReleaseThreshold !== undefined ? { poolReleaseThreshold: opts.poolReleaseThreshold } : {}),
  });
}

function doubleFlags(program: GeneratedProgram, fault: DoubleFault): string[] {
  if (program.name !== 'chain_gpu' || !program.gpu)
    throw new Error(`the host-memory double implements chain_gpu only, not ${program.name}`);
  const flags = [
    `-DTLAB_DOUBLE_MODE=${MODES[program.mode]}`,
    `-DTLAB_DOUBLE_FAULT=${FAULTS[fault]}`,
    `-DTLAB_DOUBLE_THRESHOLD=${program.gpu.poolReleaseThreshold}ULL`,
  ];
  const ext = program.externals.find((e) => e.storage === 'GPU_Global');
  if (program.mode === 'EXTERNAL') {
    if (!ext) throw new Error('EXTERNAL chain_gpu without a GPU_Global workspace');
    const offsets = program.transientIds.map((id) => ext.slots.find((s) => s.id === id)!.offset);
    flags.push(`-DTLAB_DOUBLE_OFFSETS={${offsets.map((o) => `${o}ULL`).join(',')}}`, `-DTLAB_DOUBLE_WORKSPACE=${ext.bytes}ULL`);
  }
  return flags;
}

/** Compiles the double for `program` into `out`. */
export function compileChainDouble(program: GeneratedProgram, out: string, fault: DoubleFault = 'none'): void {
  execFileSync(
    'g++',
    ['-std=c++17', '-shared', '-fPIC', '-O1', '-Wall', '-Wextra', '-I', INCLUDE, ...doubleFlags(program, fault), DOUBLE_SOURCE, '-o', out],
    { stdio: 'pipe' },
  );
}

/** A ProgramBuilder (buildVariants/buildFolder) that builds the host-memory double instead of running nvcc. */
export function chainDoubleBuilder(fault: DoubleFault = 'none'): ProgramBuilder {
  return async (program, opts) => {
    const started = performance.now();
    mkdirSync(opts.runDir, { recursive: true });
    const libPath = join(opts.runDir, `${opts.label ?? program.mode}-host-memory-double.so`);
    const flags = doubleFlags(program, fault);
    compileChainDouble(program, libPath, fault);
    const result: BuildResult = {
      language: 'cuda',
      libPath,
      cached: false,
      ms: performance.now() - started,
      key: createHash('sha256')
        .update(`${program.source}\0${flags.join(' ')}`)
        .digest('hex'),
      compiler: { command: ['g++'], name: 'g++ (host-memory test double)', version: '', versionLine: 'g++ host-memory test double' },
      openmp: false,
      flags,
      cxxflags: [],
      entryDir: opts.runDir,
      warnings: [],
    };
    return result;
  };
}

/** The runtime ($TLAB_CUDART) and the folder holding `libcuda.so.1` (LD_LIBRARY_PATH) of the fake device, and
 * the environment a child needs to see it. */
export function fakeCudaDevice(dir: string): { runtime: string; driverDir: string; env: NodeJS.ProcessEnv } {
  const driverDir = join(dir, 'driver');
  mkdirSync(driverDir, { recursive: true });
  const runtime = join(dir, 'libcudart-host-memory-double.so');
  const compile = (out: string) =>
    execFileSync('g++', ['-std=c++17', '-shared', '-fPIC', '-O1', CUDART_SOURCE, '-o', out], { stdio: 'pipe' });
  compile(runtime);
  compile(join(driverDir, 'libcuda.so.1'));
  const env = { ...process.env, TLAB_CUDART: runtime, LD_LIBRARY_PATH: [driverDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
  return { runtime, driverDir, env };
}
