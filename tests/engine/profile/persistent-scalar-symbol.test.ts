/**
 * A nested SDFG's symbol mapped from a Scalar argument (`M ↦ m`, fixture nested_scalar_symbol.sdfg) sizes the
 * nested transient t[M]. The analysis took `m` for a free symbol and gave it `--default-symbol`, so PERSISTENT
 * allocated t at init with the default (16 elements) while each call ran M = m from the argument (24 here):
 * writes past t's end. `m` is data: t's size is unknown before the call, and PERSISTENT allocates it per call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { generateProgram } from '../../../electron/engine/codegen/index.js';
import { packageRoot } from '../../../electron/engine/paths.js';
import { fillGenerated, generatorFor } from '../../../electron/engine/profile/inputs.js';
import { readNpy, writeNpy } from '../../../electron/engine/profile/npy.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const FILE = join(packageRoot(), 'tests', 'fixtures', 'sdfg', 'nested_scalar_symbol.sdfg');
const N = 32;
const m = 24;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-scalar-sym-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a nested symbol mapped from a Scalar argument', () => {
  test('is not given --default-symbol: the transient it sizes is never allocated at init', async () => {
    const file = await readSdfgFile(FILE);
    const analysis = analyze(file, { symbols: new Map([['N', BigInt(N)]]), defaultSymbol: 16n, target: null });
    expect([...analysis.symbols.keys()]).toEqual(['N']);
    const t = analysis.transients.find((x) => x.id === '1:t')!;
    expect({ bytes: t.bytes, P: t.eligible.PERSISTENT }).toEqual({ bytes: null, P: false });
    const src = generateProgram(file, analysis, { mode: 'PERSISTENT', layout: 'packed' }).source;
    const init = src.slice(src.indexOf('__dace_init_nested_scalar_symbol('));
    expect(init.slice(0, init.indexOf('return __state;'))).not.toContain('tlab_alloc');
  });

  test('every mode computes B from the argument m (24), more than the default symbol (16)', async () => {
    const mFile = join(dir, 'm.npy');
    await writeNpy(mFile, { dtype: 'int32', shape: [], data: new Uint8Array(new Int32Array([m]).buffer) });
    const out = join(dir, 'out');
    const result = await profile(FILE, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: new Map([['N', BigInt(N)]]),
      defaultSymbol: 16n,
      inputs: new Map([['m', mFile]]),
      saveOutputs: out,
      timeoutMs: 120_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    const generated = (name: string) => {
      const bytes = new Uint8Array(N * 8);
      fillGenerated('float64', bytes, generatorFor(0n, name));
      return [...new Float64Array(bytes.buffer)];
    };
    const A = generated('A');
    const B = generated('B');
    for (let i = 0; i < m; i++) B[i] = A[i]! * 2 + 1;
    for (const mode of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const b = await readNpy(join(out, mode, 'B.npy'));
      expect([...new Float64Array(b.data.slice().buffer)], mode).toEqual(B);
    }
  }, 300_000);
});
