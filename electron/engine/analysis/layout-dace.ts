/**
 * DaCe's own External workspace layout (dace-memory-abi.md §2.4): per storage, every External descriptor in
 * `arrays_recursive()` order, `total_size × dtype bytes` each, back to back, no padding or alignment.
 * The caller passes the entries already in that order.
 */
import { addExpr, intExpr, render, type Expr } from './expr.js';
import type { DaceStorageLayout } from './types.js';

export interface DaceEntry {
  id: string;
  storage: string;
  bytes: bigint | null;
  /** Byte size as an expression (root symbols where possible), for symbolic offsets. */
  bytesExpr: Expr | null;
  /** Display form of the size when no expression is available. */
  bytesText: string;
}

export function daceLayouts(entries: DaceEntry[]): Record<string, DaceStorageLayout> {
  const groups = new Map<string, DaceEntry[]>();
  for (const e of entries) {
    const g = groups.get(e.storage);
    if (g) g.push(e);
    else groups.set(e.storage, [e]);
  }
  const out: Record<string, DaceStorageLayout> = {};
  for (const [storage, group] of groups) out[storage] = daceLayout(group);
  return out;
}

function daceLayout(group: DaceEntry[]): DaceStorageLayout {
  const offsets = new Map<string, bigint | string>();
  let numeric = 0n;
  // The unknown sizes are kept apart from the numeric part so that offsets stay short expressions.
  let symbolic: Expr | null = null;
  const text: string[] = [];
  for (const e of group) {
    offsets.set(e.id, symbolic === null && text.length === 0 ? numeric : offsetText(numeric, symbolic, text));
    if (e.bytes !== null) numeric += e.bytes;
    else if (e.bytesExpr) symbolic = symbolic ? addExpr(symbolic, e.bytesExpr) : e.bytesExpr;
    else text.push(`(${e.bytesText})`);
  }
  const complete = symbolic === null && text.length === 0;
  return {
    bytes: complete ? numeric : null,
    bytesExpr: complete ? String(numeric) : offsetText(numeric, symbolic, text),
    offsets,
    order: group.map((e) => e.id),
  };
}

function offsetText(numeric: bigint, symbolic: Expr | null, text: string[]): string {
  const sum = symbolic ? (numeric ? addExpr(symbolic, intExpr(numeric)) : symbolic) : null;
  const parts = [sum ? render(sum) : numeric ? String(numeric) : '', ...text].filter((p) => p !== '');
  return parts.length ? parts.join(' + ') : '0';
}
