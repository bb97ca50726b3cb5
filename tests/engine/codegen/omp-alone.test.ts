/**
 * A parallel map's synchronised writes on one thread (Env.alone, `tlab_omp_alone` in transient_runtime.h): the
 * flag is declared before the parallel loop only when a write tests it; it is true exactly when nothing can run
 * beside the loop's one thread; and the vectors fixture's WCR, on the plain path with one thread and under its
 * critical section with three, gives the sequential sum bit for bit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { generateProgram, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { compileLibrary, removeScratchDirs, run, RUNTIME_INCLUDE, scratchDir } from './compile.js';
import { compileDriver, inputFor, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const fixture = (name: string) => join(packageRoot(), 'tests', 'fixtures', 'sdfg', `${name}.sdfg`);

async function generate(name: string, symbols: Record<string, bigint>): Promise<GeneratedProgram> {
  const file = await readSdfgFile(fixture(name));
  const analysis = analyze(file, { symbols: new Map(Object.entries(symbols)), defaultSymbol: null, target: null });
  return generateProgram(file, analysis, { mode: 'SCOPED', layout: 'dace' });
}

const PROBE = `#include "transient_runtime.h"
#include <cstdio>
int main() {
  omp_set_num_threads(1);
  std::printf("serial-1 %d\\n", tlab_omp_alone(0));
  std::printf("serial-1-asks-2 %d\\n", tlab_omp_alone(2));
  omp_set_num_threads(3);
  std::printf("serial-3 %d\\n", tlab_omp_alone(0));
  std::printf("serial-3-asks-1 %d\\n", tlab_omp_alone(1));
  int in_team = -1, in_nested = -1;
  omp_set_max_active_levels(1);
  #pragma omp parallel num_threads(2)
  {
    #pragma omp master
    {
      in_team = tlab_omp_alone(1);
      // A nested region here is a team of one, but the outer team's other thread runs beside it.
      #pragma omp parallel num_threads(1)
      in_nested = tlab_omp_alone(1);
    }
  }
  std::printf("in-team %d\\nin-nested %d\\n", in_team, in_nested);
  return 0;
}
`;

describe('parallel maps alone on one thread', () => {
  test('tlab_omp_alone is true only when the coming team is one thread with no active region around it', async () => {
    const dir = scratchDir('omp-alone');
    const src = join(dir, 'probe.cpp');
    writeFileSync(src, PROBE);
    const exe = join(dir, 'probe');
    const built = await run('g++', ['-std=c++20', '-O1', '-fopenmp', '-I', RUNTIME_INCLUDE, '-o', exe, src]);
    expect(built.code, built.output).toBe(0);
    const r = await run(exe, []);
    expect(r.code, r.output).toBe(0);
    expect(r.output.trim().split('\n')).toEqual([
      'serial-1 1',
      'serial-1-asks-2 0',
      'serial-3 0',
      'serial-3-asks-1 1',
      'in-team 0',
      'in-nested 0',
    ]);
  });

  test('the vector WCR and the locked stream push test a flag declared before their parallel loop; other maps declare none', async () => {
    const vectors = (await generate('vectors', { N: 5n })).source;
    expect(vectors).toMatch(
      /const bool (__tlab_alone\d+) = tlab_omp_alone\(0\);\n\s*#pragma omp parallel for\n[\s\S]*?if \(\1\) acc\[0\] \+= __tlab_out\d+;\n\s*else \{\n\s*#pragma omp critical \(__tlab_wcr\)\n\s*acc\[0\] \+= __tlab_out\d+;\n\s*\}/,
    );
    // The first map (T = 3a) writes no conflicting element: no flag for it.
    expect(vectors.match(/tlab_omp_alone\(/g)).toHaveLength(1);
    const streams = (await generate('streams', { N: 8n })).source;
    expect(streams).toMatch(
      /const bool (__tlab_alone\d+) = tlab_omp_alone\(0\);\n\s*#pragma omp parallel for\n[\s\S]*?if \(\1\) tlab_stream_push\(Q, 0, (__tlab_out\d+)\); else tlab_stream_push_locked\(Q, 0, \2\);/,
    );
  });

  test('the vectors fixture sums acc in the sequential order bit for bit, alone on one thread and locked on three', async () => {
    const dir = scratchDir('omp-alone-run');
    const p = await generate('vectors', { N: 64n });
    const built = await compileLibrary(p.source, dir, 'vectors', '-O3', ['-march=native']);
    expect(built.ok, built.output).toBe(true);
    const driver = await compileDriver(dir);
    const a = inputFor(p, 'A');
    const acc = inputFor(p, 'acc').slice();
    for (let i = 0; i < 64; i++) for (let k = 0; k < 4; k++) acc[k]! += a[i * 4 + k]!;
    const before = process.env.OMP_NUM_THREADS;
    try {
      for (const threads of ['1', '3']) {
        process.env.OMP_NUM_THREADS = threads;
        const result = await runProgram(driver, built.library, p, {}, join(dir, `t${threads}.out`));
        // Three threads add the same values in another order: equal within rounding, not bitwise.
        if (threads === '1') expect([...result.arrays.get('acc')!]).toEqual([...acc]);
        else result.arrays.get('acc')!.forEach((x, k) => expect(x).toBeCloseTo(acc[k]!, 12));
      }
    } finally {
      if (before === undefined) delete process.env.OMP_NUM_THREADS;
      else process.env.OMP_NUM_THREADS = before;
    }
  }, 120_000);
});
