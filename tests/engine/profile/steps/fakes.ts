/** Synthetic step inputs: runner results, built variants and a fake RunnerHost, so each profile step can be
 * tested alone, without a compiler, the addon or a child process. */
import type { ProgramArg } from '../../../../electron/engine/codegen/types.js';
import type { BuildResult } from '../../../../electron/engine/compile/index.js';
import type { BuiltVariant } from '../../../../electron/engine/profile/build-variants.js';
import type { SampledCall } from '../../../../electron/engine/profile/result.js';
import type { RunJob, RunnerHost, RunOptions, VariantResult, VariantTiming } from '../../../../electron/engine/profile/runner-host.js';
import { emptyTiming, MAX_KEPT_CALLS, processTiming } from '../../../../electron/engine/profile/samples.js';
import { handProgram } from '../hand-program.js';
import type { Mode } from '../../../../electron/engine/analysis/types.js';

/** The one output of the verify tests' programs: `y`, two doubles it writes. */
export const y: ProgramArg = {
  name: 'y',
  kind: 'array',
  dtype: 'float64',
  ctype: 'double',
  elementBytes: 8,
  shape: [2n],
  totalElements: 2n,
  strides: [1n],
  written: true,
  read: false,
};

/** Float64 values as an output's bytes. */
export const bytes = (...values: number[]) => new Uint8Array(Float64Array.from(values).buffer);

export function fakeResult(
  label: string,
  opts: {
    calls?: number[];
    outputs?: Record<string, Uint8Array> | null;
    second?: Record<string, Uint8Array> | null;
    poisoned?: string[];
    sample?: SampledCall | null;
  } = {},
): VariantResult {
  const calls = opts.calls ?? [100, 200, 300];
  return {
    label,
    initNs: 10,
    exitNs: 5,
    firstCallNs: 400,
    workspaceBytes: {},
    outputs: opts.outputs === undefined ? null : opts.outputs,
    outputsSecond: opts.second === undefined ? (opts.outputs ?? null) : opts.second,
    poisonedTransients: opts.poisoned ?? [],
    guardViolations: [],
    sampledCall: opts.sample ?? null,
    timing: fakeTiming(calls),
  };
}

/** One process's timing of these call times, as the runner child sends it (samples.ts processTiming): 10 ns
 * allocating, 5 ns freeing, one alloc and one free of 128 bytes and 2 page faults per call, unless `columns`
 * says otherwise. A verification-only run (no calls) times nothing and warms up nothing. */
export function fakeTiming(calls: number[], columns: { minorFaults?: number[]; keep?: number } = {}): VariantTiming {
  if (!calls.length) return emptyTiming();
  const n = calls.length;
  const stats = {
    totalNs: Float64Array.from(calls),
    allocNs: new Float64Array(n).fill(10),
    freeNs: new Float64Array(n).fill(5),
    allocs: new Uint32Array(n).fill(1),
    frees: new Uint32Array(n).fill(1),
    allocBytes: new Float64Array(n).fill(128),
    minorFaults: columns.minorFaults ? Float64Array.from(columns.minorFaults) : new Float64Array(n).fill(2),
    overflowed: false,
  };
  return processTiming(stats, columns.keep ?? MAX_KEPT_CALLS, calls.reduce((a, b) => a + b, 0) + 30 * n, 3);
}

export function fakeBuild(key: string, warnings: string[] = []): BuildResult {
  return {
    libPath: `/nonexistent/${key}.so`,
    cached: false,
    ms: 12,
    key,
    compiler: { command: ['g++'], name: 'g++', version: '12', versionLine: 'g++ 12' },
    openmp: false,
    flags: ['-std=c++20', '-O3', '-march=native', '-shared'],
    cxxflags: ['-O3', '-march=native'],
    entryDir: '/nonexistent',
    warnings,
  };
}

export function builtVariant(mode: Mode, key: string, layout: 'dace' | 'packed' | null = null): BuiltVariant {
  const label = mode === 'EXTERNAL' ? `EXTERNAL (${layout ?? 'packed'})` : mode;
  return { mode, layout: mode === 'EXTERNAL' ? (layout ?? 'packed') : null, label, program: handProgram({ mode }), build: fakeBuild(key) };
}

/** Records every job and answers each with a synthetic result per variant; `hook` may throw or cancel. */
export class FakeHost implements RunnerHost {
  readonly jobs: Array<{ job: RunJob; opts: RunOptions }> = [];
  cancelled = 0;
  constructor(private readonly hook: (job: RunJob, opts: RunOptions, index: number) => VariantResult[] | void = () => {}) {}
  async run(job: RunJob, opts: RunOptions = {}): Promise<VariantResult[]> {
    this.jobs.push({ job, opts });
    opts.onProgress?.({ variant: job.variants[0]!.label, phase: job.skipVerification ? 'calls' : 'verify-1' });
    opts.onProgress?.({ variant: job.variants[0]!.label, phase: 'calls', done: job.calls, total: job.calls });
    const custom = this.hook(job, opts, this.jobs.length - 1);
    if (custom) return custom;
    return job.variants.map((v) =>
      fakeResult(v.label, { calls: [this.jobs.length * 100], outputs: job.skipVerification ? null : { y: new Uint8Array(8) } }),
    );
  }
  cancel(): void {
    this.cancelled++;
  }
}

/** A sampled call with one allocation and its free of transient 0:tmp. */
export function fakeSample(call: number, totalNs: number): SampledCall {
  return {
    call,
    totalNs,
    overflowed: false,
    events: [
      { transient: '0:tmp', kind: 'alloc', startNs: 10, durationNs: 5, bytes: 128 },
      { transient: '0:tmp', kind: 'free', startNs: totalNs - 20, durationNs: 3, bytes: 128 },
    ],
  };
}
