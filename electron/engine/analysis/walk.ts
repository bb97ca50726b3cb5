/** Generic traversals of the control-flow tree of one SDFG (not into nested SDFGs). */
import type { ControlFlowBlock, DataflowNode, RegionBlock, StateBlock } from '../model/sdfg.js';

export function forEachState(region: RegionBlock, visit: (state: StateBlock) => void): void {
  const stack: ControlFlowBlock[] = [...region.blocks].reverse();
  while (stack.length) {
    const b = stack.pop()!;
    if (b.kind === 'state') visit(b);
    else if (b.kind === 'region' || b.kind === 'loop') for (let i = b.blocks.length - 1; i >= 0; i--) stack.push(b.blocks[i]!);
    else if (b.kind === 'conditional') for (let i = b.branches.length - 1; i >= 0; i--) stack.push(b.branches[i]!.body);
  }
}

/** The chain of scope entry nodes around `node`, innermost first. Stops on cycles in malformed files. */
export function scopeChain(state: StateBlock, node: DataflowNode): DataflowNode[] {
  const out: DataflowNode[] = [];
  let id = node.scopeEntry;
  while (id !== null && out.length <= state.nodes.length) {
    const entry = state.nodes[id];
    if (!entry) break;
    out.push(entry);
    id = entry.scopeEntry;
  }
  return out;
}

export function scopeLabel(node: DataflowNode): string {
  return node.kind === 'map_entry' ? node.map.label : node.label;
}

export function scheduleOf(node: DataflowNode): string | null {
  if (node.kind === 'map_entry') return node.map.schedule;
  if (node.kind === 'consume_entry' || node.kind === 'nested_sdfg' || node.kind === 'library') return node.schedule;
  return null;
}
