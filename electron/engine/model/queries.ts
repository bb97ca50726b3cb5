/** Small read-only queries over the normalised model that several engine stages need. */
import { freeSymbols, parsePython, parsePythonStatements, parseSym, statementNames } from '../symbolic/index.js';
import type { ControlFlowBlock, DataDescriptor, MapEntryNode, MemletEdge, Sdfg, SdfgFile, StateBlock } from './sdfg.js';

/** Every control-flow block of an SDFG (not entering nested SDFGs), in file order. */
export function* blocksOf(sdfg: Sdfg): Generator<ControlFlowBlock> {
  const stack: ControlFlowBlock[] = [sdfg.body];
  while (stack.length) {
    const b = stack.pop()!;
    yield b;
    // Pushed one by one, last first: a spread into push() overflows the stack at ~100k blocks.
    if (b.kind === 'region' || b.kind === 'loop') for (let i = b.blocks.length - 1; i >= 0; i--) stack.push(b.blocks[i]!);
    else if (b.kind === 'conditional') for (let i = b.branches.length - 1; i >= 0; i--) stack.push(b.branches[i]!.body);
  }
}

/**
 * A map entry's dynamic range inputs (DaCe's `dynamic_map_inputs`): input connectors that do not start with
 * `IN_`. Each is a scalar read from data before the map runs; its name is usable in the map's range and
 * inside its scope, where it shadows any symbol of the same name.
 */
export function dynamicInputConnectors(entry: Pick<MapEntryNode, 'inConnectors'>): string[] {
  return Object.keys(entry.inConnectors).filter((c) => !c.startsWith('IN_'));
}

/** The edges that feed a map entry's dynamic range inputs, in the state's edge order. */
export function dynamicInputEdges(state: StateBlock, entry: MapEntryNode): MemletEdge[] {
  return state.edges.filter((e) => e.dst === entry.id && e.dstConnector !== null && !e.dstConnector.startsWith('IN_'));
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

/** An interstate condition that always holds (DaCe writes `1`, `True` or nothing). */
export function isTrueCondition(code: string): boolean {
  const c = code.trim();
  return c === '' || c === '1' || c === 'True' || c === '(1)' || c === 'true';
}

/**
 * The root SDFG's free symbols that the program reads: read somewhere (sizes, strides, ranges, code), never
 * assigned inside (interstate assignments, loop variables, map parameters), and not a container or constant.
 * These are the symbol arguments of DaCe's ABI, sorted by UTF-16 code unit as DaCe sorts them.
 */
export function usedRootSymbols(file: SdfgFile): string[] {
  const root = file.root;
  const found = new Set<string>();
  const symNames = (src: string) => freeSymbols(parseSym(src, file.grammar));
  // Unparseable text is the subset check's to report; here it simply contributes no names.
  const addSym = (src: string | null | undefined) => {
    if (!src) return;
    try {
      for (const n of symNames(src)) found.add(n);
    } catch {
      /* reported by the subset check */
    }
  };
  const addCode = (src: string | null | undefined) => {
    if (!src) return;
    try {
      for (const n of freeSymbols(parsePython(src))) found.add(n);
    } catch {
      try {
        statementNames(parsePythonStatements(src), found, new Set());
      } catch {
        /* reported by the subset check */
      }
    }
  };
  // Members of a structure argument are arguments too (DaCe's Structure.free_symbols includes theirs).
  const addDescriptor = (d: DataDescriptor, transient: boolean): void => {
    if (transient) [...d.shape, d.totalSize].forEach(addSym);
    [...d.strides, ...d.offset].forEach(addSym);
    if (!transient) addSym(d.totalSize);
    if (!transient) for (const m of d.members ?? []) addDescriptor(m, false);
  };
  for (const [, d] of root.arrays) addDescriptor(d, d.transient);
  const mapParams = new Set<string>();
  // Dynamic map range inputs are read from data, not passed: an undeclared one is no symbol argument.
  const dynamicInputs = new Set<string>();
  const locals = new Set<string>();
  for (const b of blocksOf(root)) {
    if (b.kind === 'region' || b.kind === 'loop') {
      for (const e of b.edges) {
        if (!isTrueCondition(e.condition)) addCode(e.condition);
        for (const [k, v] of e.assignments) {
          locals.add(k);
          addCode(v);
        }
      }
    }
    if (b.kind === 'loop') {
      if (b.loopVariable) locals.add(b.loopVariable);
      addCode(b.condition);
      for (const st of [b.init, b.update]) {
        if (!st) continue;
        try {
          statementNames(parsePythonStatements(st), found, locals);
        } catch {
          /* reported by the subset check */
        }
      }
    }
    if (b.kind === 'conditional') for (const br of b.branches) addCode(br.condition);
    if (b.kind !== 'state') continue;
    for (const n of b.nodes) {
      if (n.kind === 'map_entry') {
        n.map.params.forEach((p) => mapParams.add(p));
        dynamicInputConnectors(n).forEach((c) => dynamicInputs.add(c));
        for (const r of n.map.range) [r.start, r.end, r.step].forEach(addSym);
      } else if (n.kind === 'nested_sdfg') {
        Object.values(n.symbolMapping).forEach(addSym);
      } else if (n.kind === 'tasklet') {
        const conns = new Set([...Object.keys(n.inConnectors), ...Object.keys(n.outConnectors)]);
        if (n.code.language === 'Python') {
          try {
            const { reads, writes } = statementNames(parsePythonStatements(n.code.code));
            for (const r of reads) if (!conns.has(r) && !writes.has(r)) found.add(r);
          } catch {
            /* reported by the subset check */
          }
        } else {
          for (const m of n.code.code.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) if (root.symbols.has(m[0]) && !conns.has(m[0])) found.add(m[0]);
        }
      }
    }
    for (const e of b.edges) {
      const m = e.memlet;
      for (const s of [m.subset, m.otherSubset]) {
        if (!s) continue;
        if (s.kind === 'range') s.dims.forEach((d) => [d.start, d.end, d.step].forEach(addSym));
        else if (s.kind === 'indices') s.indices.forEach(addSym);
      }
    }
  }
  const bound = (name: string) =>
    locals.has(name) || mapParams.has(name) || root.arrays.has(name) || root.constants.has(name) || name.startsWith('__dace');
  // Undeclared identifiers only count when a symbolic field (not code) uses them: legacy files omit symbols,
  // so names in transient sizes and map ranges are accepted as symbols even when undeclared.
  const result = new Set([...found].filter((name) => !bound(name) && root.symbols.has(name)));
  const addUndeclared = (src: string) => {
    try {
      for (const n of symNames(src)) if (!bound(n) && !dynamicInputs.has(n) && !root.symbols.has(n)) result.add(n);
    } catch {
      /* reported by the subset check */
    }
  };
  for (const [, d] of root.arrays) if (d.transient) [...d.shape, d.totalSize].forEach(addUndeclared);
  for (const st of statesOf(root))
    for (const n of st.nodes) if (n.kind === 'map_entry') for (const r of n.map.range) [r.start, r.end, r.step].forEach(addUndeclared);
  return [...result].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
