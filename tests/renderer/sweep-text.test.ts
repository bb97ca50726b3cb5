import { describe, expect, it } from 'vitest';
import { parseSweepText, sweepPlaceholder } from '../../renderer/src/app/workload/sweep-text.js';

describe("the advisor panel's sweep text (as `advise --sweep` takes it)", () => {
  it('steps ×2 by default, by another factor or an addend', () => {
    expect(parseSweepText('N=64..512')).toEqual({ symbol: 'N', values: ['64', '128', '256', '512'] });
    expect(parseSweepText(' K = 10 .. 90 :x3 ')).toEqual({ symbol: 'K', values: ['10', '30', '90'] });
    expect(parseSweepText('I=64..256:+64')).toEqual({ symbol: 'I', values: ['64', '128', '192', '256'] });
    expect(parseSweepText('')).toBeNull();
  });

  it('says what is wrong with a range it cannot run', () => {
    expect(parseSweepText('N=64..')).toEqual({ error: 'write it as N=64..4096, N=64..4096:x3 or N=64..1024:+64' });
    expect(parseSweepText('N=64..128')).toEqual({ error: 'a sweep needs at least 3 points' });
    expect(parseSweepText('N=512..64')).toEqual({ error: 'the end must be larger than the start' });
    expect(parseSweepText('N=1..1000:+1')).toEqual({ error: 'more than 64 points: take a larger step' });
    expect(parseSweepText('N=0..64')).toEqual({ error: 'a factor of at least 2, from at least 1' });
  });

  it("gives its example in the program's own first symbol", () => {
    expect(sweepPlaceholder([{ name: 'klev' }, { name: 'klon' }])).toBe('klev=32..512');
    expect(sweepPlaceholder([])).toBe('N=32..512');
  });
});
