/**
 * Views bound once per name and scope, from the AccessNode DaCe binds them with (codegen/view-order.ts): the
 * name's first AccessNode, in the order of the SDFG's arrays, each after the node it views. Other AccessNodes of
 * the name use that binding, whatever element their own chain names.
 *
 * tests/fixtures/sdfg/view_scope_binding.sdfg is container_group_jacobi_ContainerArray made small, in bounds and
 * free of races: chains G.items → vi → vs → vw → va and → vb name elements 0 and 1; m1 reads va and writes vb
 * (×2), m2 reads vb and writes va (×3), and the write chains name elements 0 and 1 again. DaCe binds vs to
 * element 0 (va comes first among the arrays), so both maps scale element 0 in place; with vb first among the
 * arrays it binds element 1. tests/fixtures/sdfg/view_rebind.sdfg reads va through element 0 and writes vw
 * through a chain naming element 1: DaCe writes element 0. Every mode and layout, compiled under
 * AddressSanitizer, compared with the computation written here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor as input, runProgram, type SanitizedVariant } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const JACOBI = join(corpusDir(), 'spcl__dace__tests__sdfg_corpus__container_group_jacobi_ContainerArray.sdfg');
const N = 6;

type Expected = (p: SanitizedVariant['p']) => Record<string, Float64Array>;

const scale = (p: SanitizedVariant['p'], name: string, f: number) => input(p, name).map((x) => x * f);

/** The fixtures, each with the outputs DaCe's build computes (checked against DaCe's generated code, docs/codegen.md). */
const CASES: Array<{ name: string; path: (dir: string) => string; expected: Expected }> = [
  {
    name: 'view_scope_binding (va first among the arrays)',
    path: () => join(FIXTURES, 'view_scope_binding.sdfg'),
    expected: (p) => ({ 'G.items.0.b': scale(p, 'G.items.0.b', 6), 'G.items.1.b': input(p, 'G.items.1.b') }),
  },
  {
    name: 'view_scope_binding (vb first among the arrays)',
    path: (dir) => {
      // The same graph with vb declared before va: DaCe binds vb first, through element 1.
      const json = JSON.parse(readFileSync(join(FIXTURES, 'view_scope_binding.sdfg'), 'utf8')) as {
        attributes: { _arrays: Record<string, unknown> };
      };
      const { G, va, vb, ...rest } = json.attributes._arrays;
      json.attributes._arrays = { G, vb, va, ...rest };
      const out = join(dir, 'view_scope_binding_vb_first.sdfg');
      writeFileSync(out, JSON.stringify(json));
      return out;
    },
    expected: (p) => ({ 'G.items.0.b': input(p, 'G.items.0.b'), 'G.items.1.b': scale(p, 'G.items.1.b', 6) }),
  },
  {
    name: 'view_rebind',
    path: () => join(FIXTURES, 'view_rebind.sdfg'),
    expected: (p) => ({
      'G.items.0.b': input(p, 'G.items.0.b').map((x) => x * 2 + 1),
      'G.items.1.b': input(p, 'G.items.1.b'),
      'G.items.0.k': input(p, 'G.items.0.k'),
      'G.items.1.k': input(p, 'G.items.1.k'),
    }),
  },
];

describe('views bound once per name and scope, as DaCe binds them', () => {
  const dir = scratchDir('view-scope-binding');
  let driver = '';
  const builds = new Map<string, SanitizedVariant[]>();

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    for (const [i, c] of CASES.entries()) {
      const file = await readSdfgFile(c.path(dir));
      expect(findUnsupported(file), c.name).toEqual([]);
      const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
      builds.set(c.name, await compileAllVariants(file, analysis, dir, `case${i}`));
    }
  }, 900_000);

  test('each name is bound once, from its first AccessNode in the order of the arrays', () => {
    const [first, second, rebind] = CASES.map((c) => builds.get(c.name)![0]!.p.source);
    expect(first).toContain('t_Q *vs = vi[0];');
    expect(first).toContain('double *va = vw;');
    expect(first).toContain('double *vb = vw;');
    expect(first!.match(/\bvs = /g)).toHaveLength(1);
    expect(second).toMatch(/t_Q \*vs = vi\[(1|int64_t\(1\))\];/);
    expect(rebind).toContain('double *vw = vs->b;');
    expect(rebind).not.toContain('__tlab_view');
  });

  for (const c of CASES)
    for (const v of ALL_VARIANTS) {
      test(`${c.name}: ${v.mode} (${v.layout}) computes what DaCe's build computes`, async () => {
        const b = builds.get(c.name)!.find((x) => x.p.mode === v.mode && x.p.layout === v.layout)!;
        expect(b.ok, b.output).toBe(true);
        const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${CASES.indexOf(c)}_${v.mode}_${v.layout}.out`));
        for (const [name, values] of Object.entries(c.expected(b.p))) {
          const actual = result.arrays.get(name);
          expect(actual?.length, name).toBe(values.length);
          for (let i = 0; i < values.length; i++) expect(actual![i], `${name}[${i}]`).toBeCloseTo(values[i]!, 12);
        }
      });
    }

  test('container_group_jacobi_ContainerArray binds v_A and v_B as DaCe does: both to AB.As[0].AsArray', async () => {
    const file = await readSdfgFile(JACOBI);
    expect(findUnsupported(file)).toEqual([]);
    const analysis = analyze(file, { symbols: new Map(), defaultSymbol: 16n, target: null });
    const src = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
    expect(src).toMatch(/\*v_AB_As_AsInternal = v_AB_As\[0\];/);
    expect(src).toMatch(/float \*v_A = v_AB_As_AsInternal_AsArray;/);
    expect(src).toMatch(/float \*v_B = v_AB_As_AsInternal_AsArray;/);
    expect(src.match(/\bv_AB_As_AsInternal = /g)).toHaveLength(1);
  }, 120_000);
});
