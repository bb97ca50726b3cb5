/**
 * Verification names the transients the SDFG alone shows are read before written, ahead of every transient
 * that merely received poison: never-written ones (stage8's `54:zqe_2`) and, since this test, accumulate-only
 * ones (velocity_no_nproma's `0:vcflmax`, a Reduce without identity), which before were one name among 43 and
 * not in the message's first 12.
 */
import { describe, expect, it } from 'vitest';
import { verify } from '../../../../electron/engine/profile/verify.js';
import { bytes, fakeResult, y } from './fakes.js';

const det = { nondeterministicFloat: false };
// Sixteen poisoned transients whose names sort before the culprit's.
const others = Array.from({ length: 16 }, (_, i) => `0:_anchor_${String(i).padStart(2, '0')}`);

describe('certain culprits of an uninitialised read', () => {
  it('names a transient only ever accumulated into, first, with why', () => {
    const r = [fakeResult('SCOPED', { outputs: { y: bytes(1, 2) }, second: { y: bytes(1, 9) }, poisoned: [...others, '0:vcflmax'] })];
    const v = verify([{ label: 'SCOPED', program: det }], r, [y], new Set(), ['0:vcflmax']);
    expect(v.details[0]!.transients![0]).toBe('0:vcflmax');
    expect(v.details[0]!.message).toContain(
      'the program reads a transient before writing it: it accumulates into 0:vcflmax (a WCR, a Reduce without identity or a blend x = f·new + (1 − f)·x reads the old value) and nothing writes it first (16 other transient(s) also got poison; listed in the result)',
    );
  });

  it('names never-written and accumulate-only transients together, never-written first', () => {
    const r = [fakeResult('POOL', { outputs: { y: bytes(1, 2) }, second: { y: bytes(1, 9) }, poisoned: ['0:a', '0:b', '0:c'] })];
    const v = verify([{ label: 'POOL', program: det }], r, [y], new Set(['0:c']), ['0:b', '0:z']);
    expect(v.details[0]!.transients).toEqual(['0:c', '0:b', '0:a']);
    expect(v.details[0]!.message).toContain(
      'nothing in the program ever writes 0:c; it accumulates into 0:b (a WCR, a Reduce without identity or a blend x = f·new + (1 − f)·x reads the old value) and nothing writes it first (1 other transient(s)',
    );
  });
});
