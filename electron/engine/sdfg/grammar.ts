/**
 * Grammar detection used until engine/symbolic provides `detectGrammar` with the same contract: a file is in
 * the typed grammar iff some symbolic field contains `$` followed by a letter, `_` or `?`
 * (sdfg-format.md §10.3; the legacy SymPy grammar has no `$` at all).
 */
import type { Grammar } from '../model/sdfg.js';

const TYPED_SYMBOL = /\$[A-Za-z_?]/;

export function detectGrammarLocally(samples: Iterable<string>): Grammar {
  for (const sample of samples) if (TYPED_SYMBOL.test(sample)) return 'typed';
  return 'legacy';
}
