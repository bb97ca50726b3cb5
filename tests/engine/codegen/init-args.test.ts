/**
 * Init code that reads the program's arguments (codegen/init-args.ts), as DaCe's Fortran frontend writes it
 * for ICON (`tmp_struct_symbol_0 = ptr_patch->nlev;`): `__dace_init_<n>` then takes the program's arguments, as
 * the DaCe that frontend builds with gives them (framecode.py on the f2dace branches), and `__tlab_init` reads
 * them from the argument vector (runtime ABI 2, docs/runtime-abi.md).
 *
 * tests/fixtures/sdfg/init_struct_args.sdfg: a structure `cfg` (scalar member w, array member a[N]), a scalar
 * argument `alpha`, arrays A and out, a transient t[N]. Global code declares two variables, init code sets
 * them from the arguments (`tlab_init_scale = cfg->w * alpha; tlab_init_last = cfg->a[N - 1];`), and two C++
 * tasklets use them: t = A·scale, out = t + cfg.a + last. Checked in every mode and layout against that
 * formula computed here: through the C++ driver under AddressSanitizer, and through the runner (the addon).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import { argumentsReadBy } from '../../../electron/engine/codegen/init-args.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { prepareInputs } from '../../../electron/engine/profile/inputs.js';
import { readNpy, writeNpy } from '../../../electron/engine/profile/npy.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'init_struct_args.sdfg');
const N = 6;
const ALPHA = 1.75;

/** out[i] = A[i]·(w·alpha) + a[i] + a[N-1]: what the init code and the two tasklets compute together. */
function reference(A: Float64Array, w: number, a: Float64Array, alpha: number): Float64Array {
  return A.map((x, i) => x * (w * alpha) + a[i]! + a[N - 1]!);
}

function expectClose(name: string, actual: Float64Array | undefined, expected: Float64Array): void {
  expect(actual?.length, name).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const err = Math.abs(actual![i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!));
    if (!(err <= 1e-12)) expect.fail(`${name}[${i}]: ${actual![i]} but expected ${expected[i]}`);
  }
}

function generate(file: SdfgFile, v: (typeof ALL_VARIANTS)[number]): GeneratedProgram {
  const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
  return generateProgram(file, analysis, v);
}

