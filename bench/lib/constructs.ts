/**
 * The constructs issue 22 newly covered, each as a small DaCe-shaped SDFG (built in code, or a hand-written
 * fixture of tests/fixtures/sdfg read by path) and a straightforward hand-written C++ loop nest of the same
 * computation: the body of `__program_<name>`, whose parameters are the SDFG's arguments by name (arrays as
 * pointers to their element type, symbols as ints). The `constructs` bench section times both; the outputs of
 * both must agree before a time is compared.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../electron/engine/paths.js';
import { sdfgText, StateBuilder } from './construct-sdfg.js';

export interface Construct {
  /** Row key. */
  name: string;
  /** What the SDFG holds, for the table. */
  what: string;
  /** A fixture file (tests/fixtures/sdfg), or the SDFG text built here. */
  sdfg: { fixture: string } | { text: () => string };
  symbols: Record<string, bigint>;
  /** The body of `__program_<name>`: the computation as one would write it, fused where it can be. */
  handWritten: string;
  /**
   * The body of a hand-written `__program_<name>` with the SDFG's own containers and loop structure (each map a
   * loop, each transient allocated per call as DaCe's build allocates it), where the fused loop nest does less
   * work than the SDFG asks for: what DaCe's own code would be, written plainly. SLOW is judged against it.
   */
  sameStructure?: string;
  /** Output arrays compared with a relative tolerance instead of bitwise (a different summation order). */
  tolerance?: number;
}

const all = (...dims: string[]) => dims.map((d) => `0:${d} - 1`);
const SUM = '(lambda a, b: (a + b))';

/** One library node between access nodes: `ins`/`outs` are [connector, array, subset]. */
function libraryProgram(
  name: string,
  arrays: Record<string, string[]>,
  symbols: string[],
  classpath: string,
  attributes: Record<string, unknown>,
  ins: Array<[string, string, string[]]>,
  outs: Array<[string, string, string[]]>,
): string {
  const s = new StateBuilder(name);
  const lib = s.library(
    classpath,
    name,
    attributes,
    ins.map(([c]) => c),
    outs.map(([c]) => c),
  );
  for (const [conn, data, subset] of ins) s.edge(s.access(data), null, lib, conn, data, subset);
  for (const [conn, data, subset] of outs) s.edge(lib, conn, s.access(data), null, data, subset);
  const specs = Object.fromEntries(Object.entries(arrays).map(([n, shape]) => [n, { shape }]));
  return sdfgText(name, specs, Object.fromEntries(symbols.map((x) => [x, 'int32'])), [s]);
}

/** A two-dimensional view of A without its border, read by a map: B = 2·A[1:N-1, 1:M-1] + 1. */
function viewProgram(): string {
  const s = new StateBuilder('interior');
  const a = s.access('A');
  const v = s.access('V');
  s.edge(a, null, v, 'views', 'A', ['1:N - 2', '1:M - 2']);
  const { entry, exit } = s.map('m', ['i', 'j'], all('N - 2', 'M - 2'), ['V'], ['B']);
  const t = s.tasklet('t', 'o = v * 2.0 + 1.0', ['v'], ['o']);
  s.endMap();
  const b = s.access('B');
  s.edge(v, null, entry, 'IN_V', 'V', all('N - 2', 'M - 2'));
  s.edge(entry, 'OUT_V', t, 'v', 'V', ['i', 'j']);
  s.edge(t, 'o', exit, 'IN_B', 'B', ['i', 'j']);
  s.edge(exit, 'OUT_B', b, null, 'B', all('N - 2', 'M - 2'));
  return sdfgText(
    'view_interior',
    {
      A: { shape: ['N', 'M'] },
      B: { shape: ['N - 2', 'M - 2'] },
      V: { shape: ['N - 2', 'M - 2'], type: 'ArrayView', transient: true, strides: ['M', '1'] },
    },
    { N: 'int32', M: 'int32' },
    [s],
  );
}

/** NumPy's sign and clip in one tasklet of a map: B[i] = sign(A[i]) · clip(A[i], -0.5, 0.5). */
function mathProgram(): string {
  const s = new StateBuilder('signclip');
  const a = s.access('A');
  const { entry, exit } = s.map('m', ['i'], all('N'), ['A'], ['B']);
  const t = s.tasklet('t', 'b = np.sign(a) * np.clip(a, -0.5, 0.5)', ['a'], ['b']);
  s.endMap();
  const b = s.access('B');
  s.edge(a, null, entry, 'IN_A', 'A', all('N'));
  s.edge(entry, 'OUT_A', t, 'a', 'A', ['i']);
  s.edge(t, 'b', exit, 'IN_B', 'B', ['i']);
  s.edge(exit, 'OUT_B', b, null, 'B', all('N'));
  return sdfgText('math_sign_clip', { A: { shape: ['N'] }, B: { shape: ['N'] } }, { N: 'int32' }, [s]);
}

