/**
 * What an expansion needs to know about one memlet of a library node: the container's subset as start and
 * size per dimension, and the dimensions left after DaCe's squeeze (those of size other than 1).
 */
import type { DataDescriptor, MemletEdge, Sdfg } from '../../model/sdfg.js';
import { evalInt, freeSymbols, parseSym } from '../../symbolic/index.js';
import type { Grammar, LibraryNode } from '../../model/sdfg.js';
import type { ArraySpec, StateJson } from './graph-json.js';

export interface Operand {
  edge: MemletEdge;
  desc: DataDescriptor;
  /** Per container dimension: inclusive start and end, and the size. */
  dims: Array<{ start: string; end: string; size: string }>;
  /** Container dimensions whose size is not 1, in order. */
  kept: number[];
  /** Shape and strides over the kept dimensions (`['1']` when every dimension is 1). */
  shape: string[];
  strides: string[];
  dtype: string;
}

function isOne(size: string, grammar: Grammar): boolean {
  if (size === '1') return true;
  try {
    return evalInt(parseSym(size, grammar), new Map()) === 1n;
  } catch {
    return false;
  }
}

/** The operand behind `edge`, or why it cannot be expanded. */
export function operandOf(sdfg: Sdfg, edge: MemletEdge, grammar: Grammar): Operand | string {
  const name = edge.memlet.data;
  if (name === null) return 'its memlet is empty';
  const desc = sdfg.arrays.get(name);
  if (!desc) return `its memlet names '${name}', which is not a container of ${sdfg.name}`;
  if (!desc.arrayLike && desc.type !== 'Scalar') return `'${name}' is a ${desc.type}`;
  if (desc.dtype.kind !== 'scalar') return `'${name}' has a non-scalar dtype`;
  const subset = edge.memlet.subset;
  let dims: Array<{ start: string; end: string }>;
  if (subset === null) dims = desc.shape.map((s) => ({ start: '0', end: `${s} - 1` }));
  else if (subset.kind === 'indices') dims = subset.indices.map((i) => ({ start: i, end: i }));
  else if (subset.kind === 'range') {
    if (subset.dims.some((d) => d.step.trim() !== '1')) return 'its memlet has a strided subset';
    dims = subset.dims.map((d) => ({ start: d.start, end: d.end }));
  } else return 'its memlet is a subset union';
  if (dims.length !== desc.shape.length) return `its memlet has ${dims.length} dimensions, '${name}' has ${desc.shape.length}`;
  const sized = dims.map((d) => ({ ...d, size: d.start === d.end ? '1' : `(${d.end}) - (${d.start}) + 1` }));
  const kept = sized.flatMap((d, i) => (isOne(d.size, grammar) ? [] : [i]));
  const shape = kept.length ? kept.map((i) => sized[i]!.size) : ['1'];
  const strides = kept.length ? kept.map((i) => desc.strides[i] ?? '1') : ['1'];
  return { edge, desc, dims: sized, kept, shape, strides, dtype: desc.dtype.name };
}

/** Free symbols of the operands' shapes and strides: the expansion's SDFG receives them, name for name. */
export function symbolsOf(ops: Operand[], grammar: Grammar): string[] {
  const names = new Set<string>();
  for (const op of ops) for (const s of [...op.shape, ...op.strides]) for (const n of freeSymbols(parseSym(s, grammar))) names.add(n);
  return [...names].sort();
}

/** A node's operands by the name its expansion's SDFG gives them (the connector's). */
export interface ExpansionIo {
  ins: Map<string, Operand>;
  outs: Map<string, Operand>;
}

/** What an expansion builds: its states, and the transients they use besides the operands. */
export interface Expansion {
  states: StateJson[];
  transients?: Record<string, ArraySpec>;
  /** The library the generated code calls (absent: plain loops). */
  library?: ExternalLibrary;
}

/** Libraries an expansion can call: headers the program includes and what it links (compile/build.ts). */
export type ExternalLibrary = 'OpenBLAS' | 'LAPACKE';

/** Where the node sits. */
export interface ExpansionSite {
  /** Inside a GPU kernel (a GPU-scheduled map encloses it, in its state or around a nested SDFG holding it). */
  inKernel: boolean;
  /** The file's expression grammar. */
  grammar: Grammar;
}

export type Expander = (node: LibraryNode, io: ExpansionIo, sym: (name: string) => string, site: ExpansionSite) => Expansion | string;
