/**
 * End-to-end correctness of generator features the bundled examples do not reach, on small hand-written SDFGs
 * (tests/fixtures/sdfg): each is generated in every mode and layout, compiled, run by the C++ driver (two
 * calls, transient memory poisoned) and compared with a TypeScript computation written from the math.
 * Driver and libraries are built with AddressSanitizer: a buffer allocated too small (e.g. sized before its
 * symbols have their values), a use after free or a leak fails the run even when the outputs look right.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { createHash } from 'node:crypto';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor, runProgram } from './driver.js';
import { PACKING_FIXTURES } from './packing-fixtures.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const VARIANTS = ALL_VARIANTS;
const input = inputFor;

interface Fixture {
  symbols: Record<string, bigint>;
  /** Expected value of every array argument after a call, from the inputs. */
  expected: (p: GeneratedProgram) => Record<string, Float64Array>;
  /** Relative error allowed (parallel reductions reorder float additions). */
  tolerance: number;
}

const FIXTURE_SPECS: Record<string, Fixture> = {
  // B[i] = 2·x[M-1-i] + c with x = A[2 : N+2) (offset subset), M ↦ N and c ↦ N + 3 (symbol mapping).
  nested_offset: {
    symbols: { N: 10n },
    tolerance: 0,
    expected: (p) => {
      const N = 10;
      const A = input(p, 'A');
      const B = new Float64Array(N);
      for (let i = 0; i < N; i++) B[i] = A[2 + (N - 1 - i)]! * 2 + (N + 3);
      return { A, B };
    },
  },
  // S[0] += Σ A[i]² and T[0] += Σ (A[j] + 1), both reduced from CPU_Multicore maps (T through a nested SDFG).
  wcr_parallel: {
    symbols: { N: 4096n },
    tolerance: 1e-11,
    expected: (p) => {
      const A = input(p, 'A');
      const S = input(p, 'S');
      const T = input(p, 'T');
      for (const a of A) {
        S[0] = S[0]! + a * a;
        T[0] = T[0]! + a + 1;
      }
      return { A, S, T };
    },
  },
  // B keeps its input except: row 2, columns 1…N-2 ← A[1…N-2][3] (through the transient T);
  // rows 5…6 ← rows 0…1 of A; row 7, columns 0…2 ← A[0, 3, 6][7] (strided source).
  copy_other_subset: {
    symbols: { N: 8n, M: 8n },
    tolerance: 0,
    expected: (p) => {
      const N = 8;
      const M = 8;
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let k = 0; k <= N - 3; k++) B[2 * M + 1 + k] = A[(1 + k) * M + 3]!;
      for (let r = 0; r < 2; r++) for (let c = 0; c < M; c++) B[(5 + r) * M + c] = A[r * M + c]!;
      for (let k = 0; 3 * k <= N - 1; k++) B[7 * M + k] = A[3 * k * M + 7]!;
      return { A, B };
    },
  },
  // acc = Σ_{i<N} A[i]·(i+1) over a guard/back-edge loop; then if acc > 1000: 2·acc, elif acc > 2N: acc - 1,
  // else acc + 100.
  control_legacy_loop_conditional: {
    symbols: { N: 8n },
    tolerance: 0,
    expected: (p) => {
      const N = 8;
      const A = input(p, 'A');
      let acc = 0;
      for (let i = 0; i < N; i++) acc = acc + A[i]! * (i + 1);
      const R = new Float64Array([acc > 1000 ? acc * 2 : acc > N * 2 ? acc - 1 : acc + 100]);
      return { A, R };
    },
  },
  // Three iterations of B += 2·A (through t1), then B += 0.5·B (through t2). Each iteration writes t1 and
  // t2 completely before reading them, so their live ranges stay inside the loop body and the packed
  // workspace gives both the same bytes.
  loop_write_first: {
    symbols: { N: 16n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let k = 0; k < 3; k++) {
        for (let i = 0; i < B.length; i++) B[i] = B[i]! + A[i]! * 2;
        for (let i = 0; i < B.length; i++) B[i] = B[i]! + B[i]! * 0.5;
      }
      return { A, B };
    },
  },
  // K = N - 1 is assigned on an interstate edge; dyn[K] (two states) must be allocated after it: B[i] = 2·A[i]
  // + 1 for i < K, B[K] keeps its input. Allocated before the assignment (K = 0), the buffer is overrun.
  interstate_size: {
    symbols: { N: 10n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let i = 0; i < 9; i++) B[i] = A[i]! * 2 + 1;
      return { A, B };
    },
  },
  // tmp[2k] is sized by the loop variable k = 1…3 and used in two states of the loop body: one buffer per
  // iteration, sized with that iteration's k. B[j] += Σ_{k: j < 2k} k·A[j].
  loop_variable_size: {
    symbols: { N: 8n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let k = 1; k < 4; k++) for (let j = 0; j < 2 * k; j++) B[j] = A[j]! * k + B[j]!;
      return { A, B };
    },
  },
  // K is assigned inside the branches of a ConditionalBlock (N > 4: K = N - 2, else K = N); dyn[K] is used
  // after the merge: B[i] = 3·(A[i] - 1) for i < K.
  branch_size: {
    symbols: { N: 10n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let i = 0; i < 8; i++) B[i] = (A[i]! - 1) * 3;
      return { A, B };
    },
  },
  // A nested SDFG called for k = 1, 2 with M ↦ K - k (K = N - 1 assigned on an edge, k a loop variable); its
  // transient t[M] spans two inner states. B[i] = 2·A[i] + 1 for i < K - 1.
  nested_symbol_size: {
    symbols: { N: 10n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = input(p, 'B');
      for (let i = 0; i < 8; i++) B[i] = A[i]! * 2 + 1;
      return { A, B };
    },
  },
  // Register storage of symbolic size goes to the heap as in DaCe: r[N] across two states (B = 2·(A + 1)),
  // and w[N] once per iteration of a parallel map (C[i] = A[i] + i).
  register_symbolic: {
    symbols: { N: 8n },
    tolerance: 0,
    expected: (p) => {
      const A = input(p, 'A');
      const B = A.map((a) => (a + 1) * 2);
      const C = A.map((a, i) => a + i);
      return { A, B, C };
    },
  },
  // Dynamic map ranges (DaCe's spmv shape): A_row[k] = 4k + int(2·off[k]) is computed into a transient, then
  // b[i] += Σ_{j = A_row[i]}^{A_row[i+1]-1} A_val[j]·x[(7j) mod W] with the inner range read from A_row[i],
  // A_row[i+1]; then c[i] = 2·b[i] for i ≥ kstart = int(2·off[0]), the range read through a connector named
  // like the Scalar it reads (cloudsc's shape). Rows hold 2 to 6 entries, depending on the input.
  dynamic_map_range: {
    symbols: { H: 10n, W: 7n },
    tolerance: 1e-12,
    expected: (p) => {
      const H = 10;
      const W = 7;
      const off = input(p, 'off');
      const val = input(p, 'A_val');
      const x = input(p, 'x');
      const b = input(p, 'b');
      const c = input(p, 'c');
      const row = Array.from({ length: H + 1 }, (_, k) => 4 * k + Math.trunc(off[k]! * 2));
      for (let i = 0; i < H; i++) for (let j = row[i]!; j < row[i + 1]!; j++) b[i] = b[i]! + val[j]! * x[(j * 7) % W]!;
      for (let i = Math.trunc(off[0]! * 2); i < H; i++) c[i] = 2 * b[i]!;
      return { off, A_val: val, x, b, c };
    },
  },
  // The packing fixtures (packing-fixtures.ts): the EXTERNAL (packed) variant gives several transients the same
  // bytes, and the driver's workspace is the library's own layout, so a wrong live range corrupts B.
  ...Object.fromEntries(
    Object.entries(PACKING_FIXTURES).map(([name, f]): [string, Fixture] => [
      name,
      {
        symbols: { N: 16n },
        tolerance: 1e-12,
        expected: (p) => {
          const A = input(p, 'A');
          return { A, B: f.reference(A, input(p, 'B')) };
        },
      },
    ]),
  ),
};

