/**
 * Which expansion ran for each library node (`--library-impl`), in the words the CLI summary and the reports
 * use: `MatMul 'gemm' → blas (OpenBLAS)`, `Reduce 'sum' → pure`. Every mode runs the same expansion, so the
 * line qualifies every per-call time.
 */
import type { LibraryNodeResult } from './result.js';

export function libraryNodeText(n: Pick<LibraryNodeResult, 'className' | 'label' | 'implementation' | 'library'>): string {
  return `${n.className} '${n.label}' → ${n.implementation}${n.library ? ` (${n.library})` : ''}`;
}

/** One line for a result's library nodes, or null when it has none. */
export function libraryNodesLine(nodes: readonly LibraryNodeResult[] | undefined): string | null {
  if (!nodes?.length) return null;
  return `library nodes (every mode's time includes them): ${nodes.map(libraryNodeText).join('; ')}`;
}
