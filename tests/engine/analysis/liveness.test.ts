/**
 * Program order and live ranges (docs/liveness.md): how states are numbered, and how a transient's live range
 * spans its accesses, widens over loops and stays inside branches. The write-before-read refinement of loop
 * widening is liveness-write-first.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../electron/engine/analysis/index.js';
import { access, cond, desc, edge, file, loop, mapEntry, mapExit, nested, sdfg, state } from '../../../bench/lib/model-builder.js';
import { opts, byName, accumulates } from './liveness-builders.js';

describe('program order', () => {
  it('numbers states in control-flow order, loops inline, branches one after another, jumps without a step', () => {
    const root = sdfg(
      'main',
      [],
      [
        state('init'),
        loop('for_i', 'i', 'i = 0', '(i < 4)', 'i = (i + 1)', [state('body_a'), state('body_b')]),
        cond('if_x', [
          ['(x > 0)', [state('then')]],
          [null, [state('else')]],
        ]),
        state('done'),
      ],
      { symbols: ['x'] },
    );
    const a = analyze(file(root), opts());
    expect(a.steps.map((s) => s.label)).toEqual([
      'main/init',
      'main/for_i/body_a',
      'main/for_i/body_b',
      'main/if_x/if_x_b0/then',
      'main/if_x/if_x_b1/else',
      'main/done',
    ]);
    expect(a.steps.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('orders a state machine by reverse post-order from the start block, not by file order', () => {
    // File order: end, start, middle; edges start→middle→end.
    const root = sdfg('sm', [], [state('end'), state('start'), state('middle')], { edges: [edge(1, 2), edge(2, 0)], start: 1 });
    expect(analyze(file(root), opts()).steps.map((s) => s.label)).toEqual(['sm/start', 'sm/middle', 'sm/end']);
  });

  it('unfolds nested SDFGs right after the state that invokes them', () => {
    const inner = sdfg('inner', [], [state('i0'), state('i1')]);
    const root = sdfg('outer', [], [state('s0', [nested(inner)]), state('s1')]);
    const a = analyze(file(root), opts());
    expect(a.steps.map((s) => s.label)).toEqual(['outer/s0', 'outer/s0/inner/i0', 'outer/s0/inner/i1', 'outer/s1']);
    expect(a.steps.map((s) => s.sdfg)).toEqual([0, 1, 1, 0]);
  });
});

describe('live ranges', () => {
  it('spans first to last access in straight-line code', () => {
    const root = sdfg('m', [desc('T', ['10'])], [state('a'), state('w', [access('T')]), state('r', [access('T')]), state('z')]);
    expect(byName(analyze(file(root), opts()), '0:T').live).toEqual({ first: 1, last: 2 });
  });

  it('widens over a whole loop when the loop touches the transient (value carried across iterations)', () => {
    const root = sdfg(
      'm',
      [desc('T', ['10'])],
      [
        state('before'),
        loop('L', 'i', 'i = 0', 'i < 8', 'i = i + 1', [accumulates('use', 'T'), state('other'), state('more')]),
        state('after'),
      ],
    );
    const a = analyze(file(root), opts());
    expect(byName(a, '0:T').live).toEqual({ first: 1, last: 3 });
  });

  it('widens over every enclosing loop of nested loops', () => {
    const inner = loop('inner', 'j', 'j = 0', 'j < 2', 'j = j + 1', [state('x'), accumulates('use', 'T')]);
    const root = sdfg('m', [desc('T', ['4'])], [loop('outer', 'i', 'i = 0', 'i < 2', 'i = i + 1', [state('head'), inner, state('tail')])]);
    expect(byName(analyze(file(root), opts()), '0:T').live).toEqual({ first: 0, last: 3 });
  });

  it('widens over the cycle of a state-machine loop', () => {
    // guard(0) -> body(1) -> guard ; guard -> exit(2); T used only in body.
    const root = sdfg('m', [desc('T', ['4'])], [state('guard'), accumulates('body', 'T'), state('exit')], {
      edges: [edge(0, 1, '(i < 10)'), edge(1, 0, '1', [['i', '(i + 1)']]), edge(0, 2, '(not (i < 10))')],
    });
    const a = analyze(file(root), opts());
    expect(a.steps.map((s) => s.label)).toEqual(['m/guard', 'm/body', 'm/exit']);
    expect(byName(a, '0:T').live).toEqual({ first: 0, last: 1 });
  });

  it('keeps a transient used in one branch inside that branch', () => {
    const root = sdfg(
      'm',
      [desc('T', ['4']), desc('U', ['4'])],
      [
        state('s'),
        cond('c', [
          ['(x > 0)', [state('t', [access('T')])]],
          [null, [state('e', [access('U')])]],
        ]),
        state('z'),
      ],
      { symbols: ['x'] },
    );
    const a = analyze(file(root), opts());
    expect(byName(a, '0:T').live).toEqual({ first: 1, last: 1 });
    expect(byName(a, '0:U').live).toEqual({ first: 2, last: 2 });
  });

  it('counts a branch condition that reads a container over the whole conditional block', () => {
    const root = sdfg(
      'm',
      [desc('flag', ['1']), desc('T', ['4'])],
      [
        state('w', [access('flag')]),
        cond('c', [
          ['(flag[0] > 0)', [state('t', [access('T')])]],
          [null, [state('e')]],
        ]),
        state('z'),
      ],
    );
    expect(byName(analyze(file(root), opts()), '0:flag').live).toEqual({ first: 0, last: 2 });
  });

  it('counts interstate conditions on both sides of the edge and allocates such a transient per SDFG', () => {
    const root = sdfg('m', [desc('A', ['4'])], [state('w', [access('A')]), state('mid'), state('z')], {
      edges: [edge(0, 1), edge(1, 2, '(A[0] > 0)')],
    });
    const t = byName(analyze(file(root), { ...opts(), liveness: 'interval' }), '0:A');
    expect(t.live).toEqual({ first: 0, last: 2 });
    expect(t.allocation).toEqual({ kind: 'sdfg', sdfg: 0 });
    // Refined (§3.7): the condition reads between mid and z, so the value lasts until the edge, not into z.
    expect(byName(analyze(file(root), opts()), '0:A').liveSegments).toEqual([{ first: 0, last: 1 }]);
  });

  it('counts an outer access in the state of a nested SDFG over the nested steps too', () => {
    const inner = sdfg('inner', [desc('tmp', ['8'])], [state('i0', [access('tmp')]), state('i1')]);
    const root = sdfg('outer', [desc('A', ['8'])], [state('s0', [access('A'), nested(inner)]), state('s1')]);
    const a = analyze(file(root), opts());
    expect(byName(a, '0:A').live).toEqual({ first: 0, last: 2 });
    expect(byName(a, '1:tmp').live).toEqual({ first: 1, last: 1 });
  });

  it('reports never-accessed transients with no live range', () => {
    const root = sdfg('m', [desc('ghost', ['4'])], [state('s')]);
    const t = byName(analyze(file(root), opts()), '0:ghost');
    expect(t.live).toBeNull();
    expect(t.reason).toMatch(/never accessed/);
    expect(t.allocation.kind).toBe('none');
  });

  it('keeps a map-local transient live only in its state', () => {
    const root = sdfg(
      'm',
      [desc('tmp', ['100000'])],
      [state('a'), state('k', [mapEntry('work', ['i'], [['0', 'N - 1']]), access('tmp', 0), mapExit(0, 0)]), state('z')],
      { symbols: ['N'] },
    );
    expect(byName(analyze(file(root), opts({ N: 10n })), '0:tmp').live).toEqual({ first: 1, last: 1 });
  });
});
