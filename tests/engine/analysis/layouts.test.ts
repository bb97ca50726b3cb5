import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { alignUp, packLayout, peakOverlap, type PackItem } from '../../../electron/engine/analysis/layout-packed.js';
import { access, desc, file, nested, sdfg, state } from '../../../bench/lib/model-builder.js';

describe('DaCe External layout (dace-memory-abi.md §2.4)', () => {
  // w_i8:int8[3], w_f64:double[N], w_f32:float[M], declared in this order, all External.
  const model = () =>
    sdfg(
      'ext',
      [
        desc('w_i8', ['3'], { dtype: 'int8', lifetime: 'External' }),
        desc('w_f64', ['N'], { dtype: 'float64', lifetime: 'External' }),
        desc('w_f32', ['M'], { dtype: 'float32', lifetime: 'External' }),
      ],
      [state('s', [access('w_i8'), access('w_f64'), access('w_f32')])],
      { symbols: ['M', 'N'] },
    );

  it('packs back to back with no alignment: the double array sits at byte 3', () => {
    const a = analyze(file(model()), {
      symbols: new Map([
        ['N', 10n],
        ['M', 5n],
      ]),
      defaultSymbol: null,
      target: null,
    });
    const l = a.layouts.dace['CPU_Heap']!;
    expect(l.order).toEqual(['0:w_i8', '0:w_f64', '0:w_f32']);
    expect([...l.offsets.values()]).toEqual([0n, 3n, 83n]);
    expect(l.bytes).toBe(3n + 80n + 20n);
  });

  it('keeps symbolic offsets as expressions when symbols are unknown', () => {
    const a = analyze(file(model()), { symbols: new Map(), defaultSymbol: null, target: null });
    const l = a.layouts.dace['CPU_Heap']!;
    expect(l.bytes).toBeNull();
    expect(l.offsets.get('0:w_i8')).toBe(0n);
    expect(l.offsets.get('0:w_f64')).toBe(3n);
    expect(String(l.offsets.get('0:w_f32')).replace(/\s/g, '')).toMatch(/^(3\+8\*N|8\*N\+3)$/);
    expect(a.layouts.packed['CPU_Heap']).toBeNull();
    expect(a.unresolvedSymbols).toEqual(['M', 'N']);
  });

  it('orders nested SDFG descriptors after the root ones (arrays_recursive)', () => {
    const inner = sdfg('inner', [desc('x', ['2'], { lifetime: 'External', dtype: 'int32' })], [state('i', [access('x')])]);
    const root = sdfg('outer', [desc('a', ['4'], { lifetime: 'External', dtype: 'int8' })], [state('s', [nested(inner), access('a')])]);
    const l = analyze(file(root), { symbols: new Map(), defaultSymbol: null, target: null }).layouts.dace['CPU_Heap']!;
    expect(l.order).toEqual(['0:a', '1:x']);
    expect(l.offsets.get('1:x')).toBe(4n);
    expect(l.bytes).toBe(12n);
  });
});

describe('packed layout', () => {
  it('reuses the bytes of a buffer whose live range has ended', () => {
    const items: PackItem[] = [
      { id: 'a', bytes: 1000n, first: 0, last: 1 },
      { id: 'b', bytes: 1000n, first: 2, last: 3 },
      { id: 'c', bytes: 10n, first: 1, last: 2 },
    ];
    const l = packLayout(items, 64);
    expect(l.offsets.get('a')).toBe(0n);
    expect(l.offsets.get('b')).toBe(0n);
    expect(l.offsets.get('c')).toBe(1024n);
    expect(l.bytes).toBe(1088n);
    expect(l.alignedSum).toBe(1024n + 1024n + 64n);
    expect(l.lowerBound).toBe(1010n);
  });

  it('aligns GPU offsets to 256 bytes in an analysed program and never overlaps live buffers', () => {
    const root = sdfg(
      'g',
      [
        desc('a', ['3'], { dtype: 'int8', storage: 'GPU_Global' }),
        desc('b', ['100'], { storage: 'GPU_Global' }),
        desc('c', ['7'], { dtype: 'int8', storage: 'GPU_Global' }),
      ],
      [state('s0', [access('a'), access('b')]), state('s1', [access('b'), access('c')]), state('s2', [access('c')])],
    );
    const a = analyze(file(root), { symbols: new Map(), defaultSymbol: null, target: null });
    const p = a.layouts.packed['GPU_Global']!;
    expect(p.alignment).toBe(256);
    for (const off of p.offsets.values()) expect(off % 256n).toBe(0n);
    // a [0,0] and c [1,2] never overlap: they share one slot; b overlaps both.
    expect(p.bytes).toBe(1024n + 256n);
    expect(a.modes.EXTERNAL.workspace['GPU_Global']).toBe(p.bytes);
    expect(a.layouts.dace['GPU_Global']!.bytes).toBe(3n + 800n + 7n);
  });

  const itemsArb = fc.array(
    fc.record({
      bytes: fc.bigInt({ min: 0n, max: 1n << 40n }),
      first: fc.integer({ min: 0, max: 40 }),
      len: fc.integer({ min: 0, max: 15 }),
    }),
    { maxLength: 60 },
  );

  it('property: no two overlapping live ranges share a byte, offsets aligned, lowerBound ≤ total ≤ alignedSum', () => {
    fc.assert(
      fc.property(itemsArb, fc.constantFrom(64, 256), (raw, alignment) => {
        const items: PackItem[] = raw.map((r, i) => ({ id: `t${i}`, bytes: r.bytes, first: r.first, last: r.first + r.len }));
        const l = packLayout(items, alignment);
        const align = BigInt(alignment);
        for (const it of items) expect(l.offsets.get(it.id)! % align).toBe(0n);
        for (let i = 0; i < items.length; i++) {
          for (let j = i + 1; j < items.length; j++) {
            const x = items[i]!;
            const y = items[j]!;
            if (x.last < y.first || y.last < x.first || x.bytes === 0n || y.bytes === 0n) continue;
            const xo = l.offsets.get(x.id)!;
            const yo = l.offsets.get(y.id)!;
            expect(xo + x.bytes <= yo || yo + y.bytes <= xo).toBe(true);
          }
        }
        for (const it of items) expect(l.offsets.get(it.id)! + alignUp(it.bytes, align) <= l.bytes).toBe(true);
        expect(l.lowerBound).toBe(peakOverlap(items));
        expect(l.lowerBound <= l.bytes).toBe(true);
        expect(l.bytes <= l.alignedSum).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  // Its time is measured by the bench (packing section, synthetic); here only the result is checked.
  it('places tens of thousands of buffers within the bounds', () => {
    const items: PackItem[] = [];
    for (let i = 0; i < 30000; i++)
      items.push({ id: `t${i}`, bytes: BigInt(64 + ((i * 7919) % 5000)), first: i % 500, last: (i % 500) + (i % 7) });
    const l = packLayout(items, 64);
    expect(l.bytes <= l.alignedSum).toBe(true);
    expect(l.lowerBound <= l.bytes).toBe(true);
  });
});
