/** Small read-only queries over the normalised model that several engine stages need. */
import type { ControlFlowBlock, Sdfg, SdfgFile, StateBlock } from './sdfg.js';

/** Every control-flow block of an SDFG (not entering nested SDFGs), in file order. */
export function* blocksOf(sdfg: Sdfg): Generator<ControlFlowBlock> {
  const stack: ControlFlowBlock[] = [sdfg.body];
  while (stack.length) {
    const b = stack.pop()!;
    yield b;
    if (b.kind === 'region' || b.kind === 'loop') stack.push(...[...b.blocks].reverse());
    else if (b.kind === 'conditional') stack.push(...b.branches.map((br) => br.body).reverse());
  }
}

/** Every state of an SDFG's control flow (not entering nested SDFGs). */
export function* statesOf(sdfg: Sdfg): Generator<StateBlock> {
  for (const b of blocksOf(sdfg)) if (b.kind === 'state') yield b;
}

/**
 * Transients (`<sdfgIndex>:<name>`) that some memlet reads but no memlet (nor `setzero`) ever writes, in any
 * state: a program that uses them reads memory it never initialised, whatever the control flow does.
 */
export function neverWrittenTransients(file: SdfgFile): string[] {
  const out: string[] = [];
  for (const s of file.sdfgs) {
    const read = new Set<string>();
    const written = new Set<string>();
    for (const st of statesOf(s)) {
      for (const n of st.nodes) {
        if (n.kind !== 'access') continue;
        if (n.setzero) written.add(n.data);
      }
      for (const e of st.edges) {
        if (e.memlet.data === null) continue;
        const src = st.nodes[e.src];
        const dst = st.nodes[e.dst];
        if (dst?.kind === 'access') written.add(dst.data);
        if (src?.kind === 'access') read.add(src.data);
      }
    }
    for (const name of read) {
      if (s.arrays.get(name)?.transient && !written.has(name) && !s.constants.has(name)) out.push(`${s.sdfgIndex}:${name}`);
    }
  }
  return out.sort();
}
