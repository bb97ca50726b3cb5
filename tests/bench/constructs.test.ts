/**
 * The `constructs` bench section's core (bench/lib/construct-row.ts) on tiny sizes: a row times our modes and
 * the hand-written loop nest through the same runner and compares their outputs first; a hand-written loop nest
 * that computes something else is refused, never timed.
 */
import { describe, expect, it } from 'vitest';
import { measureConstruct } from '../../bench/lib/construct-row.js';
import { CONSTRUCTS } from '../../bench/lib/constructs.js';

const SLOW = 300_000;
const reduce = CONSTRUCTS.find((c) => c.name === 'reduce')!;
const tiny = { N: 40n, M: 30n };

describe('constructs rows', () => {
  it(
    'Reduce: our SCOPED and EXTERNAL against the hand-written loop nest, outputs equal bitwise',
    async () => {
      const row = await measureConstruct(reduce, { calls: 3, symbols: tiny });
      expect(row).toMatchObject({ construct: 'reduce', symbols: { N: 40, M: 30 }, calls: 3 });
      expect(row.ours.map((t) => t.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
      for (const t of [...row.ours, row.handWritten]) {
        expect(t.medianNs).toBeGreaterThan(0);
        expect(t.p10Ns).toBeGreaterThan(0);
      }
      expect(row.outputs).toEqual({ A: 'bitwise', S: 'bitwise' });
      expect(row.ratios.map((r) => r.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
      expect(row.worstRatio).toBe(Math.max(...row.ratios.map((r) => Math.min(r.median, r.p10))));
      expect(row.slow).toBe(row.worstRatio > 2);
      // Its loop nest has the SDFG's structure already: no second baseline, judged against the one.
      expect(row.sameStructure).toBeUndefined();
      expect(row.judgedAgainst).toBe('fused');
      expect(row.dace).toMatch(/^not measured: DaCe is not installed/);
    },
    SLOW,
  );

  it(
    'a hand-written loop nest whose result differs from our program is refused, naming the array and element',
    async () => {
      const wrong = { ...reduce, handWritten: reduce.handWritten.replace('S[j] = 0.0', 'S[j] = 1.0') };
      await expect(measureConstruct(wrong, { calls: 1, symbols: tiny })).rejects.toThrow(
        /reduce: S differs between our program and the hand-written loop nest/,
      );
    },
    SLOW,
  );

  it(
    "vectors: a second loop nest with the SDFG's two maps and transient is timed, checked, and is what SLOW is judged against",
    async () => {
      const vectors = CONSTRUCTS.find((c) => c.name === 'vectors')!;
      const row = await measureConstruct(vectors, { calls: 2, symbols: { N: 64n } });
      expect(row.judgedAgainst).toBe('same structure');
      const same = row.sameStructure!;
      expect(same.timing.medianNs).toBeGreaterThan(0);
      expect(same.ratios.map((r) => r.label)).toEqual(['SCOPED', 'EXTERNAL (packed)']);
      expect(row.worstRatio).toBe(Math.max(...same.ratios.map((r) => Math.min(r.median, r.p10))));
      const wrong = { ...vectors, sameStructure: vectors.sameStructure!.replace('a * 2.0 + a', 'a * 2.0') };
      await expect(measureConstruct(wrong, { calls: 1, symbols: { N: 64n } })).rejects.toThrow(
        /vectors: B\[\d+\] is \S+ in our program and \S+ in the same-structure hand-written loop nest/,
      );
    },
    SLOW,
  );

  it(
    'a fixture construct (streams and a consume scope) is compared array by array',
    async () => {
      const streams = CONSTRUCTS.find((c) => c.name === 'streams-consume')!;
      const row = await measureConstruct(streams, { calls: 2, symbols: { N: 64n } });
      expect(Object.keys(row.outputs).sort()).toEqual(['A', 'B', 'total']);
      expect(row.handWritten.medianNs).toBeGreaterThan(0);
    },
    SLOW,
  );
});
