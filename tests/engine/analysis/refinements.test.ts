/**
 * The refinements of docs/liveness.md beyond the write-before-read rule of LoopRegions: nested-SDFG connectors
 * (§2.1), state-machine cycles (§3.2), first writes inside inner loops (§3.3), callees that overwrite their
 * outputs (§3.4) and loops of the callers around a nested SDFG (§3.5). Each refinement is checked where it
 * applies and, as importantly, where it must not (the conservative rule stays). Containers are 1-D, N = 10.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import type { Analysis, LivenessRules } from '../../../electron/engine/analysis/index.js';
import { nestedCallOrder } from '../../../electron/engine/analysis/walk.js';
import type { ControlFlowBlock, DataDescriptor, InterstateEdge, Sdfg, StateBlock } from '../../../electron/engine/model/sdfg.js';
import {
  access,
  cond,
  desc,
  edge,
  file,
  loop,
  mapEntry,
  mapExit,
  memlet,
  nested,
  sdfg,
  state,
  tasklet,
  type EdgeSpec,
} from '../../../bench/lib/model-builder.js';

const analyse = (root: Sdfg, liveness: LivenessRules = 'refined'): Analysis =>
  analyze(file(root), { symbols: new Map([['N', 10n]]), defaultSymbol: null, target: null, liveness });

function live(root: Sdfg, liveness: LivenessRules = 'refined'): Record<string, [number, number] | null> {
  return Object.fromEntries(analyse(root, liveness).transients.map((t) => [t.id, t.live && [t.live.first, t.live.last]]));
}

/** The refined live sets (§3.7) as [first, last] intervals. */
function liveSets(root: Sdfg): Record<string, Array<[number, number]> | null> {
  return Object.fromEntries(
    analyse(root).transients.map((t) => [t.id, t.liveSegments && t.liveSegments.map((s): [number, number] => [s.first, s.last])]),
  );
}

const arr = (name: string, o: { transient?: boolean; lifetime?: string; shape?: string[]; type?: string } = {}): DataDescriptor =>
  desc(name, o.shape ?? ['N'], { transient: o.transient ?? true, lifetime: o.lifetime, type: o.type });
const arg = (name: string): DataDescriptor => arr(name, { transient: false });

/** A state that writes all of `name` element by element (no read of it). */
function writes(label: string, name: string, from?: string, hi = 'N - 1'): StateBlock {
  const nodes = [mapEntry(`${label}_m`, ['i'], [['0', hi]]), tasklet(`${label}_t`, 'o = 1', 0), mapExit(0, 0), access(name)];
  const edges: EdgeSpec[] = [
    memlet(1, 2, name, ['i'], { srcConnector: 'o', dstConnector: `IN_${name}` }),
    memlet(2, 3, name, [`0:${hi}`], { srcConnector: `OUT_${name}` }),
  ];
  if (from) {
    nodes.push(access(from));
    edges.push(
      memlet(4, 0, from, ['0:N - 1'], { dstConnector: `IN_${from}` }),
      memlet(0, 1, from, ['i'], { srcConnector: `OUT_${from}`, dstConnector: 'x' }),
    );
  }
  return state(label, nodes, edges);
}

/** A state that reads all of `name` (into a tasklet). */
const reads = (label: string, name: string): StateBlock =>
  state(label, [access(name), tasklet(`${label}_t`, 'pass')], [memlet(0, 1, name, ['0:N - 1'], { dstConnector: 'x' })]);

/** A state that reads all of `name` and updates it (a value carried from before). */
const updates = (label: string, name: string): StateBlock =>
  state(
    label,
    [access(name), tasklet(`${label}_t`, 'o = x + 1'), access(name)],
    [memlet(0, 1, name, ['0:N - 1'], { dstConnector: 'x' }), memlet(1, 2, name, ['0:N - 1'], { srcConnector: 'o' })],
  );

/** A callee with arguments a (input) and b (output) of length M, and its own transients. */
function callee(name: string, blocks: ControlFlowBlock[], extra: DataDescriptor[] = [], edges?: InterstateEdge[]): Sdfg {
  const s = sdfg(name, [desc('a', ['M'], { transient: false }), desc('b', ['M'], { transient: false }), ...extra], blocks, {
    symbols: ['M'],
    edges,
  });
  return s;
}

