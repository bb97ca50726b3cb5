/**
 * What both liveness test files build on (liveness.test.ts, liveness-write-first.test.ts): analysis options,
 * a transient by id, and a state that updates T[0] in place (an accumulator carried across iterations).
 */
import type { Analysis, AnalysisOptions } from '../../../electron/engine/analysis/types.js';
import type { StateBlock } from '../../../electron/engine/model/sdfg.js';
import { access, memlet, state, tasklet } from '../../../bench/lib/model-builder.js';

export const opts = (symbols: Record<string, bigint> = {}, defaultSymbol: bigint | null = null): AnalysisOptions => ({
  symbols: new Map(Object.entries(symbols)),
  defaultSymbol,
  target: null,
});
export const byName = (a: Analysis, id: string) => {
  const t = a.transients.find((x) => x.id === id);
  if (!t) throw new Error(`no transient ${id}`);
  return t;
};

/** A state that reads and updates T[0] (an accumulator carried across iterations). */
export function accumulates(label: string, name: string): StateBlock {
  return state(
    label,
    [access(name), tasklet(`${label}_t`, 'o = x + 1'), access(name)],
    [memlet(0, 1, name, ['0'], { dstConnector: 'x' }), memlet(1, 2, name, ['0'], { srcConnector: 'o' })],
  );
}
