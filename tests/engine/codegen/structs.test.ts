/**
 * Structures as arguments (codegen/structs.ts), end to end on two hand-written DaCe-shaped fixtures, each
 * generated in every mode and layout, compiled and run by the C++ driver under AddressSanitizer, and compared
 * with a computation written here:
 * - tests/fixtures/sdfg/struct_args.sdfg: a structure `P` (scalar members n and w, array member a, nested
 *   structure inner with array b and scalar k) read through member memlets (`P.inner.b`), a scalar member
 *   written (`P.w`), a StructureView of `P.inner` with an ArrayView of its member, and `P.inner` passed to a
 *   nested SDFG as a structure.
 * - tests/fixtures/sdfg/container_array.sdfg: a structure `G` with a container array of arrays (`arrs`) and
 *   one of structures (`items`), each element reached through a ContainerView and a view of one element.
 * The runner sees each structure as its leaves (`P.inner.b`, `G.items.2.k`), one argument each.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { transientsTable } from '../../../electron/engine/report/model.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { transientJson } from '../../../electron/engine/view/analysis-doc.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const CORPUS = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
const load = (name: string) => readSdfgFile(join(FIXTURES, `${name}.sdfg`));

const N = 6;

const CASES: Record<string, (p: GeneratedProgram) => Record<string, Float64Array>> = {
  struct_args: (p) => {
    const a = input(p, 'P.a');
    const b = input(p, 'P.inner.b');
    const k = input(p, 'P.inner.k')[0]!;
    return {
      out: a.map((x, i) => x * 2 + b[i]! * k),
      'P.w': Float64Array.of(input(p, 'P.n')[0]! + a[N - 1]!),
      out2: b.map((x) => x + 1),
      out3: b.map((x) => x * 3),
      // Leaves the program only reads come back unchanged (scalar members are copied back after the call).
      'P.a': a,
      'P.inner.b': b,
      'P.inner.k': Float64Array.of(k),
      'P.n': input(p, 'P.n'),
    };
  },
  container_array: (p) => {
    const k = input(p, 'G.items.2.k')[0]!;
    return {
      out: input(p, 'G.arrs.1').map((x) => x * 2),
      out2: input(p, 'G.items.2.b').map((x) => x + k),
    };
  },
};

function expectClose(name: string, actual: Float64Array | undefined, expected: Float64Array): void {
  expect(actual?.length, name).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const err = Math.abs(actual![i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!));
    if (!(err <= 1e-12)) expect.fail(`${name}[${i}]: ${actual![i]} but expected ${expected[i]}`);
  }
}

describe('structures as arguments, end to end', () => {
  const dir = scratchDir('structs');
  let driver = '';
  const files = new Map<string, SdfgFile>();
  const programs: Array<{ name: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const jobs: Array<{ name: string; p: GeneratedProgram }> = [];
    for (const name of Object.keys(CASES)) {
      const file = await load(name);
      files.set(name, file);
      if (findUnsupported(file).length) continue;
      const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
      for (const v of ALL_VARIANTS) jobs.push({ name, p: generateProgram(file, analysis, v) });
    }
    programs.push(
      ...(await inParallel(jobs, 2, async ({ name, p }) => ({
        name,
        p,
        ...(await compileLibrary(p.source, dir, `${name}_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS])),
      }))),
    );
  }, 600_000);

  test('the fixtures are inside the supported subset and parse without warnings', () => {
    for (const [name, file] of files) {
      expect(findUnsupported(file), name).toEqual([]);
      expect(file.warnings, name).toEqual([]);
    }
  });

  test('every case and mode compiles', () => {
    expect(programs.length).toBe(Object.keys(CASES).length * ALL_VARIANTS.length);
    for (const b of programs) expect(b.ok, `${b.name} ${b.p.mode} ${b.p.layout}:\n${b.output}`).toBe(true);
  });

  for (const [name, expected] of Object.entries(CASES)) {
    for (const v of ALL_VARIANTS) {
      test(`${name} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = programs.find((x) => x.name === name && x.p.mode === v.mode && x.p.layout === v.layout);
        expect(b?.ok).toBe(true);
        const result = await runProgram(driver, b!.library, b!.p, {}, join(dir, `${name}_${v.mode}_${v.layout}.out`));
        for (const [array, values] of Object.entries(expected(b!.p))) expectClose(array, result.arrays.get(array), values);
      });
    }
  }

  test("the runner's arguments are the leaves; __program_<n> has DaCe's signature (one pointer per structure)", () => {
    const p = programs.find((x) => x.name === 'struct_args' && x.p.mode === 'SCOPED')!.p;
    expect(p.args.map((a) => a.name)).toEqual(['P.n', 'P.w', 'P.a', 'P.inner.b', 'P.inner.k', 'out', 'out2', 'out3', 'N']);
    expect(p.args.find((a) => a.name === 'P.w')).toMatchObject({ kind: 'array', written: true, shape: [1n] });
    expect(p.args.find((a) => a.name === 'P.a')).toMatchObject({ written: false, read: true, shape: [BigInt(N)] });
    expect(p.source).toMatch(/struct t_Q \{\n\s*double \*b;\n\s*double k;\n\s*\};/);
    expect(p.source).toMatch(/struct t_P \{\n\s*double n;\n\s*double w;\n\s*double \*a;\n\s*t_Q \*inner;\n\s*\};/);
    expect(p.source).toContain(
      'extern "C" void __program_struct_args(struct_args_state_t *__state, t_P *__restrict__ P, double *__restrict__ out',
    );
    expect(p.source).toContain('P->inner->b[int64_t(i)]');
    expect(p.source).toContain('t_Q *vq = P->inner;');
    const c = programs.find((x) => x.name === 'container_array' && x.p.mode === 'SCOPED')!.p;
    expect(c.args.map((a) => a.name)).toEqual([
      'G.arrs.0',
      'G.arrs.1',
      'G.items.0.b',
      'G.items.0.k',
      'G.items.1.b',
      'G.items.1.k',
      'G.items.2.b',
      'G.items.2.k',
      'out',
      'out2',
      'N',
    ]);
    expect(c.source).toContain('t_Q *vs = vi[int64_t(2)];');
  });
});

describe('transients inside a structure', () => {
  test('are marked with the structure in the analysis, its JSON, the view model and the report', async () => {
    const file = await load('struct_args');
    // A StructureView whose array member is transient, as DaCe's Fortran frontend writes them (velocity's p_diag_0).
    const member = file.root.arrays.get('vq')!.members!.find((m) => m.name === 'b')!;
    member.transient = true;
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
    const inside = analysis.transients.filter((t) => t.insideStructure !== undefined);
    expect(inside.map((t) => [t.name, t.insideStructure])).toEqual([['vq.b', 'vq']]);
    expect(analysis.transients.find((t) => t.name === 'vq')?.insideStructure).toBeUndefined();
    expect(toAnalysisJson(analysis).transients.find((t) => t.name === 'vq.b')?.insideStructure).toBe('vq');
    const view = buildAnalysisView(analysis);
    const row = analysis.transients.findIndex((t) => t.name === 'vq.b');
    expect(transientJson(view.table, row, view.sdfgs).insideStructure).toBe('vq');
    expect(
      transientJson(
        view.table,
        analysis.transients.findIndex((t) => t.name === 'vq'),
        view.sdfgs,
      ).insideStructure,
    ).toBeUndefined();
    const rows = transientsTable(view).rows;
    expect(rows.find((r) => r.name === 'vq.b')?.insideStructure).toBe('vq');
    expect(rows.find((r) => r.name === 'vq')?.insideStructure).toBeNull();
  });
});

describe('real programs with structures', () => {
  // Their init code reads structure arguments (`ptr_patch->nlev`, `config->…`): __dace_init_<n> takes the
  // arguments then (init-args.ts, tests/engine/codegen/init-args.test.ts).
  test.each([
    'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz',
    'spcl__icon-dace__icon-model__sdfgs__get_albedos.sdfgz',
    'spcl__icon-dace__.dacecache__radiation__program.sdfg',
    // Its tasklet reaches into the structures (`o1.b[0].c = i1.b[0].c`, tests/engine/codegen/struct-tasklet.test.ts).
    'spcl__dace__tests__sdfg_corpus__lift_struct_views_sliced_multi_tasklet_access.sdfg',
    // Its views are bound once per name, as DaCe binds them (tests/engine/codegen/view-scope-binding.test.ts).
    'spcl__dace__tests__sdfg_corpus__container_group_jacobi_ContainerArray.sdfg',
  ])(
    '%s is inside the subset',
    async (name) => {
      // velocity's interstate code reads members as `ptr_patch[0].edges.quad_idx[…]` and `ptr_patch->verts.end_index`.
      expect(findUnsupported(await readSdfgFile(join(CORPUS, name)))).toEqual([]);
    },
    300_000,
  );
});