/** A state that calls `inner` with a ← input and output → b (whole containers). */
function calls(
  label: string,
  inner: Sdfg,
  input: string | null,
  output: string | null,
  more: { scope?: boolean; alsoTasklet?: boolean } = {},
): StateBlock {
  const nodes = [];
  const edges: EdgeSpec[] = [];
  if (more.scope) nodes.push(mapEntry('around', ['p'], [['0', '1']]), mapExit(0, 0));
  const callAt = nodes.length;
  nodes.push(nested(inner, { M: 'N' }, more.scope ? 0 : null));
  if (input) {
    nodes.push(access(input));
    edges.push(memlet(nodes.length - 1, callAt, input, ['0:N - 1'], { dstConnector: 'a' }));
    if (more.alsoTasklet) {
      nodes.push(tasklet('side', 'pass'));
      edges.push(memlet(nodes.length - 2, nodes.length - 1, input, ['0'], { dstConnector: 'x' }));
    }
  }
  if (output) {
    nodes.push(access(output));
    edges.push(memlet(callAt, nodes.length - 1, output, ['0:N - 1'], { srcConnector: 'b' }));
  }
  return state(label, nodes, edges);
}

/** Callee body: read a (into u), then write b (from u), then an unrelated state. */
const sequential = (name = 'inner') =>
  callee(name, [writes('i0', 'u', 'a', 'M - 1'), writes('i1', 'b', 'u', 'M - 1'), state('i2')], [desc('u', ['M'])]);

describe('nested-SDFG connectors (§2.1)', () => {
  // steps: s0 0 | s1 1: i0 2, i1 3, i2 4 | s2 5
  const program = (inner: Sdfg, o: { scope?: boolean; alsoTasklet?: boolean } = {}) =>
    sdfg('m', [arg('A'), arr('t1'), arr('t2')], [writes('s0', 't1', 'A'), calls('s1', inner, 't1', 't2', o), reads('s2', 't2')], {
      symbols: ['N'],
    });

  it('an input dies after its last read inside the callee, an output is born at its first write', () => {
    expect(live(program(sequential()))).toEqual({ '0:t1': [0, 2], '0:t2': [3, 5], '1:u': [2, 3] });
    // The baseline rule: a node counts over its whole state span, nested steps included.
    expect(live(program(sequential()), 'baseline')).toEqual({ '0:t1': [0, 4], '0:t2': [1, 5], '1:u': [2, 3] });
    const packed = analyse(program(sequential())).layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:t1')).toBe(packed.offsets.get('0:t2'));
  });

  it('maps through every level of nesting', () => {
    // inner passes its `a` on to a second callee, which reads it in its second state.
    const deepest = callee('deepest', [state('d0'), reads('d1', 'a')]);
    const middle = callee('middle', [calls('m0', deepest, 'a', null), writes('m1', 'b')]);
    // steps: s0 0 | s1 1: m0 2: d0 3, d1 4 | m1 5 | s2 6
    expect(live(program(middle))).toEqual({ '0:t1': [0, 4], '0:t2': [5, 6] });
  });

  it('widens over a loop inside the callee around the use, not beyond it', () => {
    const looping = callee('looping', [
      state('i0'),
      loop('L', 'j', 'j = 0', '(j < 3)', 'j = (j + 1)', [updates('i1', 'b'), state('i2')]),
      state('i3'),
    ]);
    // steps: s0 0 | s1 1: i0 2, L: i1 3, i2 4 | i3 5 | s2 6
    expect(live(program(looping))['0:t2']).toEqual([3, 6]);
  });

  it('counts control-flow code of the callee that reads the connector', () => {
    const branching = callee('branching', [state('i0'), state('i1'), state('i2')], [], [edge(0, 1), edge(1, 2, '(a[0] > 0)')]);
    // steps: s0 0 | s1 1: i0 2, i1 3, i2 4 | s2 5: the condition reads a on both sides of the edge i1 → i2.
    expect(live(program(branching), 'interval')['0:t1']).toEqual([0, 4]);
    // Refined (§3.7): on the edge itself, after i1 and before i2.
    expect(live(program(branching))['0:t1']).toEqual([0, 3]);
  });

  describe('keeps the whole state span', () => {
    it('when the node also takes part in the state’s own dataflow', () => {
      expect(live(program(sequential(), { alsoTasklet: true }))['0:t1']).toEqual([0, 4]);
    });

    it('when the memlet names another container than the node (the call gets a pointer into that one)', () => {
      const root = program(sequential());
      const s1 = root.body.blocks[1] as StateBlock;
      s1.edges[0]!.memlet.data = 'A';
      expect(live(root)['0:t1']).toEqual([0, 4]);
    });

    it('when the call runs inside a map (it runs once per iteration)', () => {
      expect(live(program(sequential(), { scope: true }))['0:t1']).toEqual([0, 4]);
    });

    it('when the callee declares a reference (it could reach the argument’s bytes under another name)', () => {
      const withRef = callee(
        'withRef',
        [writes('i0', 'u', 'a', 'M - 1'), writes('i1', 'b', 'u', 'M - 1'), state('i2')],
        [desc('u', ['M']), desc('r', ['M'], { type: 'ArrayReference' })],
      );
      expect(live(program(withRef))['0:t1']).toEqual([0, 4]);
    });

    it('when two calls of one state are not ordered by the dataflow', () => {
      const first = callee('first', [reads('f0', 'a'), state('f1')]);
      const second = callee('second', [state('g0'), state('g1')]);
      const both = state(
        's1',
        [access('t1'), nested(first, { M: 'N' }), nested(second, { M: 'N' })],
        [memlet(0, 1, 't1', ['0:N - 1'], { dstConnector: 'a' })],
      );
      expect(nestedCallOrder(both).ordered).toBe(false);
      const root = sdfg('m', [arg('A'), arr('t1')], [writes('s0', 't1', 'A'), both], { symbols: ['N'] });
      // steps: s0 0 | s1 1: f0 2, f1 3, g0 4, g1 5
      expect(live(root)['0:t1']).toEqual([0, 5]);
    });
  });

  it('lays calls out in dataflow order, and refines them when that order is the only one', () => {
    // Node order puts the consumer first; the dataflow (producer → t → consumer) fixes the other order.
    const producer = callee('producer', [state('p0'), writes('p1', 'b', undefined, 'M - 1')]);
    const consumer = callee('consumer', [reads('c0', 'a'), state('c1')]);
    const s = state(
      's',
      [nested(consumer, { M: 'N' }), access('t'), nested(producer, { M: 'N' })],
      [memlet(2, 1, 't', ['0:N - 1'], { srcConnector: 'b' }), memlet(1, 0, 't', ['0:N - 1'], { dstConnector: 'a' })],
    );
    expect(nestedCallOrder(s)).toEqual({ calls: [s.nodes[2], s.nodes[0]], ordered: true });
    const root = sdfg('m', [arr('t')], [s], { symbols: ['N'] });
    const a = analyse(root);
    expect(a.steps.map((x) => x.label)).toEqual(['m/s', 'm/s/producer/p0', 'm/s/producer/p1', 'm/s/consumer/c0', 'm/s/consumer/c1']);
    expect(live(root)['0:t']).toEqual([2, 3]);
  });
});

