/**
 * Profile step 3, run rounds: one runner job per variant and process, round-robin over the variants, through
 * the injected RunnerHost; then each variant's processes pooled into one result.
 */
import { TlabError } from '../errors.js';
import type { ProgramArg } from '../codegen/types.js';
import type { BuiltVariant } from './build-variants.js';
import type { OnProfileProgress } from './options.js';
import type { SampledCall } from './result.js';
import {
  throwIfCancelled,
  type RunJob,
  type RunnerHost,
  type RunnerProgress,
  type VariantGpuTiming,
  type VariantJob,
  type VariantResult,
} from './runner-host.js';
import { settleCalls } from './noise.js';
import { concatTyped, keptPerProcess, maxOf, poolTimings } from './samples.js';
import { quantile } from './stats.js';
import { GUARD_BYTE, GUARD_BYTES, POISON } from './verify.js';

/** The one job every round runs a slice of: all variants, the inputs, the verification settings. */
export function makeRunJob(
  variants: BuiltVariant[],
  inputs: Record<string, Uint8Array>,
  opts: { calls: number; warmup: number; sdfgFile: string; interpose?: boolean },
): RunJob {
  return {
    variants: variants.map((v): VariantJob => ({
      label: v.label,
      mode: v.mode,
      layout: v.layout,
      libPath: v.build.libPath,
      initSymbols: v.program.initSymbols.map((name) => {
        const value = v.program.symbols[name];
        if (value === undefined)
          throw new TlabError('usage', `init symbol ${name} has no value: give --symbols ${name}=V`, { file: opts.sdfgFile });
        return value;
      }),
      args: v.program.args,
      transientIds: v.program.transientIds,
      externals: v.program.externals,
      ...(v.program.gpu ? { gpu: true } : {}),
      ...(v.dace ? { dace: v.dace.call } : {}),
      symbols: Object.fromEntries(Object.entries(v.program.symbols).map(([k, value]) => [k, value.toString()])),
    })),
    inputs,
    calls: opts.calls,
    warmup: opts.warmup,
    settle: settleCalls(opts.warmup),
    poison: POISON,
    guardByte: GUARD_BYTE,
    guardBytes: GUARD_BYTES,
    ...(opts.interpose ? { interpose: true } : {}),
  };
}

// The warm-up's extension lives with the noise detectors, which judge a process that used all of it.
export { settleCalls } from './noise.js';

/** The prepared input bytes by argument name, as a job carries them. */
export function jobInputs(prepared: Array<{ arg: ProgramArg; bytes: Uint8Array }>): Record<string, Uint8Array> {
  const inputs: Record<string, Uint8Array> = {};
  for (const p of prepared) inputs[p.arg.name] = p.bytes;
  return inputs;
}

export interface RunRoundsOptions {
  /** Fresh runner processes per variant (at least 1). */
  processes: number;
  /** Limit for all jobs together, in ms; 0 = none. */
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: OnProfileProgress;
  /** Clock for the deadline (tests). */
  now?: () => number;
}

/**
 * Verifies every variant in a job of its own (two poisoned calls, no timed calls), then runs `processes`
 * rounds of timing jobs; each round runs every variant in a fresh job (so a fresh process) without
 * verification. With processes = 1 the single timing job verifies first.
 *
 * One process per variant: glibc adapts its mmap/trim thresholds to the frees it has seen, so a mode measured
 * after SCOPED in the same process would inherit a heap that no longer faults and look cheaper than it is
 * (measured: SCOPED 11.8k faults per call, the identical POOL code after it 0).
 * Verification in a process of its own (when processes > 1): a timed process then does exactly what a plain C
 * program calling the library does (init, first call, warm-up, timed calls), and its allocator reaches the
 * same steady state at the same call. After two verification calls in the same process, glibc's heap layout
 * settles two calls later (measured on chain, N = 2,000,000: the first two timed calls faulted 11,719 pages,
 * not 15,593). With processes = 1 the one process verifies, then times: a quick run pays no extra process.
 * Several processes per variant, round-robin: on a shared VM one process can run 1.4× slower than the next
 * for its whole life (identical code, tight per-call spread), so one process per mode can rank modes wrongly.
 *
 * Returns every variant's runs: the verification run first (when there is one), then the timing rounds.
 */
