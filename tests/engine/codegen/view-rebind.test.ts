/**
 * A view bound to two different subsets in one scope (codegen/views.ts), as DaCe's container-group programs have
 * them: tests/fixtures/sdfg/view_rebind.sdfg reads `G.items[0].b` and writes `G.items[1].b` through two chains of
 * views whose middle link `vs` (a StructureView) is bound once to `vi[0]` and once to `vi[1]`. cpu.py binds a view
 * where its AccessNode is; here the second AccessNode gets a local of its own, and the view of it follows that
 * local. Every mode and layout, compiled under AddressSanitizer, compared with the computation written here.
 * A view that code reads or writes through while it is bound twice stays a finding (the corpus file
 * container_group_jacobi_ContainerArray, whose chains name different elements for reading and writing one view).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'view_rebind.sdfg');
const N = 6;

describe('a view bound to two subsets in one scope', () => {
  const dir = scratchDir('view-rebind');
  let driver = '';
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const file = await readSdfgFile(FIXTURE);
    expect(findUnsupported(file)).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
    programs.push(...(await compileAllVariants(file, analysis, dir, 'view_rebind')));
  }, 600_000);

  test('the second AccessNode binds a local of its own, which the view of it follows', () => {
    const src = programs[0]!.p.source;
    expect(src).toContain('t_Q *vs = vi[0];');
    expect(src).toContain('t_Q *__tlab_view8_vs = vi[int64_t(1)];');
    expect(src).toContain('double *vw = __tlab_view8_vs->b;');
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) writes the element the write chain names`, async () => {
      const b = programs.find((x) => x.p.mode === v.mode && x.p.layout === v.layout)!;
      expect(b.ok, b.output).toBe(true);
      const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${v.mode}_${v.layout}.out`));
      const a = input(b.p, 'G.items.0.b');
      const expected: Record<string, Float64Array> = {
        'G.items.1.b': a.map((x) => x * 2 + 1),
        'G.items.0.b': a,
        'G.items.0.k': input(b.p, 'G.items.0.k'),
        'G.items.1.k': input(b.p, 'G.items.1.k'),
      };
      for (const [name, values] of Object.entries(expected)) {
        const actual = result.arrays.get(name);
        expect(actual?.length, name).toBe(values.length);
        for (let i = 0; i < values.length; i++) expect(actual![i], `${name}[${i}]`).toBeCloseTo(values[i]!, 12);
      }
    });
  }

  test('a view that code accesses while it is bound to two subsets stays a finding that names both AccessNodes', async () => {
    const corpus = join(
      packageRoot(),
      '..',
      'shared',
      'corpus',
      'sdfg',
      'spcl__dace__tests__sdfg_corpus__container_group_jacobi_ContainerArray.sdfg',
    );
    const findings = findUnsupported(await readSdfgFile(corpus));
    expect(findings.map((f) => [f.jsonPath, f.element])).toEqual([
      ['$.nodes[2].nodes[18]', "view 'v_B'"],
      ['$.nodes[2].nodes[29]', "view 'v_A'"],
    ]);
    expect(findings[0]!.message).toContain('(AccessNodes 10 and 18)');
    expect(findings[0]!.hint).toContain('a view of its own name');
  });
});
