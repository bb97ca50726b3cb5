/**
 * The change that would make a transient EXTERNAL-eligible, for each rule of analysis/eligibility.ts. `null`
 * change: the rule is not a blocker a user can lift for memory's sake (the transient owns no bytes, is
 * already in the workspace, or is a compile-time constant).
 */
import type { BlockRule } from '../analysis/eligibility.js';

const names = (xs: string[]): string => xs.map((x) => `'${x}'`).join(', ');

export function remedyFor(block: BlockRule): string | null {
  switch (block.rule) {
    case 'structure-member':
      return `store it as a standalone transient instead of a member of structure '${block.structure}'`;
    case 'constant':
    case 'type':
    case 'stack':
    case 'thread-local':
    case 'never-accessed':
      return null;
    case 'lifetime':
      return block.lifetime === 'Persistent'
        ? "set its lifetime to Scope in the SDFG (or drop gt4py's explicit Persistent), so the memory mode decides where it lives"
        : null;
    case 'inside-map':
      return `allocate it outside map '${block.map}' (state '${block.state}'): give it one slice per map iteration, indexed by the map's parameters`;
    case 'nested-in-map':
      return `move it out of nested SDFG '${block.sdfg}', which runs inside map '${block.map}' (state '${block.state}'): pass it in from outside the map with one slice per iteration`;
    case 'size':
      return 'give its size a form the analysis can evaluate from the program arguments';
    case 'dtype-size':
      return 'give it a dtype of known size';
    case 'assigned-symbols':
      return `make ${names(block.symbols)} a program argument: SDFG '${block.sdfg}' assigns it itself (interstate assignment, loop variable or map parameter), so it has no value at init`;
    case 'mapped-from-assigned':
      return `make the outer symbol(s) that ${names(block.symbols)} of nested SDFG '${block.sdfg}' map to program arguments`;
    case 'unmapped-symbols':
      return `map ${names(block.symbols)} into nested SDFG '${block.sdfg}' from the caller's symbols (symbol_mapping)`;
    case 'cpu-scalar':
      return 'make it a one-element Array: DaCe cannot compile External CPU scalars';
  }
}
