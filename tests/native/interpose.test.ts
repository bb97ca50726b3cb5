/**
 * Allocation interposition (docs/interpose.md): the addon rewrites a loaded library's GOT slots for the allocation
 * functions and times them inside each program call. Checked against the runtime header's events of the same
 * call, on hand-written libraries: every hooked function once (fixtures/interpose_calls.cc), OpenMP threads and
 * init/exit (fixtures/fake_program.cc), a library that bypasses its GOT, and the CUDA allocation API of a
 * host-memory stand-in for libcudart (fixtures/fake_cudart.cc).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllocEvent, CallStats, ProgramLibrary } from '../../native/index.js';
import { loadNativeAddon, type NativeAddon } from '../../electron/runner/native.js';
import { packageRoot } from '../../electron/engine/paths.js';
import { interpositionFinding } from '../../electron/engine/profile/interpose.js';
import { fixtureBuilds, fixtureSource, type FixtureBuilds } from './fixtureBuild.js';

const fixtures = join(packageRoot(), 'tests', 'native', 'fixtures');
const callsSource = join(fixtures, 'interpose_calls.cc');

/** Every hooked C/C++ function the calls fixture calls, in its order, with the bytes the hook records. */
const HOST_CALLS = [
  ['malloc', 100],
  ['free', 0],
  ['calloc', 24],
  ['free', 0],
  ['posix_memalign', 200],
  ['free', 0],
  ['aligned_alloc', 256],
  ['free', 0],
  ['_Znwm', 16],
  ['_ZdlPv', 0],
  ['_Znam', 32],
  ['_ZdaPv', 0],
  ['_ZnwmSt11align_val_t', 48],
  ['_ZdlPvSt11align_val_t', 0],
  ['_ZnamSt11align_val_t', 64],
  ['_ZdaPvSt11align_val_t', 0],
  ['_Znwm', 80],
  ['_ZdlPvm', 80],
  ['_Znam', 96],
  ['_ZdaPvm', 96],
  ['_ZnwmSt11align_val_t', 112],
  ['_ZdlPvmSt11align_val_t', 112],
  ['_ZnamSt11align_val_t', 128],
  ['_ZdaPvmSt11align_val_t', 128],
] as const;

/** The runtime header's totals of a call, from its events (lastEvents()). */
function headerTotals(events: AllocEvent[]) {
  const allocs = events.filter((e) => e.kind === 'alloc');
  return { allocs: allocs.length, frees: events.length - allocs.length, allocBytes: allocs.reduce((s, e) => s + e.bytes, 0) };
}

function callTotals(stats: CallStats, call: number) {
  return { allocs: stats.allocs[call], frees: stats.frees[call], allocBytes: stats.allocBytes[call] };
}

