/**
 * The loop order of expanded Reduce nodes (sdfg/expand/reduce-order.ts): an output axis whose input stride is
 * below every reduced axis's runs inside the reduced loop (unit-stride reads), the parallel loop staying over
 * output elements (outer output axes, or tiles of the moved axis); DaCe's order everywhere else. Each case's
 * loop nest is read from the generated source, then all of them run in one program in every mode and layout
 * (AddressSanitizer) against sums computed here in DaCe's order, compared bit for bit. Expansions' nested SDFG
 * functions get DaCe's `__restrict__` where no two arguments can alias (codegen/restrict-args.ts).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StateBuilder, sdfgText, type ArraySpec } from '../../../bench/lib/construct-sdfg.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { findUnsupported, generateProgram } from '../../../electron/engine/codegen/index.js';
import { parseSdfgJson } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { compileAllVariants, compileDriver, inputFor, runProgram, type SanitizedVariant } from './driver.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { runCli } from '../../cli/run-cli.js';

afterAll(removeScratchDirs);

// M spans two tiles of 2048 outputs, the second partial.
const SIZES = { N: 3, M: 2050, P: 4, Q: 5, R: 6 };
const SUM = '(lambda a, b: (a + b))';
const SQUARES = '(lambda a, b: (a + b * b))';

interface Case {
  name: string;
  /** Input container, its subset, the output container and its subset. */
  input: [string, string[]];
  output: [string, string[]];
  axes: number[];
  wcr: string;
  identity?: number;
  schedule?: string;
  /** The node's own output memlet has a WCR (the output is shared: several writers combine into it). */
  outputWcr?: boolean;
  /** The loops of the expansion's function, outermost first, `par` where OpenMP divides them. */
  loops: string[];
}

const all = (...dims: string[]) => dims.map((d) => `0:${d} - 1`);

const CASES: Case[] = [
  // Column sum of a row-major matrix: the output axis moves inside, cut into parallel tiles.
  {
    name: 'colsum',
    input: ['A', all('N', 'M')],
    output: ['S1', all('M')],
    axes: [0],
    wcr: SUM,
    identity: 0,
    loops: ['par _o0', 'par _t0', '_i0', '_o0'],
  },
  // Row sum: the reduced axis is the unit-stride one already; DaCe's order.
  {
    name: 'rowsum',
    input: ['A', all('N', 'M')],
    output: ['S2', all('N')],
    axes: [1],
    wcr: SUM,
    identity: 0,
    loops: ['par _o0', 'par _o0', '_i0'],
  },
  // The middle axis of three: the first output axis stays the parallel loop, the last moves inside.
  {
    name: 'middle',
    input: ['B', all('P', 'Q', 'R')],
    output: ['T3', all('P', 'R')],
    axes: [1],
    wcr: SUM,
    identity: 0,
    loops: ['par _o0', '_o1', 'par _o0', '_i0', '_o1'],
  },
  // The first axis of three, no identity (the output's value is the start), an order-sensitive lambda.
  {
    name: 'first',
    input: ['B', all('P', 'Q', 'R')],
    output: ['T4', all('Q', 'R')],
    axes: [0],
    wcr: SQUARES,
    loops: ['par _t0', '_i0', '_o0', '_o1'],
  },
  // Axes 0 and 2: the output axis is strided against axis 2; DaCe's order.
  {
    name: 'outer',
    input: ['B', all('P', 'Q', 'R')],
    output: ['T5', all('Q')],
    axes: [0, 2],
    wcr: SUM,
    identity: 0,
    loops: ['par _o0', 'par _o0', '_i0', '_i1'],
  },
  // A Sequential node: no parallel loop to keep, so no tiles.
  {
    name: 'sequential',
    input: ['A', all('N', 'M')],
    output: ['S7', all('M')],
    axes: [0],
    wcr: SUM,
    identity: 0,
    schedule: 'Sequential',
    loops: ['_o0', '_i0', '_o0'],
  },
  // The node's output memlet has a WCR: tiles would make the update atomic, so DaCe's order stays.
  {
    name: 'shared',
    input: ['A', all('N', 'M')],
    output: ['S8', all('M')],
    axes: [0],
    wcr: SUM,
    outputWcr: true,
    loops: ['par _o0', '_i0'],
  },
  // Input and output in one container (rows 0..N-2 summed into row N-1): reordered, but no __restrict__.
  {
    name: 'inplace',
    input: ['C', ['0:N - 2', '0:M - 1']],
    output: ['C', ['N - 1', '0:M - 1']],
    axes: [0],
    wcr: SUM,
    identity: 0,
    loops: ['par _o0', 'par _t0', '_i0', '_o0'],
  },
];

