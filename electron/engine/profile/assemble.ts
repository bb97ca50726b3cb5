/** Profile step 5, assemble: the `transient-lab/profile@1` document from the plan, the builds and the runs. */
import { createHash } from 'node:crypto';
import type { ProgramArg } from '../codegen/types.js';
import type { BuiltVariant } from './build-variants.js';
import { gatherCOrder } from './inputs.js';
import type { ProfileOptions } from './options.js';
import type { ProfilePlan } from './plan.js';
import { PROFILE_SCHEMA, type GpuModeResult, type JsonInteger, type ModeResult, type ProfileResult } from './result.js';
import type { VariantResult } from './runner-host.js';
import { SETTLED_FAULTS } from './noise.js';
import { quantile, summarize } from './stats.js';

/** Symbol values in JSON: numbers, or decimal strings beyond 2^53. */
export function jsonInteger(v: bigint): JsonInteger {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** One mode's row: its build, the pooled timings and their summary, and the checksums of its outputs. */
export function modeResult(v: BuiltVariant, r: VariantResult, args: ProgramArg[]): ModeResult {
  const checksums: Record<string, string> = {};
  if (r.outputs) {
    for (const arg of args) {
      const bytes = r.outputs[arg.name];
      if (bytes) checksums[arg.name] = createHash('sha256').update(gatherCOrder(arg, bytes).data).digest('hex');
    }
  }
  const t = r.timing;
  return {
    mode: v.mode,
    layout: v.layout,
    label: v.label,
    build: { ms: v.build.ms, cached: v.build.cached, flags: v.build.flags },
    initNs: r.initNs,
    exitNs: r.exitNs,
    firstCallNs: r.firstCallNs,
    warmupCalls: t.warmupCalls,
    calls: {
      totalNs: t.totalNs,
      allocNs: t.allocNs,
      freeNs: t.freeNs,
      allocs: t.allocs,
      frees: t.frees,
      allocBytes: t.allocBytes,
      minorFaults: t.minorFaults,
    },
    eventsOverflowed: t.overflowed,
    runnerOverheadNsPerCall: t.totalNs.length ? (t.batchWallNs - t.totalNs.reduce((a, b) => a + b, 0)) / t.totalNs.length : NaN,
    summary: summarize(t),
    sampledCall: r.sampledCall,
    workspaceBytes: Object.fromEntries(Object.entries(r.workspaceBytes).map(([k, b]) => [k, Number(b)])),
    outputChecksums: checksums,
    ...(r.gpu ? { gpu: gpuModeResult(r.gpu) } : {}),
  };
}

function gpuModeResult(g: NonNullable<VariantResult['gpu']>): GpuModeResult {
  return {
    deviceNs: g.deviceNs,
    deviceMedianNs: g.deviceNs.length ? quantile([...g.deviceNs].sort((a, b) => a - b), 0.5) : NaN,
    hostReturnNs: g.hostReturnNs,
    hostSyncNs: g.hostSyncNs,
    pool: g.pool ? { reservedHighBytes: g.pool.reservedHighBytes, usedHighBytes: g.pool.usedHighBytes, releaseThreshold: g.pool.releaseThreshold.toString() } : null,
  };
}

/** The bytes a mode holds from init on (the analysis's sizes), when they are known and fit a double exactly. */
function withInitBytes(m: ModeResult, bytes: bigint | null): ModeResult {
  return bytes !== null && bytes <= BigInt(Number.MAX_SAFE_INTEGER) ? { ...m, initBytes: Number(bytes) } : m;
}

/** Facts about the run that are not warnings: what the numbers mean. */
export function profileNotes(built: BuiltVariant[]): string[] {
  const notes: string[] = [];
  const scoped = built.find((v) => v.mode === 'SCOPED');
  const pool = built.find((v) => v.mode === 'POOL');
  if (scoped && pool && scoped.build.key === pool.build.key) {
    notes.push('POOL generated the same code as SCOPED: on CPU, pooling only applies to GPU_Global arrays, so POOL and SCOPED time the same program.');
  }
  if (pool?.program.gpu && !pool.program.gpu.pooled) {
    notes.push('POOL allocates nothing from the stream-ordered pool here: the program has no transient GPU_Global array to pool.');
  }
  return notes;
}


/**
 * A mode whose runner processes ended in different allocator states: some settled (no page faults per call),
 * others kept faulting on every call. Where glibc puts a program's large blocks depends on the heap's history
 * (docs/profile.md, Timing), and a process that did not settle within the warm-up stays that way: its calls can
 * cost many times those of the settled ones, for the same code. Said, because the mode's median then mixes
 * two steady states, and another mode with the same code may have drawn differently.
 */
export function allocatorStateWarnings(modes: ModeResult[], calls: number): string[] {
  const out: string[] = [];
  if (calls <= 0) return out;
  for (const m of modes) {
    const faults = m.calls.minorFaults;
    const processes = Math.floor(faults.length / calls);
    if (processes < 2) continue;
    const medians = Array.from({ length: processes }, (_, p) => quantile(faults.slice(p * calls, (p + 1) * calls).sort((a, b) => a - b), 0.5));
    const unsettled = medians.filter((f) => f > SETTLED_FAULTS);
    if (unsettled.length === 0 || unsettled.length === processes) continue;
    out.push(
      `${m.label}: ${unsettled.length} of ${processes} runner processes kept faulting about ${Math.round(Math.max(...unsettled))} pages per call ` +
        `while the others settled: glibc ended in two different states, so this mode's numbers mix two steady states. ` +
        `Rerun, or use more processes (--processes) and compare them.`,
    );
  }
  return out;
}

export interface AssembleInput {
  plan: ProfilePlan;
  built: BuiltVariant[];
  /** Pooled, one per built variant, in the same order. */
  results: VariantResult[];
  verification: ProfileResult['verification'];
  options: Pick<ProfileOptions, 'layout' | 'calls' | 'warmup' | 'processes' | 'seed' | 'inputs'>;
  machine: ProfileResult['machine'];
  /** Analysis, build and machine warnings, in that order. */
  warnings: string[];
  /** When the run ended (default: now). */
  createdAt?: Date;
}

export function assembleResult(input: AssembleInput): ProfileResult {
  const { plan, built, results, options } = input;
  if (results.length !== built.length) throw new Error(`assembleResult: ${built.length} variants but ${results.length} results`);
  const gpuInfo = built.find((v) => v.program.gpu)?.program.gpu;
  const modes = built.map((v, i) => withInitBytes(modeResult(v, results[i]!, plan.args), plan.analysis.modes[v.mode]?.init.bytes ?? null));
  return {
    schema: PROFILE_SCHEMA,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
    program: { name: plan.name, file: plan.filePath, hash: plan.fileHash },
    machine: input.machine,
    settings: {
      modes: [...new Set(built.map((v) => v.mode))],
      layout: options.layout,
      calls: options.calls,
      warmup: options.warmup,
      processes: Math.max(1, options.processes),
      symbols: Object.fromEntries(Object.entries(plan.symbols).map(([k, v]) => [k, jsonInteger(v)])),
      seed: jsonInteger(options.seed),
      inputs: Object.fromEntries(options.inputs),
      cxxflags: built[0]?.build.cxxflags ?? [],
      ...(gpuInfo ? { poolReleaseThreshold: gpuInfo.poolReleaseThreshold.toString() } : {}),
    },
    modes,
    verification: input.verification,
    notes: profileNotes(built),
    warnings: [...input.warnings, ...allocatorStateWarnings(modes, options.calls)],
    ...(plan.device ? { device: plan.device } : {}),
  };
}
