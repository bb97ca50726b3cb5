/**
 * Footprints of transients: `total_size × bytes(dtype)` as an exact bigint over the root symbols, and the
 * same as an expression for display. Scalars count one element; a stream counts its queues' block.
 */
import type { DataDescriptor, DType, Sdfg } from '../model/sdfg.js';
import { intExpr, mulExpr, render, type Expr } from './expr.js';
import { streamBytesSource } from './stream-footprint.js';
import type { SymbolContext } from './symbols.js';

export function dtypeName(d: DType): string {
  switch (d.kind) {
    case 'scalar':
      return d.name;
    case 'pointer':
      return `pointer<${d.base ? dtypeName(d.base) : 'void'}>`;
    case 'vector':
      return `vector<${dtypeName(d.base)}, ${d.elements}>`;
    case 'struct':
      return `struct ${d.name}`;
    case 'opaque':
      return `opaque ${d.ctype}`;
    default:
      return 'unknown';
  }
}

export interface Footprint {
  /** Bytes as an expression of the descriptor's own SDFG symbols (null: unparseable size). */
  localExpr: Expr | null;
  /** Bytes over root symbols (null: unparseable, unknown dtype size, or inner symbols without mapping). */
  rootExpr: Expr | null;
  bytes: bigint | null;
  bytesExpr: string;
  /** Symbols of `total_size` as written (own SDFG names). */
  sizeSymbols: string[];
  /** Own-SDFG symbols of the size that have no root meaning. */
  untranslated: string[];
  /** Why the size could not be read at all, if so. */
  problem: string | null;
}

export function footprint(desc: DataDescriptor, sdfg: Sdfg, symbols: SymbolContext): Footprint {
  // A stream's source is its block's bytes already (stream-footprint.ts): no element size to multiply by.
  const stream = desc.type === 'Stream';
  const elementBytes = stream ? 1 : desc.dtype.bytes;
  const sizeSrc = stream ? streamBytesSource(desc) : desc.type === 'Scalar' ? '1' : desc.totalSize;
  let size: Expr;
  try {
    size = symbols.exprs.size(sizeSrc);
  } catch (err) {
    return {
      localExpr: null,
      rootExpr: null,
      bytes: null,
      bytesExpr: `${sizeSrc} × ${elementBytes ?? '?'}`,
      sizeSymbols: [],
      untranslated: [],
      problem: `cannot read total_size '${sizeSrc}': ${(err as Error).message}`,
    };
  }
  const sizeSymbols = [...symbols.exprs.namesOf(size)].sort();
  const localExpr = elementBytes === null ? null : elementBytes === 1 ? size : mulExpr(intExpr(elementBytes), size);
  const root = symbols.toRoot(sdfg, size);
  const rootExpr = root.expr && elementBytes !== null ? (elementBytes === 1 ? root.expr : mulExpr(intExpr(elementBytes), root.expr)) : null;
  const bytes = rootExpr ? symbols.valueOf(rootExpr) : null;
  const shown = rootExpr ?? localExpr;
  const bytesExpr = bytes !== null ? bytes.toString() : shown ? render(shown) : `(${render(size)}) × ?`;
  return { localExpr, rootExpr, bytes, bytesExpr, sizeSymbols, untranslated: root.untranslated, problem: null };
}