function expectClose(name: string, actual: Float64Array, expected: Float64Array, tolerance: number): void {
  expect(actual.length, name).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const scale = Math.max(1, Math.abs(expected[i]!));
    const err = Math.abs(actual[i]! - expected[i]!) / scale;
    if (!(err <= tolerance)) expect.fail(`${name}[${i}]: ${actual[i]} but expected ${expected[i]}`);
  }
}

describe('hand-written fixtures, end to end', () => {
  const dir = scratchDir('fixtures');
  let driver = '';
  const files = new Map<string, SdfgFile>();
  const programs: Array<{ fixture: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const jobs: Array<{ fixture: string; p: GeneratedProgram }> = [];
    for (const [fixture, spec] of Object.entries(FIXTURE_SPECS)) {
      const file = await readSdfgFile(join(FIXTURES, `${fixture}.sdfg`));
      files.set(fixture, file);
      if (findUnsupported(file).length) continue;
      const analysis = analyze(file, { symbols: new Map(Object.entries(spec.symbols)), defaultSymbol: null, target: null });
      for (const v of VARIANTS) jobs.push({ fixture, p: generateProgram(file, analysis, v) });
    }
    // Identical sources (POOL is SCOPED on CPU) share one library.
    const builds = new Map<string, Promise<{ library: string; ok: boolean; output: string }>>();
    programs.push(
      ...(await inParallel(jobs, 2, async ({ fixture, p }) => {
        const key = createHash('sha256').update(p.source).digest('hex');
        let build = builds.get(key);
        if (!build) {
          build = compileLibrary(p.source, dir, `${fixture}_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS]);
          builds.set(key, build);
        }
        const c = await build;
        return { fixture, p, library: c.library, ok: c.ok, output: c.output };
      })),
    );
  }, 600_000);

  test('every fixture is inside the supported subset and parses without warnings', () => {
    for (const [name, file] of files) {
      expect(findUnsupported(file), name).toEqual([]);
      expect(file.warnings, name).toEqual([]);
    }
  });

  test('the fixtures contain the structures they are meant to cover', () => {
    const nested = files.get('nested_offset')!;
    expect(nested.sdfgs).toHaveLength(2);
    expect(nested.sdfgs[1]!.parent!.node.symbolMapping).toEqual({ M: 'N', c: 'N + 3' });
    const control = files.get('control_legacy_loop_conditional')!;
    const root = control.root.body;
    expect(root.kind).toBe('region');
    if (root.kind !== 'region') return;
    expect(root.blocks.map((b) => b.kind)).toEqual(['state', 'state', 'state', 'conditional']);
    // The loop is a cycle of the state machine (guard → body → guard), not a LoopRegion.
    expect(root.edges.some((e) => e.src === 2 && e.dst === 1 && e.assignments.length === 1)).toBe(true);
  });

  test('temporaries overwritten first in every loop iteration share workspace bytes (packed < DaCe)', () => {
    const file = files.get('loop_write_first')!;
    const analysis = analyze(file, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null });
    expect(analysis.transients.map((t) => [t.id, t.live])).toEqual([
      ['0:t1', { first: 0, last: 1 }],
      ['0:t2', { first: 2, last: 3 }],
    ]);
    const packed = analysis.layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:t1')).toBe(packed.offsets.get('0:t2'));
    expect(packed.bytes).toBe(128n);
    expect(analysis.layouts.dace['CPU_Heap']!.bytes).toBe(256n);
    const program = programs.find((b) => b.fixture === 'loop_write_first' && b.p.mode === 'EXTERNAL' && b.p.layout === 'packed')!;
    expect(program.p.externals.map((e) => [e.storage, e.bytes])).toEqual([['CPU_Heap', 128n]]);
  });

  test('a Default map inside a (Default → CPU_Multicore) map is Sequential: one parallel loop, buffers per iteration', () => {
    const b = programs.find((x) => x.fixture === 'register_symbolic' && x.p.mode === 'SCOPED')!;
    const body = b.p.source.slice(b.p.source.indexOf('// @ $.nodes[2]'), b.p.source.indexOf('__tlab_exit_0'));
    expect(body.match(/#pragma omp parallel for/g)).toHaveLength(1);
    // w is allocated inside the parallel loop, into a pointer declared there (one per iteration and thread).
    expect(body).toMatch(
      /#pragma omp parallel for\n\s*for \(int64_t i = [^\n]*\n\s*\/\/ @ \$\.attributes\._arrays\.w\n\s*size_t __tlab_bytes_w = [^;]*; double \*w = nullptr;/,
    );
  });

  test.each(Object.entries(PACKING_FIXTURES))('%s: live ranges and shared bytes of the packed layout as designed', (name, f) => {
    const file = files.get(name)!;
    const analysis = analyze(file, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null });
    expect(Object.fromEntries(analysis.transients.map((t) => [t.id, t.live && [t.live.first, t.live.last]]))).toEqual(f.live);
    const packed = analysis.layouts.packed['CPU_Heap']!;
    for (const group of f.shared) expect(new Set(group.map((id) => packed.offsets.get(id))).size, group.join(' ')).toBe(1);
    expect([packed.bytes, packed.lowerBound, analysis.layouts.dace['CPU_Heap']!.bytes]).toEqual([
      f.packedBytes,
      f.packedBytes,
      f.daceBytes,
    ]);
    const baseline = analyze(file, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null, liveness: 'baseline' });
    expect(baseline.layouts.packed['CPU_Heap']!.bytes).toBe(f.baselineBytes);
    const program = programs.find((b) => b.fixture === name && b.p.mode === 'EXTERNAL' && b.p.layout === 'packed')!;
    expect(program.p.externals.map((e) => [e.storage, e.bytes])).toEqual([['CPU_Heap', f.packedBytes]]);
  });

  test('a parallel WCR reduction is atomic, also inside a nested SDFG called from a parallel map', () => {
    for (const b of programs.filter((x) => x.fixture === 'wcr_parallel')) {
      expect(b.p.usesOpenMP).toBe(true);
      expect(b.p.nondeterministicFloat).toBe(true);
      const nestedFn = b.p.source.slice(b.p.source.indexOf('static void __tlab_nsdfg_1('), b.p.source.indexOf('static void __program_'));
      expect(nestedFn).toMatch(/#pragma omp atomic\n\s*w\[0\] \+= /);
    }
  });

  test('every fixture and mode compiles', () => {
    expect(programs.length).toBe(Object.keys(FIXTURE_SPECS).length * VARIANTS.length);
    for (const b of programs) expect(b.ok, `${b.fixture} ${b.p.mode} ${b.p.layout}:\n${b.output}`).toBe(true);
  });

  for (const [fixture, spec] of Object.entries(FIXTURE_SPECS)) {
    for (const v of VARIANTS) {
      test(`${fixture} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = programs.find((x) => x.fixture === fixture && x.p.mode === v.mode && x.p.layout === v.layout)!;
        expect(b?.ok).toBe(true);
        const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${fixture}_${v.mode}_${v.layout}.out`));
        const expected = spec.expected(b.p);
        for (const [name, values] of Object.entries(expected)) expectClose(name, result.arrays.get(name)!, values, spec.tolerance);
        for (const ext of b.p.externals) expect(result.externalSizes.get(ext.storage)).toBe(ext.bytes);
      });
    }
  }
});

describe('constants and invalid nested SDFG boundaries', () => {
  test('a constant array is a constexpr with the file’s values and is never allocated', async () => {
    const file = await readSdfgFile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__constant_array_ctrans.sdfgz'));
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 8n, target: null });
    for (const v of VARIANTS) {
      const p = generateProgram(file, analysis, v);
      expect(p.source).toContain(
        'static constexpr double __tlab_const_0___tmp0[10] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0};',
      );
      const index = p.transientIds.indexOf('0:__tmp0');
      expect(p.source).not.toMatch(new RegExp(`tlab_alloc\\([^;]*, ${index}\\)`));
      expect(p.externals.flatMap((e) => e.slots.map((s) => s.id))).not.toContain('0:__tmp0');
    }
  });

  test('a write to a constant is outside the subset', async () => {
    const file = await readSdfgFile(join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__constant_array_ctrans.sdfgz'));
    // `cst` is written by a copy in the file; declaring it a constant makes that copy a write to a constant.
    file.root.constants.set('cst', { descriptor: file.root.arrays.get('cst')!, value: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    const findings = findUnsupported(file);
    expect(findings.map((f) => f.message)).toContain(`'cst' is a constant (constants_prop) but is written here`);
  });

  test('a nested SDFG argument without a connector is a finding, not a null pointer', async () => {
    const file = await readSdfgFile(join(FIXTURES, 'nested_offset.sdfg'));
    const inner = file.sdfgs[1]!;
    inner.arrays.set('z', { ...inner.arrays.get('x')!, name: 'z' });
    const findings = findUnsupported(file);
    expect(findings.map((f) => f.message)).toEqual([
      `DaCe rejects this SDFG: Node validation failed: Data descriptor "z" not found in nested SDFG connectors (argument 'z' of the nested SDFG has no connector)`,
    ]);
    expect(findings[0]!.jsonPath).toBe(inner.parent!.node.jsonPath);
  });

  test('a failure dump of DaCe is refused with DaCe’s message', async () => {
    const file = await readSdfgFile(join(FIXTURES, 'nested_offset.sdfg'));
    const withError: SdfgFile = { ...file, dumpError: { message: 'Node validation failed: something', raw: {} } };
    const findings = findUnsupported(withError);
    expect(findings[0]).toMatchObject({ jsonPath: '$.error', message: 'DaCe rejected this SDFG: Node validation failed: something' });
  });
});

describe('sizes that depend on symbols the program assigns', () => {
  const load = (name: string) => readSdfgFile(join(FIXTURES, `${name}.sdfg`));
  const analyse = (file: SdfgFile, N: bigint) => analyze(file, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null });

  test('are allocated where DaCe allocates them: from the first to the last block that uses them', async () => {
    const sites = new Map<string, unknown>();
    for (const name of ['interstate_size', 'loop_variable_size', 'branch_size', 'nested_symbol_size', 'register_symbolic']) {
      const a = analyse(await load(name), 8n);
      for (const t of a.transients)
        sites.set(`${name} ${t.id}`, {
          site: t.allocation,
          perCall: t.executionsPerCall,
          bytes: t.bytes,
          P: t.eligible.PERSISTENT,
          E: t.eligible.EXTERNAL,
        });
    }
    expect(Object.fromEntries(sites)).toEqual({
      // After the edge that assigns K (state 1), until the last use (state 2).
      'interstate_size 0:dyn': {
        site: { kind: 'blocks', sdfg: 0, regionJsonPath: '$', firstJsonPath: '$.nodes[1]', lastJsonPath: '$.nodes[2]' },
        perCall: 1n,
        bytes: null,
        P: false,
        E: false,
      },
      // Inside the loop body: once per iteration, with that iteration's k.
      'loop_variable_size 0:tmp': {
        site: {
          kind: 'blocks',
          sdfg: 0,
          regionJsonPath: '$.nodes[0]',
          firstJsonPath: '$.nodes[0].nodes[0]',
          lastJsonPath: '$.nodes[0].nodes[1]',
        },
        perCall: 3n,
        bytes: null,
        P: false,
        E: false,
      },
      'branch_size 0:dyn': {
        site: { kind: 'blocks', sdfg: 0, regionJsonPath: '$', firstJsonPath: '$.nodes[1]', lastJsonPath: '$.nodes[2]' },
        perCall: 1n,
        bytes: null,
        P: false,
        E: false,
      },
      // M is a free symbol of the nested SDFG (passed at each call): allocated at its start, per call.
      'nested_symbol_size 1:t': { site: { kind: 'sdfg', sdfg: 1 }, perCall: 2n, bytes: null, P: false, E: false },
      // Register data of symbolic size lives on the heap (DaCe's code generator moves it there).
      'register_symbolic 0:r': { site: { kind: 'sdfg', sdfg: 0 }, perCall: 1n, bytes: 64n, P: false, E: false },
      'register_symbolic 0:w': {
        site: { kind: 'scope', sdfg: 0, stateJsonPath: '$.nodes[2]', mapEntryId: 0 },
        perCall: 8n,
        bytes: 64n,
        P: false,
        E: false,
      },
    });
    const nested = analyse(await load('nested_symbol_size'), 8n).transients[0]!;
    expect(nested.reason).toContain(`'M' ↦ 'K - k'`);
  });

  test('the buffer is allocated after the assignment it is sized by, in every mode', async () => {
    const file = await load('interstate_size');
    const analysis = analyse(file, 10n);
    for (const v of VARIANTS) {
      const src = generateProgram(file, analysis, v).source;
      const assign = src.indexOf('K = N - 1;');
      const alloc = src.search(/dyn = static_cast<double \*>\(tlab_alloc/);
      expect(assign, v.mode).toBeGreaterThan(0);
      expect(alloc, v.mode).toBeGreaterThan(assign);
    }
  });

  test('a size no single allocation point fits is refused, not sized wrongly', async () => {
    // A use of dyn inside the first branch, before the merge: the only block that precedes every use is the
    // ConditionalBlock, which runs before K has its value.
    const file = await load('branch_size');
    const big = file.root.body.blocks[0]!;
    if (big.kind !== 'conditional') throw new Error('fixture changed');
    const inBranch = big.branches[0]!.body.blocks[1]!;
    if (inBranch.kind !== 'state') throw new Error('fixture changed');
    inBranch.nodes.push({
      ...(file.root.body.blocks[1] as typeof inBranch).nodes.find((n) => n.kind === 'access' && n.data === 'dyn')!,
      id: inBranch.nodes.length,
      scopeEntry: null,
    });
    const findings = findUnsupported(file);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ jsonPath: file.root.arrays.get('dyn')!.jsonPath });
    expect(findings[0]!.message).toMatch(
      /^no single allocation point: 'dyn' \(its size uses 'K', assigned inside SDFG 'branch_size'\): 'K' is assigned again inside block 'pick'/,
    );
  });

  test('a size computed at init never uses a symbol the program assigns, even when --symbols gives one', async () => {
    const file = await load('interstate_size');
    file.root.arrays.set('dyn', { ...file.root.arrays.get('dyn')!, lifetime: 'Persistent' });
    const analysis = analyze(file, {
      symbols: new Map([
        ['N', 10n],
        ['K', 9n],
      ]),
      defaultSymbol: null,
      target: null,
    });
    expect(() => generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' })).toThrow(
      /size uses 'K', which the program assigns itself/,
    );
  });
});