describe('loops of the callers around a nested SDFG (§3.5)', () => {
  const program = (lifetime: string, first: StateBlock = writes('s0', 't1', 'A')) => {
    const inner = callee('inner', [writes('i0', 'u', 'a', 'M - 1'), writes('i1', 'b', 'u', 'M - 1')], [desc('u', ['M'], { lifetime })]);
    // steps: L: s0 0 | s1 1: i0 2, i1 3 | s2 4
    return sdfg(
      'm',
      [arg('A'), arr('t1'), arr('t2')],
      [loop('L', 'k', 'k = 0', '(k < 4)', 'k = (k + 1)', [first, calls('s1', inner, 't1', 't2'), updates('s2', 't2')])],
      {
        symbols: ['N'],
      },
    );
  };

  it('does not widen a callee’s own transient over them: every call allocates it afresh', () => {
    expect(live(program('Scope'))['1:u']).toEqual([2, 3]);
    expect(live(program('SDFG'))['1:u']).toEqual([2, 3]);
    expect(live(program('Scope'), 'baseline')['1:u']).toEqual([0, 4]);
  });

  it('widens one that outlives the call (Global, Persistent)', () => {
    expect(live(program('Global'), 'interval')['1:u']).toEqual([0, 4]);
    expect(live(program('Persistent'), 'interval')['1:u']).toEqual([0, 4]);
  });

  it('refined (§3.7): one that outlives the call is live across the caller’s loop only when a call reads what the previous one left', () => {
    // The callee overwrites u first: no value passes from one call to the next, whatever the lifetime.
    expect(live(program('Global'))['1:u']).toEqual([2, 3]);
    // The callee reads u before rewriting it: a Global or Persistent u carries the previous call's value around
    // the caller's loop; a Scope u is new in every call, so its first read reads nothing.
    const carried = (lifetime: string) => {
      const inner = callee('inner', [updates('i0', 'u'), writes('i1', 'b', 'u', 'M - 1')], [desc('u', ['M'], { lifetime })]);
      return sdfg(
        'm',
        [arg('A'), arr('t1'), arr('t2')],
        [loop('L', 'k', 'k = 0', '(k < 4)', 'k = (k + 1)', [writes('s0', 't1', 'A'), calls('s1', inner, 't1', 't2'), updates('s2', 't2')])],
        {
          symbols: ['N'],
        },
      );
    };
    expect(live(carried('Global'))['1:u']).toEqual([0, 4]);
    expect(live(carried('Persistent'))['1:u']).toEqual([0, 4]);
    expect(live(carried('Scope'))['1:u']).toEqual([2, 3]);
  });

  it('widens the caller’s own containers over the caller’s loop when they carry a value into the next iteration', () => {
    // s0 overwrites t1 first in every iteration; with s0 updating t1 instead, t1 carries a value.
    expect(live(program('Scope'))['0:t1']).toEqual([0, 2]);
    expect(live(program('Scope', updates('s0', 't1')))['0:t1']).toEqual([0, 4]);
  });

  it('also skips state-machine cycles of the caller', () => {
    const inner = callee('inner', [writes('i0', 'u', 'a', 'M - 1'), writes('i1', 'b', 'u', 'M - 1')], [desc('u', ['M'])]);
    const root = sdfg('m', [arr('t1'), arr('t2')], [state('guard'), calls('body', inner, 't1', 't2'), state('exit')], {
      symbols: ['N'],
      edges: [edge(0, 1, '(k < 4)'), edge(1, 0, '1', [['k', '(k + 1)']]), edge(0, 2, '(not (k < 4))')],
    });
    // steps: guard 0 | body 1: i0 2, i1 3 | exit 4
    expect(live(root)['1:u']).toEqual([2, 3]);
    expect(live(root, 'baseline')['1:u']).toEqual([0, 3]);
  });
});