export async function runRounds(host: RunnerHost, job: RunJob, opts: RunRoundsOptions): Promise<VariantResult[][]> {
  const now = opts.now ?? Date.now;
  const deadline = opts.timeoutMs > 0 ? now() + opts.timeoutMs : Infinity;
  const processes = Math.max(1, opts.processes);
  const runs: VariantResult[][] = job.variants.map(() => []);
  const runOne = async (i: number, slice: RunJob, where: string) => {
    throwIfCancelled(opts.signal);
    const variant = job.variants[i]!;
    const onProgress = (p: RunnerProgress) => {
      if (p.phase === 'calls') {
        opts.onProgress?.({
          stage: 'calls',
          message: `${p.variant}${where} calls ${p.done ?? 0}/${p.total ?? job.calls}`,
          done: p.done ?? 0,
          total: p.total ?? job.calls,
        });
      } else if (p.phase === 'verify-1' || p.phase === 'verify-2') {
        opts.onProgress?.({ stage: 'verify', message: `verify ${p.variant}` });
      }
    };
    const results = await host.run(
      { ...slice, variants: [variant] },
      // At least a second for a job that starts just before the deadline, so it can fail with a clear timeout.
      { timeoutMs: deadline === Infinity ? 0 : Math.max(1000, deadline - now()), signal: opts.signal, onProgress },
    );
    const result = results[0];
    if (results.length !== 1 || !result)
      throw new TlabError('run', `the runner returned ${results.length} results for the one mode ${variant.label}`);
    if (result.label !== variant.label)
      throw new TlabError('run', `the runner returned results for ${result.label}, expected ${variant.label}`);
    runs[i]!.push(result);
  };
  // With one process (a quick run) verification shares it with the timing, at the cost described above.
  const separate = !job.skipVerification && processes > 1;
  job = { ...job, keepCalls: keptPerProcess(job.calls, processes) };
  if (separate) {
    for (const i of job.variants.keys()) await runOne(i, { ...job, calls: 0, warmup: 0, settle: 0, skipVerification: false }, '');
  }
  for (let round = 0; round < processes; round++) {
    const verifyHere = !separate && !job.skipVerification && round === 0;
    for (const i of job.variants.keys())
      await runOne(i, { ...job, skipVerification: !verifyHere }, processes > 1 ? ` (process ${round + 1}/${processes})` : '');
  }
  return runs;
}

/** One variant's runs in several processes as one result: the first run's verification (when it verified),
 * the init, first call and exit of a run without verification where there is one, and every run's timed
 * calls. */
export function poolRuns(runs: VariantResult[]): VariantResult {
  const [first, ...rest] = runs;
  if (!first) throw new Error('poolRuns: no runs');
  const timing = poolTimings(runs.map((r) => r.timing));
  const sampledCall = pooledSample(runs, timing.totalNs);
  const gpu = poolGpu(runs);
  const interposition = poolInterposition(runs);
  // The verifying process poisons PERSISTENT's allocations inside init and runs two calls before the "first"
  // one: a process that skipped verification has the clean init and the truly cold first call.
  const clean = rest.find((r) => r.outputs === null);
  const pooled = clean
    ? { ...first, initNs: clean.initNs, firstCallNs: clean.firstCallNs, exitNs: clean.exitNs, timing, sampledCall }
    : { ...first, timing, sampledCall };
  const withInterposition = interposition ? { ...pooled, interposition } : pooled;
  return gpu ? { ...withInterposition, gpu } : withInterposition;
}

/** Interposed runs: the calls every process intercepted, the rest as the first process saw it. */
function poolInterposition(runs: VariantResult[]): VariantResult['interposition'] {
  const seen = runs.map((r) => r.interposition).filter((i) => i !== undefined);
  if (!seen.length) return undefined;
  return {
    ...seen[0]!,
    interceptedCalls: seen.reduce((sum, i) => sum + i.interceptedCalls, 0),
    outsideWindowCalls: seen.reduce((sum, i) => sum + i.outsideWindowCalls, 0),
    ...(seen.some((i) => i.sameCall)
      ? {
          sameCall: {
            calls: seen.reduce((sum, i) => sum + (i.sameCall?.calls ?? 0), 0),
            headerNs: seen.reduce((sum, i) => sum + (i.sameCall?.headerNs ?? 0), 0),
            hookNs: seen.reduce((sum, i) => sum + (i.sameCall?.hookNs ?? 0), 0),
          },
        }
      : {}),
  };
}

/** GPU runs: the per-call device columns in the order of the pooled calls, and the pool's high-water marks as
 * the highest any timing process reached (each process has its own default pool). */
function poolGpu(runs: VariantResult[]): VariantGpuTiming | undefined {
  const gpus = runs.map((r) => r.gpu);
  if (!gpus.some((g) => g)) return undefined;
  const pools = gpus.map((g) => g?.pool ?? null).filter((p): p is NonNullable<VariantGpuTiming['pool']> => p !== null);
  const present = gpus.filter((g): g is VariantGpuTiming => g !== undefined);
  return {
    deviceNs: concatTyped(present.map((g) => g.deviceNs)),
    kept: {
      deviceNs: concatTyped(present.map((g) => g.kept.deviceNs)),
      hostReturnNs: concatTyped(present.map((g) => g.kept.hostReturnNs)),
      hostSyncNs: concatTyped(present.map((g) => g.kept.hostSyncNs)),
    },
    pool: pools.length
      ? {
          reservedHighBytes: maxOf(pools.map((p) => p.reservedHighBytes)),
          usedHighBytes: maxOf(pools.map((p) => p.usedHighBytes)),
          releaseThreshold: pools[0]!.releaseThreshold,
        }
      : null,
  };
}

/** Of each process's sampled call, the one nearest the median of all pooled calls, its index moved to the
 * pooled calls (ties: the earlier process). */
function pooledSample(runs: VariantResult[], pooledTotals: Float64Array): SampledCall | null {
  if (!runs.some((r) => r.sampledCall)) return null;
  const median = quantile(Float64Array.from(pooledTotals).sort(), 0.5);
  let best: SampledCall | null = null;
  let offset = 0;
  for (const run of runs) {
    const s = run.sampledCall;
    if (s && (!best || Math.abs(s.totalNs - median) < Math.abs(best.totalNs - median))) best = { ...s, call: s.call + offset };
    offset += run.timing.calls;
  }
  return best;
}
