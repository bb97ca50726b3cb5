/** The outline's grouping and biggest-first order (renderer/src/app/outline-model.ts) against a plain sort. */
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../../electron/engine/paths.js';
import type { AnalysisView } from '../../electron/engine/view/types.js';
import { outlineGroups, topK } from '../../renderer/src/app/outline-model.js';
import { viewOf } from '../../bench/lib/memviews/harness.js';

let cloudsc: AnalysisView;
beforeAll(async () => {
  cloudsc = await viewOf(
    join(corpusDir(), 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz'),
    {},
    64n,
  );
});

describe('outline groups', () => {
  it('groups every row under its SDFG with the counts and known bytes summed', () => {
    const g = outlineGroups(cloudsc);
    const t = cloudsc.table;
    expect([...g.rows.values()].reduce((n, l) => n + l.length, 0)).toBe(t.count);
    for (const [k, list] of g.rows) {
      expect(list.every((i) => t.sdfg[i] === k)).toBe(true);
      const known = list
        .map((i) => t.bytes[i])
        .filter((b) => b !== null && b !== undefined)
        .map(Number);
      expect(g.totals.get(k)).toEqual({
        count: list.length,
        bytes: known.reduce((a, b) => a + b, 0),
        symbolic: known.length < list.length,
      });
    }
  });

  it('orders the shown rows biggest first, symbolic last, then by name, as a full sort does', () => {
    const g = outlineGroups(cloudsc);
    for (const [k, list] of g.rows) {
      const full = list.slice().sort(g.compare);
      expect(g.top(k, 60)).toEqual(full.slice(0, 60));
      expect(g.top(k, list.length)).toEqual(full);
      expect(g.top(k, 60)).toBe(g.top(k, 60));
    }
  });

  it('topK equals sort-then-slice on any list (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 400 }), fc.integer({ min: 1, max: 30 }), (keys, k) => {
        const list = keys.map((_, i) => i);
        const cmp = (a: number, b: number) => keys[b]! - keys[a]! || a - b;
        expect(topK(list, k, cmp)).toEqual(list.slice().sort(cmp).slice(0, k));
      }),
    );
  });
});
