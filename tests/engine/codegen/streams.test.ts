/**
 * Stream transients and consume scopes (codegen/streams.ts, stream-rules.ts, native/include/transient_stream.h)
 * end to end on tests/fixtures/sdfg/streams.sdfg, generated in every mode and layout, compiled and run by the C++
 * driver under AddressSanitizer, and compared with a computation written here:
 * - state produce: a CPU_Multicore map pushes every A[i] into stream Q (buffer_size 4, so the queue grows);
 * - state consume: a consume scope pops each x, adds it to total[0] (WCR) and pushes x/2 back while x > 0.25;
 * - state copy: A is pushed into stream R (an Array → Stream copy) and popped into B (Stream → Array).
 * Also: the analysis and view models of streams, the corpus files the rules let in or refuse, and the refusals.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import { transientsTable } from '../../../electron/engine/report/model.js';
import { buildAnalysisView } from '../../../electron/engine/view/analysis.js';
import { findUnsupported, type GeneratedProgram } from '../../../electron/engine/codegen/index.js';
import type { ConsumeEntryNode, SdfgFile, StateBlock } from '../../../electron/engine/model/sdfg.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { removeScratchDirs, scratchDir } from './compile.js';
import { ALL_VARIANTS, compileAllVariants, compileDriver, inputFor as input, runProgram } from './driver.js';

afterAll(removeScratchDirs);

const FIXTURE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'streams.sdfg');
const CORPUS = join(packageRoot(), '..', 'shared', 'corpus', 'sdfg');
const N = 64;
const symbols = () => ({ symbols: new Map([['N', BigInt(N)]]), defaultSymbol: null, target: null });

/** What the consume scope adds for one produced element: x, x/2, x/4, … down to the first value ≤ 0.25. */
function chain(x: number): number {
  let sum = 0;
  for (let v = x; ; v /= 2) {
    sum += v;
    if (!(v > 0.25)) return sum;
  }
}

describe('streams and consume scopes, end to end', () => {
  const dir = scratchDir('streams');
  let driver = '';
  let file: SdfgFile;
  const programs: Array<{ p: GeneratedProgram; library: string; ok: boolean; output: string }> = [];

  beforeAll(async () => {
    driver = await compileDriver(dir, true);
    file = await readSdfgFile(FIXTURE);
    if (findUnsupported(file).length) return;
    const analysis = analyze(file, symbols());
    programs.push(...(await compileAllVariants(file, analysis, dir, 'streams')));
  }, 600_000);

  test('the fixture is inside the supported subset and parses without warnings', () => {
    expect(findUnsupported(file)).toEqual([]);
    expect(file.warnings).toEqual([]);
  });

  for (const v of ALL_VARIANTS) {
    test(`${v.mode} (${v.layout}) matches the reference`, async () => {
      const b = programs.find((x) => x.p.mode === v.mode && x.p.layout === v.layout);
      expect(b?.ok, b?.output).toBe(true);
      const result = await runProgram(driver, b!.library, b!.p, {}, join(dir, `streams_${v.mode}_${v.layout}.out`));
      const A = input(b!.p, 'A');
      let total = input(b!.p, 'total')[0]!;
      // The driver refills the inputs before each of its two calls: what comes back is one call's.
      for (const a of A) total += chain(a);
      expect([...result.arrays.get('B')!]).toEqual([...A]);
      const got = result.arrays.get('total')![0]!;
      expect(Math.abs(got - total) / total).toBeLessThan(1e-12);
    });
  }

  test('pushes from the parallel produce map make the float sum over the queue nondeterministic: verification compares within tolerance', () => {
    // The produce map's threads reach the queue's lock in any order, so total[0] sums in a varying order.
    expect(programs.length).toBe(ALL_VARIANTS.length);
    for (const { p } of programs) expect(p.nondeterministicFloat, `${p.mode} ${p.layout}`).toBe(true);
  });

  test('streams stay at their site in every mode: a handle, its block opened and closed by the runtime', () => {
    expect(programs.length).toBe(ALL_VARIANTS.length);
    for (const { p } of programs) {
      expect(p.source).toContain('#include "transient_stream.h"');
      expect(p.source).toMatch(/tlab_stream_open\(Q, uint64_t\(1\), int64_t\(4\), \d+\);/);
      expect(p.source).toContain('tlab_stream_close(R);');
      // Pushes from the parallel producer map take the lock; the consume loop runs on one PE.
      expect(p.source).toContain('tlab_stream_push_locked(Q, 0,');
      expect(p.source).toContain('while (!tlab_stream_empty(Q, 0))');
      expect(p.externals.flatMap((e) => e.slots)).toEqual([]);
    }
  });
});

