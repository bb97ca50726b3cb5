/**
 * Views and references in generated code (codegen/views.ts), end to end on two hand-written fixtures, each
 * generated in every mode and layout, compiled and run by the C++ driver under AddressSanitizer, and compared
 * with a computation written here:
 * - tests/fixtures/sdfg/view_slice.sdfg (N = 6, M = 5): views of rows and (strided) columns of 2-D arrays read
 *   and written as 1-D arrays, a view of a transient written through, and a view bound inside a parallel map.
 * - tests/fixtures/sdfg/reference_set.sdfg: a reference set to an argument in one branch and to a transient in
 *   the other, read after the merge (the shape of DaCe's doc/static/sdfg/reference.sdfg).
 * Views and references own no bytes: no allocation, no workspace slot, in any mode.
 */
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, ASAN_FLAGS, compileDriver, inputFor as input, runProgram } from './driver.js';
import { findNvcc, firstErrors, nvccCompile } from './nvcc.js';

afterAll(removeScratchDirs);

const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'sdfg');
const load = (name: string) => readSdfgFile(join(FIXTURES, `${name}.sdfg`));

interface Case {
  fixture: string;
  symbols: Record<string, bigint>;
  expected: (p: GeneratedProgram) => Record<string, Float64Array>;
}

const N = 6;
const M = 5;

const CASES: Record<string, Case> = {
  view_slice: {
    fixture: 'view_slice',
    symbols: { N: BigInt(N), M: BigInt(M) },
    expected: (p) => {
      const A = input(p, 'A');
      const B = new Float64Array(M);
      for (let j = 0; j < M; j++) B[j] = 2 * A[2 * M + j]! + 1;
      const C = input(p, 'C');
      for (let j = 0; j < M; j++) C[M + j] = B[j]! + 3;
      const D = new Float64Array(N);
      for (let i = 0; i < N; i++) D[i] = A[i * M + 3]! - 1;
      const E = A.slice();
      for (let i = 0; i < N; i++) E[i * M + 1] = D[i]! * 0.5;
      const F = input(p, 'F');
      for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) F[i] = F[i]! + A[i * M + j]!;
      return { A, B, C, D, E, F };
    },
  },
  reference_to_argument: {
    fixture: 'reference_set',
    symbols: { N: 7n, K: 1n },
    expected: (p) => ({ out: input(p, 'A').map((a) => a + 1) }),
  },
  reference_to_transient: {
    fixture: 'reference_set',
    symbols: { N: 7n, K: 0n },
    expected: (p) => ({ out: input(p, 'B').map((b) => 2 * b + 1) }),
  },
};

function expectClose(name: string, actual: Float64Array | undefined, expected: Float64Array): void {
  expect(actual?.length, name).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const err = Math.abs(actual![i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!));
    if (!(err <= 1e-12)) expect.fail(`${name}[${i}]: ${actual![i]} but expected ${expected[i]}`);
  }
}

const ALIASES = ['0:V', '0:W', '0:VC', '0:TV', '0:RV', '0:R'];

