/**
 * Lists whose length the input decides are never spread into a call (`Math.max(...xs)`, `push(...xs)`): V8 puts
 * every spread element on the stack, and somewhere past 100,000 of them that is "Maximum call stack size
 * exceeded". Each case here took that path before.
 */
import { describe, expect, it } from 'vitest';
import { table } from '../../electron/cli/format.js';
import type { Sdfg } from '../../electron/engine/model/sdfg.js';
import { blocksOf } from '../../electron/engine/model/queries.js';

const MANY = 300_000;

describe('no spread of an unbounded list', () => {
  it('a CLI table of 300,000 rows', () => {
    const rows = Array.from({ length: MANY }, (_, i) => [String(i), 'x']);
    const lines = table(['n', 'v'], rows);
    expect(lines).toHaveLength(MANY + 2);
    expect(lines[2]).toBe('0       x');
  });

  it('the blocks of a region with 300,000 states, in file order', () => {
    const blocks = Array.from({ length: MANY }, (_, i) => ({ kind: 'state', id: i }));
    const sdfg = { body: { kind: 'region', blocks } } as unknown as Sdfg;
    const seen = [...blocksOf(sdfg)];
    expect(seen).toHaveLength(MANY + 1);
    expect((seen[1] as unknown as { id: number }).id).toBe(0);
    expect((seen[MANY] as unknown as { id: number }).id).toBe(MANY - 1);
  });
});
