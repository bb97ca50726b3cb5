/** Profile step 5, assemble: the profile@1 document from synthetic plan, builds and runs. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../../../electron/engine/analysis/types.js';
import type { SdfgFile } from '../../../../electron/engine/model/sdfg.js';
import { assembleResult } from '../../../../electron/engine/profile/assemble.js';
import { jsonInteger } from '../../../../electron/engine/json.js';
import { formatProfile } from '../../../../electron/engine/profile/format.js';
import { PURE } from '../../../../electron/engine/sdfg/expand/impl.js';
import type { ProfilePlan } from '../../../../electron/engine/profile/plan.js';
import { PROFILE_SCHEMA } from '../../../../electron/engine/profile/result.js';
import { poolRuns } from '../../../../electron/engine/profile/rounds.js';
import { MAX_KEPT_CALLS, processGpuTiming } from '../../../../electron/engine/profile/samples.js';
import { builtVariant, fakeResult, fakeSample, fakeTiming } from './fakes.js';

const machine = { cpu: 'test cpu', cores: 2, compiler: 'g++ 12', os: 'Linux', node: 'v20' };

function plan(): ProfilePlan {
  const program = builtVariant('SCOPED', 'x').program;
  return {
    filePath: 'prog.sdfg',
    fileHash: 'f'.repeat(64),
    file: {} as SdfgFile,
    // What assemble reads of the analysis: the bytes each mode allocates in init.
    analysis: {
      modes: {
        SCOPED: { init: { bytes: 0n } },
        PERSISTENT: { init: { bytes: 4096n } },
        POOL: { init: { bytes: 0n } },
        EXTERNAL: { init: { bytes: null } },
      },
      // ... and which implementation expanded the library nodes (none here).
      libraryImpl: PURE,
      libraryExpansions: [],
    } as unknown as Analysis,
    variants: [],
    args: program.args,
    symbols: { N: 16n, BIG: 2n ** 60n },
    name: 'prog',
  };
}

describe('assemble step', () => {
  it('writes the schema, settings, one row per mode and the notes', () => {
    const built = [builtVariant('SCOPED', 'same'), builtVariant('POOL', 'same'), builtVariant('EXTERNAL', 'ext')];
    const y = new Uint8Array(Float64Array.from({ length: 16 }, (_, i) => i).buffer);
    const results = [
      fakeResult('SCOPED', { calls: [100, 300, 200], outputs: { y }, sample: fakeSample(2, 200) }),
      fakeResult('POOL', { calls: [1, 2, 3] }),
      fakeResult('EXTERNAL (packed)'),
    ];
    results[2]!.workspaceBytes = { CPU_Heap: 128n };
    const verification = { identical: true, ok: true, vacuous: false, compared: ['y'], details: [] };
    const result = assembleResult({
      plan: plan(),
      built,
      results,
      verification,
      options: { layout: 'packed', calls: 3, warmup: 1, processes: 0, seed: 7n, inputs: new Map([['x', 'x.npy']]) },
      machine,
      warnings: ['w1'],
    });
    expect(result.schema).toBe(PROFILE_SCHEMA);
    expect(Date.parse(result.createdAt!)).toBeGreaterThan(Date.parse('2024-01-01'));
    expect(
      assembleResult({
        plan: plan(),
        built,
        results,
        verification,
        options: { layout: 'packed', calls: 3, warmup: 1, processes: 1, seed: 7n, inputs: new Map() },
        machine,
        warnings: [],
        createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      }).createdAt,
    ).toBe('2026-01-02T03:04:05.000Z');
    expect(result.program).toEqual({ name: 'prog', file: 'prog.sdfg', hash: 'f'.repeat(64) });
    expect(result.machine).toBe(machine);
    expect(result.settings).toEqual({
      modes: ['SCOPED', 'POOL', 'EXTERNAL'],
      layout: 'packed',
      calls: 3,
      warmup: 1,
      processes: 1,
      symbols: { N: 16, BIG: (2n ** 60n).toString() },
      seed: 7,
      inputs: { x: 'x.npy' },
      cxxflags: ['-O3', '-march=native'],
    });
    expect(result.modes.map((m) => m.label)).toEqual(['SCOPED', 'POOL', 'EXTERNAL (packed)']);
    // The bytes each mode holds from init on, from the analysis; none when its size is not known.
    expect(result.modes.map((m) => m.initBytes)).toEqual([0, 0, undefined]);
    expect(
      assembleResult({
        plan: plan(),
        built: [builtVariant('PERSISTENT', 'p')],
        results: [fakeResult('PERSISTENT')],
        verification,
        options: { layout: 'packed', calls: 3, warmup: 1, processes: 1, seed: 7n, inputs: new Map() },
        machine,
        warnings: [],
      }).modes[0]!.initBytes,
    ).toBe(4096);
    const scoped = result.modes[0]!;
    expect(scoped.summary.medianNs).toBe(200);
    expect(scoped.summary.allocsPerCall).toBe(1);
    expect(scoped.runnerOverheadNsPerCall).toBe(30);
    // The fakes warmed up 3 calls where 1 was asked for: recorded, and said in the console summary.
    expect(scoped.warmupCalls).toEqual([3]);
    expect(formatProfile(result)).toContain(
      'warm-up extended until the page faults per call settled: SCOPED 3 calls; POOL 3 calls; EXTERNAL (packed) 3 calls',
    );
    expect(scoped.build).toEqual({ ms: 12, cached: false, flags: ['-std=c++20', '-O3', '-march=native', '-shared'] });
    expect(scoped.outputChecksums.y).toBe(createHash('sha256').update(y).digest('hex'));
    expect(result.modes[1]!.outputChecksums).toEqual({});
    expect(scoped.sampledCall).toEqual(fakeSample(2, 200));
    expect(result.modes[1]!.sampledCall).toBeNull();
    expect(result.modes[2]!.workspaceBytes).toEqual({ CPU_Heap: 128 });
    expect(result.verification).toBe(verification);
    expect(result.notes).toEqual([expect.stringContaining('POOL generated the same code as SCOPED')]);
    // Each mode names the first mode whose library it shares: POOL's is SCOPED's, EXTERNAL's its own.
    expect(result.modes.map((m) => m.sameCodeAs)).toEqual([undefined, 'SCOPED', undefined]);
    expect(result.warnings).toEqual(['w1']);
    // Plain JSON: nothing is lost in a round trip.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("warns when a mode's processes ended in different allocator states (some settled, some faulting every call)", () => {
    const built = [builtVariant('SCOPED', 'same'), builtVariant('POOL', 'same'), builtVariant('EXTERNAL', 'ext')];
    // Three timing processes of three calls each, pooled, with these page faults per call.
    const pooled = (label: string, times: number[], faults: number[]) =>
      poolRuns(
        [0, 1, 2].map((p) => ({
          ...fakeResult(label),
          timing: fakeTiming(times.slice(3 * p, 3 * p + 3), { minorFaults: faults.slice(3 * p, 3 * p + 3) }),
        })),
      );
    // SCOPED: processes 1 and 2 settled, process 3 faulted on every call; POOL settled everywhere; EXTERNAL
    // faulted everywhere (a program that never settles, like chain at N = 2,000,000: one state, no warning).
    const results = [
      pooled('SCOPED', [1, 1, 1, 1, 1, 1, 9, 9, 9], [0, 0, 1, 0, 8, 0, 2589, 2590, 2589]),
      pooled('POOL', [1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 3, 0, 0]),
      pooled('EXTERNAL (packed)', [9, 9, 9, 9, 9, 9, 9, 9, 9], [900, 901, 900, 899, 900, 900, 905, 900, 900]),
    ];
    const result = assembleResult({
      plan: plan(),
      built,
      results,
      verification: { identical: true, ok: true, vacuous: false, compared: [], details: [] },
      options: { layout: 'packed', calls: 3, warmup: 1, processes: 3, seed: 0n, inputs: new Map() },
      machine,
      warnings: ['w1'],
    });
    expect(result.warnings).toEqual([
      'w1',
      expect.stringMatching(/^SCOPED: 1 of 3 runner processes kept faulting about 2589 pages per call while the others settled/),
    ]);
  });

  it('has no POOL note when POOL built different code, and refuses mismatched inputs', () => {
    const built = [builtVariant('SCOPED', 'a'), builtVariant('POOL', 'b')];
    const input = {
      plan: plan(),
      built,
      results: [fakeResult('SCOPED'), fakeResult('POOL')],
      verification: { identical: true, ok: true, vacuous: false, compared: [], details: [] },
      options: { layout: 'packed' as const, calls: 3, warmup: 0, processes: 1, seed: 0n, inputs: new Map() },
      machine,
      warnings: [],
    };
    expect(assembleResult(input).notes).toEqual([]);
    expect(() => assembleResult({ ...input, results: [fakeResult('SCOPED')] })).toThrow(/2 variants but 1 results/);
  });

  it('writes integers beyond 2^53 as decimal strings', () => {
    expect(jsonInteger(42n)).toBe(42);
    expect(jsonInteger(-(2n ** 53n))).toBe('-9007199254740992');
  });

  it('GPU runs: the device, the release threshold, device times and pool per mode; CPU results have none of them', () => {
    const base = builtVariant('POOL', 'pool');
    const gpuInfo = { language: 'cuda' as const, pooled: true, poolReleaseThreshold: 2n ** 64n - 1n, kernels: 5 };
    const built = [{ ...base, program: { ...base.program, gpu: gpuInfo } }];
    const results = [
      {
        ...fakeResult('POOL', { calls: [100, 300, 200] }),
        gpu: processGpuTiming(
          { deviceNs: Float64Array.of(90, 10, 50), hostReturnNs: Float64Array.of(5, 6, 7), hostSyncNs: Float64Array.of(95, 290, 195) },
          MAX_KEPT_CALLS,
          { reservedHighBytes: 4096, usedHighBytes: 2048, releaseThreshold: 2n ** 64n - 1n },
        ),
      },
    ];
    const device = {
      index: 0,
      name: 'GPU',
      totalMemoryBytes: 2 ** 34,
      computeCapability: '9.0',
      multiprocessors: 132,
      memoryPools: true,
      runtimeVersion: 13000,
      driverVersion: 13020,
    };
    const verification = { identical: true, ok: true, vacuous: true, compared: [], details: [] };
    const options = { layout: 'packed' as const, calls: 3, warmup: 1, processes: 1, seed: 0n, inputs: new Map<string, string>() };
    const result = assembleResult({ plan: { ...plan(), device }, built, results, verification, options, machine, warnings: [] });
    expect(result.device).toEqual(device);
    expect(result.settings.poolReleaseThreshold).toBe('18446744073709551615');
    expect(result.modes[0]!.gpu).toEqual({
      deviceNs: [90, 10, 50],
      deviceMedianNs: 50,
      hostReturnNs: [5, 6, 7],
      hostSyncNs: [95, 290, 195],
      pool: { reservedHighBytes: 4096, usedHighBytes: 2048, releaseThreshold: '18446744073709551615' },
    });
    const text = formatProfile(result);
    expect(text).toMatch(/^mode\s+median\/call\s+device\/call/m);
    expect(text).toContain('device: GPU (compute capability 9.0, CUDA runtime 13.0, driver 13.2)');
    expect(text).toContain('pool high-water (reserved / used): POOL 4.0 KiB / 2.0 KiB (release threshold max)');
    const cpu = assembleResult({
      plan: plan(),
      built: [base],
      results: [fakeResult('POOL')],
      verification,
      options,
      machine,
      warnings: [],
    });
    expect(cpu).not.toHaveProperty('device');
    expect(cpu.settings).not.toHaveProperty('poolReleaseThreshold');
    expect(cpu.modes[0]).not.toHaveProperty('gpu');
    expect(formatProfile(cpu)).not.toMatch(/device\/call|pool high-water/);
  });
});

describe('assemble step: DaCe builds measured by interposition', () => {
  const dace = (expected: number | null) => ({
    call: { name: 'prog', init: [], program: [], storages: [] },
    folder: '/w/.dacecache/prog',
    sdfgSha256: 'a'.repeat(64),
    modeReason: 'no Persistent, External or pooled transient',
    builtBy: null,
    expectedAllocationsPerCall: expected,
  });
  const facts = { patched: ['malloc', 'free'], skipped: [], interceptedCalls: 0, outsideWindowCalls: 0, expectedAllocationsPerCall: null };
  const verification = { identical: true, ok: true, vacuous: false, compared: [], details: [] };
  const assemble = (built: ReturnType<typeof builtVariant>[], results: ReturnType<typeof fakeResult>[]) =>
    assembleResult({
      plan: plan(),
      built,
      results,
      verification,
      options: { layout: 'dace', calls: 1, warmup: 0, processes: 1, seed: 0n, inputs: new Map() },
      machine,
      warnings: [],
    });

  it('fills in the SDFG expected count; a library the hooks saw nothing of although it allocates is n/m, never 0', () => {
    const built = [{ ...builtVariant('SCOPED', 'a'), dace: dace(3) }];
    const result = assemble(built, [{ ...fakeResult('SCOPED'), interposition: { ...facts } }]);
    expect(result.modes[0]!.interposition?.expectedAllocationsPerCall).toBe(3);
    expect(result.modes[0]!.allocationsMeasured).toBe(false);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^SCOPED: interposition intercepted no allocation call although the program allocates \(3 per call\)/),
    ]);
    expect(result.notes).toEqual([
      expect.stringMatching(/^Allocation counts, bytes and times of the DaCe-built libraries were measured by interposition/),
    ]);
    const text = formatProfile(result);
    expect(text).toMatch(/^SCOPED\s.*\s+n\/m\s+n\/m\s/m);
    expect(text).toContain('n/m: SCOPED: allocations not measured: interposition intercepted none of the 3 allocations per call');
  });

  it('a DaCe build the SDFG says allocates nothing per call is measured at 0; one that could not be interposed says why', () => {
    const built = [
      { ...builtVariant('PERSISTENT', 'p'), dace: dace(0) },
      { ...builtVariant('EXTERNAL', 'e', 'dace'), dace: dace(0) },
    ];
    const unapplied = 'interposition could not be applied: cannot interpose the allocation calls: no dynamic relocations';
    const result = assemble(built, [
      { ...fakeResult('PERSISTENT'), interposition: { ...facts } },
      { ...fakeResult('EXTERNAL (dace)'), allocationsMeasured: false, allocationsUnmeasured: unapplied },
    ]);
    expect(result.modes[0]!.allocationsMeasured).toBeUndefined();
    expect(result.modes[1]!.allocationsUnmeasured).toBe(unapplied);
    expect(result.warnings).toEqual([]);
    expect(formatProfile(result)).toContain(`n/m: EXTERNAL (dace): allocations not measured: ${unapplied}; median/call`);
  });
});