describe('init code that reads a structure and a scalar argument', () => {
  const dir = scratchDir('init-args');
  let driver = '';
  let file: SdfgFile;
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    file = await readSdfgFile(FIXTURE);
    driver = await compileDriver(dir, true);
    if (findUnsupported(file).length) return;
    const jobs = ALL_VARIANTS.map((v) => generate(file, v));
    programs.push(
      ...(await inParallel(jobs, 2, async (p) => ({
        p,
        ...(await compileLibrary(p.source, dir, `init_args_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS])),
      }))),
    );
  }, 600_000);

  test('the fixture is inside the supported subset and parses without warnings', () => {
    expect(findUnsupported(file)).toEqual([]);
    expect(file.warnings).toEqual([]);
  });

  test("__dace_init_<n> takes __program_<n>'s arguments (DaCe's Fortran-frontend ABI); __tlab_init reads them from argv", () => {
    expect(programs).toHaveLength(ALL_VARIANTS.length);
    const src = programs[0]!.p.source;
    const params = 'double *__restrict__ A, t_cfg *__restrict__ cfg, double *__restrict__ out, int N, double alpha';
    expect(src).toContain(`__dace_init_init_struct_args(${params})`);
    expect(src).toContain(`__program_init_struct_args(init_struct_args_state_t *__state, ${params})`);
    expect(src).toContain('extern "C" void *__tlab_init(const int64_t *__syms, void *const *__argv)');
    expect(src).toContain(
      'void *__handle = __dace_init_init_struct_args(static_cast<double *>(__argv[0]), &__tlab_struct_cfg_0, static_cast<double *>(__argv[3]), *static_cast<const int *>(__argv[4]), *static_cast<const double *>(__argv[5]));',
    );
    expect(src).toContain('extern "C" uint32_t __tlab_init_arg_count(void) { return 6; }');
    expect(programs[0]!.p.args.map((a) => a.name)).toEqual(['A', 'cfg.w', 'cfg.a', 'out', 'N', 'alpha']);
  });

  test('a program whose init code reads no argument keeps mainline DaCe’s init (the symbols only)', async () => {
    const plain = await readSdfgFile(FIXTURE);
    plain.root.initCode = { frame: { code: 'tlab_init_scale = 2.0 * N; tlab_init_last = 0.5;  // cfg->w in a comment', language: 'CPP' } };
    const src = generate(plain, ALL_VARIANTS[0]!).source;
    expect(src).toContain('__dace_init_init_struct_args(int N)');
    expect(src).toContain('return __dace_init_init_struct_args(static_cast<int>(__syms[0]));');
    expect(src).toContain('extern "C" uint32_t __tlab_init_arg_count(void) { return 0; }');
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) computes out = A·(w·alpha) + a + a[N-1] through the C++ driver`, async () => {
      const b = programs.find((x) => x.p.mode === v.mode && x.p.layout === v.layout);
      expect(b?.ok, b?.output).toBe(true);
      const result = await runProgram(driver, b!.library, b!.p, { alpha: ALPHA }, join(dir, `init_args_${v.mode}_${v.layout}.out`));
      const expected = reference(input(b!.p, 'A'), input(b!.p, 'cfg.w')[0]!, input(b!.p, 'cfg.a'), ALPHA);
      expectClose('out', result.arrays.get('out'), expected);
    });
  }

  test('exit code that reads an argument is refused: DaCe’s __dace_exit takes the state only', async () => {
    const bad = await readSdfgFile(FIXTURE);
    bad.root.exitCode = { frame: { code: 'tlab_init_last = cfg->w;', language: 'CPP' } };
    expect(findUnsupported(bad).map((f) => [f.jsonPath, f.element, f.message])).toEqual([
      [
        '$.attributes.exit_code.frame',
        "SDFG init_struct_args exit code for 'frame'",
        "the exit code reads argument 'cfg', which __dace_exit does not receive (DaCe's exit takes the state only)",
      ],
    ]);
  });
});

describe('structure members the init code copies into symbols', () => {
  test('are marked on the argument and get the symbol’s value as input, not a generated one', async () => {
    const file = await readSdfgFile(FIXTURE);
    // The Fortran frontend's pattern: a symbol set from a structure's scalar member (`tmp_struct_symbol_0 = ptr_patch->nlev;`).
    file.root.initCode = { frame: { code: 'N = cfg->w;\ntlab_init_scale = alpha; tlab_init_last = 0;', language: 'CPP' } };
    const p = generate(file, ALL_VARIANTS[0]!);
    expect(p.args.filter((a) => a.fromSymbol !== undefined).map((a) => [a.name, a.fromSymbol])).toEqual([['cfg.w', 'N']]);
    const prepared = await prepareInputs(p.args, p.symbols, { seed: 0n, files: new Map() });
    const w = prepared.find((x) => x.arg.name === 'cfg.w')!;
    expect(w.source).toBe('symbol');
    expect(new Float64Array(w.bytes.slice().buffer)[0]).toBe(N);
    // An argument the init code only reads keeps its generated input.
    expect(prepared.find((x) => x.arg.name === 'cfg.a')!.source).toBe('seed');
  });
});

describe('which arguments a code block reads', () => {
  test('names of non-transient data, not members, comments, strings, symbols or transients', async () => {
    const root = (await readSdfgFile(FIXTURE)).root;
    expect(argumentsReadBy(root, 'x = cfg->w * alpha; y = A[0];')).toEqual(['cfg', 'alpha', 'A']);
    expect(argumentsReadBy(root, 'x = p.alpha + q->cfg + r::A; y = N + t[0]; // cfg\n/* alpha */ s = "A";')).toEqual([]);
  });
});

describe('through the runner', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'tlab-init-args-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  test('every mode gets the arguments in init (the addon’s init(symbols, args)) and computes the reference', async () => {
    const A = Float64Array.from({ length: N }, (_, i) => 0.25 * i - 1);
    const a = Float64Array.from({ length: N }, (_, i) => 3 - i * 0.5);
    const w = 2.5;
    const inputs = new Map<string, string>();
    const put = async (name: string, values: Float64Array) => {
      const path = join(tmp, `${name}.npy`);
      await writeNpy(path, { dtype: 'float64', shape: [values.length], data: new Uint8Array(values.buffer) });
      inputs.set(name, path);
    };
    await put('A', A);
    await put('cfg.a', a);
    await put('cfg.w', Float64Array.of(w));
    await put('alpha', Float64Array.of(ALPHA));
    const out = join(tmp, 'out');
    const result = await profile(FIXTURE, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: new Map([['N', BigInt(N)]]),
      inputs,
      saveOutputs: out,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    expect(result.modes).toHaveLength(5);
    const expected = reference(A, w, a, ALPHA);
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const o = await readNpy(join(out, m, 'out.npy'));
      expectClose(m, new Float64Array(o.data.slice().buffer), expected);
    }
  }, 300_000);
});
