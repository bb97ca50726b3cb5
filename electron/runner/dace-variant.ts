/**
 * The runner's path for a DaCe-built library (docs/dace-folders.md): the same steps and result as the CPU path
 * in runner-entry.ts, with every DaCe function called through libffi by the build's own signatures
 * (`loadDace`). What differs, because the library has no Transient Lab runtime in it:
 *
 * - no allocation events of its own: the library is interposed by default right after load, before init
 *   (docs/interpose.md), so its allocation columns and sampled call are the hooks'; where its GOT cannot be patched,
 *   allocations are not measured (`allocationsMeasured: false`, with the reason). No transient can be named as
 *   poisoned;
 * - verification installs the library's own External layout (DaCe's set function) in a workspace filled with the
 *   call's poison byte, so a read of a workspace slot before any write still shows as a difference between the
 *   two verification calls; no guard bytes between slots (the library decides the offsets).
 */
import type { RunJob, VariantJob, VariantResult } from './messages.js';
import { emptyTiming, processTiming } from '../engine/profile/samples.js';
import { clearProgressPage } from './progress-file.js';
import { alignedBytes, freshArgs, keepCalls, requireIntactArguments, sampledCall, snapshotArrays } from './runner-helpers.js';
import type { VariantContext } from './gpu-variant.js';
import type { loadNativeAddon } from './native.js';

type Addon = ReturnType<typeof loadNativeAddon>;

export function runDaceVariant(addon: Addon, v: VariantJob, job: RunJob, ctx: VariantContext): VariantResult {
  const spec = v.dace!;
  ctx.enter('load');
  const lib = addon.loadDace(v.libPath, spec);
  // Before init, as `profile --interpose` does: init's allocations are then outside the program call windows.
  let report: ReturnType<typeof lib.interpose> | null = null;
  let unmeasured = '';
  try {
    report = lib.interpose(true);
  } catch (err) {
    unmeasured = `interposition could not be applied: ${err instanceof Error ? err.message : String(err)}`;
  }
  const outsideBefore = addon.interposedCallsOutsideWindows();
  const symbols = BigInt64Array.from(v.initSymbols);
  ctx.enter('init');
  const initNs = lib.init(symbols);
  ctx.enter('workspace');
  const workspaceBytes: Record<string, bigint> = {};
  for (const storage of spec.storages) workspaceBytes[storage] = lib.externalSize(storage, symbols);
  const workspace = (storage: string, fill: number) => {
    const bytes = workspaceBytes[storage]!;
    if (bytes > BigInt(Number.MAX_SAFE_INTEGER))
      throw new Error(`${v.label}: __dace_get_external_memory_size_${storage} says ${bytes} bytes`);
    // At least one byte: a zero-size workspace still needs a valid base pointer.
    return alignedBytes(Math.max(1, Number(bytes))).fill(fill);
  };

  let outputs: Record<string, Uint8Array> | null = null;
  let outputsSecond: Record<string, Uint8Array> | null = null;
  if (!job.skipVerification) {
    for (let k = 0; k < 2; k++) {
      for (const storage of spec.storages) lib.setExternal(storage, workspace(storage, job.poison[k as 0 | 1]), symbols);
      const { views, arrays, arena } = freshArgs(v, job.inputs, job.guardByte);
      ctx.enter(k === 0 ? 'verify-1' : 'verify-2');
      lib.run(views, 1);
      requireIntactArguments(arena, job.guardByte, v);
      const snapshot = snapshotArrays(arrays);
      if (k === 0) outputs = snapshot;
      else outputsSecond = snapshot;
    }
  }
  for (const storage of spec.storages) lib.setExternal(storage, workspace(storage, 0), symbols);
  let timing = emptyTiming();
  let firstCallNs = NaN;
  let sample: ReturnType<typeof lib.timeCalls>['stats']['sample'] = null;
  if (job.calls > 0) {
    const { views, arena } = freshArgs(v, job.inputs, job.guardByte);
    if (ctx.progressFile) clearProgressPage(ctx.progressFile);
    ctx.enter('first-call');
    const timed = lib.timeCalls(views, job.warmup, job.settle, job.calls, ctx.progressFile);
    requireIntactArguments(arena, job.guardByte, v);
    timing = processTiming(timed.stats, keepCalls(job), timed.loopWallNs, timed.warmupCalls);
    firstCallNs = timed.firstCallNs;
    sample = timed.stats.sample;
    ctx.timedDone(job.calls, job.calls);
  }
  ctx.enter('exit');
  const exitNs = lib.exit();
  return {
    label: v.label,
    initNs,
    exitNs,
    firstCallNs,
    workspaceBytes,
    outputs,
    outputsSecond,
    poisonedTransients: [],
    guardViolations: [],
    timing,
    sampledCall: sample ? sampledCall(sample, v.transientIds) : null,
    ...(report
      ? {
          interposition: {
            patched: report.patched,
            skipped: report.skipped,
            interceptedCalls: timing.sums.allocs + timing.sums.frees,
            outsideWindowCalls: addon.interposedCallsOutsideWindows() - outsideBefore,
            // The runner has no analysis: the engine fills in what the folder's SDFG says (assemble.ts).
            expectedAllocationsPerCall: null,
          },
        }
      : { allocationsMeasured: false as const, allocationsUnmeasured: unmeasured }),
  };
}
