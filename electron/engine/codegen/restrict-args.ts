/**
 * Which pointer parameters of a nested SDFG's function are `__restrict__`. DaCe marks every array argument of a
 * nested SDFG so unless its descriptor says `may_alias` (cpu.py generate_nsdfg_header); without it, the compiler
 * must assume that an expansion's `_out` may overlap its `_in` and reloads or versions every loop that writes
 * one and reads the other (an expanded Reduce over axis 0 ran 1.6× slower for that alone).
 *
 * Here only the SDFGs that library expansions build get it (sdfg/expand), and only where nothing can alias: the
 * connector's outer container is passed through no other connector, is neither a view nor a reference (which
 * may point into another argument), and neither side says may_alias. The file's own nested SDFGs keep plain
 * pointers: their connectors may name overlapping subsets of one container, which `__restrict__` would make
 * undefined behaviour.
 */
import type { Sdfg } from '../model/sdfg.js';
import { isExpansionSdfg } from '../sdfg/expand/index.js';

const aliasing = (type: string): boolean => /View|Reference/.test(type);

/** The inner argument names of `s` (a nested SDFG) whose pointer parameter is `__restrict__`. */
export function restrictArgs(s: Sdfg): Set<string> {
  const out = new Set<string>();
  if (!s.parent || !isExpansionSdfg(s)) return out;
  const { sdfg: outer, state, node } = s.parent;
  const outerOf = new Map<string, string>();
  const users = new Map<string, Set<string>>();
  for (const e of state.edges) {
    const conn = e.dst === node.id ? e.dstConnector : e.src === node.id ? e.srcConnector : null;
    if (conn === null || e.memlet.data === null) continue;
    const container = e.memlet.data.split('.')[0]!;
    outerOf.set(conn, container);
    users.set(container, (users.get(container) ?? new Set()).add(conn));
  }
  for (const [name, desc] of s.arrays) {
    if (desc.transient || desc.mayAlias) continue;
    const container = outerOf.get(name);
    const od = container === undefined ? undefined : outer.arrays.get(container);
    if (!od || od.mayAlias || aliasing(od.type) || users.get(container!)!.size !== 1) continue;
    out.add(name);
  }
  return out;
}
