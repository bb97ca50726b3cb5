/**
 * End-to-end correctness of the generated code without the native addon: every bundled example, every mode
 * and both workspace layouts, compiled with g++, run by a small C++ driver and compared with TypeScript
 * references written from the math (reference.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { findUnsupported, generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { examplesDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, inParallel, scratchDir, removeScratchDirs } from './compile.js';
import { ALL_VARIANTS, compileDriver, inputFor, runProgram } from './driver.js';
import { chainReference, hdiffReference, vadvReference, vsmoothReference } from './reference.js';

afterAll(removeScratchDirs);

const SIZES = { I: 8n, J: 8n, K: 5n, N: 40n };
const DTR = 0.15;
const VARIANTS = ALL_VARIANTS;
const input = inputFor;

function expectClose(actual: Float64Array, expected: Float64Array): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const scale = Math.max(1, Math.abs(expected[i]!));
    const err = Math.abs(actual[i]! - expected[i]!) / scale;
    if (!(err <= worst)) worst = Number.isNaN(err) ? Infinity : err;
  }
  expect(worst).toBeLessThan(1e-12);
}

const REFERENCES: Record<string, (p: GeneratedProgram) => { output: string; expected: Float64Array }> = {
  hdiff: (p) => ({ output: 'out_field', expected: hdiffReference(8, 8, 5, input(p, 'in_field'), input(p, 'coeff')) }),
  vadv: (p) => ({
    output: 'utens_stage',
    expected: vadvReference(8, 8, 5, DTR, input(p, 'wcon'), input(p, 'u_pos'), input(p, 'utens'), input(p, 'utens_stage')),
  }),
  chain: (p) => ({ output: 'out', expected: chainReference(input(p, 'inp')) }),
  vsmooth: (p) => ({ output: 'out', expected: vsmoothReference(8, 8, 5, input(p, 'u')) }),
};

describe('bundled examples, end to end', () => {
  const dir = scratchDir('examples');
  let driver = '';
  const files = new Map<string, { file: SdfgFile; analysis: Analysis }>();
  const programs: Array<{ example: string; p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir);
    for (const example of Object.keys(REFERENCES)) {
      const file = await readSdfgFile(join(examplesDir(), `${example}.sdfg`));
      const analysis = analyze(file, { symbols: new Map(Object.entries(SIZES)), defaultSymbol: null, target: null });
      files.set(example, { file, analysis });
    }
    const jobs = [...files].flatMap(([example, { file, analysis }]) =>
      VARIANTS.map((v) => ({ example, p: generateProgram(file, analysis, v) })),
    );
    const built = await inParallel(jobs, 2, async ({ example, p }) => {
      const c = await compileLibrary(p.source, dir, `${example}_${p.mode}_${p.layout}`, '-O1');
      return { example, p, library: c.library, ok: c.ok, output: c.output };
    });
    programs.push(...built);
  }, 600_000);

  test('the examples are inside the supported subset and parse without warnings', () => {
    for (const [name, { file }] of files) {
      expect(findUnsupported(file), name).toEqual([]);
      expect(file.warnings, name).toEqual([]);
    }
  });

  test('every example and mode compiles', () => {
    for (const b of programs) expect(b.ok, `${b.example} ${b.p.mode} ${b.p.layout}:\n${b.output}`).toBe(true);
  });

  for (const example of Object.keys(REFERENCES)) {
    for (const v of VARIANTS) {
      test(`${example} ${v.mode} (${v.layout}) matches the reference`, async () => {
        const b = programs.find((x) => x.example === example && x.p.mode === v.mode && x.p.layout === v.layout)!;
        expect(b.ok).toBe(true);
        const result = await runProgram(driver, b.library, b.p, { dtr_stage: DTR }, join(dir, `${example}_${v.mode}_${v.layout}.out`));
        const { output, expected } = REFERENCES[example]!(b.p);
        expectClose(result.arrays.get(output)!, expected);
        // The library's own size function agrees with what the generator promised the profiler.
        for (const ext of b.p.externals) expect(result.externalSizes.get(ext.storage)).toBe(ext.bytes);
      });
    }
  }

  test('the chain example halves its workspace with the packed layout', () => {
    const chain = programs.filter((b) => b.example === 'chain' && b.p.mode === 'EXTERNAL');
    const dace = chain.find((b) => b.p.layout === 'dace')!.p.externals[0]!.bytes;
    const packed = chain.find((b) => b.p.layout === 'packed')!.p.externals[0]!.bytes;
    expect(dace).toBe(4n * 40n * 8n);
    expect(packed * 2n).toBe(dace);
  });
});
