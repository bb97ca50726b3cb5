/**
 * The output comparator, tested directly: the whole verification stands on it. Two deliberate breakages went
 * unnoticed by every other test — the relative-tolerance comparison answering "equal" for everything, and the
 * bitwise comparison looking only at the low byte of each element — and each test below fails under one of
 * them. Also: verification says when it had nothing to compare, instead of passing vacuously.
 */
import { describe, expect, it } from 'vitest';
import { emptyTiming } from '../../../electron/engine/profile/samples.js';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { compareArray } from '../../../electron/engine/profile/compare.js';
import { formatProfile } from '../../../electron/engine/profile/format.js';
import type { ProfileResult } from '../../../electron/engine/profile/result.js';
import { NONDETERMINISTIC_RTOL, verify } from '../../../electron/engine/profile/verify.js';
import type { VariantResult } from '../../../electron/runner/messages.js';

const BYTES: Record<string, number> = { float64: 8, float32: 4, complex128: 16, complex64: 8, int32: 4, int64: 8, uint8: 1, int16: 2 };

function arrayArg(
  name: string,
  dtype: string,
  shape: number[],
  opts: { strides?: number[]; totalElements?: number; written?: boolean } = {},
): ProgramArg {
  const strides = opts.strides ?? shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  return {
    name,
    kind: 'array',
    dtype,
    ctype: dtype,
    elementBytes: BYTES[dtype]!,
    shape: shape.map(BigInt),
    totalElements: BigInt(opts.totalElements ?? shape.reduce((a, b) => a * b, 1)),
    strides: strides.map(BigInt),
    written: opts.written ?? true,
    read: true,
  };
}

function float64s(values: number[]): Uint8Array {
  return new Uint8Array(new Float64Array(values).buffer);
}