describe('streams in the analysis and the view models', () => {
  test('a stream is a Stream transient with its block as bytes, allocated at its site, never hoisted', async () => {
    const file = await readSdfgFile(FIXTURE);
    const analysis = analyze(file, symbols());
    const q = analysis.transients.find((t) => t.name === 'Q')!;
    const r = analysis.transients.find((t) => t.name === 'R')!;
    // 48-byte header + buffer_size (4, or 64 when 0) doubles.
    expect([q.type, q.bytes, q.allocation.kind]).toEqual(['Stream', 80n, 'sdfg']);
    expect([r.bytes, r.allocation.kind]).toEqual([560n, 'state']);
    expect(q.eligible).toEqual({ PERSISTENT: false, EXTERNAL: false });
    expect(q.reason).toMatch(/^Stream: a queue whose memory grows/);
    const json = toAnalysisJson(analysis);
    expect(json.transients.find((t) => t.name === 'Q')?.type).toBe('Stream');
    const rows = transientsTable(buildAnalysisView(analysis)).rows;
    expect(rows.find((x) => x.name === 'R')).toMatchObject({ bytes: '560 B', persistent: false, external: false });
  });
});

describe('streams in the corpus and what stays refused', () => {
  test('the Fibonacci consume file is inside the subset', async () => {
    const f = await readSdfgFile(join(CORPUS, 'spcl__dace__tests__sdfg_corpus__mapfusion_fib_consume.sdfgz'));
    expect(findUnsupported(f)).toEqual([]);
  });

  test.each(['before', 'after'])('the SMI jacobi (%s) is refused for its remote stream between FPGA ranks', async (which) => {
    const f = await readSdfgFile(join(CORPUS, `spcl__dace__tests__intel_fpga_smi__jacobi2d_32x32x32_${which}.sdfg`));
    const findings = findUnsupported(f);
    expect(findings[0]).toMatchObject({
      jsonPath: '$.attributes._arrays.b_to_b',
      message: expect.stringMatching(/^storage FPGA_Remote: an SMI stream between ranks/),
    });
    expect(findings.some((x) => /streams are not supported/.test(x.message))).toBe(false);
  });

  test('a quiescence condition, chunks, a GPU program and a stream argument are findings with their reason', async () => {
    const file = await readSdfgFile(FIXTURE);
    const state = file.root.body.blocks.find((b) => b.kind === 'state' && b.label === 'consume') as StateBlock;
    const entry = state.nodes.find((n) => n.kind === 'consume_entry') as ConsumeEntryNode;
    entry.condition = 'total[0] > 5';
    entry.chunksize = 4;
    file.root.arrays.get('R')!.transient = false;
    const messages = findUnsupported(file).map((f) => f.message);
    expect(messages).toContainEqual(expect.stringMatching(/quiescence condition \('total\[0\] > 5'\) is not supported/));
    expect(messages).toContainEqual('chunksize 4 is not supported');
    expect(messages).toContainEqual(expect.stringMatching(/a Stream argument is not supported/));
    expect(findUnsupported(await readSdfgFile(FIXTURE), 'gpu').map((f) => f.message)).toContainEqual(
      expect.stringMatching(/streams are not supported by the CUDA generator/),
    );
  });
});
