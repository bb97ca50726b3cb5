import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closedForm } from '../../../electron/engine/advise/closed-form.js';

/** Evaluates a form like `(3*N^2 - N)/2` at N = v, exactly, with its own small parser (not the fitting code). */
function evaluateForm(form: string, v: bigint): bigint {
  const whole = /^\((.*)\)\/(\d+)$/.exec(form);
  const sum = whole ? whole[1]! : form;
  const divisor = whole ? BigInt(whole[2]!) : 1n;
  let total = 0n;
  for (const m of sum.matchAll(/(^-?|[-+] )(?:(\d+)\*)?(N(?:\^(\d+))?|\d+)/g)) {
    const sign = m[1]!.trim() === '-' ? -1n : 1n;
    const coeff = m[2] ? BigInt(m[2]) : 1n;
    const atom = m[3]!.startsWith('N') ? v ** BigInt(m[4] ?? '1') : BigInt(m[3]!);
    total += sign * coeff * atom;
  }
  expect(total % divisor).toBe(0n);
  return total / divisor;
}

describe('closed forms of a swept size', () => {
  it('recovers an affine workspace need', () => {
    expect(closedForm('N', [64n, 128n, 256n, 512n], [24n * 64n + 64n, 24n * 128n + 64n, 24n * 256n + 64n, 24n * 512n + 64n])).toBe(
      '24*N + 64',
    );
  });

  it('recovers integer-valued polynomials with rational coefficients, and the form evaluates back to every point', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 6 }),
        (coeffs, denominator) => {
          const xs = [16n, 32n, 48n, 64n, 96n, 128n].map((x) => x * BigInt(denominator));
          // Multiples of the denominator keep every value an integer.
          const ys = xs.map((x) => coeffs.reduce((acc, c, j) => acc + BigInt(c) * x ** BigInt(j), 0n) / BigInt(denominator));
          const form = closedForm('N', xs, ys);
          expect(form).not.toBeNull();
          xs.forEach((x, i) => expect(evaluateForm(form!, x)).toBe(ys[i]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('claims nothing for alignment steps, or without a point to spare', () => {
    const align = (b: bigint) => ((b + 63n) / 64n) * 64n;
    const xs = [1n, 2n, 3n, 5n, 7n, 11n, 13n, 17n];
    expect(
      closedForm(
        'N',
        xs,
        xs.map((x) => align(24n * x)),
      ),
    ).toBeNull();
    expect(closedForm('N', [1n, 2n], [5n, 9n])).toBeNull();
    expect(closedForm('N', [1n, 2n, 3n], [5n, 9n, 13n])).toBe('4*N + 1');
  });
});
