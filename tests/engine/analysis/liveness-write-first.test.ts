/**
 * The write-before-read refinement of loop widening (docs/liveness.md §3.1): a temporary that every iteration
 * fully overwrites before reading stays in the states that use it. Containers are 1-D of length N = 10 unless said.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { linearize } from '../../../electron/engine/analysis/linearize.js';
import { ExecutionCounter } from '../../../electron/engine/analysis/executions.js';
import { AccessIndex } from '../../../electron/engine/analysis/accesses.js';
import { SymbolContext } from '../../../electron/engine/analysis/symbols.js';
import { WriteFirstLoops } from '../../../electron/engine/analysis/write-first.js';
import { covers } from '../../../electron/engine/analysis/overwrite.js';
import type { ControlFlowBlock, LoopBlock, StateBlock } from '../../../electron/engine/model/sdfg.js';
import {
  access,
  cond,
  desc,
  edge,
  file,
  jump,
  loop,
  mapEntry,
  mapExit,
  memlet,
  nested,
  sdfg,
  state,
  tasklet,
  type MemletOptions,
} from '../../../bench/lib/model-builder.js';
import { opts, byName, accumulates } from './liveness-builders.js';

const N10 = opts({ N: 10n });

/** A state that writes T[lo:hi] element by element through a map (no read of T). */
function writes(label: string, name: string, lo = '0', hi = 'N - 1', o: MemletOptions & { index?: string } = {}): StateBlock {
  const index = o.index ?? 'i';
  return state(
    label,
    [mapEntry(`${label}_map`, ['i'], [[lo, hi]]), tasklet(`${label}_t`, 'o = 1', 0), mapExit(0, 0), access(name)],
    [
      memlet(1, 2, name, [index], { ...o, dstConnector: `IN_${name}`, srcConnector: 'o' }),
      memlet(2, 3, name, [`${lo}:${hi}`], { ...o, srcConnector: `OUT_${name}` }),
    ],
  );
}

/** A state that reads all of `name`. */
function reads(label: string, name: string): StateBlock {
  return state(label, [access(name), tasklet(`${label}_t`, 'pass')], [memlet(0, 1, name, ['0:N - 1'], { dstConnector: 'x' })]);
}

const forK = (label: string, blocks: ControlFlowBlock[], condition = '(k < 8)'): LoopBlock =>
  loop(label, 'k', 'k = 0', condition, 'k = (k + 1)', blocks);

function liveOf(
  blocks: ControlFlowBlock[],
  names: string[],
  o: { shape?: string[] } = {},
): Record<string, { first: number; last: number } | null> {
  const root = sdfg(
    'm',
    names.map((n) => desc(n, o.shape ?? ['N'])),
    blocks,
    { symbols: ['N'] },
  );
  const a = analyze(file(root), N10);
  return Object.fromEntries(names.map((n) => [n, byName(a, `0:${n}`).live]));
}

