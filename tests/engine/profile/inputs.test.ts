import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { TlabError } from '../../../electron/engine/errors.js';
import {
  fillGenerated,
  fnv1a64,
  gatherCOrder,
  generatorFor,
  prepareInputs,
  SplitMix64,
  unflatten,
} from '../../../electron/engine/profile/inputs.js';

/** Straightforward BigInt SplitMix64, the reference the fast two-halves version must match. */
function referenceSplitMix(state: bigint, count: number): bigint[] {
  const out: bigint[] = [];
  let s = BigInt.asUintN(64, state);
  for (let i = 0; i < count; i++) {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    out.push(z ^ (z >> 31n));
  }
  return out;
}

async function failure(p: Promise<unknown>): Promise<TlabError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(TlabError);
  return r as TlabError;
}

const arr = (name: string, dtype: string, bytes: number, shape: bigint[]): ProgramArg => ({
  name,
  kind: 'array',
  dtype,
  ctype: dtype,
  elementBytes: bytes,
  shape,
  totalElements: shape.reduce((a, b) => a * b, 1n),
  strides: shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1n)),
  written: true,
  read: true,
});

describe('seeded generator', () => {
  it('is SplitMix64: the published first output for state 0', () => {
    expect(new SplitMix64(0n).next()).toBe(0xe220a8397b1dcdafn);
  });

  it('matches a BigInt reference for any state', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (state) => {
        const fast = new SplitMix64(state);
        const ref = referenceSplitMix(state, 8);
        for (const r of ref) expect(fast.next()).toBe(r);
      }),
      { numRuns: 200 },
    );
  });

  it('is keyed by seed and argument name', () => {
    expect(generatorFor(0n, 'A').next()).toBe(new SplitMix64(fnv1a64('A')).next());
    expect(generatorFor(0n, 'A').next()).not.toBe(generatorFor(0n, 'B').next());
    expect(generatorFor(1n, 'A').next()).not.toBe(generatorFor(0n, 'A').next());
  });

  it('fills floats in [-1, 1), ints in 0..7, bools in {0,1}, deterministically', () => {
    const f = new Uint8Array(8 * 1000);
    fillGenerated('float64', f, generatorFor(3n, 'x'));
    const values = new Float64Array(f.buffer);
    expect(values.every((v) => v >= -1 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(990);
    const again = new Uint8Array(8 * 1000);
    fillGenerated('float64', again, generatorFor(3n, 'x'));
    expect(again).toEqual(f);
    const f32 = new Uint8Array(4 * 500);
    fillGenerated('float32', f32, generatorFor(3n, 'x'));
    expect(new Float32Array(f32.buffer).every((v) => v >= -1 && v < 1)).toBe(true);
    const ints = new Uint8Array(4 * 500);
    fillGenerated('int32', ints, generatorFor(0n, 'idx'));
    const iv = new Int32Array(ints.buffer);
    expect(iv.every((v) => v >= 0 && v < 8)).toBe(true);
    expect(new Set(iv).size).toBe(8);
    const bools = new Uint8Array(200);
    fillGenerated('bool', bools, generatorFor(0n, 'flag'));
    expect(new Set(bools)).toEqual(new Set([0, 1]));
  });

  it('first float64 of seed 0, argument A is a fixed value (documented generator)', () => {
    const b = new Uint8Array(8);
    fillGenerated('float64', b, generatorFor(0n, 'A'));
    const x = generatorFor(0n, 'A').next();
    expect(new Float64Array(b.buffer)[0]).toBe(Number(x >> 11n) * 2 ** -53 * 2 - 1);
  });
});

describe('prepareInputs', () => {
  const args: ProgramArg[] = [
    arr('A', 'float64', 8, [4n, 2n]),
    arr('idx', 'int32', 4, [3n]),
    {
      name: 'N',
      kind: 'symbol',
      dtype: 'int32',
      ctype: 'int',
      elementBytes: 4,
      shape: [],
      totalElements: 1n,
      strides: [],
      written: false,
      read: true,
    },
    {
      name: 'alpha',
      kind: 'scalar',
      dtype: 'float64',
      ctype: 'double',
      elementBytes: 8,
      shape: [],
      totalElements: 1n,
      strides: [],
      written: false,
      read: true,
    },
  ];

  it('fills arrays and scalars from the seed and symbols from their values', async () => {
    const p = await prepareInputs(args, { N: 4n }, { seed: 7n, files: new Map() });
    expect(p.map((x) => x.source)).toEqual(['seed', 'seed', 'symbol', 'seed']);
    expect(p[0]!.bytes.length).toBe(64);
    expect(new Int32Array(p[2]!.bytes.buffer)[0]).toBe(4);
    const q = await prepareInputs(args, { N: 4n }, { seed: 7n, files: new Map() });
    expect(q.map((x) => x.bytes)).toEqual(p.map((x) => x.bytes));
    const r = await prepareInputs(args, { N: 4n }, { seed: 8n, files: new Map() });
    expect(r[0]!.bytes).not.toEqual(p[0]!.bytes);
  });

  it('refuses an input for an argument the program does not have', async () => {
    const e = await failure(prepareInputs(args, { N: 4n }, { seed: 0n, files: new Map([['B', 'b.npy']]) }));
    expect(e).toBeInstanceOf(TlabError);
    expect(e.message).toContain("no argument 'B'");
    expect(e.message).toContain('A, idx, alpha');
  });

  it('says which symbol has no value', async () => {
    const e = await failure(prepareInputs(args, {}, { seed: 0n, files: new Map() }));
    expect(e).toBeInstanceOf(TlabError);
    expect(e.kind).toBe('usage');
    expect(e.message).toContain('symbol N has no value');
  });
});

describe('layout helpers', () => {
  it('unflattens C-order indices', () => {
    expect(unflatten(0, [2, 3])).toEqual([0, 0]);
    expect(unflatten(5, [2, 3])).toEqual([1, 2]);
    expect(unflatten(7, [2, 2, 2])).toEqual([1, 1, 1]);
  });

  it('gathers a padded array into C order', () => {
    const a: ProgramArg = { ...arr('A', 'int32', 4, [2n, 2n]), totalElements: 6n, strides: [3n, 1n] };
    const storage = new Uint8Array(new Int32Array([1, 2, 99, 3, 4, 99]).buffer);
    expect(Array.from(new Int32Array(gatherCOrder(a, storage).data.buffer))).toEqual([1, 2, 3, 4]);
  });
});
