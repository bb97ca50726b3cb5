/** Every corpus file: parse, analyse with --default-symbol 64, and check the invariants of the result. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statesOf } from '../../../electron/engine/model/queries.js';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { toAnalysisJson } from '../../../electron/engine/analysis/json.js';
import type { Analysis } from '../../../electron/engine/analysis/types.js';
import { corpusDir } from '../../../electron/engine/paths.js';
import { readSdfgFile } from '../../../electron/engine/sdfg/index.js';

const files = readdirSync(corpusDir())
  .filter((f) => /\.sdfgz?$/.test(f))
  .sort();

function checkInvariants(a: Analysis): void {
  const n = a.steps.length;
  a.steps.forEach((s, i) => expect(s.index).toBe(i));
  const ids = new Set(a.transients.map((t) => t.id));
  expect(ids.size).toBe(a.transients.length);
  const byId = new Map(a.transients.map((t) => [t.id, t]));
  for (const t of a.transients) {
    if (t.live) {
      expect(t.live.first).toBeGreaterThanOrEqual(0);
      expect(t.live.first).toBeLessThanOrEqual(t.live.last);
      expect(t.live.last).toBeLessThan(n);
      // Sorted, disjoint, not adjacent, and spanning exactly `live`.
      const segs = t.liveSegments!;
      expect([segs[0]!.first, segs[segs.length - 1]!.last]).toEqual([t.live.first, t.live.last]);
      for (let k = 0; k < segs.length; k++) {
        expect(segs[k]!.first).toBeLessThanOrEqual(segs[k]!.last);
        if (k > 0) expect(segs[k]!.first).toBeGreaterThan(segs[k - 1]!.last + 1);
      }
    } else expect(t.liveSegments).toBeNull();
    if (t.eligible.EXTERNAL) expect(t.eligible.PERSISTENT).toBe(true);
    if (!t.eligible.PERSISTENT || !t.eligible.EXTERNAL) expect(t.reason).toBeTruthy();
    if (t.eligible.PERSISTENT) expect(t.live).not.toBeNull();
  }
  for (const [storage, dace] of Object.entries(a.layouts.dace)) {
    const sizes = dace.order.map((id) => byId.get(id)!.bytes);
    if (sizes.every((b) => b !== null)) {
      expect(dace.bytes).toBe(sizes.reduce((x, y) => x + y, 0n));
      let at = 0n;
      for (const id of dace.order) {
        expect(dace.offsets.get(id)).toBe(at);
        at += byId.get(id)!.bytes!;
      }
    }
    const packed = a.layouts.packed[storage];
    if (!packed) continue;
    const align = BigInt(packed.alignment);
    const items = [...packed.offsets].map(([id, offset]) => ({ offset, t: byId.get(id)! }));
    // Live sets (docs/liveness.md §3.7): several intervals inside `live`, or the whole program when never accessed.
    const sets = (t: (typeof items)[number]['t']) => t.liveSegments ?? [{ first: 0, last: Math.max(0, n - 1) }];
    const meet = (x: Array<{ first: number; last: number }>, y: Array<{ first: number; last: number }>) =>
      x.some((a) => y.some((b) => a.first <= b.last && b.first <= a.last));
    for (const { offset } of items) expect(offset % align).toBe(0n);
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const x = items[i]!;
        const y = items[j]!;
        if (!meet(sets(x.t), sets(y.t)) || x.t.bytes === 0n || y.t.bytes === 0n) continue;
        expect(x.offset + x.t.bytes! <= y.offset || y.offset + y.t.bytes! <= x.offset).toBe(true);
      }
    }
    expect(packed.lowerBound <= packed.bytes).toBe(true);
    expect(packed.bytes <= packed.alignedSum).toBe(true);
    const peak = a.peakLiveBytes[storage];
    if (peak !== null && peak !== undefined) expect(packed.lowerBound <= peak).toBe(true);
    expect(a.modes.EXTERNAL.workspace[storage]).toBe(packed.bytes);
  }
  const json = JSON.parse(JSON.stringify(toAnalysisJson(a))) as { schema: string; transients: unknown[] };
  expect(json.schema).toBe('transient-lab/analysis@1');
  expect(json.transients.length).toBe(a.transients.length);
}

describe('corpus', () => {
  it('has the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(80);
  });
  for (const name of files) {
    it(`analyses ${name}`, async () => {
      const file = await readSdfgFile(join(corpusDir(), name));
      const a = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null });
      // The file's own transients, plus those a library node's expansion creates (CSRMV's _b_value), each
      // naming a library node of the file.
      expect(a.transients.filter((t) => t.expandedFrom === undefined).length).toBe(
        file.sdfgs.reduce((sum, s) => sum + [...s.arrays.values()].reduce((k, d) => k + countTransients(d), 0), 0),
      );
      const libraryLabels = new Set(
        file.sdfgs.flatMap((s) => [...statesOf(s)].flatMap((st) => st.nodes.filter((n) => n.kind === 'library').map((n) => n.label))),
      );
      for (const t of a.transients) if (t.expandedFrom !== undefined) expect(libraryLabels, t.id).toContain(t.expandedFrom);
      checkInvariants(a);
      // Every refinement of docs/liveness.md only shrinks ranges: each refined range lies inside the baseline one,
      // and inside the range of the interval rules (the live sets per point of §3.7 refine those).
      const base = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null, liveness: 'baseline' });
      const interval = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null, liveness: 'interval' });
      const whole = { first: 0, last: Math.max(0, a.steps.length - 1) };
      for (const other of [base, interval]) {
        const wider = a.transients.filter((t, i) => {
          const r = t.live ?? whole;
          const b = other.transients[i]!.live ?? whole;
          return r.first < b.first || r.last > b.last;
        });
        expect(wider.map((t) => t.id)).toEqual([]);
      }
      for (const [storage, packed] of Object.entries(a.layouts.packed)) {
        const before = base.layouts.packed[storage];
        if (packed && before) expect(packed.lowerBound <= before.lowerBound).toBe(true);
      }
    });
  }
});

function countTransients(d: { transient: boolean; members: Array<{ transient: boolean; members: unknown }> | null }): number {
  let n = d.transient ? 1 : 0;
  for (const m of d.members ?? []) n += countTransients(m as typeof d);
  return n;
}
