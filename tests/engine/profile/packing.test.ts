/**
 * Verification catches packing bugs. The packing fixtures (tests/engine/codegen/packing-fixtures.ts) give
 * several transients the same workspace bytes; EXTERNAL verification keeps those bytes shared in its guarded
 * layout (electron/runner/guarded-layout.ts), so:
 *
 * - profiling each fixture SCOPED against EXTERNAL (packed) passes verification with the real live ranges;
 * - a layout packed from one deliberately shortened live range, or a live set without one of its intervals
 *   (the injection point: the analysis' live sets feed packLayout, whose offsets the generator installs),
 *   makes two transients that are live at once share bytes, and verification must report that EXTERNAL
 *   (packed) diverges from SCOPED.
 *
 * The five-variant agreement of the same fixtures against a computation from the math is in
 * tests/engine/codegen/fixtures.test.ts. Needs the native addon and dist/: tests/global-setup.ts builds them or fails the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../electron/engine/analysis/index.js';
import { alignmentFor, packLayout } from '../../../electron/engine/analysis/layout-packed.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { verify } from '../../../electron/engine/profile/verify.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { PACKING_FIXTURES } from '../codegen/packing-fixtures.js';
import { jobFor } from './runner-job.js';

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const N = 64n;

let cache: string;
const savedCache = process.env.TRANSIENT_LAB_CACHE;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'tlab-cache-packing-'));
  process.env.TRANSIENT_LAB_CACHE = cache;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.TRANSIENT_LAB_CACHE;
  else process.env.TRANSIENT_LAB_CACHE = savedCache;
  await rm(cache, { recursive: true, force: true });
});

/** The analysis with the packed CPU_Heap layout recomputed after one interval of a live set was dropped. */
function withoutSegment(a: Analysis, id: string, drop: { first: number; last: number }): Analysis {
  const members = a.transients.filter((t) => a.layouts.packed['CPU_Heap']!.offsets.has(t.id));
  const items = members.map((t) => {
    const segments = t.liveSegments!.filter((s) => t.id !== id || s.first !== drop.first || s.last !== drop.last);
    return { id: t.id, bytes: t.bytes!, first: segments[0]!.first, last: segments[segments.length - 1]!.last, segments };
  });
  return { ...a, layouts: { ...a.layouts, packed: { ...a.layouts.packed, CPU_Heap: packLayout(items, alignmentFor('CPU_Heap')) } } };
}

/** The analysis with the packed CPU_Heap layout recomputed after `shorten` moved one live range's end. */
function withShortenedRange(a: Analysis, id: string, last: number): Analysis {
  const members = a.transients.filter((t) => a.layouts.packed['CPU_Heap']!.offsets.has(t.id));
  const items = members.map((t) => ({ id: t.id, bytes: t.bytes!, first: t.live!.first, last: t.id === id ? last : t.live!.last }));
  return { ...a, layouts: { ...a.layouts, packed: { ...a.layouts.packed, CPU_Heap: packLayout(items, alignmentFor('CPU_Heap')) } } };
}