describe('write-before-read refinement of loop widening', () => {
  it('confines a temporary that every iteration fully overwrites first to the states that use it', () => {
    // steps: before 0 | L: wT 1, rT 2, other 3 | after 4
    const live = liveOf([state('before'), forK('L', [writes('wT', 'T'), reads('rT', 'T'), state('other')]), state('after')], ['T']);
    expect(live.T).toEqual({ first: 1, last: 2 });
  });

  it('lets two such temporaries in sequence share bytes: packed layout smaller than the aligned sum', () => {
    const root = sdfg(
      'm',
      [desc('T', ['N']), desc('U', ['N'])],
      [forK('L', [writes('wT', 'T'), reads('rT', 'T'), writes('wU', 'U'), reads('rU', 'U')])],
      { symbols: ['N'] },
    );
    const a = analyze(file(root), N10);
    expect(byName(a, '0:T').live).toEqual({ first: 0, last: 1 });
    expect(byName(a, '0:U').live).toEqual({ first: 2, last: 3 });
    const packed = a.layouts.packed['CPU_Heap']!;
    expect(packed.alignedSum).toBe(128n + 128n);
    expect(packed.bytes).toBe(128n);
    expect(packed.offsets.get('0:T')).toBe(packed.offsets.get('0:U'));
    expect(a.peakLiveBytes['CPU_Heap']).toBe(80n);
  });

  it('still reaches a read after the loop (the last iteration’s value) and a zero-trip path from before it', () => {
    // steps: init 0 | L: wT 1, rT 2, other 3 | after 4
    const live = liveOf([state('init'), forK('L', [writes('wT', 'T'), reads('rT', 'T'), state('other')]), reads('after', 'T')], ['T']);
    expect(live.T).toEqual({ first: 1, last: 4 });
  });

  it('accepts the union of several writes that together cover the shape, and whole copies', () => {
    const halves = state(
      'halves',
      [
        mapEntry('lo', ['i'], [['0', '4']]),
        tasklet('t0', 'o = 1', 0),
        mapExit(0, 0),
        mapEntry('hi', ['i'], [['0', 'N - 6']]),
        tasklet('t1', 'o = 2', 3),
        mapExit(3, 3),
        access('T'),
      ],
      [
        memlet(1, 2, 'T', ['i'], { dstConnector: 'IN_T' }),
        memlet(2, 6, 'T', ['0:4'], { srcConnector: 'OUT_T' }),
        memlet(4, 5, 'T', ['i + 5'], { dstConnector: 'IN_T' }),
        memlet(5, 6, 'T', ['5:N - 1'], { srcConnector: 'OUT_T' }),
      ],
    );
    const copy = state('copy', [access('A'), access('U')], [memlet(0, 1, 'A', ['0:N - 1'], { other: ['0:N - 1'] })]);
    const root = sdfg(
      'm',
      [desc('A', ['N'], { transient: false }), desc('T', ['N']), desc('U', ['N'])],
      [forK('L', [halves, reads('rT', 'T'), copy, reads('rU', 'U')])],
      { symbols: ['N'] },
    );
    const a = analyze(file(root), N10);
    expect(byName(a, '0:T').live).toEqual({ first: 0, last: 1 });
    expect(byName(a, '0:U').live).toEqual({ first: 2, last: 3 });
  });

  it('applies per loop level: both levels overwrite first, so neither widens', () => {
    // steps: L0: a 0 | L1: c 1, d 2, x 3 | e 4
    const inner = forK('L1', [writes('c', 'T'), reads('d', 'T'), state('x')]);
    const live = liveOf([loop('L0', 'j', 'j = 0', '(j < 3)', 'j = (j + 1)', [writes('a', 'T'), inner, state('e')])], ['T']);
    expect(live.T).toEqual({ first: 0, last: 2 });
  });

  it('applies per loop level: widened over the inner loop that carries it, not over the outer one', () => {
    // steps: L0: a 0 | L1: c 1, x 2 | e 3
    const inner = forK('L1', [accumulates('c', 'T'), state('x')]);
    const live = liveOf(
      [loop('L0', 'j', 'j = 0', '(j < 3)', 'j = (j + 1)', [writes('a', 'T'), inner, writes('e', 'U'), reads('f', 'U')])],
      ['T', 'U'],
    );
    expect(live.T).toEqual({ first: 0, last: 2 });
    expect(live.U).toEqual({ first: 3, last: 4 });
  });

  it('ignores states before the overwrite that do not touch the container', () => {
    // steps: L: s 0, wT 1, rT 2, other 3
    const live = liveOf([forK('L', [state('s'), writes('wT', 'T'), reads('rT', 'T'), state('other')])], ['T']);
    expect(live.T).toEqual({ first: 1, last: 2 });
  });

  describe('stays widened (the whole loop is steps 1…4)', () => {
    const WIDE = { first: 1, last: 4 };
    const around = (body: ControlFlowBlock[], names = ['T'], shape?: string[]) =>
      liveOf([state('before'), forK('L', body), state('after')], names, { shape });

    it('when the write covers only part of the shape', () => {
      expect(around([writes('wT', 'T', '0', 'N - 2'), reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when a scaled or diagonal index leaves holes', () => {
      expect(around([writes('wT', 'T', '0', '4', { index: '2*i' }), reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
      const diag = state(
        'diag',
        [
          mapEntry(
            'm',
            ['i', 'j'],
            [
              ['0', 'N - 1'],
              ['0', 'N - 1'],
            ],
          ),
          tasklet('t', 'o = 1', 0),
          mapExit(0, 0),
          access('T'),
        ],
        [memlet(1, 2, 'T', ['i', 'i'], { dstConnector: 'IN_T' }), memlet(2, 3, 'T', ['0:N - 1', '0:N - 1'], { srcConnector: 'OUT_T' })],
      );
      const read2d = state('r', [access('T'), tasklet('t', 'pass')], [memlet(0, 1, 'T', ['0:N - 1', '0:N - 1'])]);
      expect(around([diag, read2d, state('o1'), state('o2')], ['T'], ['N', 'N']).T).toEqual(WIDE);
    });

    it('when an inner map parameter shadows the outer one (only element 0 is written)', () => {
      const shadow = state(
        'shadow',
        [
          mapEntry('outer', ['i'], [['0', 'N - 1']]),
          mapEntry('inner', ['i'], [['0', '0']], 'Default', 0),
          tasklet('t', 'o = 1', 1),
          mapExit(1, 1),
          mapExit(0, 0),
          access('T'),
        ],
        [
          memlet(2, 3, 'T', ['i'], { dstConnector: 'IN_T' }),
          memlet(3, 4, 'T', ['0'], { srcConnector: 'OUT_T', dstConnector: 'IN_T' }),
          memlet(4, 5, 'T', ['0:N - 1'], { srcConnector: 'OUT_T' }),
        ],
      );
      expect(around([shadow, reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when the write sits inside a conditional branch', () => {
      // steps: before 0 | L: wT 1, rT 2, o1 3, o2 4 | after 5
      expect(around([cond('c', [['(k > 2)', [writes('wT', 'T')]]]), reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when the iteration reads before it writes', () => {
      expect(around([reads('rT', 'T'), writes('wT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when the first state both reads and writes it (carried accumulator)', () => {
      expect(around([accumulates('acc', 'T'), state('o1'), state('o2'), state('o3')]).T).toEqual(WIDE);
    });

    it('when the first state reads every element while rewriting it (T[i] = T[i] + 1)', () => {
      const update = state(
        'upd',
        [access('T'), mapEntry('m', ['i'], [['0', 'N - 1']]), tasklet('t', 'o = x + 1', 1), mapExit(1, 1), access('T')],
        [
          memlet(0, 1, 'T', ['0:N - 1'], { dstConnector: 'IN_T' }),
          memlet(1, 2, 'T', ['i'], { srcConnector: 'OUT_T', dstConnector: 'x' }),
          memlet(2, 3, 'T', ['i'], { srcConnector: 'o', dstConnector: 'IN_T' }),
          memlet(3, 4, 'T', ['0:N - 1'], { srcConnector: 'OUT_T' }),
        ],
      );
      expect(around([update, state('o1'), state('o2'), state('o3')]).T).toEqual(WIDE);
    });

    it('when a branch or an inner loop before the overwrite reads it', () => {
      // steps: before 0 | L: rT 1, wT 2, o1 3, o2 4 | after 5
      expect(around([cond('c', [['(k > 2)', [reads('rT', 'T')]]]), writes('wT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
      expect(around([forK('inner', [reads('rT', 'T')]), writes('wT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when the write is a WCR or a dynamic memlet', () => {
      expect(
        around([writes('wT', 'T', '0', 'N - 1', { wcr: '(lambda a, b: (a + b))' }), reads('rT', 'T'), state('o1'), state('o2')]).T,
      ).toEqual(WIDE);
      expect(around([writes('wT', 'T', '0', 'N - 1', { dynamic: true }), reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual(WIDE);
    });

    it('when a nested SDFG writes it (it may read its output)', () => {
      const inner = sdfg('inner', [desc('out', ['N'], { transient: false })], [state('i0')], { symbols: ['N'] });
      const viaNested = state('n', [nested(inner, { N: 'N' }), access('T')], [memlet(0, 1, 'T', ['0:N - 1'], { srcConnector: 'out' })]);
      expect(around([viaNested, reads('rT', 'T'), state('o1'), state('o2')]).T).toEqual({ first: 1, last: 5 });
    });

    it('when a break or continue may end the iteration before the write', () => {
      // The read after the loop may see an earlier iteration's value: the loop's last states carry it.
      const early = (kind: 'break' | 'continue') => cond('c', [['(k > 2)', [jump(kind)]]]);
      const body = (kind: 'break' | 'continue') => [early(kind), writes('wT', 'T'), reads('rT', 'T'), state('o1'), state('o2')];
      expect(liveOf([state('before'), forK('L', body('break')), reads('after', 'T')], ['T']).T).toEqual({ first: 1, last: 5 });
      expect(liveOf([state('before'), forK('L', body('continue')), reads('after', 'T')], ['T']).T).toEqual({ first: 1, last: 5 });
    });

    it('when an interstate edge before the write reads it', () => {
      const body = region4(
        [state('s'), writes('wT', 'T'), reads('rT', 'T'), state('o')],
        [edge(0, 1, '1', [['x', 'T[0]']]), edge(1, 2), edge(2, 3)],
      );
      expect(liveOf([state('before'), body, state('after')], ['T']).T).toEqual(WIDE);
    });

    it('when the loop condition reads it', () => {
      const body = [writes('wT', 'T'), reads('rT', 'T'), state('o1'), state('o2')];
      expect(liveOf([state('before'), forK('L', body, '(T[0] < 8)'), state('after')], ['T']).T).toEqual(WIDE);
      // The condition alone already spans the loop; the rule itself must refuse the loop too.
      const withCondition = file(sdfg('m', [desc('T', ['N'])], [forK('L', body, '(T[0] < 8)')], { symbols: ['N'] }));
      const without = file(sdfg('m', [desc('T', ['N'])], [forK('L', [writes('wT', 'T'), reads('rT', 'T')])], { symbols: ['N'] }));
      expect(refinedLoops(withCondition, 'T')).toEqual([]);
      expect(refinedLoops(without, 'T')).toEqual(['m/L']);
    });

    it('when a size is unknown (no value for N)', () => {
      const root = sdfg(
        'm',
        [desc('T', ['N'])],
        [state('before'), forK('L', [writes('wT', 'T'), reads('rT', 'T'), state('o1'), state('o2')]), state('after')],
        {
          symbols: ['N'],
        },
      );
      expect(byName(analyze(file(root), opts()), '0:T').live).toEqual(WIDE);
    });
  });

  it('refines a state-machine cycle like a LoopRegion when its body overwrites first (§3.2, refinements.test.ts)', () => {
    // guard(0) -> body(1) -> other(2) -> guard ; guard -> exit(3); T fully written first in body.
    const root = sdfg('m', [desc('T', ['N'])], [state('guard'), writes('body', 'T'), state('other'), state('exit')], {
      symbols: ['N'],
      edges: [edge(0, 1, '(i < 10)'), edge(1, 2), edge(2, 0, '1', [['i', '(i + 1)']]), edge(0, 3, '(not (i < 10))')],
    });
    expect(byName(analyze(file(root), N10), '0:T').live).toEqual({ first: 1, last: 1 });
    expect(byName(analyze(file(root), { ...N10, liveness: 'baseline' }), '0:T').live).toEqual({ first: 0, last: 2 });
  });

  it('covers: union of boxes against a shape', () => {
    const iv = (lo: bigint, hi: bigint) => ({ lo, hi });
    expect(covers([[iv(0n, 4n)], [iv(5n, 9n)]], [10n])).toBe(true);
    expect(covers([[iv(0n, 4n)], [iv(6n, 9n)]], [10n])).toBe(false);
    expect(
      covers(
        [
          [iv(0n, 9n), iv(0n, 4n)],
          [iv(0n, 9n), iv(5n, 9n)],
        ],
        [10n, 10n],
      ),
    ).toBe(true);
    expect(
      covers(
        [
          [iv(0n, 4n), iv(0n, 9n)],
          [iv(0n, 9n), iv(5n, 9n)],
        ],
        [10n, 10n],
      ),
    ).toBe(false);
    expect(covers([], [3n])).toBe(false);
  });
});

/** A loop whose body graph is given explicitly (blocks and interstate edges). */
function region4(blocks: ControlFlowBlock[], edges: ReturnType<typeof edge>[]): LoopBlock {
  const l = forK('L', blocks);
  l.edges = edges;
  return l;
}

function refinedLoops(f: ReturnType<typeof file>, name: string): string[] {
  const options = N10;
  const symbols = new SymbolContext(f, options);
  const counter = new ExecutionCounter(symbols);
  const order = linearize(f, counter);
  const sdfgModel = f.root;
  const d = sdfgModel.arrays.get(name)!;
  // Shape symbols are evaluated with the caller's values, as in analyze().
  const all = { first: 0, last: order.steps.length - 1 };
  const loops = new WriteFirstLoops(order, symbols, options.symbols, counter).loopsWithoutWidening(
    sdfgModel,
    name,
    d,
    new AccessIndex(f).of(sdfgModel, name),
    all,
  );
  return [...loops].map((l) => l.label);
}
