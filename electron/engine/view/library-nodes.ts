/**
 * Which expansion ran for each library node (`--library-impl`), in the words the CLI summary and the reports
 * use: `MatMul 'gemm' → blas (OpenBLAS)`, `Reduce 'sum' → pure`. Every mode runs the same expansion, so the
 * line qualifies every per-call time.
 */
import type { LibraryNodeResult } from '../profile/result.js';

export function libraryNodeText(n: Pick<LibraryNodeResult, 'className' | 'label' | 'implementation' | 'library'>): string {
  return `${n.className} '${n.label}' → ${n.implementation}${n.library ? ` (${n.library})` : ''}`;
}

const keyOf = (n: LibraryNodeResult): string => `${n.className}\u0000${n.implementation}\u0000${n.library ?? ''}`;

/** Beyond this many nodes of one class and implementation, the line gives their count instead of each label. */
const LISTED_PER_CLASS = 3;

/**
 * One line for a result's library nodes, or null when it has none. Nodes of one class and implementation are
 * counted when there are many (cloudsc's stage8 has 43 memsets): `43 MemsetLibraryNode nodes → pure`.
 */
export function libraryNodesLine(nodes: readonly LibraryNodeResult[] | undefined): string | null {
  const parts = libraryNodesParts(nodes);
  return parts ? `library nodes (every mode's time includes them): ${parts.join('; ')}` : null;
}

/** The line's parts without its lead-in (the report's header fact), or null when there are no library nodes. */
export function libraryNodesParts(nodes: readonly LibraryNodeResult[] | undefined): string[] | null {
  if (!nodes?.length) return null;
  const groups = new Map<string, LibraryNodeResult[]>();
  for (const n of nodes) {
    const key = keyOf(n);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  // File order, with a counted group at its first node.
  const parts: string[] = [];
  const counted = new Set<string>();
  for (const n of nodes) {
    const key = keyOf(n);
    const g = groups.get(key)!;
    if (g.length <= LISTED_PER_CLASS) parts.push(libraryNodeText(n));
    else if (!counted.has(key)) {
      counted.add(key);
      parts.push(`${g.length} ${n.className} nodes → ${n.implementation}${n.library ? ` (${n.library})` : ''}`);
    }
  }
  return parts;
}
