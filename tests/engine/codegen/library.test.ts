/**
 * Library nodes expanded before analysis (engine/sdfg/expand): Reduce (over one axis, over every axis, with and
 * without an identity, min/max/product, a squeezed subset, inside a parallel map), Transpose, the BLAS nodes and
 * the data-movement nodes (Memset, Fill, Copy, MemoryMovement), FFT, IFFT and CSRMV, each generated in every mode and layout, compiled with
 * AddressSanitizer, run by the C++ driver and compared with the math written here.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { transientJson } from '../../../electron/engine/view/analysis-doc.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { corpusDir, packageRoot } from '../../../electron/engine/paths.js';
import { expandLibraryNodes } from '../../../electron/engine/sdfg/expand/index.js';
import { parseSdfgJson, readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const N = 7;
const M = 6;
const K = 5;

/** Every array's value after one call, from the driver's inputs. */
const EXPECTED: Record<string, (p: GeneratedProgram) => Record<string, Float64Array>> = {
  library_reduce: (p) => {
    const A = inputFor(p, 'A');
    const a = (i: number, j: number) => A[i * M + j]!;
    const colsum = new Float64Array(M);
    const total = new Float64Array(1);
    const rowmin = new Float64Array(N).fill(Infinity);
    const acc = inputFor(p, 'acc');
    const rmax = new Float64Array([-Infinity]);
    const prod = new Float64Array(N).fill(1);
    const ssq = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < M; j++) {
        colsum[j] = colsum[j]! + 2 * a(i, j);
        total[0] = total[0]! + 2 * a(i, j);
        rowmin[i] = Math.min(rowmin[i]!, 2 * a(i, j));
        acc[j] = acc[j]! + a(i, j);
        prod[i] = prod[i]! * a(i, j);
        ssq[i] = ssq[i]! + a(i, j) * a(i, j);
      }
    }
    for (let j = 1; j <= M - 2; j++) rmax[0] = Math.max(rmax[0]!, a(2, j));
    return { A, colsum, total, rowmin, acc, rmax, prod, ssq };
  },
  // C = A·B, y = A·x, d = x·x, G = 2·A·B + 0.5·Cin, E = A·B2ᵀ, z = 3·Aᵀ·w, v = w·A.
  library_blas: (p) => {
    const [A, B, B2, Cin, x, w] = ['A', 'B', 'B2', 'Cin', 'x', 'w'].map((n) => inputFor(p, n)) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    const C = new Float64Array(N * M);
    const G = new Float64Array(N * M);
    const E = new Float64Array(N * M);
    const y = new Float64Array(N);
    const z = new Float64Array(K);
    const v = new Float64Array(K);
    let dot = 0;
    for (let k = 0; k < K; k++) dot += x[k]! * x[k]!;
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < K; k++) {
        y[i] = y[i]! + A[i * K + k]! * x[k]!;
        z[k] = z[k]! + 3 * A[i * K + k]! * w[i]!;
        v[k] = v[k]! + w[i]! * A[i * K + k]!;
      }
      for (let j = 0; j < M; j++) {
        let ab = 0;
        let abt = 0;
        for (let k = 0; k < K; k++) {
          ab += A[i * K + k]! * B[k * M + j]!;
          abt += A[i * K + k]! * B2[j * K + k]!;
        }
        C[i * M + j] = ab;
        G[i * M + j] = 2 * ab + 0.5 * Cin[i * M + j]!;
        E[i * M + j] = abt;
      }
    }
    return { A, B, B2, Cin, x, w, C, y, d: new Float64Array([dot]), G, E, z, v };
  },
  // Memset (whole, a column, inside a parallel map), Fill with a value, copies between squeezed subsets, and
  // an explicit MemoryMovementNode.
  library_movement: (p) => {
    const [A, B, W] = ['A', 'B', 'W'].map((n) => inputFor(p, n)) as [Float64Array, Float64Array, Float64Array];
    for (let i = 0; i < N; i++) A[i * M + 3] = 0;
    for (let i = 1; i <= N - 2; i++) for (let j = 0; j <= M - 3; j++) B[i * M + j] = A[i * M + j + 1]!;
    for (let i = 0; i < N; i++) for (let j = 1; j < M; j++) W[i * M + j] = 0;
    return { Z: new Float64Array(N * M), A, B, v: A.slice(4 * M, 5 * M), F: new Float64Array(N).fill(2.5), W, S: A.slice(0, 2 * M) };
  },
  // X = fft(x), Y = ifft(X)/N (= x), W = fft(float32(x)) in complex64: their real and imaginary parts.
  library_fft: (p) => {
    const x = inputFor(p, 'x');
    const dft = (v: ArrayLike<number>) => {
      const [re, im] = [new Float64Array(N), new Float64Array(N)];
      for (let k = 0; k < N; k++)
        for (let n = 0; n < N; n++) {
          const e = (2 * Math.PI * k * n) / N;
          re[k] = re[k]! + Math.cos(e) * v[n]!;
          im[k] = im[k]! - Math.sin(e) * v[n]!;
        }
      return [re, im] as const;
    };
    const [re, im] = dft(x);
    const [wre, wim] = dft(Float32Array.from(x));
    return { x, re, im, back: x, wre, wim };
  },
  // c = A·b, A in CSR form built by the program: row i holds nonzeros 2i, 2i + 1; nonzero j in column 3j mod M.
  library_csrmv: (p) => {
    const [vals, b] = [inputFor(p, 'vals'), inputFor(p, 'b')];
    const c = new Float64Array(N);
    for (let i = 0; i < N; i++) for (let j = 2 * i; j < 2 * i + 2; j++) c[i] = c[i]! + vals[j]! * b[(3 * j) % M]!;
    return { vals, b, c };
  },
  library_transpose: (p) => {
    const A = inputFor(p, 'A');
    const B = new Float64Array(M * N);
    for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) B[j * N + i] = A[i * M + j]! + 1;
    return { A, B };
  },
};

