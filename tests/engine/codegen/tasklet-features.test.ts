/**
 * Tasklet features real DaCe programs use, end to end on small SDFGs built in tasklet-sdfg.ts: NumPy/math
 * functions (cloudsc's `sign_numpy_2`), pointer-typed connectors (DaCe's C frontend, deriche), and SDFG-level
 * global/init/exit code. Each is generated in every mode and layout, compiled with AddressSanitizer, run by the
 * C++ driver and compared with a TypeScript computation; the GPU version of the functions fixture is compiled
 * with nvcc where the machine has one (no GPU needed).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { parseSdfgBytes } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor, runProgram } from './driver.js';
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';
import { sdfgText, type SdfgSpec } from './tasklet-sdfg.js';

afterAll(removeScratchDirs);

const N = 16;

const FUNCTIONS_CODE = [
  'z = x - x',
  'n = z / z',
  'r0 = np.sign(x)',
  'r1 = np.sign(z) + 10.0 * np.heaviside(z, 0.5)',
  'r2 = sign_numpy_2(n)',
  'r3 = np.heaviside(x, 0.5) + 10.0 * np.heaviside(n, 0.5)',
  'r4 = np.clip(x, -1.0, 1.0)',
  'r5 = max(x, a, 0.25, -x) + min(x, a, -0.5)',
  'r6 = np.fmod(x, 0.75) + math.fmod(-x, 0.5)',
  'r7 = np.hypot(x, a) + np.where(np.isnan(n), 1.0, 0.0)',
].join('\n');

/** t = 4·(A - 1) (a transient, values in [-2, 2)); then R[k, i] = the k-th function of t[i] and A[i]. */
function functionsSpec(gpu: boolean): SdfgSpec {
  return {
    name: 'tasklet_functions',
    gpu,
    arrays: { A: { shape: ['N'] }, t: { shape: ['N'], transient: true }, R: { shape: ['8', 'N'] } },
    states: [
      {
        label: 'shift',
        inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
        outputs: [{ conn: 'o', data: 't', index: ['i'] }],
        code: 'o = (a - 1.0) * 4.0',
      },
      {
        label: 'functions',
        inputs: [
          { conn: 'x', data: 't', index: ['i'] },
          { conn: 'a', data: 'A', index: ['i'] },
        ],
        outputs: Array.from({ length: 8 }, (_, k) => ({ conn: `r${k}`, data: 'R', index: [String(k), 'i'] })),
        code: FUNCTIONS_CODE,
      },
    ],
  };
}

/** NumPy's definitions, written out: sign and heaviside of NaN are NaN, fmod keeps the dividend's sign. */
function functionsReference(A: Float64Array): Float64Array {
  const sign = (v: number) => (Number.isNaN(v) ? NaN : v > 0 ? 1 : v < 0 ? -1 : 0);
  const heaviside = (v: number, h: number) => (Number.isNaN(v) ? NaN : v < 0 ? 0 : v > 0 ? 1 : h);
  const R = new Float64Array(8 * N);
  for (let i = 0; i < N; i++) {
    const a = A[i]!;
    const x = (a - 1) * 4;
    const rows = [
      sign(x),
      0 + 10 * 0.5,
      NaN,
      heaviside(x, 0.5) + 10 * NaN,
      Math.min(Math.max(x, -1), 1),
      Math.max(x, a, 0.25, -x) + Math.min(x, a, -0.5),
      (x % 0.75) + (-x % 0.5),
      Math.sqrt(x * x + a * a) + 1,
    ];
    rows.forEach((v, k) => (R[k * N + i] = v));
  }
  return R;
}

const F64_POINTER = { type: 'pointer', dtype: 'float64' };

/**
 * Pointer connectors: p points at A[i] and A[i + 1] (a range), q at t[i] (one element), both written and read
 * through the pointer, in C++ and in Python: t[i] = A[i] + 2·A[i+1]; B[i] = 3·t[i] + 1.
 */
const POINTERS: SdfgSpec = {
  name: 'pointer_connectors',
  arrays: { A: { shape: ['N + 1'] }, t: { shape: ['N'], transient: true }, B: { shape: ['N'] } },
  states: [
    {
      label: 'cpp',
      language: 'CPP',
      inputs: [{ conn: 'p', data: 'A', index: ['i:i + 1'], type: F64_POINTER }],
      outputs: [{ conn: 'q', data: 't', index: ['i'], type: F64_POINTER }],
      code: '*q = p[0] + 2.0 * p[1];',
    },
    {
      label: 'python',
      inputs: [{ conn: 'p', data: 't', index: ['i'], type: F64_POINTER }],
      outputs: [{ conn: 'q', data: 'B', index: ['i'], type: F64_POINTER }],
      code: 'q[0] = p[0] * 3.0 + 1.0',
    },
  ],
};

