/**
 * Allocation points of transients sized by symbols their SDFG assigns (analysis/span.ts): DaCe's first/last
 * state rule on the region tree, and the cases where no single point is right.
 */
import { describe, expect, it } from 'vitest';
import { allocationSpan, blockExecutions } from '../../../electron/engine/analysis/span.js';
import type { ControlFlowBlock, Sdfg } from '../../../electron/engine/model/sdfg.js';
import { access, cond, desc, edge, file, jump, loop, sdfg, state } from '../../../bench/lib/model-builder.js';

const use = (label: string) => state(label, [access('dyn')]);

/** s0 --(K = N - 1)--> s1 (uses dyn) → `middle` → s2 (uses dyn). */
function program(middle: ControlFlowBlock[]): Sdfg {
  const blocks = [state('s0'), use('s1'), ...middle, use('s2')];
  const edges = blocks.slice(1).map((_, i) => edge(i, i + 1, '1', i === 0 ? [['K', 'N - 1']] : []));
  return file(sdfg('p', [desc('dyn', ['K'])], blocks, { edges, symbols: ['N', 'K'] })).root;
}

const label = (b: ControlFlowBlock | null) => b?.label ?? null;

describe('allocation spans', () => {
  it('from the first to the last block using the transient, after the assignment', () => {
    const r = allocationSpan(program([state('between')]), 'dyn', ['K']);
    if (!r || !('span' in r)) throw new Error(JSON.stringify(r));
    expect([r.span.region.label, label(r.span.first), label(r.span.last)]).toEqual(['p', 's1', 's2']);
  });

  it('no span when the size uses only free symbols', () => {
    expect(allocationSpan(program([]), 'dyn', ['N'])).toBeNull();
  });

  it('refuses a span that a nested return (or a break of an enclosing loop) leaves before the free', () => {
    const r = allocationSpan(program([cond('maybe', [['N > 3', [jump('return')]]])]), 'dyn', ['K']);
    expect(r).toEqual({ problem: expect.stringContaining("the return block 'return' leaves region 'p'") });
    // A break inside an inner loop of the span stays inside it: fine.
    const ok = allocationSpan(program([loop('inner', 'i', 'i = 0', 'i < 2', 'i = i + 1', [jump('break')])]), 'dyn', ['K']);
    expect(ok && 'span' in ok).toBe(true);
  });

  it('refuses a span in which a size symbol is assigned again', () => {
    const p = program([state('between')]);
    p.body.edges[1]!.assignments.push(['K', 'K + 1']);
    expect(allocationSpan(p, 'dyn', ['K'])).toEqual({ problem: expect.stringMatching(/'K' is assigned again on the interstate edge/) });
  });

  it('a transient sized by a loop variable lives inside the loop body, once per iteration', () => {
    const body = [use('a'), use('b')];
    const l = loop('steps', 'k', 'k = 0', 'k < 5', 'k = k + 1', body);
    const s = file(sdfg('p', [desc('dyn', ['k + 1'])], [l])).root;
    const r = allocationSpan(s, 'dyn', ['k']);
    if (!r || !('span' in r)) throw new Error(JSON.stringify(r));
    expect([label(r.span.first), label(r.span.last)]).toEqual(['a', 'b']);
    expect(blockExecutions(s, r.span.first, 1n, () => 5n)).toBe(5n);
  });
});