describe('state-machine cycles (§3.2)', () => {
  /** before 0 → guard 1 → body… → guard (k < 3); guard → after (last block). */
  const machine = (body: StateBlock[], after: StateBlock = state('after'), names = ['T', 'U']) => {
    const n = body.length;
    const edges = [edge(0, 1, '1', [['k', '0']]), edge(1, 2, '(k < 3)')];
    for (let i = 0; i + 1 < n; i++) edges.push(edge(2 + i, 3 + i));
    edges.push(edge(n + 1, 1, '1', [['k', '(k + 1)']]), edge(1, n + 2, '(not (k < 3))'));
    return sdfg(
      'm',
      names.map((x) => arr(x)),
      [state('before'), state('guard'), ...body, after],
      { symbols: ['N'], edges },
    );
  };
  const body = () => [writes('wT', 'T'), reads('rT', 'T'), writes('wU', 'U'), reads('rU', 'U')];

  it('does not widen a temporary that every iteration overwrites first, if it is used only inside the cycle', () => {
    // steps: before 0, guard 1, wT 2, rT 3, wU 4, rU 5, after 6
    const root = machine(body());
    expect(live(root)).toEqual({ '0:T': [2, 3], '0:U': [4, 5] });
    expect(live(root, 'baseline')).toEqual({ '0:T': [1, 5], '0:U': [1, 5] });
    const packed = analyse(root).layouts.packed['CPU_Heap']!;
    expect(packed.offsets.get('0:T')).toBe(packed.offsets.get('0:U'));
  });

  it('keeps widening a temporary read after the loop (leaving the cycle runs the guard, before the write)', () => {
    expect(live(machine(body(), reads('after', 'T')))['0:T']).toEqual([1, 6]);
  });

  it('keeps widening a value read before it is rewritten (carried across the back edge)', () => {
    expect(live(machine([reads('rT', 'T'), writes('wT', 'T'), writes('wU', 'U'), reads('rU', 'U')]))['0:T']).toEqual([1, 5]);
  });

  it('keeps widening when the write covers part of the container', () => {
    expect(live(machine([writes('wT', 'T', undefined, 'N - 2'), reads('rT', 'T'), writes('wU', 'U'), reads('rU', 'U')]))['0:T']).toEqual([
      1, 5,
    ]);
  });

  it('keeps widening a cycle with two entry blocks', () => {
    const root = machine(body());
    root.body.edges.push(edge(0, 3)); // before → rT: a second way into the cycle
    expect(live(root, 'interval')['0:T']).toEqual(live(root, 'baseline')['0:T']);
    expect(live(root, 'interval')['0:U']).toEqual(live(root, 'baseline')['0:U']);
    // Refined (§3.7), steps before 0, rT 1, wU 2, rU 3, guard 4, wT 5, after 6: the second entry reads T before
    // anything wrote it (nothing to keep), so T lives from wT to rT only; with a write in `before`, also from
    // there to rT, but not in the guard (every way on from it passes wT before a read).
    expect(analyse(root).steps.map((x) => x.label)).toEqual(['m/before', 'm/rT', 'm/wU', 'm/rU', 'm/guard', 'm/wT', 'm/after']);
    expect(liveSets(root)['0:T']).toEqual([
      [1, 1],
      [5, 5],
    ]);
    root.body.blocks[0] = writes('before', 'T');
    expect(liveSets(root)['0:T']).toEqual([
      [0, 1],
      [5, 5],
    ]);
  });

  it('keeps widening a cycle whose blocks are not contiguous in step order', () => {
    // The guard's exit edge comes first, so reverse post-order lays out `after` between guard and body.
    const root = machine(body());
    const exit = root.body.edges.pop()!;
    root.body.edges.splice(1, 0, exit);
    expect(analyse(root).steps.map((x) => x.label)).toEqual(['m/before', 'm/guard', 'm/after', 'm/wT', 'm/rT', 'm/wU', 'm/rU']);
    expect(live(root, 'interval')).toEqual({ '0:T': [1, 6], '0:U': [1, 6] });
    // Refined (§3.7): step order does not matter to the flow graph.
    expect(live(root)).toEqual({ '0:T': [3, 4], '0:U': [5, 6] });
  });

  it('still widens over a cycle nested in the refined one', () => {
    // guard → wT → r1 → wU → r1 (j < 2) …; wU → latch → guard. T is read in the inner cycle r1 ⇄ wU, where U
    // is overwritten first: T must stay live over the whole inner cycle, or U would take its bytes.
    const blocks = [
      state('before'),
      state('guard'),
      writes('wT', 'T'),
      reads('r1', 'T'),
      writes('wU', 'U'),
      state('latch'),
      state('after'),
    ];
    const edges = [
      edge(0, 1),
      edge(1, 2, '(k < 3)'),
      edge(2, 3),
      edge(3, 4),
      edge(4, 3, '(j < 2)', [['j', '(j + 1)']]),
      edge(4, 5, '(not (j < 2))'),
      edge(5, 1, '1', [['k', '(k + 1)']]),
      edge(1, 6, '(not (k < 3))'),
    ];
    const root = sdfg('m', [arr('T'), arr('U')], blocks, { symbols: ['N'], edges });
    // steps: before 0, guard 1, wT 2, r1 3, wU 4, latch 5, after 6
    expect(analyse(root).steps.map((x) => x.label)).toEqual(['m/before', 'm/guard', 'm/wT', 'm/r1', 'm/wU', 'm/latch', 'm/after']);
    expect(live(root)).toEqual({ '0:T': [2, 4], '0:U': [4, 4] });
  });
});