/** Outputs computed in float32 by the program (complex64 FFT), compared at float32's precision. */
const SINGLE_PRECISION = new Set(['library_fft.wre', 'library_fft.wim']);

function expectClose(name: string, actual: Float64Array, expected: Float64Array, tolerance = 1e-12): void {
  expect(actual.length, name).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!));
    if (!(err <= tolerance)) expect.fail(`${name}[${i}]: ${actual[i]} but expected ${expected[i]}`);
  }
}

const symbols = () =>
  new Map([
    ['N', BigInt(N)],
    ['M', BigInt(M)],
    ['K', BigInt(K)],
  ]);

describe('library nodes expanded before analysis', () => {
  const dir = scratchDir('library');
  let driver = '';
  const files = new Map<string, SdfgFile>();
  const programs: Array<{ fixture: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const jobs: Array<{ fixture: string; p: GeneratedProgram }> = [];
    for (const fixture of Object.keys(EXPECTED)) {
      const file = await readSdfgFile(join(FIXTURES, `${fixture}.sdfg`));
      files.set(fixture, file);
      if (findUnsupported(file).length) continue;
      const analysis = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null });
      for (const v of ALL_VARIANTS) jobs.push({ fixture, p: generateProgram(file, analysis, v) });
    }
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

  test('every fixture is inside the subset; the file as parsed keeps its library nodes', () => {
    for (const [name, file] of files) {
      expect(findUnsupported(file), name).toEqual([]);
      expect(file.warnings, name).toEqual([]);
      const kinds = file.root.body.blocks.flatMap((b) => (b.kind === 'state' ? b.nodes.map((n) => n.kind) : []));
      expect(kinds, name).toContain('library');
    }
  });

  test('each expansion is a nested SDFG in place of the node, every element pointing at the node', () => {
    const file = files.get('library_reduce')!;
    const expanded = expandLibraryNodes(file);
    expect(expanded).not.toBe(file);
    expect(expandLibraryNodes(file)).toBe(expanded);
    // The file's own SDFG keeps index 0; one SDFG per Reduce is appended.
    expect(expanded.sdfgs.map((s) => s.name)).toEqual(['library_reduce', ...Array<string>(7).fill('reduce')]);
    const colsum = expanded.sdfgs[1]!;
    expect(colsum.parent!.node.jsonPath).toBe('$.nodes[1].nodes[1]');
    expect(colsum.parent!.node.kind).toBe('nested_sdfg');
    expect(colsum.jsonPath).toBe('$.nodes[1].nodes[1]');
    for (const d of colsum.arrays.values()) expect(d.jsonPath).toBe('$.nodes[1].nodes[1]');
    // identity 0: an initialisation state, then the reduction.
    expect(colsum.body.blocks.map((b) => b.label)).toEqual(['reduce_init', 'reduce']);
    // No identity: the output's current value is where the reduction starts (DaCe's pure expansion).
    expect(expanded.sdfgs[4]!.body.blocks.map((b) => b.label)).toEqual(['reduce']);
    // The row product sits in a parallel map: its map parameter reaches the nested SDFG only through the memlet.
    expect(expanded.sdfgs[6]!.parent!.node.scopeEntry).toBe(0);
  });

  test('the analysis runs through the expansions: T lives until the reduction state of the last Reduce reading it', () => {
    const analysis = analyze(files.get('library_reduce')!, { symbols: symbols(), defaultSymbol: null, target: null });
    const t = analysis.transients.find((x) => x.id === '0:T')!;
    const last = analysis.steps[t.live!.last]!;
    // sdfgs[3] is rowmin's expansion (the third Reduce); its states are named as in DaCe's.
    expect([last.sdfg, last.jsonPath, last.label.endsWith('/reduce')]).toEqual([3, '$.nodes[3].nodes[1]', true]);
    expect(analysis.transients.map((x) => x.id)).toEqual(['0:T']);
  });

  test('expanded reductions write without atomics: one loop per output element, the output map parallel', () => {
    const b = programs.find((x) => x.fixture === 'library_reduce' && x.p.mode === 'SCOPED')!;
    expect(b.p.source).not.toMatch(/omp atomic|omp critical/);
    // rowmin (over the unit-stride axis): the output map is the parallel loop, the reduced axis a plain loop inside
    // it. colsum's order is reduce-order.test.ts's.
    expect(b.p.source).toMatch(/#pragma omp parallel for\n\s*for \(int64_t _o0 = [^\n]*\n[^\n]*\n\s*for \(int64_t _i0 = /);
  });

  test('a transient an expansion creates is a real transient, marked with the library node it comes from', () => {
    const analysis = analyze(files.get('library_blas')!, { symbols: symbols(), defaultSymbol: null, target: null });
    const tmp = analysis.transients.filter((t) => t.expandedFrom !== undefined);
    expect(tmp.map((t) => [t.name, t.expandedFrom, t.jsonPath, t.bytes])).toEqual([
      ['_tmp', 'gemm', '$.nodes[3].nodes[3]', BigInt(N * M * 8)],
    ]);
    expect(toAnalysisJson(analysis).transients.find((t) => t.name === '_tmp')?.expandedFrom).toBe('gemm');
    const view = buildAnalysisView(analysis);
    const row = analysis.transients.findIndex((t) => t.name === '_tmp');
    expect(transientJson(view.table, row, view.sdfgs).expandedFrom).toBe('gemm');
    // Counted like any transient: SCOPED allocates it once per call.
    expect(analysis.modes.SCOPED.perCall.allocs).toBe(1n);
  });

  test('bitwise and logical WCRs (|, ^, &, and, or) on int32, with and without identity, generate and compile', async () => {
    const file = await readSdfgFile(join(FIXTURES, 'library_reduce_int.sdfg'));
    expect(findUnsupported(file)).toEqual([]);
    const analysis = analyze(file, { symbols: symbols(), defaultSymbol: null, target: null });
    const p = generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
    const c = await compileLibrary(p.source, dir, 'library_reduce_int', '-O1');
    expect(c.ok, c.output).toBe(true);
  });

  test('a Reduce the expansion cannot handle stays refused, saying why', () => {
    const raw = JSON.parse(JSON.stringify(reduceWithoutWcr())) as unknown;
    const file = parseSdfgJson(raw, 'bad.sdfg', 0, false);
    const findings = findUnsupported(file);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.jsonPath).toBe('$.nodes[0].nodes[1]');
    expect(findings[0]!.element).toContain("library node Reduce 'r'");
    expect(findings[0]!.message).toBe('it cannot be expanded: it has no wcr lambda');
  });

  test('a memset of GPU memory outside a kernel stays refused, saying why (DaCe uses cudaMemset there)', async () => {
    const raw = JSON.parse(await readFile(join(FIXTURES, 'library_movement.sdfg'), 'utf8')) as {
      attributes: { _arrays: Record<string, { attributes: Record<string, unknown> }> };
    };
    raw.attributes._arrays['Z']!.attributes['storage'] = 'GPU_Global';
    const findings = findUnsupported(parseSdfgJson(raw, 'gpu.sdfg', 0, false), 'gpu');
    expect(findings.map((f) => [f.jsonPath, f.message])).toEqual([
      ['$.nodes[0].nodes[0]', "it cannot be expanded: 'Z' is GPU_Global memory outside a kernel (not expanded)"],
    ]);
  });

  test('LAPACK and MPI nodes, which DaCe has no pure expansion for, are refused (pure) saying what they would need', async () => {
    const refusal = async (name: string) =>
      findUnsupported(await readSdfgFile(join(corpusDir(), name))).map((f) => [f.jsonPath, f.message]);
    expect(await refusal('spcl__dace__tests__sdfg_corpus__lapack_potrf_matrix_choleskyfact_potrf_MKL_float.sdfg')).toEqual([
      [
        '$.nodes[0].nodes[3]',
        'it cannot be expanded: DaCe has no pure expansion of Potrf (Cholesky factorisation): use --library-impl blas (LAPACKE)',
      ],
    ]);
    expect(await refusal('spcl__dace__tests__sdfg_corpus__mpi_allgather.sdfg')).toEqual([
      [
        '$.nodes[0].nodes[2]',
        'it cannot be expanded: MPI library nodes (Allgather) need an MPI runtime and several processes: not supported',
      ],
    ]);
  });

  test('every fixture and mode compiles', () => {
    expect(programs.length).toBe(Object.keys(EXPECTED).length * ALL_VARIANTS.length);
    for (const b of programs) expect(b.ok, `${b.fixture} ${b.p.mode} ${b.p.layout}:\n${b.output}`).toBe(true);
  });

  for (const [fixture, expected] of Object.entries(EXPECTED)) {
    for (const v of ALL_VARIANTS) {
      test(`${fixture} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = programs.find((x) => x.fixture === fixture && x.p.mode === v.mode && x.p.layout === v.layout)!;
        expect(b?.ok).toBe(true);
        const result = await runProgram(driver, b.library, b.p, {}, join(dir, `${fixture}_${v.mode}_${v.layout}.out`));
        for (const [name, values] of Object.entries(expected(b.p)))
          expectClose(name, result.arrays.get(name)!, values, SINGLE_PRECISION.has(`${fixture}.${name}`) ? 1e-5 : 1e-12);
      });
    }
  }
});

function reduceWithoutWcr(): unknown {
  const range = (end: string) => ({ type: 'Range', ranges: [{ start: '0', end, step: '1', tile: '1' }] });
  const memlet = (data: string, end: string) => ({ type: 'Memlet', attributes: { data, subset: range(end) } });
  const access = (id: number, data: string) => ({
    type: 'AccessNode',
    label: data,
    attributes: { data },
    id,
    scope_entry: null,
    scope_exit: null,
  });
  return {
    type: 'SDFG',
    attributes: {
      name: 'bad',
      _arrays: {
        A: { type: 'Array', attributes: { dtype: 'float64', shape: ['4'] } },
        s: { type: 'Array', attributes: { dtype: 'float64', shape: ['1'] } },
      },
    },
    nodes: [
      {
        type: 'SDFGState',
        label: 's0',
        id: 0,
        nodes: [
          access(0, 'A'),
          {
            type: 'LibraryNode',
            label: 'r',
            classpath: 'dace.libraries.standard.nodes.reduce.Reduce',
            attributes: { name: 'r', in_connectors: { _in: null }, out_connectors: { _out: null } },
            id: 1,
            scope_entry: null,
            scope_exit: null,
          },
          access(2, 's'),
        ],
        edges: [
          {
            type: 'MultiConnectorEdge',
            attributes: { data: memlet('A', '3') },
            src: '0',
            dst: '1',
            src_connector: null,
            dst_connector: '_in',
          },
          {
            type: 'MultiConnectorEdge',
            attributes: { data: memlet('s', '0') },
            src: '1',
            dst: '2',
            src_connector: '_out',
            dst_connector: null,
          },
        ],
      },
    ],
    edges: [],
    start_block: 0,
  };
}
