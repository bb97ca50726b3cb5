/**
 * Interposition on our own generated code (docs/interpose.md): for every mode of chain (four N-element transients),
 * the counts and bytes the hooks see in each program call are exactly those our runtime header records in the
 * same call, and PERSISTENT's allocations in init are not counted (they are outside the program call window).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllocEvent, CallStats } from '../../native/index.js';
import { examplesDir } from '../../electron/engine/paths.js';
import { buildVariants, type BuiltVariant } from '../../electron/engine/profile/build-variants.js';
import { prepareInputs } from '../../electron/engine/profile/inputs.js';
import { planProfile, type ProfilePlan } from '../../electron/engine/profile/plan.js';
import { loadNativeAddon } from '../../electron/runner/native.js';
import { argView } from '../../electron/runner/runner-helpers.js';

const N = 4096n;

function headerTotals(events: AllocEvent[]) {
  const allocs = events.filter((e) => e.kind === 'alloc');
  return { allocs: allocs.length, frees: events.length - allocs.length, allocBytes: allocs.reduce((s, e) => s + e.bytes, 0) };
}

function callTotals(stats: CallStats, call: number) {
  return { allocs: stats.allocs[call], frees: stats.frees[call], allocBytes: stats.allocBytes[call] };
}

describe('interposition on generated libraries', () => {
  let dir: string;
  let plan: ProfilePlan;
  let built: BuiltVariant[];
  let args: ArrayBufferView[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tlab-interpose-gen-'));
    const path = join(examplesDir(), 'chain.sdfg');
    plan = await planProfile(path, {
      modes: ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL'],
      layout: 'both',
      calls: 3,
      symbols: new Map([['N', N]]),
      defaultSymbol: null,
    });
    built = await buildVariants(plan.variants, { runDir: dir, sdfgFile: path });
    const prepared = await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map() });
    args = prepared.map((p) => argView(p.arg, p.bytes));
  }, 600_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts exactly what the runtime header counts, call by call, in every mode', () => {
    const addon = loadNativeAddon();
    const seen: Record<string, number> = {};
    for (const v of built) {
      const library = addon.load(v.build.libPath);
      const report = library.interpose(true);
      const symbols = BigInt64Array.from(v.program.initSymbols.map((s) => v.program.symbols[s]!));
      const outsideBeforeInit = addon.interposedCallsOutsideWindows();
      library.init(symbols);
      const initAllocs = headerTotals(library.lastEvents()).allocs;
      // Whatever init allocates (PERSISTENT's transients) is outside the program window.
      expect(addon.interposedCallsOutsideWindows() - outsideBeforeInit, v.label).toBeGreaterThanOrEqual(initAllocs);
      for (const ext of v.program.externals) {
        library.setExternal(ext.storage, new Uint8Array(Number(library.externalSize(ext.storage, symbols))), symbols);
      }
      for (let k = 0; k < 3; k++) {
        const stats = library.run(args, 1);
        expect(callTotals(stats, 0), `${v.label}, call ${k + 1}`).toEqual(headerTotals(library.lastEvents()));
        // The events themselves, in order: what was allocated and how much.
        const hooked = library.interposedEvents().map((e) => [e.kind, e.kind === 'alloc' ? e.bytes : 0]);
        const header = library.lastEvents().map((e) => [e.kind, e.kind === 'alloc' ? e.bytes : 0]);
        expect(hooked, `${v.label}, call ${k + 1}`).toEqual(header);
        // The header's timestamps bracket the hook (and so its timestamps): no hooked duration can be longer. The
        // hooks convert TSC ticks to ns (interpose.cc, HookClock): a wrong calibration would break this first.
        const headerEvents = library.lastEvents();
        for (const [i, e] of library.interposedEvents().entries()) {
          expect(e.t1 - e.t0, `${v.label}, event ${i}`).toBeLessThanOrEqual(headerEvents[i]!.t1 - headerEvents[i]!.t0 + 1);
          expect(e.t1 - e.t0, `${v.label}, event ${i}`).toBeGreaterThanOrEqual(0);
        }
      }
      seen[v.label] = library.run(args, 1).allocs[0]!;
      if (seen[v.label]! > 0)
        expect(report.patched, v.label).toEqual(expect.arrayContaining(['_ZnamSt11align_val_t', '_ZdaPvSt11align_val_t']));
      library.exit();
    }
    // chain allocates its four transients per call in SCOPED and POOL, none in the others.
    expect(seen).toEqual({ SCOPED: 4, PERSISTENT: 0, POOL: 4, 'EXTERNAL (dace)': 0, 'EXTERNAL (packed)': 0 });
  });
});