describe('first writes inside inner loops (§3.3)', () => {
  // steps: L0: L1: w 0, r 1 | wU 2, rU 3 (| rT 4, tail 5 with `after`: T read again after the inner loop)
  const program = (inner: { cond: string; body?: ControlFlowBlock[]; after?: boolean }) =>
    sdfg(
      'm',
      [arr('T'), arr('U')],
      [
        loop('L0', 'k', 'k = 0', '(k < 3)', 'k = (k + 1)', [
          loop('L1', 'j', 'j = 0', inner.cond, 'j = (j + 1)', inner.body ?? [writes('w', 'T'), reads('r', 'T')]),
          writes('wU', 'U'),
          reads('rU', 'U'),
          ...(inner.after ? [reads('rT', 'T'), state('tail')] : []),
        ]),
      ],
      { symbols: ['N', 'x'] },
    );

  it('lets the outer loop go when the inner loop overwrites first and certainly runs', () => {
    expect(live(program({ cond: '(j < 2)' }))).toEqual({ '0:T': [0, 1], '0:U': [2, 3] });
    expect(live(program({ cond: '(j < 2)' }), 'baseline')['0:T']).toEqual([0, 3]);
  });

  it('keeps widening when the inner loop may run zero times', () => {
    expect(live(program({ cond: '(j < 0)' }), 'interval')['0:T']).toEqual([0, 3]);
    // Refined (§3.7): only a read after the inner loop can see an earlier iteration's value.
    expect(live(program({ cond: '(j < 0)' }))['0:T']).toEqual([0, 1]);
    // With a zero-trip inner loop, rT may read the previous outer iteration's value, carried through `tail`.
    expect(live(program({ cond: '(j < 0)', after: true }))['0:T']).toEqual([0, 5]);
    expect(live(program({ cond: '(j < 2)', after: true }))['0:T']).toEqual([0, 4]);
  });

  it('keeps widening when the trip count is unknown (data-dependent)', () => {
    expect(live(program({ cond: '(j < x)' }), 'interval')['0:T']).toEqual([0, 3]);
    expect(live(program({ cond: '(j < x)', after: true }))['0:T']).toEqual([0, 5]);
    // A container read by the condition is data, even with a default value for symbols.
    const root = program({ cond: '(j < n)' });
    root.arrays.set('n', desc('n', ['1'], { transient: false, type: 'Scalar', dtype: 'int32' }));
    const a = analyze(file(root), { symbols: new Map([['N', 10n]]), defaultSymbol: 4n, target: null, liveness: 'interval' });
    expect(a.transients.find((t) => t.id === '0:T')!.live).toEqual({ first: 0, last: 3 });
  });

  it('keeps widening when the inner loop reads before it writes', () => {
    expect(live(program({ cond: '(j < 2)', body: [reads('r', 'T'), writes('w', 'T')] }))['0:T']).toEqual([0, 3]);
  });

  it('keeps widening when the write inside sits in a conditional', () => {
    expect(live(program({ cond: '(j < 2)', body: [cond('c', [['(j > 0)', [writes('w', 'T')]]]), reads('r', 'T')] }))['0:T']).toEqual([
      0, 3,
    ]);
  });
});

