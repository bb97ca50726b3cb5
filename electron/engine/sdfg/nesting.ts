/**
 * How deep a program's control flow nests: regions, loops, branch bodies and nested SDFGs inside each other. The
 * parser reads any depth (it works from an explicit stack), but analysis, drawing and code generation walk the
 * model recursively, and real programs nest a few levels (the corpus: at most 9). A file nested deeper than
 * MAX_NESTING is refused here, once, with the JSON path of the first block over the limit, instead of a stack
 * overflow somewhere later.
 */
import { TlabError } from '../errors.js';
import type { ControlFlowBlock, RegionBlock, Sdfg } from '../model/sdfg.js';

/** Regions, loops, branch bodies and nested SDFGs inside each other; the code generator's limit too (subset.ts). */
export const MAX_NESTING = 256;

/** Throws TlabError('unsupported') naming the first block nested deeper than MAX_NESTING. */
export function checkNesting(root: Sdfg, file: string): void {
  const stack: Array<{ region: RegionBlock | Extract<ControlFlowBlock, { kind: 'loop' }>; depth: number }> = [
    { region: root.body, depth: 0 },
  ];
  while (stack.length > 0) {
    const { region, depth } = stack.pop()!;
    for (const block of region.blocks) {
      const inner = depth + 1;
      if ((block.kind === 'region' || block.kind === 'loop' || block.kind === 'conditional') && inner > MAX_NESTING)
        refuse(block.jsonPath, file);
      if (block.kind === 'region' || block.kind === 'loop') stack.push({ region: block, depth: inner });
      else if (block.kind === 'conditional') for (const b of block.branches) stack.push({ region: b.body, depth: inner });
      else if (block.kind === 'state') {
        for (const node of block.nodes) {
          if (node.kind !== 'nested_sdfg' || !node.sdfg) continue;
          if (inner > MAX_NESTING) refuse(node.sdfg.jsonPath, file);
          stack.push({ region: node.sdfg.body, depth: inner });
        }
      }
    }
  }
}

function refuse(jsonPath: string, file: string): never {
  throw new TlabError(
    'unsupported',
    `control flow nested deeper than ${MAX_NESTING} levels (regions, loops, branches and nested SDFGs inside each other): Transient Lab reads at most ${MAX_NESTING}; flatten the control flow or inline nested SDFGs in DaCe`,
    { file, jsonPath },
  );
}
