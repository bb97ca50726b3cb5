/**
 * Live sets per program point (docs/liveness.md §3.7) against the reference run (§8, analysis/exact):
 *
 * - the cases the rule exists for: a loop-carried array dead in part of the loop, a private per-iteration
 *   array whose first write is not the first block of the iteration, an inner loop that may not run, an
 *   interstate edge that reads between two states — each lets another temporary take the bytes;
 * - the reference run itself (values live from their write to their last read, element by element);
 * - two properties over random small loop programs (random-programs.ts): every point where the run needs a
 *   value lies in the static live set, and transients that share bytes in the packed layout never need them
 *   at the same point of the run.
 */
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../electron/engine/analysis/index.js';
import { exactBound } from '../../../electron/engine/analysis/exact/bound.js';
import type { ControlFlowBlock, SdfgFile } from '../../../electron/engine/model/sdfg.js';
import { cond, desc, edge, file, loop, region, sdfg, state } from '../../../bench/lib/model-builder.js';
import { randomProgram, reads, writes } from './random-programs.js';

const analyse = (f: SdfgFile, N = 10n): Analysis => analyze(f, { symbols: new Map([['N', N]]), defaultSymbol: null, target: null });

/** A root SDFG over input A, output B and the transients `names`. */
const program = (names: string[], blocks: ControlFlowBlock[], o: { symbols?: string[] } = {}): SdfgFile =>
  file(
    sdfg(
      'm',
      [desc('A', ['N'], { transient: false }), desc('B', ['N'], { transient: false }), ...names.map((n) => desc(n, ['N']))],
      blocks,
      { symbols: ['N', ...(o.symbols ?? [])] },
    ),
  );

const setsOf = (a: Analysis): Record<string, Array<[number, number]> | null> =>
  Object.fromEntries(a.transients.map((t) => [t.id, t.liveSegments && t.liveSegments.map((s): [number, number] => [s.first, s.last])]));

const forK = (blocks: ControlFlowBlock[], bound = '3', v = 'k'): ControlFlowBlock =>
  loop(`L${v}`, v, `${v} = 0`, `(${v} < ${bound})`, `${v} = (${v} + 1)`, blocks);

function expectShared(a: Analysis, x: string, y: string): void {
  const packed = a.layouts.packed['CPU_Heap']!;
  expect(packed.offsets.get(x), `${x} and ${y} share bytes`).toBe(packed.offsets.get(y));
  expect(packed.bytes).toBe(80n * 1n + 48n); // one slot: 10 doubles, aligned to 64
}

describe('live sets per program point', () => {
  it('a loop-carried array is dead between its last read in an iteration and its rewrite: a temporary takes its bytes there', () => {
    // steps: init 0 | L: useC 1, mkT 2, useT 3, mkC 4
    const f = program(
      ['C', 'T'],
      [
        writes('init', 'C', 'A'),
        forK([reads('useC', 'C', 'B'), writes('mkT', 'T', 'B'), reads('useT', 'T', 'B'), writes('mkC', 'C', 'B')]),
      ],
    );
    const a = analyse(f);
    expect(setsOf(a)).toEqual({
      '0:C': [
        [0, 1],
        [4, 4],
      ],
      '0:T': [[2, 3]],
    });
    expectShared(a, '0:C', '0:T');
  });

  it('an array written before it is read in every iteration is private to it, also when the write is in both branches', () => {
    // steps: L: pre 0, c: w1 1 | w2 2, r 3, mkU 4, rU 5
    const pick = cond('c', [
      ['(k < 1)', [writes('w1', 'T', 'A')]],
      [null, [writes('w2', 'T', 'B')]],
    ]);
    const f = program(
      ['T', 'U'],
      [forK([writes('pre', 'B', 'A'), pick, reads('r', 'T', 'B'), writes('mkU', 'U', 'A'), reads('rU', 'U', 'B')])],
    );
    const a = analyse(f);
    expect(setsOf(a)).toEqual({ '0:T': [[1, 3]], '0:U': [[4, 5]] });
    expectShared(a, '0:T', '0:U');
    // With the write in one branch only, the other iterations read the value an earlier one left: carried.
    const once = cond('c', [['(k < 1)', [writes('w1', 'T', 'A')]]]);
    expect(
      setsOf(
        analyse(
          program(
            ['T', 'U'],
            [forK([writes('pre', 'B', 'A'), once, reads('r', 'T', 'B'), writes('mkU', 'U', 'A'), reads('rU', 'U', 'B')])],
          ),
        ),
      )['0:T'],
    ).toEqual([[0, 4]]);
  });

  it('a temporary private to an inner loop that may not run is not carried by the outer loop', () => {
    // steps: Lk: mkA 0, rA 1, Lj: mkB 2, rB 3 | mkC 4, rC 5
    const inner = forK([writes('mkB', 'T2', 'B'), reads('rB', 'T2', 'B')], 'k', 'j');
    const f = program(
      ['T1', 'T2', 'T3'],
      [forK([writes('mkA', 'T1', 'B'), reads('rA', 'T1', 'B'), inner, writes('mkC', 'T3', 'B'), reads('rC', 'T3', 'B')])],
    );
    const a = analyse(f);
    expect(setsOf(a)).toEqual({ '0:T1': [[0, 1]], '0:T2': [[2, 3]], '0:T3': [[4, 5]] });
    expectShared(a, '0:T1', '0:T2');
    expectShared(a, '0:T2', '0:T3');
  });

  it('an interstate edge reads between its two states: the value is dead in the state it leads to', () => {
    // steps: mkS 0, (x = S[0]) mkT 1, rT 2
    const blocks = [writes('mkS', 'S', 'A'), writes('mkT', 'T', 'B'), reads('rT', 'T', 'B')];
    const root = sdfg(
      'm',
      [desc('A', ['N'], { transient: false }), desc('B', ['N'], { transient: false }), desc('S', ['N']), desc('T', ['N'])],
      blocks,
      {
        symbols: ['N', 'x'],
        edges: [edge(0, 1, '1', [['x', 'S[0]']]), edge(1, 2)],
      },
    );
    const a = analyse(file(root));
    expect(setsOf(a)).toEqual({ '0:S': [[0, 0]], '0:T': [[1, 2]] });
    expectShared(a, '0:S', '0:T');
  });

  it('a value read after a state-machine loop is needed through its guard, not through the body that rewrites it first', () => {
    // steps: init 0, guard 1, mkT 2, rT 3, mkU 4, rU 5, after 6: T is read again after the loop.
    const body = [writes('mkT', 'T', 'B'), reads('rT', 'T', 'B'), writes('mkU', 'U', 'B'), reads('rU', 'U', 'B')];
    const blocks = [state('init'), state('guard'), ...body, reads('after', 'T', 'B')];
    const edges = [
      edge(0, 1, '1', [['k', '0']]),
      edge(1, 2, '(k < 3)'),
      edge(2, 3),
      edge(3, 4),
      edge(4, 5),
      edge(5, 1, '1', [['k', '(k + 1)']]),
      edge(1, 6, '(not (k < 3))'),
    ];
    const f = file(
      sdfg(
        'm',
        [desc('A', ['N'], { transient: false }), desc('B', ['N'], { transient: false }), desc('T', ['N']), desc('U', ['N'])],
        [region('R', blocks, edges)],
        { symbols: ['N'] },
      ),
    );
    const a = analyse(f);
    expect(setsOf(a)).toEqual({ '0:T': [[1, 6]], '0:U': [[4, 5]] });
    // T must keep its value from rT through mkU, rU and the guard to `after`: U cannot share with it.
    const packed = a.layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:T')).not.toBe(packed.offsets.get('0:U'));
  });
});

