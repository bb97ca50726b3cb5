/**
 * float16 outputs in verification: compared as numbers under a tolerance (not as bytes) and shown as numbers
 * (inputs.ts already generates exactly representable half inputs).
 */
import { describe, expect, it } from 'vitest';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';
import { compareArray } from '../../../electron/engine/profile/compare.js';
import { halfValue } from '../../../electron/engine/profile/half.js';

function halfArg(): ProgramArg {
  return {
    name: 'out',
    kind: 'array',
    dtype: 'float16',
    ctype: 'tlab_half',
    elementBytes: 2,
    shape: [4n],
    totalElements: 4n,
    strides: [1n],
    written: true,
    read: true,
  };
}

const halves = (bits: number[]) => new Uint8Array(new Uint16Array(bits).buffer);

describe('float16 in verification', () => {
  it('decodes half bits: normals, subnormals, signed zero, infinities, NaN', () => {
    expect([0x3c00, 0x3e00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x7c00, 0xfc00].map(halfValue)).toEqual([
      1,
      1.5,
      -2,
      65504,
      2 ** -24,
      -0,
      Infinity,
      -Infinity,
    ]);
    expect(halfValue(0x7e00)).toBeNaN();
  });

  it('compares float16 elements as numbers under a tolerance and shows them as numbers', () => {
    const arg = halfArg();
    // 1.0 vs 1.0009765625 (one ulp): equal within 1e-3, different bitwise.
    const a = halves([0x3c00, 0x3e00, 0x4000, 0x4200]);
    const b = halves([0x3c01, 0x3e00, 0x4000, 0x4200]);
    expect(compareArray(arg, a, b, 1e-3)).toBeNull();
    expect(compareArray(arg, a, b, null)).toMatchObject({ flatIndex: 0, values: ['1', '1.0009765625'] });
    const c = halves([0x3c00, 0x3e00, 0x4000, 0x4400]);
    expect(compareArray(arg, a, c, 1e-3)).toMatchObject({ flatIndex: 3, values: ['3', '4'] });
  });
});
