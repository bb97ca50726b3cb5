/**
 * Which expansion ran for each library node (`--library-impl`), in the words the CLI summary and the reports
 * use: `MatMul 'gemm' → blas (OpenBLAS)`, `Reduce 'sum' → pure`. Every mode runs the same expansion, so the
 * line qualifies every per-call time.
 */
import type { LibraryNodeResult } from '../profile/result.js';

type NodeText = Pick<LibraryNodeResult, 'className' | 'label' | 'implementation' | 'library'>;

/** How a node's expansion reads after it: ` → blas (OpenBLAS)`; empty where the reader picks the expansion. */
type Expansion = (n: NodeText) => string;
const ranAs: Expansion = (n) => ` → ${n.implementation}${n.library ? ` (${n.library})` : ''}`;
const unsaid: Expansion = () => '';

/** Beyond this many labels of one class and implementation, the line gives the nodes' count instead of each label. */
const LISTED_PER_CLASS = 3;

/**
 * One line for a result's library nodes, or null when it has none. Nodes of one class and implementation are
 * counted when there are many (cloudsc's stage8 has 43 memsets): `43 MemsetLibraryNode nodes → pure`.
 */
export function libraryNodesLine(nodes: readonly LibraryNodeResult[] | undefined): string | null {
  const parts = libraryNodesParts(nodes);
  return parts ? `library nodes (every mode's time includes them): ${parts.join('; ')}` : null;
}

/**
 * The line's parts without its lead-in (the report's header fact), or null when there are no library nodes.
 * `implementation: false` leaves the expansion out (the profile form, where the user is choosing it).
 */
export function libraryNodesParts(nodes: readonly NodeText[] | undefined, opts: { implementation?: boolean } = {}): string[] | null {
  if (!nodes?.length) return null;
  const expansion = opts.implementation === false ? unsaid : ranAs;
  const libraryNodeText = (n: NodeText): string => `${n.className} '${n.label}'${expansion(n)}`;
  const keyOf = (n: NodeText): string => `${n.className}\u0000${expansion(n)}`;
  const groups = new Map<string, NodeText[]>();
  for (const n of nodes) {
    const key = keyOf(n);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  // File order, with a counted group at its first node. Nodes that read the same (DaCe labels every sum-reduce
  // 'Reduce (Sum), Axes: all') are one part with their count: channel_flow's three reduces read as one, not three.
  const parts: string[] = [];
  const done = new Set<string>();
  for (const n of nodes) {
    const key = keyOf(n);
    const text = libraryNodeText(n);
    if (done.has(key) || done.has(text)) continue;
    const g = groups.get(key)!;
    const texts = g.map(libraryNodeText);
    if (new Set(texts).size <= LISTED_PER_CLASS) {
      done.add(text);
      const same = texts.filter((x) => x === text).length;
      parts.push(same > 1 ? `${same} × ${text}` : text);
    } else {
      done.add(key);
      parts.push(`${g.length} ${n.className} nodes${expansion(n)}`);
    }
  }
  return parts;
}