const ARRAYS: Record<string, ArraySpec> = {
  A: { shape: ['N', 'M'] },
  B: { shape: ['P', 'Q', 'R'] },
  C: { shape: ['N', 'M'] },
  S1: { shape: ['M'] },
  S2: { shape: ['N'] },
  T3: { shape: ['P', 'R'] },
  T4: { shape: ['Q', 'R'] },
  T5: { shape: ['Q'] },
  S7: { shape: ['M'] },
  S8: { shape: ['M'] },
};

function reduceState(c: Case): StateBuilder {
  const s = new StateBuilder(c.name);
  const attrs: Record<string, unknown> = { axes: c.axes, wcr: c.wcr, ...(c.identity === undefined ? {} : { identity: c.identity }) };
  if (c.schedule) attrs['schedule'] = c.schedule;
  const lib = s.library('dace.libraries.standard.nodes.reduce.Reduce', c.name, attrs, ['_in'], ['_out']);
  s.edge(s.access(c.input[0]), null, lib, '_in', c.input[0], c.input[1]);
  s.edge(lib, '_out', s.access(c.output[0]), null, c.output[0], c.output[1], c.outputWcr ? { wcr: SUM } : {});
  return s;
}

/** The SDFG text of `cases` in one program (`gpu`: every container GPU_Global). */
function programText(name: string, cases: Case[], gpu = false): string {
  const used = new Set(cases.flatMap((c) => [c.input[0], c.output[0]]));
  const arrays = Object.fromEntries(Object.entries(ARRAYS).filter(([n]) => used.has(n)));
  const text = sdfgText(name, arrays, Object.fromEntries(Object.keys(SIZES).map((k) => [k, 'int32'])), cases.map(reduceState));
  if (!gpu) return text;
  const doc = JSON.parse(text) as { attributes: { _arrays: Record<string, { attributes: Record<string, unknown> }> } };
  for (const a of Object.values(doc.attributes._arrays)) a.attributes['storage'] = 'GPU_Global';
  return JSON.stringify(doc);
}

function source(name: string, cases: Case[], gpu = false): string {
  const file = parseSdfgJson(JSON.parse(programText(name, cases, gpu)) as unknown, `${name}.sdfg`, 0, false);
  expect(findUnsupported(file, gpu ? 'gpu' : 'cpu')).toEqual([]);
  const symbols = new Map(Object.entries(SIZES).map(([k, v]) => [k, BigInt(v)]));
  const analysis = analyze(file, { symbols, defaultSymbol: null, target: gpu ? 'gpu' : null });
  return generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' }).source;
}