describe('views and references, end to end', () => {
  const dir = scratchDir('views');
  let driver = '';
  const files = new Map<string, SdfgFile>();
  const programs: Array<{ name: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    const jobs: Array<{ name: string; p: GeneratedProgram }> = [];
    for (const [name, c] of Object.entries(CASES)) {
      const file = await load(c.fixture);
      files.set(name, file);
      if (findUnsupported(file).length) continue;
      const analysis = analyze(file, { symbols: new Map(Object.entries(c.symbols)), defaultSymbol: null, target: null });
      for (const v of ALL_VARIANTS) jobs.push({ name, p: generateProgram(file, analysis, v) });
    }
    const builds = new Map<string, Promise<{ library: string; ok: boolean; output: string }>>();
    programs.push(
      ...(await inParallel(jobs, 2, async ({ name, p }) => {
        const key = createHash('sha256').update(p.source).digest('hex');
        let build = builds.get(key);
        if (!build) {
          build = compileLibrary(p.source, dir, `${name}_${p.mode}_${p.layout}`, '-O1', [...ASAN_FLAGS]);
          builds.set(key, build);
        }
        return { name, p, ...(await build) };
      })),
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

  for (const [name, c] of Object.entries(CASES)) {
    for (const v of ALL_VARIANTS) {
      test(`${name} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = programs.find((x) => x.name === name && x.p.mode === v.mode && x.p.layout === v.layout);
        expect(b?.ok).toBe(true);
        const result = await runProgram(driver, b!.library, b!.p, {}, join(dir, `${name}_${v.mode}_${v.layout}.out`));
        for (const [array, values] of Object.entries(c.expected(b!.p))) expectClose(array, result.arrays.get(array), values);
        for (const ext of b!.p.externals) expect(result.externalSizes.get(ext.storage)).toBe(ext.bytes);
      });
    }
  }

  test('a view or reference is never allocated and never gets a workspace slot (SCOPED, EXTERNAL)', () => {
    const checked = programs.filter((x) => x.p.mode === 'SCOPED' || x.p.mode === 'EXTERNAL');
    expect(checked).toHaveLength(Object.keys(CASES).length * 3);
    for (const b of checked) {
      const where = `${b.name} ${b.p.mode} ${b.p.layout}`;
      const slots = b.p.externals.flatMap((e) => e.slots.map((s) => s.id));
      for (const id of ALIASES) {
        expect(slots, where).not.toContain(id);
        const index = b.p.transientIds.indexOf(id);
        if (index >= 0) expect(b.p.source, `${where} ${id}`).not.toMatch(new RegExp(`tlab_alloc\\([^;]*, ${index}\\)`));
      }
      // The viewed transients themselves are workspace slots in EXTERNAL: the views point into the workspace.
      if (b.p.mode === 'EXTERNAL') expect(slots, where).toEqual(['0:T']);
    }
    const analysis = analyze(files.get('view_slice')!, {
      symbols: new Map([
        ['N', 6n],
        ['M', 5n],
      ]),
      defaultSymbol: null,
      target: null,
    });
    for (const t of analysis.transients.filter((x) => ALIASES.includes(x.id))) {
      expect(t.allocation.kind, t.id).toBe('none');
      expect(t.eligible, t.id).toEqual({ PERSISTENT: false, EXTERNAL: false });
    }
    expect(analysis.layouts.dace['CPU_Heap']!.bytes).toBe(BigInt(N * M * 8));
  });

  test('a view is a pointer into the viewed subset with its own strides; one bound in a parallel map is per iteration', () => {
    const src = programs.find((x) => x.name === 'view_slice' && x.p.mode === 'SCOPED')!.p.source;
    expect(src).toContain('double *V = A + (int64_t(2) * M);');
    expect(src).toContain('double *VC = A + int64_t(3);');
    expect(src).toContain('VC[int64_t(i) * M]');
    expect(src).toMatch(
      /#pragma omp parallel for\n\s*for \(int64_t i = [^\n]*\n\s*\/\/ @ [^\n]*\n\s*double \*RV = A \+ \(int64_t\(i\) \* M\);/,
    );
    // The viewed edges are no copies: A is never copied into V, nor W into C.
    expect(src).not.toMatch(/V\[[^\]]*\] = A\[/);
    expect(src).not.toMatch(/C\[[^\]]*\] = W\[/);
  });

  test('a transient a reference points at lives as long as the reference is used (not only in the state that sets it)', () => {
    const file = files.get('reference_to_transient')!;
    const analysis = analyze(file, {
      symbols: new Map([
        ['N', 7n],
        ['K', 0n],
      ]),
      defaultSymbol: null,
      target: null,
    });
    expect(analysis.transients.find((t) => t.id === '0:T')!.allocation).toEqual({ kind: 'sdfg', sdfg: 0 });
  });
});

describe('views and references outside the subset', () => {
  test('a view with no viewed container is a finding at its AccessNode', async () => {
    const file = await load('view_slice');
    const state = file.root.body.blocks[0]!;
    if (state.kind !== 'state') throw new Error('fixture changed');
    // Drop the A → V edge: V has only its outgoing edge to the map, which leads to a tasklet.
    state.edges = state.edges.filter((e) => !(e.src === 0 && e.dst === 1));
    const findings = findUnsupported(file);
    expect(findings).toEqual([
      expect.objectContaining({
        jsonPath: state.nodes[1]!.jsonPath,
        message: 'the view has no viewed container (no edge of it leads to an AccessNode)',
      }),
    ]);
  });

  test('a view that reinterprets the element type is a finding', async () => {
    const file = await load('view_slice');
    const v = file.root.arrays.get('VC')!;
    file.root.arrays.set('VC', { ...v, dtype: { kind: 'scalar', name: 'float32', bytes: 4 } });
    expect(findUnsupported(file).map((f) => f.message)).toContain(
      `'VC' (float) aliases 'A' (double): views that reinterpret the element type are not supported`,
    );
  });

  test('a view of a structure member that does not exist is a finding that says so (members that do: structs.test.ts)', async () => {
    const file = await load('view_slice');
    const state = file.root.body.blocks[0]!;
    if (state.kind !== 'state') throw new Error('fixture changed');
    const viewed = state.edges.find((e) => e.src === 0 && e.dst === 1)!;
    viewed.memlet = { ...viewed.memlet, data: 'A.rows' };
    expect(findUnsupported(file)).toContainEqual(
      expect.objectContaining({
        jsonPath: viewed.jsonPath,
        message: `the view views 'A.rows', which is no member of 'A'`,
      }),
    );
  });

  test('a non-transient view is a finding', async () => {
    const file = await load('view_slice');
    file.root.arrays.set('W', { ...file.root.arrays.get('W')!, transient: false });
    expect(findUnsupported(file).map((f) => f.message)).toContain('a non-transient ArrayView is not supported');
  });

  test('a reference set from a tasklet is a finding at the set edge', async () => {
    const file = await load('reference_set');
    const state = file.root.body.blocks[2]!;
    if (state.kind !== 'state') throw new Error('fixture changed');
    // T → R(set) becomes map exit → R(set): the set edge now starts at a code node.
    const set = state.edges.find((e) => e.dstConnector === 'set')!;
    set.src = 2;
    set.srcConnector = 'OUT_t';
    expect(findUnsupported(file)).toContainEqual(
      expect.objectContaining({
        jsonPath: set.jsonPath,
        message: 'a reference set from a code node (a pointer-typed connector) is not supported',
      }),
    );
  });
});

/** The fixture as a GPU program: arrays in GPU_Global, top-level maps GPU_Device (views bound on the host and captured,
 * RV bound inside the kernel). */
async function gpuVersion(name: string): Promise<SdfgFile> {
  const file = await load(name);
  for (const [n, d] of file.root.arrays) if (d.type === 'Array') file.root.arrays.set(n, { ...d, storage: 'GPU_Global' });
  for (const b of file.root.body.blocks) {
    if (b.kind !== 'state') continue;
    for (const n of b.nodes) if (n.kind === 'map_entry' && n.scopeEntry === null) n.map.schedule = 'GPU_Device';
  }
  return file;
}

const nvcc = findNvcc();

describe('views and references in CUDA code', () => {
  test.skipIf(!nvcc)(
    'generate in every mode, allocate nothing for the aliases and compile with nvcc',
    async () => {
      const dir = scratchDir('views-cuda');
      const jobs: Array<{ label: string; p: GeneratedProgram }> = [];
      for (const name of ['view_slice', 'reference_set']) {
        const file = await gpuVersion(name);
        expect(findUnsupported(file, 'gpu'), name).toEqual([]);
        const analysis = analyze(file, {
          symbols: new Map([
            ['N', 6n],
            ['M', 5n],
            ['K', 0n],
          ]),
          defaultSymbol: null,
          target: null,
        });
        expect(analysis.target).toBe('gpu');
        for (const v of ALL_VARIANTS) {
          const p = generateProgram(file, analysis, v);
          const label = `${name} ${v.mode} ${v.layout}`;
          for (const id of ALIASES) {
            const index = p.transientIds.indexOf(id);
            if (index >= 0) expect(p.source, `${label} ${id}`).not.toMatch(new RegExp(`tlab_cuda_malloc(_async)?\\([^;]*, ${index}\\)`));
          }
          expect(
            p.externals.flatMap((e) => e.slots.map((s) => s.id)).filter((id) => ALIASES.includes(id)),
            label,
          ).toEqual([]);
          jobs.push({ label, p });
        }
      }
      const slice = jobs.find((j) => j.label === 'view_slice SCOPED dace')!.p.source;
      // RV is bound inside the kernel, per thread; V on the host, captured by the kernel's lambda.
      expect(slice).toMatch(/\[=\] __device__ \(\) \{[^}]*double \*RV = A \+ \(int64_t\(i\) \* M\);/);
      expect(slice).toContain('double *V = A + (int64_t(2) * M);');
      const results = await inParallel(jobs, 2, async ({ label, p }) => ({
        label,
        r: await nvccCompile(nvcc!, p.source, dir, label.replace(/[^A-Za-z0-9]/g, '_')),
      }));
      for (const { label, r } of results) expect(r.ok, `${label}: ${firstErrors(r.output)}`).toBe(true);
    },
    900_000,
  );
});
