/**
 * Tasklet code that reaches into structure connectors (codegen/tasklet-structs.ts), end to end on
 * tests/fixtures/sdfg/struct_tasklet.sdfg: structure arguments `A` (a container array `b` of structures with a
 * scalar `c` and an array `v`, an array `w`, a scalar `s`) and `Z` (a container array of structures, a 2-D array
 * `m`), read and written only through the tasklets' connectors (`o1.b[0].c = i1.b[0].c`, as DaCe's
 * LiftStructViews tests write them), once at the state's top level and once inside a parallel map that indexes
 * members with the map parameter under an `if`. Every mode and layout, compiled under AddressSanitizer, compared
 * with the computation written here; the corpus file that needed it is checked to generate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'struct_tasklet.sdfg');
const N = 5;

function expected(p: GeneratedProgram): Record<string, Float64Array> {
  const s = input(p, 'A.s')[0]!;
  const v = input(p, 'A.b.2.v');
  const w = input(p, 'A.w');
  const m = input(p, 'Z.m').slice();
  for (let i = 0; i < N; i++) m[N + i] = s > 0 ? v[i]! + w[i]! * s : -1;
  return {
    'Z.b.0.c': input(p, 'A.b.0.c'),
    'Z.b.1.c': Float64Array.of(s * 2),
    'Z.b.2.c': input(p, 'Z.b.2.c'),
    'Z.b.3.c': input(p, 'Z.b.3.c'),
    'Z.m': m,
  };
}

describe('tasklets that reach into structure connectors', () => {
  const dir = scratchDir('struct-tasklet');
  let driver = '';
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const file = await readSdfgFile(FIXTURE);
    expect(findUnsupported(file)).toEqual([]);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
    programs.push(...(await compileAllVariants(file, analysis, dir, 'struct_tasklet')));
  }, 600_000);

  test('the connector is the structure pointer and member steps are arrows, arrays indexed with their strides', () => {
    const src = programs[0]!.p.source;
    expect(src).toContain('t_A *i1 = __tlab_in0;');
    expect(src).toContain('o1->b[0]->c = i1->b[0]->c;');
    expect(src).toContain('o1->m[int64_t(1) * N + int64_t(i)] = i1->b[int64_t(2)]->v[int64_t(i)] + i1->w[int64_t(i)] * i1->s;');
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) computes the members the code names`, async () => {
      const b = programs.find((x) => x.p.mode === v.mode && x.p.layout === v.layout)!;
      expect(b.ok, b.output).toBe(true);
      const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${v.mode}_${v.layout}.out`));
      for (const [name, values] of Object.entries(expected(b.p))) {
        const actual = result.arrays.get(name);
        expect(actual?.length, name).toBe(values.length);
        for (let i = 0; i < values.length; i++) expect(actual![i], `${name}[${i}]`).toBeCloseTo(values[i]!, 12);
      }
    });
  }

  /** The fixture with the first tasklet's code replaced. */
  const withCode = (code: string) => {
    const root = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { nodes: Array<{ nodes: Array<{ attributes: { code: unknown } }> }> };
    root.nodes[0]!.nodes[0]!.attributes.code = { string_data: code, language: 'Python' };
    return parseSdfgJson(root, 'bad.sdfg', 0, false);
  };

  test.each([
    ['o1.b[0].c = i1.b[0]', 'is a structure'],
    ['o1.b[0].c = i1.w', 'is a whole array'],
    ['o1.b[0].c = i1.q', 'q is not a member of structure t_A'],
    ['o1.b[0].c = i1 + 1', "structure connector 'i1' is used as a value"],
    ['o1.b[0].c = i1.s[1]', 'a scalar member is indexed'],
  ])('%s is refused at the tasklet: %s', (code, message) => {
    const findings = findUnsupported(withCode(code));
    expect(findings.length).toBe(1);
    expect(findings[0]!.jsonPath).toBe('$.nodes[0].nodes[0]');
    expect(findings[0]!.message).toContain(message);
  });

  test('the corpus file whose tasklet reaches into its structures generates', async () => {
    const corpus = join(
      packageRoot(),
      '..',
      'shared',
      'corpus',
      'sdfg',
      'spcl__dace__tests__sdfg_corpus__lift_struct_views_sliced_multi_tasklet_access.sdfg',
    );
    const file = await readSdfgFile(corpus);
    expect(findUnsupported(file)).toEqual([]);
  });
});
