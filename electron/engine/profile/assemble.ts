/** Profile step 5, assemble: the `transient-lab/profile@1` document from the plan, the builds and the runs. */
import { createHash } from 'node:crypto';
import type { ProgramArg } from '../codegen/types.js';
import type { BuiltVariant } from './build-variants.js';
import { PER_CALL_COLUMNS, type NumberColumns } from './columns.js';
import { gatherCOrder } from './inputs.js';
import type { ProfileOptions } from './options.js';
import { interpositionFinding, interpositionReport } from './interpose.js';
import type { ProfilePlan } from './plan.js';
import { jsonInteger } from '../json.js';
import { PROFILE_SCHEMA, type GpuModeResult, type ModeResult, type ProfileResult } from './result.js';
import type { VariantResult } from './runner-host.js';
import { SETTLED_FAULTS } from './noise.js';
import { maxOf, sortedCopy } from './samples.js';
import { quantile, summaryOf } from './stats.js';
import { libraryImplText } from '../sdfg/expand/impl.js';

/** One mode's row: its build, the pooled timings and their summary (exact over every timed call), the kept
 * per-call rows (samples.ts), and the checksums of its outputs. */
function modeResult(v: BuiltVariant, r: VariantResult, args: ProgramArg[]): ModeResult {
  const checksums: Record<string, string> = {};
  if (r.outputs) {
    for (const arg of args) {
      const bytes = r.outputs[arg.name];
      if (bytes) checksums[arg.name] = createHash('sha256').update(gatherCOrder(arg, bytes).data).digest('hex');
    }
  }
  const t = r.timing;
  const k = t.kept;
  const sampled = k.totalNs.length < t.calls;
  return {
    mode: v.mode,
    layout: v.layout,
    label: v.label,
    build: { ms: v.build.ms, cached: v.build.cached, flags: v.build.flags },
    initNs: r.initNs,
    exitNs: r.exitNs,
    firstCallNs: r.firstCallNs,
    warmupCalls: t.warmupCalls,
    // Plain arrays: the result is JSON.
    calls: Object.fromEntries(PER_CALL_COLUMNS.map(({ name }) => [name, Array.from(k[name])])) as NumberColumns,
    ...(sampled ? { sampling: { calls: t.calls, keptPerProcess: t.keptPerProcess } } : {}),
    eventsOverflowed: t.overflowed,
    runnerOverheadNsPerCall: t.calls ? (t.batchWallNs - t.sums.totalNs) / t.calls : NaN,
    summary: summaryOf(sortedCopy(t.totalNs), t.sums),
    sampledCall: r.sampledCall,
    workspaceBytes: Object.fromEntries(Object.entries(r.workspaceBytes).map(([k, b]) => [k, Number(b)])),
    outputChecksums: checksums,
    ...(r.gpu ? { gpu: gpuModeResult(r.gpu) } : {}),
    ...unmeasured(r),
    ...(r.interposition ? { interposition: r.interposition } : {}),
    ...(v.dace
      ? {
          daceFolder: { path: v.dace.folder, sdfgSha256: v.dace.sdfgSha256, modeReason: v.dace.modeReason, builtBy: v.dace.builtBy },
        }
      : {}),
  };
}

/** Allocation columns that are not measurements: the library records none and could not be interposed, or the hooks
 * saw nothing although the program allocates (it bypasses them) — unknown, never 0. */
function unmeasured(r: VariantResult): Pick<ModeResult, 'allocationsMeasured' | 'allocationsUnmeasured'> {
  if (r.allocationsMeasured === false)
    return { allocationsMeasured: false, ...(r.allocationsUnmeasured ? { allocationsUnmeasured: r.allocationsUnmeasured } : {}) };
  if (r.interposition && interpositionFinding(r.label, r.interposition) !== null) {
    return {
      allocationsMeasured: false,
      allocationsUnmeasured: `interposition intercepted none of the ${r.interposition.expectedAllocationsPerCall} allocations per call the program makes: the library bypasses it (see the warning)`,
    };
  }
  return {};
}

function gpuModeResult(g: NonNullable<VariantResult['gpu']>): GpuModeResult {
  return {
    deviceNs: Array.from(g.kept.deviceNs),
    deviceMedianNs: g.deviceNs.length ? quantile(sortedCopy(g.deviceNs), 0.5) : NaN,
    hostReturnNs: Array.from(g.kept.hostReturnNs),
    hostSyncNs: Array.from(g.kept.hostSyncNs),
    pool: g.pool
      ? {
          reservedHighBytes: g.pool.reservedHighBytes,
          usedHighBytes: g.pool.usedHighBytes,
          releaseThreshold: g.pool.releaseThreshold.toString(),
        }
      : null,
  };
}

