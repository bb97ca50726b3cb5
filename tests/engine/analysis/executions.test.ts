import { describe, expect, it } from 'vitest';
import { loopForm, splitComparison, stripParens, tripCount } from '../../../electron/engine/analysis/executions.js';

describe('counted loops', () => {
  it('recognises the usual DaCe loop statements', () => {
    expect(loopForm({ loopVariable: 'i', init: 'i = 0', condition: '(i < N)', update: 'i = (i + 1)' })).toEqual({
      start: '0',
      op: '<',
      bound: 'N',
      step: '1',
    });
    expect(loopForm({ loopVariable: 'k', init: 'k = N - 1', condition: '(k >= 0)', update: 'k = k - 1' })).toEqual({
      start: 'N - 1',
      op: '>=',
      bound: '0',
      step: '-(1)',
    });
    expect(loopForm({ loopVariable: 'i', init: 'i = 1', condition: '(10 > i)', update: 'i += 3' })).toEqual({
      start: '1',
      op: '<',
      bound: '10',
      step: '3',
    });
  });

  it('refuses loops it cannot count', () => {
    expect(loopForm({ loopVariable: '', init: null, condition: '(x > 0)', update: null })).toBeNull();
    expect(loopForm({ loopVariable: 'i', init: 'i = 0', condition: '(i < N) and (A[i] > 0)', update: 'i = i + 1' })).toBeNull();
    expect(loopForm({ loopVariable: 'i', init: 'i = 0', condition: 'i < N', update: 'i = 2 * i' })).toBeNull();
    expect(splitComparison('a < b < c')).toBeNull();
    expect(splitComparison('(a < b) < c')).toEqual({ lhs: '(a < b)', op: '<', rhs: 'c' });
  });

  it('counts iterations like Python range()', () => {
    expect(tripCount(0n, '<', 10n, 1n, false)).toBe(10n);
    expect(tripCount(0n, '<', 10n, 3n, false)).toBe(4n);
    expect(tripCount(0n, '<=', 10n, 5n, false)).toBe(3n);
    expect(tripCount(9n, '>=', 0n, -1n, false)).toBe(10n);
    expect(tripCount(9n, '>', 0n, -2n, false)).toBe(5n);
    expect(tripCount(5n, '<', 0n, 1n, false)).toBe(0n);
    expect(tripCount(5n, '<', 0n, 1n, true)).toBe(1n);
    expect(tripCount(0n, '<', 10n, -1n, false)).toBeNull();
  });

  it('strips only redundant parentheses', () => {
    expect(stripParens('((i < N))')).toBe('i < N');
    expect(stripParens('(a) < (b)')).toBe('(a) < (b)');
  });
});