describe('callees that overwrite their output first (§3.4)', () => {
  // steps: L: s1 0: i0 1, i1 2 | s2 3
  const program = (inner: Sdfg, subset = '0:N - 1') => {
    const s1 = calls('s1', inner, null, 't');
    s1.edges[0]!.memlet.subset = {
      kind: 'range',
      dims: [{ start: subset.split(':')[0]!, end: subset.split(':')[1]!, step: '1', tile: '1' }],
    };
    return sdfg(
      'm',
      [arr('t'), arr('U')],
      [loop('L', 'k', 'k = 0', '(k < 3)', 'k = (k + 1)', [s1, reads('s2', 't'), writes('s3', 'U'), reads('s4', 'U')])],
      { symbols: ['N'] },
    );
  };

  it('is a full write when the callee’s own control flow writes all of it before reading it', () => {
    const inner = callee('inner', [state('i0'), writes('i1', 'b', undefined, 'M - 1')]);
    expect(live(program(inner))['0:t']).toEqual([2, 3]);
    expect(live(program(inner), 'baseline')['0:t']).toEqual([0, 5]);
  });

  it('is not when the callee reads it first', () => {
    const inner = callee('inner', [reads('i0', 'b'), writes('i1', 'b', undefined, 'M - 1')]);
    expect(live(program(inner))['0:t']).toEqual([0, 5]);
  });

  it('is not when the callee writes only in a branch', () => {
    const inner = callee('inner', [state('i0'), cond('c', [['(M > 3)', [writes('i1', 'b', undefined, 'M - 1')]]])]);
    expect(live(program(inner))['0:t']).toEqual([0, 5]);
  });

  it('is not when the memlet hands the callee only part of the container', () => {
    const inner = callee('inner', [state('i0'), writes('i1', 'b', undefined, 'M - 1')]);
    expect(live(program(inner, '0:N - 3'))['0:t']).toEqual([0, 5]);
  });
});