/** The bytes a mode holds from init on (the analysis's sizes), when they are known and fit a double exactly. */
function withInitBytes(m: ModeResult, bytes: bigint | null): ModeResult {
  return bytes !== null && bytes <= BigInt(Number.MAX_SAFE_INTEGER) ? { ...m, initBytes: Number(bytes) } : m;
}

/**
 * Marks each mode whose library is an earlier mode's (the same cache key: the same generated code, flags and
 * runtime). A program with nothing for the modes to change (example.sdfg: no transient) builds one library five
 * times, and a verdict between two of them would credit a mode with the machine's noise.
 */
function withSameCode(built: BuiltVariant[], modes: ModeResult[]): ModeResult[] {
  return modes.map((m, i) => {
    const v = built[i]!;
    if (v.dace) return m;
    const first = built.findIndex((w) => !w.dace && w.build.key === v.build.key);
    return first >= 0 && first < i ? { ...m, sameCodeAs: built[first]!.label } : m;
  });
}

/** Facts about the run that are not warnings: what the numbers mean. */
function profileNotes(built: BuiltVariant[]): string[] {
  const notes: string[] = [];
  const scoped = built.find((v) => v.mode === 'SCOPED');
  const pool = built.find((v) => v.mode === 'POOL');
  if (scoped && pool && scoped.build.key === pool.build.key) {
    notes.push(
      'POOL generated the same code as SCOPED: on CPU, pooling only applies to GPU_Global arrays, so POOL and SCOPED time the same program.',
    );
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
 * two steady states, and another mode with the same code may have drawn differently. `faultMedians`: each
 * timing process's median faults per call, over all its calls (VariantTiming).
 */
function allocatorStateWarnings(modes: Array<{ label: string; faultMedians: readonly number[] }>): string[] {
  const out: string[] = [];
  for (const m of modes) {
    const medians = m.faultMedians;
    const processes = medians.length;
    if (processes < 2) continue;
    const unsettled = medians.filter((f) => f > SETTLED_FAULTS);
    if (unsettled.length === 0 || unsettled.length === processes) continue;
    out.push(
      `${m.label}: ${unsettled.length} of ${processes} runner processes kept faulting about ${Math.round(maxOf(unsettled))} pages per call ` +
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
  // A DaCe build's runner has no analysis: what the folder's SDFG says the library allocates per call is ours.
  const runs = results.map((r, i) => {
    const dace = built[i]!.dace;
    return dace && r.interposition
      ? { ...r, interposition: { ...r.interposition, expectedAllocationsPerCall: dace.expectedAllocationsPerCall } }
      : r;
  });
  const modes = withSameCode(
    built,
    built.map((v, i) => withInitBytes(modeResult(v, runs[i]!, plan.args), plan.analysis.modes[v.mode]?.init.bytes ?? null)),
  );
  const interposed = interpositionReport(runs.map((r, i) => ({ ...r, dace: built[i]!.dace !== undefined })));
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
      ...(libraryImplText(plan.analysis.libraryImpl) === 'pure' ? {} : { libraryImpl: libraryImplText(plan.analysis.libraryImpl) }),
      ...(plan.derivedSymbols
        ? { derivedSymbols: Object.fromEntries(Object.entries(plan.derivedSymbols).map(([k, v]) => [k, jsonInteger(v)])) }
        : {}),
    },
    ...(plan.analysis.libraryExpansions.length ? { libraryNodes: plan.analysis.libraryExpansions.map((e) => ({ ...e })) } : {}),
    modes,
    verification: input.verification,
    notes: [...profileNotes(built), ...interposed.notes],
    warnings: [
      ...input.warnings,
      ...interposed.warnings,
      ...allocatorStateWarnings(modes.map((m, i) => ({ label: m.label, faultMedians: results[i]!.timing.faultMedians }))),
    ],
    ...(plan.device ? { device: plan.device } : {}),
    ...(plan.gpuBackend ? { backend: plan.gpuBackend === 'host' ? ('cuda-host' as const) : ('cuda' as const) } : {}),
  };
}