const cpp = (code: string) => ({ frame: { string_data: code, language: 'CPP' } });

/** Global code declares a variable, init code sets it from the symbol N, the program reads it: B = A·(2.5 + N). */
const CODE_BLOCKS: SdfgSpec = {
  name: 'code_blocks',
  arrays: { A: { shape: ['N'] }, t: { shape: ['N'], transient: true }, B: { shape: ['N'] } },
  attributes: {
    global_code: cpp('static double tlab_fixture_scale = 0.0;'),
    init_code: cpp('tlab_fixture_scale = 2.5 + N;'),
    exit_code: cpp('tlab_fixture_scale = -1.0;'),
  },
  states: [
    {
      label: 'scale',
      language: 'CPP',
      inputs: [{ conn: 'a', data: 'A', index: ['i'] }],
      outputs: [{ conn: 'o', data: 't', index: ['i'] }],
      code: 'o = a * tlab_fixture_scale;',
    },
    {
      label: 'copy',
      inputs: [{ conn: 'a', data: 't', index: ['i'] }],
      outputs: [{ conn: 'o', data: 'B', index: ['i'] }],
      code: 'o = a',
    },
  ],
};

interface Fixture {
  spec: SdfgSpec;
  expected: (p: GeneratedProgram) => Record<string, Float64Array>;
}

const FIXTURES: Record<string, Fixture> = {
  functions: { spec: functionsSpec(false), expected: (p) => ({ R: functionsReference(inputFor(p, 'A')) }) },
  pointers: {
    spec: POINTERS,
    expected: (p) => {
      const A = inputFor(p, 'A');
      return { A, B: Float64Array.from({ length: N }, (_, i) => (A[i]! + 2 * A[i + 1]!) * 3 + 1) };
    },
  },
  code_blocks: { spec: CODE_BLOCKS, expected: (p) => ({ B: inputFor(p, 'A').map((a) => a * (2.5 + N)) }) },
};

const parse = (spec: SdfgSpec): SdfgFile => parseSdfgBytes(new TextEncoder().encode(sdfgText(spec)), `${spec.name}.sdfg`);

/** Equal as numbers, NaN equal to NaN (the functions fixture computes NaN on purpose). */
function expectSame(name: string, actual: Float64Array, expected: Float64Array): void {
  expect(actual.length, name).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i]!;
    const e = expected[i]!;
    const ok = Number.isNaN(e) ? Number.isNaN(a) : Math.abs(a - e) <= 1e-12 * Math.max(1, Math.abs(e));
    if (!ok) expect.fail(`${name}[${i}]: ${a} but expected ${e}`);
  }
}

