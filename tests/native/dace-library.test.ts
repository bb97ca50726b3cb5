/**
 * loadDace(): a DaCe-style library (no __tlab_* trampolines, DaCe's own C signatures) called through libffi,
 * with every argument type a DaCe signature passes by value, arrays, symbols of several widths and the
 * External pair (docs/dace-folders.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Native from '../../native/index.js';
import type { Mode } from '../../electron/engine/analysis/types.js';
import { readDaceFolder } from '../../electron/engine/dace/folder.js';
import { callSpec } from '../../electron/engine/dace/signature.js';
import { examplesDir } from '../../electron/engine/paths.js';
import { prepareInputs } from '../../electron/engine/profile/inputs.js';
import { planProfile } from '../../electron/engine/profile/plan.js';
import { argView } from '../../electron/runner/runner-helpers.js';
import { makeDaceFolder } from '../fixtures/dace-folders.js';
import { addonPath, fixtureBuilds, type FixtureBuilds } from './fixtureBuild.js';

const addon = createRequire(import.meta.url)(addonPath) as typeof Native;

// Every by-value type of dace-memory-abi.md §1.2 (float16 as dace::float16's 2 bytes), in one __program_.
const SOURCE = `
#include <cstdint>
#include <cstring>
#include <cstdlib>
#define DACE_EXPORTED extern "C"
struct t_state_t { int64_t N; int64_t M; char *ws; };
DACE_EXPORTED t_state_t *__dace_init_t(int N, long long M) {
  if (N < 0) return nullptr;
  t_state_t *s = new t_state_t(); s->N = N; s->M = M; return s;
}
DACE_EXPORTED int __dace_exit_t(t_state_t *s) { int64_t rc = s->M == 99 ? 7 : 0; delete s; return (int)rc; }
DACE_EXPORTED size_t __dace_get_external_memory_size_CPU_Heap(t_state_t *s, int N, long long M) { (void)s; return (size_t)(8 * N + M); }
DACE_EXPORTED void __dace_set_external_memory_CPU_Heap(t_state_t *s, char *ptr, int N, long long M) { (void)N; (void)M; s->ws = ptr; }
DACE_EXPORTED void __program_t(t_state_t *s, double *out, int8_t a, uint8_t b, int16_t c, uint16_t d, int e, unsigned f,
                               int64_t g, uint64_t h, float i, double j, bool k, uint16_t half, int N, long long M) {
  if (e == -999) { volatile int *p = nullptr; *p = 1; }
  double v[16] = {(double)a, (double)b, (double)c, (double)d, (double)e, (double)f, (double)g, (double)h,
                  (double)i, j, k ? 1.0 : 0.0, (double)half, (double)N, (double)M, (double)(uintptr_t)(s->ws != nullptr), 0};
  std::memcpy(out, v, sizeof v);
  if (s->ws) s->ws[0] = 42;
}
`;

const spec: Native.DaceCallSpec = {
  name: 't',
  init: ['int32', 'int64'],
  program: [
    'pointer',
    'int8',
    'uint8',
    'int16',
    'uint16',
    'int32',
    'uint32',
    'int64',
    'uint64',
    'float32',
    'float64',
    'bool',
    'float16',
    'int32',
    'int64',
  ],
  storages: ['CPU_Heap'],
};

let builds: FixtureBuilds;
let lib: string;
beforeAll(() => {
  builds = fixtureBuilds();
  lib = builds.compileText('dace_t', SOURCE);
});
afterAll(() => builds.dispose());

function args(out: Float64Array, e = -5): ArrayBufferView[] {
  return [
    out,
    Int8Array.of(-3),
    Uint8Array.of(250),
    Int16Array.of(-30000),
    Uint16Array.of(60000),
    Int32Array.of(e),
    Uint32Array.of(4000000000),
    BigInt64Array.of(-(2n ** 40n)),
    BigUint64Array.of(2n ** 50n),
    Float32Array.of(1.5),
    Float64Array.of(-2.25),
    Uint8Array.of(1),
    Uint16Array.of(0x3c00),
    Int32Array.of(4),
    BigInt64Array.of(3n),
  ];
}

describe('loadDace: a DaCe library through libffi', () => {
  it('passes every by-value type, arrays and symbols, and calls the External pair with the state first', () => {
    expect(addon.ffiAvailable).toBe(true);
    const d = addon.loadDace(lib, spec);
    expect(d.programName).toBe('t');
    expect(d.exports).toEqual(
      expect.arrayContaining(['__dace_init_t', '__program_t', '__dace_exit_t', '__dace_get_external_memory_size_CPU_Heap']),
    );
    d.init(BigInt64Array.of(4n, 3n));
    expect(d.externalSize('CPU_Heap', BigInt64Array.of(4n, 3n))).toBe(35n);
    const ws = new Uint8Array(35);
    d.setExternal('CPU_Heap', ws, BigInt64Array.of(4n, 3n));
    const out = new Float64Array(16);
    const stats = d.run(args(out), 3);
    expect(Array.from(out.subarray(0, 15))).toEqual([
      -3,
      250,
      -30000,
      60000,
      -5,
      4000000000,
      -(2 ** 40),
      2 ** 50,
      1.5,
      -2.25,
      1,
      0x3c00,
      4,
      3,
      1,
    ]);
    expect(ws[0]).toBe(42);
    expect(stats.totalNs.length).toBe(3);
    expect(stats.allocationsMeasured).toBe(false);
    const timed = d.timeCalls(args(out), 1, 0, 5, null);
    expect(timed.stats.totalNs.length).toBe(5);
    expect(timed.firstCallNs).toBeGreaterThan(0);
    expect(d.exit()).toBeGreaterThanOrEqual(0);
  });

  it('refuses what would corrupt the call: wrong counts, a scalar of the wrong width, a symbol that does not fit', () => {
    const d = addon.loadDace(lib, spec);
    expect(() => d.init(BigInt64Array.of(4n))).toThrow(/symbols has 1 value\(s\) but __dace_init_t takes 2/);
    expect(() => d.init(BigInt64Array.of(2n ** 31n, 0n))).toThrow(/init symbol 0 = 2147483648 does not fit its C type/);
    d.init(BigInt64Array.of(4n, 3n));
    const out = new Float64Array(16);
    const bad = args(out);
    bad[5] = BigInt64Array.of(1n);
    expect(() => d.run(bad, 1)).toThrow(/args\[5\] is a scalar of 4 bytes in the library's signature, got a view of 8 bytes/);
    expect(() => d.run(args(out).slice(1), 1)).toThrow(/args has 14 entries but __program_t takes 15/);
    expect(() => d.setExternal('CPU_Heap', new Uint8Array(3), BigInt64Array.of(4n, 3n))).toThrow(/too small: 3 bytes given/);
    expect(() => d.externalSize('GPU_Global', BigInt64Array.of(4n, 3n))).toThrow(/no External storage 'GPU_Global'/);
    d.exit();
  });

  it('init NULL and a non-zero exit code are errors naming the DaCe function and the library', () => {
    const d = addon.loadDace(lib, spec);
    expect(() => d.init(BigInt64Array.of(-1n, 0n))).toThrow(
      /__dace_init_t returned NULL \(init symbols \[-1, 0\]\) \(library .*libdace_t\.so\)/,
    );
    d.init(BigInt64Array.of(1n, 99n));
    expect(() => d.exit()).toThrow(/__dace_exit_t returned error code 7/);
  });

  it('refuses a library that lacks a function of the spec, or exports an External pair the sources do not define', () => {
    expect(() => addon.loadDace(lib, { ...spec, name: 'u' })).toThrow(/does not export __dace_init_u, __program_u, __dace_exit_u/);
    expect(() => addon.loadDace(lib, { ...spec, storages: [] })).toThrow(
      /exports __dace_get_external_memory_size_CPU_Heap, which its sources \(src\/cpu, src\/cuda\) do not define/,
    );
    expect(() => addon.loadDace(lib, { ...spec, storages: ['CPU_Heap', 'CPU_Pinned'] })).toThrow(
      /does not export __dace_get_external_memory_size_CPU_Pinned/,
    );
    expect(() => addon.loadDace('/nonexistent/libx.so', spec)).toThrow(/cannot load the DaCe-built library \/nonexistent\/libx\.so/);
    expect(() => addon.loadDace(lib, { ...spec, program: ['complex64' as Native.DaceCType] })).toThrow(/unknown C type 'complex64'/);
  });
});

// A DaCe-layout folder of our own generated library also carries our runtime header's records: interposed through
// loadDace, the same library must show exactly the allocations the header records in a call of its own.
describe('loadDace with interposition: allocations of a DaCe-layout folder, as our runtime header records them', () => {
  const symbols = new Map([
    ['I', 16n],
    ['J', 16n],
    ['K', 8n],
  ]);
  let dir: string;
  const folders: Partial<Record<Mode, string>> = {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tlab-dace-interpose-'));
    for (const mode of ['SCOPED', 'PERSISTENT', 'EXTERNAL'] as const) {
      folders[mode] = await makeDaceFolder(join(examplesDir(), 'hdiff.sdfg'), join(dir, mode, 'hdiff'), { mode, symbols });
    }
  }, 300_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const totals = (stats: Native.CallStats, call: number) => ({
    allocs: stats.allocs[call],
    frees: stats.frees[call],
    allocBytes: stats.allocBytes[call],
  });

  for (const mode of ['SCOPED', 'PERSISTENT', 'EXTERNAL'] as const) {
    it(`${mode}: the hooks count and size every call's allocations exactly as the header does`, async () => {
      const folder = await readDaceFolder(folders[mode]!);
      const plan = await planProfile(folder.sdfgPath, { modes: ['SCOPED'], layout: 'dace', calls: 1, symbols, defaultSymbol: null });
      const program = plan.variants[0]!.program;
      const args = (await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map() })).map((p) => argView(p.arg, p.bytes));
      const init = BigInt64Array.from(program.initSymbols.map((s) => program.symbols[s]!));
      const spec = callSpec(folder, program);

      const dace = addon.loadDace(folder.libraryPath, spec);
      const report = dace.interpose(true);
      dace.init(init);
      for (const s of spec.storages) dace.setExternal(s, new Uint8Array(Number(dace.externalSize(s, init))), init);
      const hooked = dace.run(args, 3);
      expect(hooked.allocationsMeasured).toBeUndefined();
      const timed = dace.timeCalls(args, 1, 0, 4, null);
      dace.exit();

      // The same library through its __tlab_* trampolines: the runtime header's own records of one call.
      const own = addon.load(folder.libraryPath);
      own.init(init);
      for (const e of program.externals) own.setExternal(e.storage, new Uint8Array(Number(own.externalSize(e.storage, init))), init);
      const header = totals(own.run(args, 1), 0);
      own.exit();

      if (mode === 'SCOPED') {
        expect(header.allocs).toBeGreaterThan(0);
        expect(report.patched.length).toBeGreaterThan(0);
      } else expect(header).toEqual({ allocs: 0, frees: 0, allocBytes: 0 });
      for (let c = 0; c < 3; c++) expect(totals(hooked, c), `${mode}, call ${c + 1}`).toEqual(header);
      for (let c = 0; c < 4; c++) expect(totals(timed.stats, c), `${mode}, timed call ${c + 1}`).toEqual(header);
      if (mode === 'SCOPED') {
        // The sampled call shows the hooked functions where a generated library shows transients.
        expect(timed.stats.sample?.events.length).toBe(header.allocs! + header.frees!);
        expect(timed.stats.sample?.events[0]?.function).toMatch(/^(malloc|_Zna|_Znw|posix_memalign|aligned_alloc|calloc)/);
      }
    });
  }

  it("timeSequence calls a DaceLibrary at every position (a workload's step loop), its allocations the hooks'", async () => {
    const folder = await readDaceFolder(folders.SCOPED!);
    const plan = await planProfile(folder.sdfgPath, { modes: ['SCOPED'], layout: 'dace', calls: 1, symbols, defaultSymbol: null });
    const program = plan.variants[0]!.program;
    const args = (await prepareInputs(plan.args, plan.symbols, { seed: 0n, files: new Map() })).map((p) => argView(p.arg, p.bytes));
    const init = BigInt64Array.from(program.initSymbols.map((s) => program.symbols[s]!));
    const dace = addon.loadDace(folder.libraryPath, callSpec(folder, program));
    expect(() => addon.timeSequence([{ library: dace, args }], 0, 1, null)).toThrow(
      /calls\[0\]\.library: the DaCe library is not initialised \(call init\(\) first\)/,
    );
    dace.interpose(true);
    dace.init(init);
    const perCall = totals(dace.run(args, 1), 0);
    expect(perCall.allocs).toBeGreaterThan(0);
    const t = addon.timeSequence(
      [
        { library: dace, args },
        { library: dace, args },
      ],
      1,
      3,
      null,
    );
    expect(t.positions).toBe(2);
    for (let row = 0; row < 8; row++) {
      expect({ allocs: t.allocs[row], frees: t.frees[row], allocBytes: t.allocBytes[row] }, `row ${row}`).toEqual(perCall);
    }
    expect(() => addon.timeSequence([{ library: dace, args: args.slice(1) }], 0, 1, null)).toThrow(
      /calls\[0\]\.args has \d+ entries but the program takes/,
    );
    dace.exit();
  });
});