describe('the reference run (analysis/exact)', () => {
  it('keeps a value from its write to its last read; a partial rewrite keeps the rest of the old value', () => {
    // steps: w 0, r 1, gap 2, w2 3, r2 4
    const run = (hi: string) => {
      const f = program(
        ['T'],
        [writes('w', 'T', 'A'), reads('r', 'T', 'B'), state('gap'), writes('w2', 'T', 'A', '0', hi), reads('r2', 'T', 'B')],
      );
      return exactBound(f, analyse(f)).liveTimes.get('0:T');
    };
    expect(run('N - 1')).toEqual([
      [0, 1],
      [3, 4],
    ]);
    expect(run('N - 2')).toEqual([[0, 4]]);
  });

  it('counts the iterations of a loop and measures the exact bound over them', () => {
    const f = program(
      ['C', 'T'],
      [
        writes('init', 'C', 'A'),
        forK([reads('useC', 'C', 'B'), writes('mkT', 'T', 'B'), reads('useT', 'T', 'B'), writes('mkC', 'C', 'B')]),
      ],
    );
    const exact = exactBound(f, analyse(f));
    expect(exact.points).toBe(1 + 3 * 4);
    expect(exact.storages).toEqual([{ storage: 'CPU_Heap', bytes: 128n, step: 0, live: ['0:C'] }]);
  });

  it('refuses data-dependent control flow with a clear error', () => {
    const f = program(['T'], [writes('w', 'T', 'A'), forK([reads('r', 'T', 'B')], 'T[0]')]);
    expect(() => exactBound(f, analyse(f))).toThrow(/reference run cannot follow this program: cannot evaluate: reads data container 'T'/);
  });
});

describe('properties over random loop programs', () => {
  const SEEDS = 300;
  const runs = Array.from({ length: SEEDS }, (_, i) => {
    const f = randomProgram(i + 1);
    const a = analyse(f, 6n);
    return { seed: i + 1, a, exact: exactBound(f, a) };
  });

  it('every point where the reference run needs a value lies in the live set', () => {
    const misses: string[] = [];
    for (const { seed, a, exact } of runs) {
      for (const t of a.transients) {
        const outside = [...(exact.liveSteps.get(t.id) ?? [])].filter(
          (s) => !(t.liveSegments ?? []).some((seg) => seg.first <= s && s <= seg.last),
        );
        if (outside.length) misses.push(`seed ${seed} ${t.id}: steps ${outside.join(',')} outside ${JSON.stringify(t.liveSegments)}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('transients that share bytes in the packed layout never need them at the same point of the run', () => {
    const clashes: string[] = [];
    let sharing = 0;
    for (const { seed, a, exact } of runs) {
      const bytes = new Map(a.transients.map((t) => [t.id, t.bytes!]));
      for (const layout of Object.values(a.layouts.packed)) {
        const slots = [...(layout?.offsets ?? [])];
        for (let i = 0; i < slots.length; i++) {
          for (let j = i + 1; j < slots.length; j++) {
            const [x, ox] = slots[i]!;
            const [y, oy] = slots[j]!;
            if (ox + bytes.get(x)! <= oy || oy + bytes.get(y)! <= ox) continue;
            sharing++;
            const tx = exact.liveTimes.get(x) ?? [];
            const ty = exact.liveTimes.get(y) ?? [];
            if (tx.some(([a0, a1]) => ty.some(([b0, b1]) => a0 <= b1 && b0 <= a1))) clashes.push(`seed ${seed}: ${x} and ${y}`);
          }
        }
      }
    }
    expect(clashes).toEqual([]);
    // The programs do share bytes, or this property would hold trivially.
    expect(sharing).toBeGreaterThan(SEEDS);
  });
});