describe('tasklet features of real programs, end to end', () => {
  const dir = scratchDir('tasklet-features');
  let driver = '';
  const built: Array<{ fixture: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const jobs: Array<{ fixture: string; p: GeneratedProgram }> = [];
    for (const [fixture, f] of Object.entries(FIXTURES)) {
      const file = parse(f.spec);
      expect(findUnsupported(file), fixture).toEqual([]);
      const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
      for (const v of ALL_VARIANTS) jobs.push({ fixture, p: generateProgram(file, analysis, v) });
    }
    built.push(
      ...(await inParallel(jobs, 2, async ({ fixture, p }) => {
        const c = await compileLibrary(p.source, dir, `${fixture}_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS]);
        return { fixture, p, ...c };
      })),
    );
  }, 600_000);

  for (const fixture of Object.keys(FIXTURES)) {
    for (const v of ALL_VARIANTS) {
      test(`${fixture} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = built.find((x) => x.fixture === fixture && x.p.mode === v.mode && x.p.layout === v.layout)!;
        expect(b.ok, b.output).toBe(true);
        const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${fixture}_${v.mode}_${v.layout}.out`));
        for (const [name, values] of Object.entries(FIXTURES[fixture]!.expected(b.p))) expectSame(name, result.arrays.get(name)!, values);
      });
    }
  }

  test('pointer connectors point into the container at the memlet start', () => {
    const src = built.find((x) => x.fixture === 'pointers')!.p.source;
    expect(src).toMatch(/double \*__tlab_in\d+ = A \+ int64_t\(i\);/);
    expect(src).toMatch(/double \*q = __tlab_out\d+;/);
  });

  test('code blocks sit where DaCe puts them: global at file scope, init before persistent allocations, exit after the frees', () => {
    const src = built.find((x) => x.fixture === 'code_blocks' && x.p.mode === 'PERSISTENT')!.p.source;
    const global = src.indexOf('static double tlab_fixture_scale = 0.0;');
    const init = src.indexOf('tlab_fixture_scale = 2.5 + N;');
    const exit = src.indexOf('tlab_fixture_scale = -1.0;');
    expect(global).toBeGreaterThan(src.indexOf('struct code_blocks_state_t'));
    expect(global).toBeLessThan(src.indexOf('static void __program_code_blocks_internal'));
    const initFn = src.indexOf('__dace_init_code_blocks(');
    expect(init).toBeGreaterThan(initFn);
    expect(init).toBeLessThan(src.indexOf('tlab_alloc', initFn));
    const exitFn = src.indexOf('__dace_exit_code_blocks(');
    expect(exit).toBeGreaterThan(src.indexOf('tlab_free', exitFn));
    expect(exit).toBeLessThan(src.indexOf('delete __state;', exitFn));
  });
});

describe('what the features cannot translate is a finding', () => {
  test('unknown functions, wrong arities, pointer connectors without a container, code blocks needing DaCe or ONNX Runtime', () => {
    const bad = functionsSpec(false);
    bad.states[1]!.code = 'r0 = np.frobnicate(x)\nr1 = np.heaviside(x)';
    expect(findUnsupported(parse(bad)).map((f) => f.message)).toEqual(["no C++ translation for function 'np.frobnicate'"]);
    // float16 is a C type now (tlab_half); a pointer to a pointer still has none.
    const pointerOfPointer: SdfgSpec = {
      ...POINTERS,
      states: [
        {
          ...POINTERS.states[0]!,
          outputs: [{ ...POINTERS.states[0]!.outputs[0]!, type: { type: 'pointer', dtype: { type: 'pointer', dtype: 'float64' } } }],
        },
      ],
    };
    expect(findUnsupported(parse(pointerOfPointer)).map((f) => f.message)).toEqual([
      'connector q has type pointer<pointer<float64>>, which is not supported',
    ]);
    const blocks = (init: string, language = 'CPP'): SdfgSpec => ({
      ...CODE_BLOCKS,
      attributes: { ...CODE_BLOCKS.attributes, init_code: { frame: { string_data: init, language } } },
    });
    expect(findUnsupported(parse(blocks('__state->dims[0] = N;'))).map((f) => [f.jsonPath, f.message])).toEqual([
      [
        '$.attributes.init_code.frame',
        "the init code reads DaCe's state field '__state->dims', which DaCe's code generator adds for a feature Transient Lab does not generate",
      ],
    ]);
    // DaCe's MPI process grids (sdfg._pgrids) in the state struct: an MPI program, said so.
    expect(
      findUnsupported(parse(blocks('__state->__pgrid_0_dims[0] = N;\nMPI_Cart_create(MPI_COMM_WORLD, 1, 0, 0, 0, 0);'))).map(
        (f) => f.message,
      ),
    ).toEqual([
      "the init code uses MPI ('MPI_Cart_create') and the state fields of DaCe's MPI process grids and subarrays ('__state->__pgrid_0_dims'): an MPI program (DaCe's distributed runtime: process grids, subarrays, MPI library nodes)",
    ]);
    expect(findUnsupported(parse(blocks('omp_set_num_threads(2);'))).map((f) => f.message)).toEqual([
      "the init code uses DaCe runtime API ('omp_')",
    ]);
    expect(findUnsupported(parse(blocks('__ort_check_status(0);'))).map((f) => f.message)).toEqual([
      "the init code calls ONNX Runtime ('__ort_check_status'), which generated code does not link",
    ]);
    expect(findUnsupported(parse(blocks('x = 1', 'Python'))).map((f) => f.message)).toEqual(['Python code blocks are not supported']);
    // Code for a target DaCe's frame code does not read is ignored, as DaCe ignores it.
    expect(
      findUnsupported(
        parse({
          ...CODE_BLOCKS,
          attributes: { ...CODE_BLOCKS.attributes, exit_code: { mpi: { string_data: 'MPI_Finalize();', language: 'CPP' } } },
        }),
      ),
    ).toEqual([]);
  });
});

const nvcc = findNvcc();

describe.skipIf(!nvcc)('the functions fixture on the GPU (nvcc, compile only)', () => {
  test('kernels call the same helpers, marked __host__ __device__, in every mode', async () => {
    const dir = scratchDir('tasklet-features-gpu');
    const file = parse(functionsSpec(true));
    expect(findUnsupported(file, 'gpu')).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
    expect(analysis.target).toBe('gpu');
    const programs = ALL_VARIANTS.map((v) => generateProgram(file, analysis, v));
    expect(programs[0]!.source).toContain('static inline __host__ __device__ A tlab_sign(A a)');
    const results = await inParallel(programs, 2, (p) => nvccCompile(nvcc!, p.source, dir, `functions_${p.mode}_${p.layout}`));
    results.forEach((r, i) => expect(r.ok, `${ALL_VARIANTS[i]!.mode}: ${firstErrors(r.output)}`).toBe(true));
  }, 600_000);
});
