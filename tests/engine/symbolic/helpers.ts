import type { Expr, Value } from '../../../electron/engine/symbolic/index.js';

/** Tree without literal suffixes or dtypes, for structural comparisons that ignore typing details. */
export function plain(e: unknown): unknown {
  return JSON.parse(JSON.stringify(e, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
}

export const int = (v: bigint | number): Expr => ({ k: 'int', v: BigInt(v) });
export const sym = (name: string, dtype?: string): Expr => (dtype === undefined ? { k: 'sym', name } : { k: 'sym', name, dtype });

export function rat(n: bigint | number, d: bigint | number = 1): Value {
  return { k: 'rat', n: BigInt(n), d: BigInt(d) };
}

export function envOf(values: Record<string, bigint | number | boolean>): (name: string) => bigint | number | boolean | undefined {
  return (name) => values[name];
}
