/** A scanned run of valid index values that reaches the scan window keeps its flat end's last value only. */
import { describe, expect, it } from 'vitest';
import { trimFlatEdges } from '../../../electron/engine/analysis/index-flat-edges.js';

const clampLow = (v: bigint): bigint => (v > 1n ? v : 1n) - 1n; // max(1, v) - 1: a clamped loop start
const clampHigh = (v: bigint): bigint => (v < 9n ? v : 9n); // min(v, 9)

describe('trimFlatEdges', () => {
  it('cuts a flat lower end down to its last value (max(1, v) - 1 in [0, 16): v in [1, 16])', () => {
    expect(trimFlatEdges([-96n, 16n], -96n, 112n, clampLow)).toEqual([1n, 16n]);
  });

  it('cuts a flat upper end down to its first value (min(v, 9) in [0, 16): v in [0, 9])', () => {
    expect(trimFlatEdges([0n, 100n], -50n, 100n, clampHigh)).toEqual([0n, 9n]);
  });

  it('gives nothing where the index still moves at the window edge, or never moves', () => {
    expect(trimFlatEdges([-96n, 16n], -96n, 112n, (v) => v * v)).toBeNull();
    expect(trimFlatEdges([-96n, 112n], -96n, 112n, () => 3n)).toBeNull();
  });

  it('leaves a run inside the window alone', () => {
    expect(trimFlatEdges([2n, 5n], -96n, 112n, clampLow)).toEqual([2n, 5n]);
  });
});
