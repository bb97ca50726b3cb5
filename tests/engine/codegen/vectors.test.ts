/**
 * DaCe vector dtypes (codegen/vectors.ts), end to end on tests/fixtures/sdfg/vectors.sdfg: arrays of
 * vector<float64, 4> (`A`, `B`, a transient `T`, a one-vector accumulator `acc`) combined elementwise with
 * scalars and each other inside parallel maps, one element of a vector read (`t[1] + t[3]` into the float64
 * array `C`), and a vector WCR sum over the map. Every mode and layout, compiled under AddressSanitizer, each
 * output compared element by element with the computation written here; sizes (32 bytes a vector) checked in
 * the analysis, its view model and the workspace; the corpus file is checked to generate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { transientJson } from '../../../electron/engine/view/analysis-doc.js';
import { compileLibrary, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'vectors.sdfg');
const N = 5;

interface CorpusJson {
  attributes: { _arrays: { B: { attributes: { dtype: unknown } } } };
  nodes: Array<{ nodes: Array<{ attributes: { code: unknown } }> }>;
}

const emptyAnalysis = (root: CorpusJson): Analysis =>
  analyze(parseSdfgJson(root, 'a.sdfg', 0, false), { symbols: new Map(), defaultSymbol: null, target: null });
const L = 4;

function expected(p: GeneratedProgram): Record<string, Float64Array> {
  const a = input(p, 'A');
  const t = a.map((x) => x * 2 + x);
  const acc = input(p, 'acc').slice();
  for (let i = 0; i < N; i++) for (let k = 0; k < L; k++) acc[k]! += a[i * L + k]!;
  return {
    B: t.map((x, j) => x - a[j]! / 2),
    C: Float64Array.from({ length: N }, (_, i) => t[i * L + 1]! + t[i * L + 3]!),
    acc,
  };
}

describe('vector dtypes', () => {
  const dir = scratchDir('vectors');
  let driver = '';
  let analysis: Analysis;
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const file = await readSdfgFile(FIXTURE);
    expect(findUnsupported(file)).toEqual([]);
    analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });
    programs.push(...(await compileAllVariants(file, analysis, dir, 'vectors')));
  }, 600_000);

  test('a vector is N elements of its base type: 32 bytes for vector<float64, 4>, in the analysis and the view model', () => {
    const t = analysis.transients.find((x) => x.name === 'T')!;
    expect(t.dtype).toBe('vector<float64, 4>');
    expect(t.bytes).toBe(BigInt(N * 32));
    const view = buildAnalysisView(analysis);
    const row = transientJson(view.table, analysis.transients.indexOf(t), view.sdfgs);
    expect(row.dtype).toBe('vector<float64, 4>');
    expect(row.bytes).toBe(N * 32);
    const ext = programs.find((x) => x.p.mode === 'EXTERNAL' && x.p.layout === 'dace')!.p;
    expect(ext.externals.find((e) => e.storage === 'CPU_Heap')?.bytes).toBe(BigInt(N * 32));
  });

  test('the runner sees a vector argument as its elements, with one more dimension', () => {
    const p = programs[0]!.p;
    expect(p.args.find((a) => a.name === 'A')).toMatchObject({
      dtype: 'float64',
      ctype: 'double',
      elementBytes: 8,
      shape: [BigInt(N), BigInt(L)],
      totalElements: BigInt(N * L),
      strides: [BigInt(L), 1n],
      vector: { dtype: 'vector<float64, 4>', elements: L },
    });
    expect(p.args.find((a) => a.name === 'C')?.vector).toBeUndefined();
    expect(p.source).toContain('__program_vectors(vectors_state_t *__state, tlab_vec<double, 4> *__restrict__ A');
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) computes every element`, async () => {
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

  test('the GPU target refuses vectors, saying so', async () => {
    const file = await readSdfgFile(FIXTURE);
    const findings = findUnsupported(file, 'gpu');
    expect(findings.map((f) => f.message)).toContain('vector dtypes are generated for the CPU only');
  });

  test('a tasklet-to-tasklet value is a vector when its tasklet computes on vectors, a scalar when it reads an element', async () => {
    const corpus = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg', 'spcl__dace__tests__sdfg_corpus__vectortypes_0.sdfgz');
    const root = JSON.parse(gunzipSync(readFileSync(corpus)).toString('utf8')) as CorpusJson;
    const vectorEdge = generateProgram(parseSdfgJson(root, 'v.sdfg', 0, false), emptyAnalysis(root), ALL_VARIANTS[0]!).source;
    expect(vectorEdge).toContain('tlab_vec<float, 2> __tlab_edge_2 = {};');
    root.attributes._arrays.B.attributes.dtype = 'float32';
    root.nodes[0]!.nodes[1]!.attributes.code = { string_data: 'b = a[1] * 2', language: 'Python' };
    const scalarEdge = generateProgram(parseSdfgJson(root, 's.sdfg', 0, false), emptyAnalysis(root), ALL_VARIANTS[0]!);
    expect(scalarEdge.source).toContain('double __tlab_edge_2 = {};');
    const built = await compileLibrary(scalarEdge.source, dir, 'vectors_scalar_edge', '-O1', []);
    expect(built.ok, built.output).toBe(true);
  });

  test('the corpus file with vector<float32, 2> arguments generates', async () => {
    const corpus = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg', 'spcl__dace__tests__sdfg_corpus__vectortypes_0.sdfgz');
    expect(findUnsupported(await readSdfgFile(corpus))).toEqual([]);
  });
});
