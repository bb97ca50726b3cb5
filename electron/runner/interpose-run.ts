/**
 * `profile --interpose` in the runner (docs/interpose.md): hooks a library's allocation calls right after it is
 * loaded — before init, so init's allocations are seen and left out of the program calls' figures — and reports
 * what the hooks saw next to what the library's own runtime header recorded in the same (last) call.
 */
import type { InterpositionFacts } from '../engine/profile/result.js';
import type { VariantTiming } from '../engine/profile/runner-host.js';
import type { NativeAddon } from './native.js';

type Library = ReturnType<NativeAddon['load']>;

export interface Interposition {
  /** After a `run` call (verification): the hooks' figures (`stats`) and the header's of the same call. */
  sameCall(stats: ReturnType<Library['run']>): void;
  /** Call right before exit (which resets the header's buffer): reads the header's records of the last call. */
  beforeExit(): void;
  /** The facts for the variant's result, after its timed calls and beforeExit(). */
  facts(timing: VariantTiming): InterpositionFacts;
}

export function startInterposition(addon: NativeAddon, lib: Library): Interposition {
  const report = lib.interpose(true);
  const outsideBefore = addon.interposedCallsOutsideWindows();
  let headerAllocations: number | null = null;
  const same = { calls: 0, headerNs: 0, hookNs: 0 };
  return {
    sameCall(stats) {
      same.calls += stats.totalNs.length;
      same.headerNs += lib.lastEvents().reduce((sum, e) => sum + (e.t1 - e.t0), 0);
      for (let i = 0; i < stats.totalNs.length; i++) same.hookNs += stats.allocNs[i]! + stats.freeNs[i]!;
    },
    beforeExit() {
      // The header buffer is reset before every interposed call, so it holds the last call's own records.
      headerAllocations = lib.lastEvents().filter((e) => e.kind === 'alloc').length;
    },
    facts(timing) {
      return {
        patched: report.patched,
        skipped: report.skipped,
        interceptedCalls: timing.sums.allocs + timing.sums.frees,
        outsideWindowCalls: addon.interposedCallsOutsideWindows() - outsideBefore,
        expectedAllocationsPerCall: headerAllocations,
        ...(same.calls ? { sameCall: { ...same } } : {}),
      };
    },
  };
}
