/**
 * End-to-end correctness of generator features the bundled examples do not reach, on small hand-written SDFGs
 * (tests/fixtures/sdfg): each is generated in every mode and layout, compiled, run by the C++ driver (two
 * calls, transient memory poisoned) and compared with a TypeScript computation written from the math.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileDriver, inputFor, runProgram } from './driver.js';
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
        S[0] += a * a;
        T[0] += a + 1;
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
    driver = await compileDriver(dir);
    const jobs: Array<{ fixture: string; p: GeneratedProgram }> = [];
    for (const [fixture, spec] of Object.entries(FIXTURE_SPECS)) {
      const file = await readSdfgFile(join(FIXTURES, `${fixture}.sdfg`));
      files.set(fixture, file);
      if (findUnsupported(file).length) continue;
      const analysis = analyze(file, { symbols: new Map(Object.entries(spec.symbols)), defaultSymbol: null, target: null });
      for (const v of VARIANTS) jobs.push({ fixture, p: generateProgram(file, analysis, v) });
    }
    programs.push(
      ...(await inParallel(jobs, 2, async ({ fixture, p }) => {
        const c = await compileLibrary(p.source, dir, `${fixture}_${p.mode}_${p.layout}`, '-O1');
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

  test.each(Object.entries(PACKING_FIXTURES))('%s: live ranges and shared bytes of the packed layout as designed', (name, f) => {
    const file = files.get(name)!;
    const analysis = analyze(file, { symbols: new Map([['N', 16n]]), defaultSymbol: null, target: null });
    expect(Object.fromEntries(analysis.transients.map((t) => [t.id, t.live && [t.live.first, t.live.last]]))).toEqual(f.live);
    const packed = analysis.layouts.packed['CPU_Heap']!;
    for (const group of f.shared) expect(new Set(group.map((id) => packed.offsets.get(id))).size, group.join(' ')).toBe(1);
    expect([packed.bytes, packed.lowerBound, analysis.layouts.dace['CPU_Heap']!.bytes]).toEqual([f.packedBytes, f.packedBytes, f.daceBytes]);
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
      expect(p.source).toContain('static constexpr double __tlab_const_0___tmp0[10] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0};');
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
    expect(findings.map((f) => f.message)).toEqual([`argument 'z' of the nested SDFG has no connector with a memlet in the outer state`]);
    expect(findings[0]!.jsonPath).toBe(inner.parent!.node.jsonPath);
  });

  test('a failure dump of DaCe is refused with DaCe’s message', async () => {
    const file = await readSdfgFile(join(FIXTURES, 'nested_offset.sdfg'));
    const withError: SdfgFile = { ...file, dumpError: { message: 'Node validation failed: something', raw: {} } };
    const findings = findUnsupported(withError);
    expect(findings[0]).toMatchObject({ jsonPath: '$.error', message: 'DaCe rejected this SDFG: Node validation failed: something' });
  });
});