const BLAS = 'dace.libraries.blas.nodes';

export const CONSTRUCTS: Construct[] = [
  {
    name: 'reduce',
    what: 'Reduce: sum over axis 0 of A[N,M] (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'reduce_axis',
          { A: ['N', 'M'], S: ['M'] },
          ['N', 'M'],
          'dace.libraries.standard.nodes.reduce.Reduce',
          { axes: [0], wcr: SUM, identity: 0 },
          [['_in', 'A', all('N', 'M')]],
          [['_out', 'S', all('M')]],
        ),
    },
    symbols: { N: 2000n, M: 2000n },
    handWritten: `
  for (int j = 0; j < M; ++j) S[j] = 0.0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) S[j] += A[(size_t)i * M + j];`,
  },
  {
    name: 'matmul',
    what: 'MatMul: C[N,M] = A[N,K]·B[K,M] (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'matmul',
          { A: ['N', 'K'], B: ['K', 'M'], C: ['N', 'M'] },
          ['N', 'M', 'K'],
          `${BLAS}.matmul.MatMul`,
          {},
          [
            ['_a', 'A', all('N', 'K')],
            ['_b', 'B', all('K', 'M')],
          ],
          [['_c', 'C', all('N', 'M')]],
        ),
    },
    symbols: { N: 200n, M: 200n, K: 200n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * M + j];
      C[(size_t)i * M + j] = acc;
    }`,
  },
  {
    name: 'gemm',
    what: 'Gemm: G = 2·A·B + 0.5·Cin (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'gemm',
          { A: ['N', 'K'], B: ['K', 'M'], Cin: ['N', 'M'], G: ['N', 'M'] },
          ['N', 'M', 'K'],
          `${BLAS}.gemm.Gemm`,
          { alpha: 2, beta: 0.5 },
          [
            ['_a', 'A', all('N', 'K')],
            ['_b', 'B', all('K', 'M')],
            ['_cin', 'Cin', all('N', 'M')],
          ],
          [['_c', 'G', all('N', 'M')]],
        ),
    },
    symbols: { N: 200n, M: 200n, K: 200n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * M + j];
      G[(size_t)i * M + j] = 2.0 * acc + 0.5 * Cin[(size_t)i * M + j];
    }`,
    tolerance: 1e-12,
  },
  {
    name: 'gemv',
    what: 'Gemv: y[N] = A[N,K]·x[K] (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'gemv',
          { A: ['N', 'K'], x: ['K'], y: ['N'] },
          ['N', 'K'],
          `${BLAS}.gemv.Gemv`,
          { alpha: 1, beta: 0 },
          [
            ['_A', 'A', all('N', 'K')],
            ['_x', 'x', all('K')],
          ],
          [['_y', 'y', all('N')]],
        ),
    },
    symbols: { N: 2000n, K: 2000n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    double acc = 0.0;
    for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * x[k];
    y[i] = acc;
  }`,
    tolerance: 1e-12,
  },
  {
    name: 'dot',
    what: 'Dot: d = x·y over K (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'dot',
          { x: ['K'], y: ['K'], d: ['1'] },
          ['K'],
          `${BLAS}.dot.Dot`,
          {},
          [
            ['_x', 'x', all('K')],
            ['_y', 'y', all('K')],
          ],
          [['_result', 'd', ['0']]],
        ),
    },
    symbols: { K: 4_000_000n },
    handWritten: `
  double acc = 0.0;
  for (int k = 0; k < K; ++k) acc += x[k] * y[k];
  d[0] = acc;`,
    tolerance: 1e-12,
  },
  {
    name: 'transpose',
    what: 'Transpose: B[M,N] = A[N,M]ᵀ (pure expansion)',
    sdfg: {
      text: () =>
        libraryProgram(
          'transpose',
          { A: ['N', 'M'], B: ['M', 'N'] },
          ['N', 'M'],
          'dace.libraries.standard.nodes.transpose.Transpose',
          { dtype: 'float64' },
          [['_inp', 'A', all('N', 'M')]],
          [['_out', 'B', all('M', 'N')]],
        ),
    },
    symbols: { N: 2000n, M: 2000n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) B[(size_t)j * N + i] = A[(size_t)i * M + j];`,
  },
  {
    name: 'view',
    what: 'a 2-D view of A without its border, read by a map',
    sdfg: { text: viewProgram },
    symbols: { N: 2000n, M: 2000n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N - 2; ++i)
    for (int j = 0; j < M - 2; ++j) B[(size_t)i * (M - 2) + j] = A[(size_t)(i + 1) * M + (j + 1)] * 2.0 + 1.0;`,
  },
  {
    name: 'dynamic-map-range',
    what: 'dynamic map ranges read from data (CSR-like rows), fixture dynamic_map_range',
    sdfg: { fixture: 'dynamic_map_range' },
    symbols: { H: 500_000n, W: 1000n },
    handWritten: `
  std::vector<int64_t> row((size_t)H + 1);
  for (int k = 0; k <= H; ++k) row[k] = 4 * (int64_t)k + (int64_t)(off[k] * 2.0);
  const int64_t kstart = (int64_t)(off[0] * 2.0);
  #pragma omp parallel for
  for (int i = 0; i < H; ++i)
    for (int64_t j = row[i]; j < row[i + 1]; ++j) b[i] += A_val[j] * x[(j * 7) % W];
  for (int64_t i = kstart; i < H; ++i) c[i] = 2.0 * b[i];`,
  },
  {
    name: 'math-function',
    what: 'tasklet math functions np.sign and np.clip in a map',
    sdfg: { text: mathProgram },
    symbols: { N: 4_000_000n },
    handWritten: `
  #pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    const double a = A[i];
    const double s = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : (a == 0.0 ? 0.0 : a));
    B[i] = s * std::min(std::max(a, -0.5), 0.5);
  }`,
  },
  {
    name: 'streams-consume',
    what: 'a stream filled by a map and drained by a consume scope that pushes back, fixture streams',
    sdfg: { fixture: 'streams' },
    symbols: { N: 1_000_000n },
    // A queue: the consume scope's order of pops is not the program's contract, so the sum is compared with a tolerance.
    handWritten: `
  std::vector<double> q(A, A + N);
  double t = total[0];
  for (size_t head = 0; head < q.size(); ++head) {
    const double v = q[head];
    t += v;
    if (v > 0.25) q.push_back(v / 2);
  }
  total[0] = t;
  std::memcpy(B, A, sizeof(double) * (size_t)N);`,
    // The SDFG's queues as queues (std::deque, FIFO): the map pushes A into Q, the consume loop pops until Q is
    // empty, A goes to B through the second queue R.
    sameStructure: `
  std::deque<double> Q;
  for (int i = 0; i < N; ++i) Q.push_back(A[i]);
  double t = total[0];
  while (!Q.empty()) {
    const double x = Q.front();
    Q.pop_front();
    t += x;
    if (x > 0.25) Q.push_back(x / 2);
  }
  total[0] = t;
  std::deque<double> R(A, A + N);
  std::copy(R.begin(), R.end(), B);`,
    tolerance: 1e-9,
  },
  {
    name: 'vectors',
    what: 'vector types (4 × float64 per element): elementwise maps, a lane read and a vector WCR, fixture vectors',
    sdfg: { fixture: 'vectors' },
    symbols: { N: 1_000_000n },
    handWritten: `
  double s[4] = {acc[0], acc[1], acc[2], acc[3]};
  for (int i = 0; i < N; ++i) {
    double t[4];
    for (int l = 0; l < 4; ++l) {
      const double a = A[(size_t)i * 4 + l];
      t[l] = a * 2.0 + a;
      B[(size_t)i * 4 + l] = t[l] - a / 2.0;
      s[l] += a;
    }
    C[i] = t[1] + t[3];
  }
  for (int l = 0; l < 4; ++l) acc[l] = s[l];`,
    // The SDFG's two maps and its 32 MB transient T (written by the first, read back by the second), allocated
    // per call as DaCe's build allocates a Scope transient; the WCR a running sum as in the fused loop.
    sameStructure: `
  double *T = static_cast<double *>(::operator new[](sizeof(double) * 4 * (size_t)N, std::align_val_t(64)));
  for (int i = 0; i < N; ++i)
    for (int l = 0; l < 4; ++l) {
      const double a = A[(size_t)i * 4 + l];
      T[(size_t)i * 4 + l] = a * 2.0 + a;
    }
  double s[4] = {acc[0], acc[1], acc[2], acc[3]};
  for (int i = 0; i < N; ++i) {
    for (int l = 0; l < 4; ++l) {
      const double a = A[(size_t)i * 4 + l];
      B[(size_t)i * 4 + l] = T[(size_t)i * 4 + l] - a / 2.0;
      s[l] += a;
    }
    C[i] = T[(size_t)i * 4 + 1] + T[(size_t)i * 4 + 3];
  }
  for (int l = 0; l < 4; ++l) acc[l] = s[l];
  ::operator delete[](T, std::align_val_t(64));`,
    tolerance: 1e-12,
  },
];

/** The SDFG text of a construct. */
export async function constructSdfg(c: Construct): Promise<string> {
  if ('text' in c.sdfg) return c.sdfg.text();
  return readFile(join(packageRoot(), 'tests', 'fixtures', 'sdfg', `${c.sdfg.fixture}.sdfg`), 'utf8');
}
