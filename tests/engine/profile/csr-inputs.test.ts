/**
 * DaCe's spmv (doc/_static/sdfg/spmv.sdfg, CSR with uint32 row pointers and column indices) with a valid CSR
 * matrix given through `--input NAME=file.npy`, empty rows included: the inner map runs from A_row[i] to
 * A_row[i + 1] - 1, a symbolic expression that must not wrap in uint32 when A_row[i + 1] is 0 (it did: a loop of
 * 2^32 iterations and a SIGSEGV). The outputs of every mode are checked against a CSR product computed here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readNpy, writeNpy } from '../../../electron/engine/profile/npy.js';
import { DEFAULT_PROFILE_OPTIONS, profile } from '../../../electron/engine/profile/profile.js';
import { NodeRunnerHost } from '../../../electron/runner/host-node.js';

const SPMV = join(corpusDir(), 'spcl__dace__doc___static__sdfg__spmv.sdfg');
// 4×5, rows 0 and 2 empty: A_row[1] = 0 is the bound that wrapped.
const H = 4;
const W = 5;
const ROW = [0, 0, 2, 2, 5];
const COL = [1, 4, 0, 2, 4];
const VAL = [0.5, -2, 3, 1.25, 4];
const X = [1, 2, 3, 4, 5];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-csr-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe('spmv with a CSR matrix from .npy inputs', () => {
  test('every mode computes b = A·x, empty rows included', async () => {
    const files = new Map<string, string>();
    const put = async (name: string, dtype: string, data: Uint8Array, n: number) => {
      const path = join(dir, `${name}.npy`);
      await writeNpy(path, { dtype, shape: [n], data });
      files.set(name, path);
    };
    await put('A_row', 'uint32', bytes(new Uint32Array(ROW)), H + 1);
    await put('A_col', 'uint32', bytes(new Uint32Array(COL)), COL.length);
    await put('A_val', 'float32', bytes(new Float32Array(VAL)), VAL.length);
    await put('x', 'float32', bytes(new Float32Array(X)), W);
    await put('b', 'float32', bytes(new Float32Array(H)), H);
    const out = join(dir, 'out');
    const result = await profile(SPMV, {
      ...DEFAULT_PROFILE_OPTIONS,
      runner: new NodeRunnerHost(),
      layout: 'both',
      calls: 1,
      warmup: 0,
      processes: 1,
      symbols: new Map([
        ['H', BigInt(H)],
        ['W', BigInt(W)],
        ['nnz', BigInt(COL.length)],
      ]),
      inputs: files,
      saveOutputs: out,
      timeoutMs: 60_000,
    });
    expect(result.verification.ok, JSON.stringify(result.verification.details)).toBe(true);
    const expected = Array.from({ length: H }, (_, i) => {
      let s = 0;
      for (let j = ROW[i]!; j < ROW[i + 1]!; j++) s += VAL[j]! * X[COL[j]!]!;
      return s;
    });
    expect(expected).toEqual([0, -9, 0, 26.75]);
    for (const m of ['SCOPED', 'PERSISTENT', 'POOL', 'EXTERNAL-dace', 'EXTERNAL-packed']) {
      const b = await readNpy(join(out, m, 'b.npy'));
      expect([...new Float32Array(b.data.slice().buffer)], m).toEqual(expected);
    }
  }, 300_000);
});