describe('native addon: allocation interposition', () => {
  let addon: NativeAddon;
  let builds: FixtureBuilds;
  let calls: string;
  let bypass: string;
  let staticAllocator: string;
  let cuda: string;
  let fake: string;

  beforeAll(() => {
    addon = loadNativeAddon();
    builds = fixtureBuilds();
    calls = builds.compile('calls', callsSource);
    bypass = builds.compile('bypass', callsSource, ['INTERPOSE_BYPASS']);
    staticAllocator = builds.compile('static_allocator', callsSource, ['INTERPOSE_STATIC']);
    const cudart = builds.compile('cudart_fake', join(fixtures, 'fake_cudart.cc'));
    cuda = builds.compile('calls_cuda', callsSource, ['INTERPOSE_CUDA'], [cudart, `-Wl,-rpath,${builds.dir}`]);
    fake = builds.compile('t_interposed', fixtureSource);
  }, 120_000);
  afterAll(() => builds?.dispose());

  function loaded(path: string): ProgramLibrary {
    const library = addon.load(path);
    const report = library.interpose(true);
    expect(report.skipped).toEqual([]);
    library.init(new BigInt64Array(0));
    return library;
  }

  it('patches every imported allocation function and times each call, aligned and sized new/delete included', () => {
    const library = addon.load(calls);
    const report = library.interpose(true);
    expect(report.patched).toEqual([...new Set(HOST_CALLS.map(([name]) => name))].sort());
    expect(report.slots).toBeGreaterThanOrEqual(report.patched.length);
    // Patching twice rewrites nothing more.
    expect(library.interpose(true)).toEqual({ ...report, slots: 0 });
    library.init(new BigInt64Array(0));
    const stats = library.run([], 3);
    const events = library.interposedEvents();
    expect(events.map((e) => [e.function, e.bytes])).toEqual(HOST_CALLS.map(([name, bytes]) => [name, bytes]));
    expect(events.every((e) => e.transient < 0 && e.t1 >= e.t0 && !e.device)).toBe(true);
    for (let call = 0; call < 3; call++) {
      expect(callTotals(stats, call)).toEqual({ allocs: 12, frees: 12, allocBytes: 1156 });
      expect(stats.allocNs[call]).toBeGreaterThan(0);
      expect(stats.freeNs[call]).toBeGreaterThan(0);
    }
    // The header's events of the same (last) call say the same.
    expect(headerTotals(library.lastEvents())).toEqual(callTotals(stats, 2));
    library.exit();
  });

  it('counts the calls of OpenMP threads inside the program, and not init, exit or calls between program calls', () => {
    const n = 1001;
    const symbols = new BigInt64Array([BigInt(n), 0n]);
    const library = addon.load(fake);
    expect(library.interpose(true).patched).toEqual(expect.arrayContaining(['_ZnamSt11align_val_t', '_ZdaPvSt11align_val_t']));
    const beforeInit = addon.interposedCallsOutsideWindows();
    library.init(symbols);
    // init: `new t_state_t` and the PERSISTENT transient, both outside any program call.
    expect(addon.interposedCallsOutsideWindows() - beforeInit).toBe(2);
    library.setExternal('CPU_Heap', new Uint8Array(Math.ceil((n * 8) / 64) * 64 + 8), symbols);
    const args = [
      new Float64Array(n),
      new Float64Array(n),
      new Uint8Array(16),
      new Int32Array([n]),
      new Float64Array([3]),
      new Int32Array([0]),
    ];
    const beforeCalls = addon.interposedCallsOutsideWindows();
    for (let k = 0; k < 3; k++) {
      const stats = library.run(args, 1);
      // tmp, and one scratch block in each of the 4 OpenMP threads: exactly the header's count.
      expect(callTotals(stats, 0)).toEqual(headerTotals(library.lastEvents()));
      expect(callTotals(stats, 0)).toEqual({ allocs: 5, frees: 5, allocBytes: n * 8 + 4 * 256 });
    }
    expect(addon.interposedCallsOutsideWindows()).toBe(beforeCalls);
    // timeCalls: every call, and its sample names the hooked functions.
    const timed = library.timeCalls(args, 1, 0, 4, null);
    expect(Array.from(timed.stats.allocs)).toEqual([5, 5, 5, 5]);
    const sampled = timed.stats.sample?.events.map((e) => e.function) ?? [];
    expect(sampled.filter((f) => f === '_ZnamSt11align_val_t')).toHaveLength(5);
    expect(sampled.filter((f) => f === '_ZdaPvSt11align_val_t')).toHaveLength(5);
    expect(sampled).toHaveLength(10);
    // Switched off: the header's figures again, and the hooks only forward (counted as outside calls).
    library.interpose(false);
    const header = library.run(args, 1);
    expect(callTotals(header, 0)).toEqual({ allocs: 5, frees: 5, allocBytes: n * 8 + 4 * 256 });
    expect(addon.interposedCallsOutsideWindows() - beforeCalls).toBe(10);
    const beforeExit = addon.interposedCallsOutsideWindows();
    library.exit();
    expect(addon.interposedCallsOutsideWindows() - beforeExit).toBe(2);
  });

  it('closes the window when the program throws', () => {
    const n = 64;
    const symbols = new BigInt64Array([BigInt(n), 6n]);
    const library = addon.load(fake);
    library.interpose(true);
    library.init(symbols);
    library.setExternal('CPU_Heap', new Uint8Array(Math.ceil((n * 8) / 64) * 64 + 8), symbols);
    const args = [
      new Float64Array(n),
      new Float64Array(n),
      new Uint8Array(16),
      new Int32Array([n]),
      new Float64Array([3]),
      new Int32Array([6]),
    ];
    expect(() => library.run(args, 1)).toThrow(/threw a C\+\+ exception in call 1 of 1: std::bad_alloc/);
    const before = addon.interposedCallsOutsideWindows();
    library.exit();
    expect(addon.interposedCallsOutsideWindows() - before).toBe(2);
  });

  it.each([
    ['a malloc looked up with dlsym', () => bypass],
    ['an allocator linked into the library', () => staticAllocator],
  ])('sees nothing of a library that allocates through %s, and says so instead of reporting 0 allocations', (_, path) => {
    const library = loaded(path());
    const report = library.interpose(true);
    expect(report.patched).toEqual(['free', 'malloc']);
    const stats = library.run([], 2);
    expect(Array.from(stats.allocs)).toEqual([0, 0]);
    expect(library.interposedEvents()).toEqual([]);
    // Its header events say the program allocates.
    const expected = headerTotals(library.lastEvents()).allocs;
    expect(expected).toBe(1);
    const finding = interpositionFinding('bypass', {
      patched: report.patched,
      skipped: report.skipped,
      interceptedCalls: stats.allocs[0]! + stats.frees[0]!,
      outsideWindowCalls: 0,
      expectedAllocationsPerCall: expected,
    });
    expect(finding).toMatch(/^bypass: interposition intercepted no allocation call although the program allocates \(1 per call\)/);
    expect(finding).toMatch(/statically linked to its allocator or bypasses interposition .*unknown, not 0/);
    library.exit();
  });

  it('patches and times the CUDA allocation API of a library linked to the CUDA runtime', () => {
    const library = addon.load(cuda);
    const report = library.interpose(true);
    expect(report.patched).toEqual(
      expect.arrayContaining([
        'cudaMalloc',
        'cudaFree',
        'cudaMallocAsync',
        'cudaFreeAsync',
        'cudaMallocFromPoolAsync',
        'cudaMallocHost',
        'cudaFreeHost',
      ]),
    );
    library.init(new BigInt64Array(0));
    const stats = library.run([], 1);
    const device = library.interposedEvents().slice(HOST_CALLS.length);
    expect(device.map((e) => [e.function, e.kind, e.bytes, e.device ?? false])).toEqual([
      ['cudaMalloc', 'alloc', 1000, true],
      ['cudaFree', 'free', 0, true],
      ['cudaMallocAsync', 'alloc', 2000, true],
      ['cudaFreeAsync', 'free', 0, true],
      ['cudaMallocFromPoolAsync', 'alloc', 3000, true],
      ['cudaFreeAsync', 'free', 0, true],
      // Page-locked host memory: host events, as transient_cuda_runtime.h records it.
      ['cudaMallocHost', 'alloc', 4000, false],
      ['cudaFreeHost', 'free', 0, false],
    ]);
    expect(callTotals(stats, 0)).toEqual(headerTotals(library.lastEvents()));
    library.exit();
  });

  it('measures what a hook adds per intercepted call', () => {
    const cost = addon.measureInterposeCostNs(100_000);
    expect(cost).toBeGreaterThan(0);
    expect(addon.interposedFunctions).toContain('_ZnamSt11align_val_t');
    expect(() => addon.measureInterposeCostNs(0)).toThrow(/^usage: measureInterposeCostNs\(iterations: number\): number — /);
  });

  it('refuses a non-boolean switch', () => {
    const library = addon.load(calls);
    expect(() => (library.interpose as (on: unknown) => unknown)('yes')).toThrow(
      /^usage: interpose\(on: boolean\): InterposeReport — on must be a boolean, got/,
    );
  });

  it('finds nothing to say when calls were intercepted or nothing says the program allocates', () => {
    const facts = { patched: ['malloc'], skipped: [], interceptedCalls: 0, outsideWindowCalls: 0, expectedAllocationsPerCall: null };
    expect(interpositionFinding('x', facts)).toBeNull();
    expect(interpositionFinding('x', { ...facts, expectedAllocationsPerCall: 0 })).toBeNull();
    expect(interpositionFinding('x', { ...facts, expectedAllocationsPerCall: 3, interceptedCalls: 6 })).toBeNull();
    expect(interpositionFinding('x', { ...facts, patched: [], expectedAllocationsPerCall: 3 })).toMatch(
      /it imports none of the interposed allocation functions/,
    );
  });
});