function float32s(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

describe('compareArray, bitwise', () => {
  const arg = arrayArg('out', 'float64', [2, 3]);
  const base = [0.5, -1.25, 3, 1e-300, 7, 1 / 3];

  it('finds no difference between equal arrays', () => {
    expect(compareArray(arg, float64s(base), float64s(base), null)).toBeNull();
  });

  it('sees a difference in the high byte of an element (not only the low byte)', () => {
    const a = float64s(base);
    const b = float64s(base);
    b[4 * 8 + 7]! ^= 0x40; // the exponent of element 4: 7 becomes a very different number
    const d = compareArray(arg, a, b, null);
    expect(d).not.toBeNull();
    expect(d!.flatIndex).toBe(4);
    expect(d!.index).toEqual([1, 1]);
    expect(d!.count).toBe(1);
    expect(d!.values[0]).toBe('7');
  });

  it('sees each middle byte of an element', () => {
    for (let byte = 0; byte < 8; byte++) {
      const b = float64s(base);
      b[2 * 8 + byte]! ^= 0x01;
      expect(compareArray(arg, float64s(base), b, null)?.flatIndex, `byte ${byte}`).toBe(2);
    }
  });

  it('tells +0 from -0 (they differ only in the sign bit of the highest byte)', () => {
    const d = compareArray(arg, float64s([0, 1, 2, 3, 4, 5]), float64s([-0, 1, 2, 3, 4, 5]), null);
    expect(d?.flatIndex).toBe(0);
    expect(d?.values).toEqual(['0', '0']);
  });

  it('tells NaNs with different payloads apart (bitwise means bitwise)', () => {
    const a = float64s([NaN, 1, 2, 3, 4, 5]);
    const b = float64s([NaN, 1, 2, 3, 4, 5]);
    b[6]! ^= 0x01; // still a NaN, another payload
    expect(compareArray(arg, a, b, null)?.flatIndex).toBe(0);
  });

  it('counts every differing element and reports the first', () => {
    const d = compareArray(arg, float64s(base), float64s([0.5, -1.25, 4, 1e-300, 8, 9]), null);
    expect(d).toMatchObject({ array: 'out', flatIndex: 2, index: [0, 2], count: 3, values: ['3', '4'] });
  });

  it('compares integers byte for byte, high bytes included', () => {
    const ints = arrayArg('idx', 'int32', [4]);
    const a = new Uint8Array(new Int32Array([1, 2, 3, 4]).buffer);
    const b = new Uint8Array(new Int32Array([1, 2, 3 + (1 << 24), 4]).buffer);
    expect(compareArray(ints, a, b, null)).toMatchObject({ flatIndex: 2, values: ['3', String(3 + (1 << 24))] });
    // With a tolerance, integers are still compared exactly.
    expect(compareArray(ints, a, b, 0.5)?.flatIndex).toBe(2);
  });

  it('compares the logical elements of a strided array, not its padding', () => {
    // A 2×2 array stored with row stride 3: storage elements 2 and 5 are padding.
    const strided = arrayArg('s', 'float64', [2, 2], { strides: [3, 1], totalElements: 6 });
    const a = float64s([1, 2, 111, 3, 4, 222]);
    expect(compareArray(strided, a, float64s([1, 2, -5, 3, 4, -6]), null)).toBeNull();
    expect(compareArray(strided, a, float64s([1, 2, 111, 3, 9, 222]), null)).toMatchObject({
      flatIndex: 3,
      index: [1, 1],
      values: ['4', '9'],
    });
  });
});

describe('compareArray, relative tolerance', () => {
  const arg = arrayArg('out', 'float64', [4]);

  it('accepts differences within the tolerance', () => {
    const a = float64s([1, 100, -3, 0]);
    const b = float64s([1 + 1e-7, 100 * (1 - 5e-6), -3 - 1e-6, 0]);
    expect(compareArray(arg, a, b, 1e-5)).toBeNull();
    // …which bitwise comparison would not.
    expect(compareArray(arg, a, b, null)?.count).toBe(3);
  });

  it('rejects differences beyond the tolerance', () => {
    const d = compareArray(arg, float64s([1, 100, -3, 0]), float64s([1, 100.1, -3, 0]), 1e-5);
    expect(d).toMatchObject({ flatIndex: 1, count: 1 });
  });

  it('rejects a value against zero, a sign flip and a NaN', () => {
    expect(compareArray(arg, float64s([0, 1, 1, 1]), float64s([1e-3, 1, 1, 1]), 1e-5)?.flatIndex).toBe(0);
    expect(compareArray(arg, float64s([1, 2, 1, 1]), float64s([1, -2, 1, 1]), 1e-5)?.flatIndex).toBe(1);
    expect(compareArray(arg, float64s([1, 1, 3, 1]), float64s([1, 1, NaN, 1]), 1e-5)?.flatIndex).toBe(2);
    expect(compareArray(arg, float64s([1, 1, 1, Infinity]), float64s([1, 1, 1, -Infinity]), 1e-5)?.flatIndex).toBe(3);
    expect(compareArray(arg, float64s([1, 1, 1, Infinity]), float64s([1, 1, 1, 1e308]), 1e-5)?.flatIndex).toBe(3);
  });

  it('treats two NaNs as equal and an exact match as equal', () => {
    expect(compareArray(arg, float64s([NaN, 1, 2, Infinity]), float64s([NaN, 1, 2, Infinity]), 1e-5)).toBeNull();
  });

  it('uses the tolerance it is given', () => {
    const a = float64s([1, 1, 1, 1]);
    const b = float64s([1.01, 1, 1, 1]);
    expect(compareArray(arg, a, b, 0.1)).toBeNull();
    expect(compareArray(arg, a, b, 0.001)?.flatIndex).toBe(0);
  });

  it('compares float32 in float32 and both parts of complex numbers', () => {
    const f32 = arrayArg('f', 'float32', [2]);
    expect(compareArray(f32, float32s([1, 2]), float32s([1, 2.5]), NONDETERMINISTIC_RTOL)?.flatIndex).toBe(1);
    expect(compareArray(f32, float32s([1, 2]), float32s([1, 2 * (1 + 2 ** -22)]), NONDETERMINISTIC_RTOL)).toBeNull();
    const c128 = arrayArg('c', 'complex128', [2]);
    // Element 1's imaginary part differs: the real parts alone would say "equal".
    const d = compareArray(c128, float64s([1, 1, 2, 3]), float64s([1, 1, 2, 3.5]), NONDETERMINISTIC_RTOL);
    expect(d).toMatchObject({ flatIndex: 1, values: ['(2, 3)', '(2, 3.5)'] });
    expect(compareArray(c128, float64s([1, 1, 2, 3]), float64s([1, 1, 2 * (1 + 1e-9), 3]), NONDETERMINISTIC_RTOL)).toBeNull();
  });
});

function result(label: string, outputs: Record<string, Uint8Array> | null, second = outputs): VariantResult {
  return {
    label,
    initNs: 0,
    exitNs: 0,
    firstCallNs: 0,
    workspaceBytes: {},
    outputs,
    outputsSecond: second,
    poisonedTransients: [],
    guardViolations: [],
    timing: emptyTiming(),
    sampledCall: null,
  };
}

const variant = (label: string) => ({ label, program: { nondeterministicFloat: false } });

describe('verification says when it compared nothing', () => {
  const out = arrayArg('out', 'float64', [2]);
  const inp = arrayArg('inp', 'float64', [2], { written: false });

  it('compares the written outputs across modes', () => {
    const v = verify(
      [variant('SCOPED'), variant('EXTERNAL (packed)')],
      [
        result('SCOPED', { inp: float64s([1, 2]), out: float64s([3, 4]) }),
        result('EXTERNAL (packed)', { inp: float64s([1, 2]), out: float64s([3, 4]) }),
      ],
      [inp, out],
    );
    expect(v).toMatchObject({ identical: true, ok: true, vacuous: false, compared: ['out'], details: [] });
  });

  it('still fails on a divergence (vacuity is no escape)', () => {
    const v = verify(
      [variant('SCOPED'), variant('PERSISTENT')],
      [result('SCOPED', { out: float64s([3, 4]) }), result('PERSISTENT', { out: float64s([3, 5]) })],
      [out],
    );
    expect(v).toMatchObject({ identical: false, ok: false, vacuous: false });
  });

  const cases: Array<[string, VariantResult[], ProgramArg[], string[], RegExp]> = [
    [
      'the program has no array arguments',
      [result('SCOPED', {}), result('PERSISTENT', {})],
      [],
      ['SCOPED', 'PERSISTENT'],
      /no array arguments/,
    ],
    [
      'no array argument is written',
      [result('SCOPED', { inp: float64s([1, 2]) }), result('PERSISTENT', { inp: float64s([1, 2]) })],
      [inp],
      ['SCOPED', 'PERSISTENT'],
      /writes none of its array arguments \(inp\)/,
    ],
    [
      'the reference returned no outputs',
      [result('SCOPED', null), result('PERSISTENT', { out: float64s([3, 4]) })],
      [out],
      ['SCOPED', 'PERSISTENT'],
      /reference mode SCOPED returned no outputs/,
    ],
    [
      'every output is empty (N=0)',
      [result('SCOPED', { out: new Uint8Array(0) }), result('PERSISTENT', { out: new Uint8Array(0) })],
      [arrayArg('out', 'float64', [0, 4])],
      ['SCOPED', 'PERSISTENT'],
      /every output \(out\[0, 4\]\) has no elements with these symbol values/,
    ],
    ['only one mode ran', [result('SCOPED', { out: float64s([3, 4]) })], [out], ['SCOPED'], /only SCOPED ran/],
    [
      'no other mode returned outputs',
      [result('SCOPED', { out: float64s([3, 4]) }), result('PERSISTENT', null)],
      [out],
      ['SCOPED', 'PERSISTENT'],
      /no mode other than the reference/,
    ],
  ];
  for (const [what, results, args, labels, message] of cases) {
    it(`when ${what}: vacuous, a note, and the console says so`, () => {
      const v = verify(labels.map(variant), results, args);
      expect(v.vacuous).toBe(true);
      expect(v.compared).toEqual([]);
      expect(v.ok).toBe(true);
      const note = v.details.find((d) => d.kind === 'note');
      expect(note?.message).toMatch(/^nothing was compared across modes: /);
      expect(note?.message).toMatch(message);
      const text = formatProfile(profileResult(v));
      expect(text).toMatch(/verification: nothing was compared across modes: /);
      expect(text).not.toMatch(/identical outputs/);
    });
  }
});

function profileResult(verification: ProfileResult['verification']): ProfileResult {
  return {
    schema: 'transient-lab/profile@1',
    program: { name: 'p', file: 'p.sdfg', hash: '' },
    machine: { cpu: 'cpu', cores: 1, compiler: 'g++', os: 'linux', node: 'v20' },
    settings: { modes: ['SCOPED'], layout: 'packed', calls: 1, warmup: 0, processes: 1, symbols: {}, seed: 0, inputs: {}, cxxflags: [] },
    modes: [],
    verification,
    notes: [],
    warnings: [],
  };
}

describe('verification under flags that let the compiler round each mode differently', () => {
  const out = arrayArg('out', 'float64', [3]);
  const built = (label: string, cxxflags: string[]) => ({ ...variant(label), build: { cxxflags } });
  const oneUlp = 3.7896858082247804 * (1 + 2 ** -52);
  // Two NaNs with different payloads: what reordered arithmetic on NaN inputs gives.
  const nanA = new Uint8Array(new Float64Array([NaN]).buffer);
  const nanB = new Uint8Array(new BigUint64Array([0xfff8000000000001n]).buffer);
  const outputs = (last: number, nan: Uint8Array) => {
    const bytes = float64s([1, last, 0]);
    bytes.set(nan, 16);
    return { out: bytes };
  };

  it("DaCe's default -freciprocal-math: last-bit differences and NaN payloads agree within the tolerance, and the result says why", () => {
    const v = verify(
      [built('SCOPED', ['-O3', '-freciprocal-math']), built('PERSISTENT', ['-O3', '-freciprocal-math'])],
      [result('SCOPED', outputs(3.7896858082247804, nanA)), result('PERSISTENT', outputs(oneUlp, nanB))],
      [out],
    );
    expect(v).toMatchObject({ identical: true, ok: true, tolerance: NONDETERMINISTIC_RTOL });
    expect(v.details).toEqual([
      expect.objectContaining({ kind: 'note', message: expect.stringMatching(/-freciprocal-math let each mode's code round/) }),
    ]);
  });

  it('without such flags the same difference is a failure, bitwise', () => {
    const v = verify(
      [built('SCOPED', ['-O3']), built('PERSISTENT', ['-O3'])],
      [result('SCOPED', outputs(3.7896858082247804, nanA)), result('PERSISTENT', outputs(oneUlp, nanA))],
      [out],
    );
    expect(v).toMatchObject({ identical: false, ok: false });
    expect(v.tolerance).toBeUndefined();
  });

  it('a real difference still fails under those flags', () => {
    const v = verify(
      [built('SCOPED', ['-ffast-math']), built('PERSISTENT', ['-ffast-math'])],
      [result('SCOPED', outputs(3.78, nanA)), result('PERSISTENT', outputs(3.79, nanA))],
      [out],
    );
    expect(v).toMatchObject({ identical: false, ok: false });
  });

  it('bitwise-identical outputs stay "identical", with no tolerance', () => {
    const v = verify(
      [built('SCOPED', ['-freciprocal-math']), built('PERSISTENT', ['-freciprocal-math'])],
      [result('SCOPED', outputs(2, nanA)), result('PERSISTENT', outputs(2, nanA))],
      [out],
    );
    expect(v).toMatchObject({ identical: true, ok: true, details: [] });
    expect(v.tolerance).toBeUndefined();
  });
});

describe('the uninitialised-read message', () => {
  const out = arrayArg('out', 'float64', [2]);
  it('lists a few candidates by name, and only says how many when poison reached many', () => {
    // cloudsc_simplified poisons 1,782 transients: a list of their alphabetical head (`0:__tmp10`, …) read as if
    // those were the culprits.
    const many = Array.from({ length: 40 }, (_, i) => `0:t${String(i).padStart(2, '0')}`);
    const run = (poisoned: string[]) =>
      verify(
        [variant('SCOPED')],
        [{ ...result('SCOPED', { out: float64s([1, 2]) }, { out: float64s([1, 3]) }), poisonedTransients: poisoned }],
        [out],
      ).details[0]!;
    expect(run(['0:a', '0:b']).message).toMatch(/candidates: 0:a, 0:b$/);
    const d = run(many);
    expect(d.transients).toEqual(many);
    expect(d.message).toMatch(
      /; 40 transients received poison, any of them may be the one read \(the result lists all; the first 12 by name: 0:t00, .*, 0:t11\)$/,
    );
  });
});
