/**
 * Which AccessNode binds each view of a scope, and in which order: the choice DaCe's code generator makes.
 *
 * framecode.py `determine_allocation_lifetime` files one allocation per data name and scope, made with the name's
 * first AccessNode in the state (`first_node_instance`), and `allocate_arrays_in_scope` runs them in the order of
 * the SDFG's arrays. cpu.py `allocate_view` first allocates the node its viewed edge reaches (`dispatch_allocate`
 * on that very AccessNode, which returns at once when its name is bound already), then binds the view. A name is
 * therefore bound once per scope; its other AccessNodes use that binding, whatever subset their own viewed edge
 * names (DaCe's generated code for container_group_jacobi_ContainerArray binds `v_A` and `v_B` both to
 * `AB->As[0]->AsArray`, docs/codegen.md).
 */
import type { Viewed } from '../analysis/aliases.js';
import type { AccessNode, Sdfg } from '../model/sdfg.js';
import { containingScope, type StateGraph } from './graph.js';

/**
 * The view AccessNodes directly in `scope` (null: the state's top level) that bind their name, in binding order:
 * each after the one it views when that one is bound here too.
 */
export function viewBindingOrder(sdfg: Sdfg, g: StateGraph, views: ReadonlyMap<number, Viewed | null>, scope: number | null): AccessNode[] {
  const inScope = g.state.nodes.filter(
    (n): n is AccessNode => n.kind === 'access' && views.get(n.id) != null && containingScope(g, n) === scope,
  );
  const ids = new Set(inScope.map((n) => n.id));
  const first = new Map<string, AccessNode>();
  for (const n of inScope) if (!first.has(n.data)) first.set(n.data, n);
  const bound = new Set<string>();
  const order: AccessNode[] = [];
  const bind = (n: AccessNode): void => {
    // Marked before the viewed node is visited, so that a cycle of views ends.
    bound.add(n.data);
    const viewed = views.get(n.id)!.node;
    if (ids.has(viewed.id) && !bound.has(viewed.data)) bind(viewed);
    order.push(n);
  };
  for (const name of sdfg.arrays.keys()) {
    const n = first.get(name);
    if (n && !bound.has(name)) bind(n);
  }
  return order;
}
