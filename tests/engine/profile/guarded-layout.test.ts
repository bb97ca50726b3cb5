/** The verification workspace layout: guards between regions, bytes shared exactly as the library shares them. */
import { describe, expect, it } from 'vitest';
import { ARG_GUARD_MAX, ARG_GUARD_MIN, argumentLayout, guardedLayout } from '../../../electron/runner/guarded-layout.js';
import { checkArgumentGuards, firstChanged, lastChanged } from '../../../electron/runner/runner-helpers.js';

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

describe('argument arena', () => {
  it('puts each array between a guard before and a guard after of its own, as long as the array (4 KiB … 64 MiB), aligned', () => {
    const l = argumentLayout(
      [
        { name: 'A', bytes: 100 },
        { name: 'B', bytes: 10_000 },
        { name: 'E', bytes: 0 },
      ],
      64,
    );
    expect(l.arrays.map((p) => [p.name, p.start, p.before, p.after])).toEqual([
      ['A', 4096, [0, 4096], [4196, 8320]],
      ['B', 18368, [8320, 18368], [28368, 38400]],
      ['E', 42496, [38400, 42496], [42496, 46592]],
    ]);
    expect(l.size).toBe(46592);
    expect(
      l.arrays.every((p) => p.start % 64 === 0 && p.after[1] - p.after[0] >= Math.min(ARG_GUARD_MAX, Math.max(ARG_GUARD_MIN, p.bytes))),
    ).toBe(true);
    expect(argumentLayout([{ name: 'huge', bytes: 2 ** 30 }], 256).arrays[0]!.before).toEqual([0, ARG_GUARD_MAX]);
    // Guards shrink to the minimum when the usual ones would not fit one buffer.
    const tight = argumentLayout(
      [
        { name: 'A', bytes: 100_000 },
        { name: 'B', bytes: 100_000 },
      ],
      64,
      250_000,
    );
    expect(tight.arrays.map((p) => p.before[1] - p.before[0])).toEqual([ARG_GUARD_MIN, ARG_GUARD_MIN]);
    expect(tight.size).toBeLessThanOrEqual(250_000);
  });

  it('finds the first and last changed byte of a guard, across chunks', () => {
    const buf = new Uint8Array(300_000).fill(0x5a);
    expect([firstChanged(buf, 0, buf.length, 0x5a), lastChanged(buf, 0, buf.length, 0x5a)]).toEqual([-1, -1]);
    buf[70_000] = 0;
    buf[200_001] = 1;
    expect([firstChanged(buf, 10, buf.length, 0x5a), lastChanged(buf, 10, buf.length, 0x5a)]).toEqual([69_990, 199_991]);
    expect(lastChanged(buf, 0, 70_000, 0x5a)).toBe(-1);
  });

  it('reports how far a write reached past the end or before the start, and when it filled the whole guard', () => {
    const layout = argumentLayout(
      [
        { name: 'A', bytes: 64 },
        { name: 'B', bytes: 64 },
      ],
      64,
    );
    const buffer = new Uint8Array(layout.size).fill(0x5a);
    const [a, b] = layout.arrays as [(typeof layout.arrays)[0], (typeof layout.arrays)[0]];
    expect(checkArgumentGuards({ buffer, layout }, 0x5a)).toEqual([]);
    buffer[a.after[0] + 7] = 0; // one double past A's end: 8 bytes
    buffer[b.before[1] - 16] = 1; // two doubles before B's start: 16 bytes
    expect(checkArgumentGuards({ buffer, layout }, 0x5a)).toEqual([
      { array: 'A', side: 'after', bytes: 8, whole: false, arrayBytes: 64 },
      { array: 'B', side: 'before', bytes: 16, whole: false, arrayBytes: 64 },
    ]);
    buffer[b.after[1] - 1] = 2;
    expect(checkArgumentGuards({ buffer, layout }, 0x5a).at(-1)).toEqual({
      array: 'B',
      side: 'after',
      bytes: b.after[1] - b.after[0],
      whole: true,
      arrayBytes: 64,
    });
  });
});
