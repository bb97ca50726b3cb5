/**
 * `profile --interpose` in the runner child (docs/interpose.md): a job with `interpose` hooks each library before
 * init and reports what the hooks saw; a library that bypasses its GOT is reported as such, never as 0
 * allocations. Needs the native addon and dist/ (built by tests/global-setup.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/engine/paths.js';
import { interpositionReport } from '../../../electron/engine/profile/interpose.js';
import { poolRuns } from '../../../electron/engine/profile/rounds.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { fixtureBuilds, type FixtureBuilds } from '../../native/fixtureBuild.js';
import { handProgram } from './hand-program.js';
import { jobFor } from './runner-job.js';

let cache: string;
let builds: FixtureBuilds;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-interpose-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
  builds = fixtureBuilds();
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
  builds?.dispose();
});

describe('runner: --interpose', () => {
  it("reports the hooks' figures, equal to the header's, and says so in the notes", async () => {
    const job = await jobFor([handProgram({ mode: 'SCOPED' }), handProgram({ mode: 'EXTERNAL' })], { calls: 5 });
    const plain = await new NodeRunnerHost().run(job, { timeoutMs: 60_000 });
    const hooked = await new NodeRunnerHost().run({ ...job, interpose: true }, { timeoutMs: 60_000 });
    expect(plain.map((r) => r.interposition)).toEqual([undefined, undefined]);
    const [scoped, external] = hooked;
    expect(Array.from(scoped!.timing.kept.allocs)).toEqual(Array.from(plain[0]!.timing.kept.allocs));
    expect(Array.from(scoped!.timing.kept.allocBytes)).toEqual(Array.from(plain[0]!.timing.kept.allocBytes));
    expect(scoped!.interposition).toMatchObject({ interceptedCalls: 10, expectedAllocationsPerCall: 1, skipped: [] });
    expect(scoped!.interposition!.patched).toEqual(expect.arrayContaining(['_ZnamSt11align_val_t', '_ZdaPvSt11align_val_t']));
    // Both verification calls were timed by the hooks and the header at once; the header brackets the hook.
    const same = scoped!.interposition!.sameCall!;
    expect(same.calls).toBe(2);
    expect(same.hookNs).toBeGreaterThan(0);
    expect(same.hookNs).toBeLessThanOrEqual(same.headerNs);
    // The verification calls ran interposed too; their header events still name the poisoned transient.
    expect(scoped!.poisonedTransients).toEqual(plain[0]!.poisonedTransients);
    expect(scoped!.sampledCall?.events.map((e) => e.transient)).toEqual(['_ZnamSt11align_val_t', '_ZdaPvSt11align_val_t']);
    expect(external!.interposition).toMatchObject({ interceptedCalls: 0, expectedAllocationsPerCall: 0 });
    // Pooled over processes, the intercepted calls add up.
    expect(poolRuns([scoped!, scoped!]).interposition?.interceptedCalls).toBe(20);
    const report = interpositionReport(hooked);
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(/measured by interposition \(--interpose\)/);
    expect(report.warnings).toEqual([]);
  }, 180_000);

  it('says that a library bypassing interposition allocates unseen', async () => {
    const source = join(packageRoot(), 'tests', 'native', 'fixtures', 'interpose_calls.cc');
    const libPath = builds.compile('bypass_runner', source, ['INTERPOSE_BYPASS']);
    const job = await jobFor([handProgram({ mode: 'SCOPED' })], { calls: 3 });
    const variant = { ...job.variants[0]!, label: 'bypass', libPath, initSymbols: [], args: [], transientIds: [], externals: [] };
    const [result] = await new NodeRunnerHost().run({ ...job, variants: [variant], inputs: {}, interpose: true }, { timeoutMs: 60_000 });
    expect(result!.interposition).toMatchObject({ patched: ['free', 'malloc'], interceptedCalls: 0, expectedAllocationsPerCall: 1 });
    expect(Array.from(result!.timing.kept.allocs)).toEqual([0, 0, 0]);
    expect(interpositionReport([result!]).warnings).toEqual([
      expect.stringMatching(/^bypass: interposition intercepted no allocation call although the program allocates \(1 per call\)/),
    ]);
  }, 180_000);
});