/** The expansion's function: its signature, and its loops outermost first (`par` under an OpenMP pragma). */
function expansionFunction(source: string): { signature: string; loops: string[] } {
  const start = source.search(/^static void __tlab_nsdfg_\d+\([^;]*\{$/m);
  const end = source.indexOf('\n}\n', start);
  const body = source.slice(start, end);
  const loops = [...body.matchAll(/(#pragma omp parallel for\n\s*)?for \(int64_t (\w+) = /g)].map((m) => (m[1] ? `par ${m[2]}` : m[2]!));
  return { signature: body.slice(0, body.indexOf('{')), loops };
}

describe('expanded Reduce: loop order for unit stride, results bitwise as in DaCe order', () => {
  for (const c of CASES) {
    test(`${c.name}: loops ${c.loops.join(', ')}`, () => {
      const f = expansionFunction(source(`reduce_${c.name}`, [c]));
      expect(f.loops).toEqual(c.loops);
      // Distinct containers: DaCe's __restrict__ on both; one container through both: plain pointers.
      const restricted = c.input[0] !== c.output[0];
      expect(f.signature).toContain(restricted ? 'double *__restrict__ _in, double *__restrict__ _out' : 'double *_in, double *_out');
    });
  }

  describe('on GPU data, DaCe order: one kernel thread per output element', () => {
    const colsum = CASES[0]!;
    test('the output map is the kernel and the reduced axis the loop of each thread, no tiles', () => {
      // The kernel's threads are the output elements (`const int64_t _o0 = …`), each looping over the reduced axis:
      // neighbouring threads read neighbouring elements.
      const f = expansionFunction(source('reduce_colsum_gpu', [colsum], true));
      expect(f.loops).toEqual(['_i0']);
    });

    test('profiled on the host backend, every mode equals the CPU program (reordered) bit for bit', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tlab-reduce-order-'));
      try {
        const run = async (gpu: boolean): Promise<ProfileResult> => {
          const sdfg = join(dir, `colsum_${gpu ? 'gpu' : 'cpu'}.sdfg`);
          await writeFile(sdfg, programText(`colsum_${gpu ? 'gpu' : 'cpu'}`, [colsum], gpu));
          const out = join(dir, `${gpu ? 'gpu' : 'cpu'}.json`);
          const symbols = `N=${SIZES.N},M=${SIZES.M}`;
          const args = ['profile', sdfg, '--symbols', symbols, '--calls', '1', '--warmup', '0', '--processes', '1', '--out', out];
          const r = await runCli([...args, ...(gpu ? ['--gpu', 'host'] : ['--modes', 'scoped'])], {
            cache: join(dir, 'cache'),
            timeoutMs: 600_000,
          });
          expect(r.code, r.stderr).toBe(0);
          return JSON.parse(await readFile(out, 'utf8')) as ProfileResult;
        };
        const [gpu, cpu] = [await run(true), await run(false)];
        expect(gpu.backend).toBe('cuda-host');
        expect(gpu.verification).toMatchObject({ ok: true, identical: true });
        for (const m of gpu.modes) expect(m.outputChecksums).toEqual(cpu.modes[0]!.outputChecksums);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 600_000);
  });

  describe('every case in one program, every mode and layout, against sums in DaCe order', () => {
    const dir = scratchDir('reduce-order');
    let driver = '';
    let variants: SanitizedVariant[] = [];
    beforeAll(async () => {
      driver = await compileDriver(dir, true);
      const text = sdfgText(
        'reduce_orders',
        ARRAYS,
        Object.fromEntries(Object.keys(SIZES).map((k) => [k, 'int32'])),
        CASES.map(reduceState),
      );
      const file = parseSdfgJson(JSON.parse(text) as unknown, 'reduce_orders.sdfg', 0, false);
      const symbols = new Map(Object.entries(SIZES).map(([k, v]) => [k, BigInt(v)]));
      variants = await compileAllVariants(file, analyze(file, { symbols, defaultSymbol: null, target: null }), dir, 'reduce_orders');
    }, 600_000);

    test('outputs equal, bit for bit, the reductions computed element by element in DaCe order', async () => {
      const { N, M, P, Q, R } = SIZES;
      for (const v of variants) {
        expect(v.ok, v.output).toBe(true);
        const run = await runProgram(driver, v.library, v.p, {}, join(dir, `${v.p.mode}_${v.p.layout}.bin`));
        const [A, B, C] = ['A', 'B', 'C'].map((n) => inputFor(v.p, n)) as [Float64Array, Float64Array, Float64Array];
        const a = (i: number, j: number) => A[i * M + j]!;
        const b = (i: number, j: number, k: number) => B[(i * Q + j) * R + k]!;
        // DaCe's order: for each output element, its additions in the order of the reduced axes.
        const S1 = Float64Array.from({ length: M }, (_, j) => sum(N, (i) => a(i, j)));
        const S2 = Float64Array.from({ length: N }, (_, i) => sum(M, (j) => a(i, j)));
        const T3 = Float64Array.from({ length: P * R }, (_, x) => sum(Q, (j) => b(Math.floor(x / R), j, x % R)));
        const T4 = inputFor(v.p, 'T4').map((start, x) => {
          let acc = start;
          for (let i = 0; i < P; i++) acc = acc + b(i, Math.floor(x / R), x % R) * b(i, Math.floor(x / R), x % R);
          return acc;
        });
        const T5 = Float64Array.from({ length: Q }, (_, j) => sum(P * R, (t) => b(Math.floor(t / R), j, t % R)));
        const S8 = inputFor(v.p, 'S8').map((start, j) => {
          let acc = start;
          for (let i = 0; i < N; i++) acc = acc + a(i, j);
          return acc;
        });
        const Cexp = C.slice();
        for (let j = 0; j < M; j++) Cexp[(N - 1) * M + j] = sum(N - 1, (i) => C[i * M + j]!);
        const expected: Record<string, Float64Array> = { S1, S2, T3, T4, T5, S7: S1, S8, C: Cexp };
        for (const [name, want] of Object.entries(expected)) {
          const got = run.arrays.get(name)!;
          const label = `${v.p.mode}/${v.p.layout} ${name}`;
          expect(got.length, label).toBe(want.length);
          const first = got.findIndex((x, k) => !Object.is(x, want[k]));
          expect(first, `${label}[${first}]: ${got[first]} but ${want[first]}`).toBe(-1);
        }
      }
    }, 300_000);
  });
});

/** A sum from 0 in index order (the identity first, as the expansion's init state writes it). */
function sum(n: number, term: (i: number) => number): number {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = acc + term(i);
  return acc;
}