describe('verification with shared workspace slots', () => {
  // The packing fixtures and the other loop fixtures (loop_variable_size has no packed workspace: a size that
  // changes per iteration keeps it scoped).
  const VERIFIED = [...Object.keys(PACKING_FIXTURES), 'loop_write_first', 'loop_variable_size'];
  it.each(VERIFIED)('%s: SCOPED and EXTERNAL (packed) agree, with bytes shared', async (name) => {
    const result = await profile(join(FIXTURES, `${name}.sdfg`), {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      modes: ['SCOPED', 'EXTERNAL'],
      layout: 'packed',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: new Map([['N', N]]),
      timeoutMs: 120_000,
    });
    expect(result.verification.details.filter((d) => d.kind !== 'note')).toEqual([]);
    expect(result.verification.ok).toBe(true);
    const analysis = analyze(await readSdfgFile(join(FIXTURES, `${name}.sdfg`)), {
      symbols: new Map([['N', N]]),
      defaultSymbol: null,
      target: null,
    });
    const packed = analysis.layouts.packed['CPU_Heap'];
    // Some slots share bytes, or this fixture would not test packing at all.
    if (name === 'loop_variable_size') expect(packed).toBeUndefined();
    else expect(packed!.bytes).toBeLessThan(packed!.alignedSum);
  });

  // (fixture, transient, its true last step, the shortened last step, the transient that then takes its bytes)
  const BREAKS: Array<[string, string, number, number, string]> = [
    // t1 is read in make_t2 (step 1); ending it at step 0 lets t2, written there, take its bytes.
    ['pack_chain', '0:t1', 1, 0, '0:t2'],
    // t1 is read inside the first callee (read_a, step 2); ending it at the call (step 1) lets the callee's u,
    // written in read_a from t1, take its bytes.
    ['pack_nested', '0:t1', 2, 1, '1:u'],
    // The same around a loop: t1 is read by the callee's read_a (step 2), which writes u.
    ['pack_nested_loop', '0:t1', 2, 1, '1:u'],
  ];

  it('pack_cycle: a layout packed from a live set without its pass through the guard is reported as a divergence', async () => {
    // last = [1, 1] ∪ [8, 9] (docs/liveness.md §4): after the last iteration its value leaves the cycle through
    // the guard, which writes g. Without [1, 1], g takes last's bytes and overwrites the value `after` reads.
    const file = await readSdfgFile(join(FIXTURES, 'pack_cycle.sdfg'));
    const analysis = analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null });
    const last = analysis.transients.find((x) => x.id === '0:last')!;
    expect(last.liveSegments).toEqual([
      { first: 1, last: 1 },
      { first: 8, last: 9 },
    ]);
    const good = analysis.layouts.packed['CPU_Heap']!;
    expect(good.offsets.get('0:g')).not.toBe(good.offsets.get('0:last'));
    const broken = withoutSegment(analysis, '0:last', { first: 1, last: 1 });
    expect(broken.layouts.packed['CPU_Heap']!.offsets.get('0:g')).toBe(broken.layouts.packed['CPU_Heap']!.offsets.get('0:last'));

    const scoped = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'packed' });
    const external = generateProgram(file, broken, { mode: 'EXTERNAL', layout: 'packed' });
    const job = await jobFor([scoped, external], { calls: 1, warmup: 0 });
    const results = await new NodeRunnerHost().run(job, { timeoutMs: 120_000 });
    const verification = verify(
      [
        { label: 'SCOPED', program: scoped },
        { label: 'EXTERNAL (packed)', program: external },
      ],
      results,
      scoped.args,
    );
    expect(verification.ok).toBe(false);
    expect(verification.details.filter((d) => d.kind === 'divergence').map((d) => [d.mode, d.array])).toEqual([['EXTERNAL (packed)', 'B']]);
  });

  it.each(BREAKS)(
    '%s: a layout packed from a live range of %s cut short is reported as a divergence',
    async (name, id, last, cut, intruder) => {
      const file = await readSdfgFile(join(FIXTURES, `${name}.sdfg`));
      const analysis = analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null });
      const t = analysis.transients.find((x) => x.id === id)!;
      expect(t.live!.last).toBe(last);
      const good = analysis.layouts.packed['CPU_Heap']!;
      expect(good.offsets.get(intruder)).not.toBe(good.offsets.get(id));
      const broken = withShortenedRange(analysis, id, cut);
      // The injected fault: two transients that are live at once now share bytes.
      expect(broken.layouts.packed['CPU_Heap']!.offsets.get(intruder)).toBe(broken.layouts.packed['CPU_Heap']!.offsets.get(id));

      const scoped = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'packed' });
      const external = generateProgram(file, broken, { mode: 'EXTERNAL', layout: 'packed' });
      const job = await jobFor([scoped, external], { calls: 1, warmup: 0 });
      const results = await new NodeRunnerHost().run(job, { timeoutMs: 120_000 });
      const verification = verify(
        [
          { label: 'SCOPED', program: scoped },
          { label: 'EXTERNAL (packed)', program: external },
        ],
        results,
        scoped.args,
      );
      expect(verification.ok).toBe(false);
      const divergence = verification.details.filter((d) => d.kind === 'divergence');
      expect(divergence.map((d) => [d.mode, d.array])).toEqual([['EXTERNAL (packed)', 'B']]);
      expect(verification.details.filter((d) => d.kind === 'guard-overflow')).toEqual([]);
    },
  );
});
