/** The verification workspace layout: guards between regions, bytes shared exactly as the library shares them. */
import { describe, expect, it } from 'vitest';
import { guardedLayout } from '../../../electron/runner/guarded-layout.js';

const slot = (id: string, offset: number, bytes: number) => ({ id, offset: BigInt(offset), bytes: BigInt(bytes) });

describe('guarded verification layout', () => {
  it('gives every slot of a layout without sharing its own region, each surrounded by guards', () => {
    // DaCe's layout: back to back, unaligned.
    const l = guardedLayout([slot('a', 0, 3), slot('b', 3, 80), slot('c', 83, 20)], 64, 64);
    expect(l.regions.map((r) => [r.start, r.end, r.first, r.last])).toEqual([
      [64, 67, 'a', 'a'],
      [192, 272, 'b', 'b'],
      [384, 404, 'c', 'c'],
    ]);
    expect(l.offsets).toEqual([64, 192, 384]);
    expect(l.size).toBe(512);
  });

  it('keeps slots that share bytes in the library’s layout sharing them, at the same relative offsets', () => {
    // Packed layout: a and c share [0, 512), b sits beside them, d overlaps b partly (transitively one region).
    const slots = [slot('a', 0, 512), slot('b', 512, 256), slot('c', 0, 320), slot('d', 640, 256), slot('e', 1024, 64)];
    const l = guardedLayout(slots, 64, 64);
    expect(l.offsets[0]).toBe(l.offsets[2]);
    expect(l.regions.map((r) => r.slots.map((i) => slots[i]!.id))).toEqual([['a', 'c'], ['b', 'd'], ['e']]);
    // b and d keep their distance of 128 bytes; d ends last in its region and is the one named after it.
    expect(l.offsets[3]! - l.offsets[1]!).toBe(128);
    expect(l.regions[1]!.last).toBe('d');
    for (let i = 1; i < l.regions.length; i++) expect(l.regions[i]!.start - l.regions[i - 1]!.end).toBeGreaterThanOrEqual(64);
    for (const o of l.offsets) expect(o % 64).toBe(0);
    expect(l.size - l.regions.at(-1)!.end).toBeGreaterThanOrEqual(64);
  });

  it('puts an empty slot in a region of its own', () => {
    const l = guardedLayout([slot('a', 0, 128), slot('z', 64, 0)], 64, 64);
    expect(l.regions.map((r) => r.slots)).toEqual([[0], [1]]);
  });
});
