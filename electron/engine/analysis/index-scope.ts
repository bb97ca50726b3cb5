/**
 * What the index-range analysis (index-ranges.ts) and its joint pass (index-joint.ts) share: what a name holds
 * (a carrier of an argument's value), the per-SDFG scope they walk, and small expression helpers.
 */
import type { DataDescriptor, Sdfg } from '../model/sdfg.js';
import { evalInt, type Expr } from '../symbolic/index.js';

/** A name whose interval is computed on demand (depth guards definitions that refer to themselves). */
export type LazyInterval = (depth: number) => [bigint, bigint] | null;

/** An argument's value at some name: the name holds `f(v)`, `v` one element of `arg`. */
export interface Carrier {
  arg: string;
  f: Expr;
  role: 'lower' | 'upper' | null;
}

export const V = '__tlab_v';
export const VEXPR: Expr = { k: 'sym', name: V };
/** Distinct carriers per name: a name assigned from many places keeps its first few (guards blow-up). */
export const MAX_CARRIERS = 8;

export interface Scope {
  sdfg: Sdfg;
  /** Known integer values of this SDFG's symbols. */
  env: Map<string, bigint>;
  /** Container name → what it holds. */
  containers: Map<string, Carrier[]>;
  /** Symbol, loop variable, map parameter or dynamic range input → what it holds. */
  symbols: Map<string, Carrier[]>;
  /** This SDFG's symbols that are a root symbol under another name (a plain symbol mapping). */
  roots: Map<string, string>;
  /** Loop variables and map parameters whose bounds have known values: inclusive [min, max]. */
  ranges: Map<string, [bigint, bigint]>;
  /** Joint pass (index-joint.ts): names whose interval is computed when an index asks. */
  lazy: Map<string, LazyInterval>;
  /** Joint pass: each symbol's interstate assignments (by their text). */
  defs: Map<string, Map<string, Expr>>;
  /** Structure member leaves (`ptr_patch.nlev`, this SDFG's names) whose value is a symbol's (init copies it). */
  members: Map<string, bigint>;
}

/** `a.b[0].c` and `a->b` as `a.b.c` (the Fortran frontend's spellings of a structure member). */
export function memberName(text: string): string {
  return text.replace(/\[0\]\./g, '.').replace(/->/g, '.');
}

export function dottedName(e: Expr): string | null {
  if (e.k === 'sym') return e.name;
  if (e.k === 'attr') {
    const base = dottedName(e.base);
    return base === null ? null : `${base}.${e.name}`;
  }
  if (e.k === 'subscript' && e.index.length === 1 && e.index[0]!.k === 'int' && e.index[0].v === 0n) return dottedName(e.base);
  return null;
}

/** Resolves a (possibly dotted) container name to its descriptor. */
export function descriptorOf(sdfg: Sdfg, name: string): DataDescriptor | undefined {
  const parts = memberName(name).split('.');
  let d = sdfg.arrays.get(parts[0]!);
  for (const m of parts.slice(1)) d = d?.members?.find((x) => x.name === m);
  return d;
}

export function tryEval(e: Expr, env: ReadonlyMap<string, bigint>): bigint | null {
  try {
    return evalInt(e, env);
  } catch {
    return null;
  }
}

/** Rewrites `e`, letting `visit` replace a node first. Expressions here are small: plain recursion. */
export function rewrite(e: Expr, visit: (n: Expr) => Expr | undefined): Expr {
  const r = visit(e);
  if (r !== undefined) return r;
  switch (e.k) {
    case 'bin':
      return { ...e, a: rewrite(e.a, visit), b: rewrite(e.b, visit) };
    case 'un':
      return { ...e, a: rewrite(e.a, visit) };
    case 'call':
      return { ...e, args: e.args.map((a) => rewrite(a, visit)) };
    case 'ternary':
      return { ...e, cond: rewrite(e.cond, visit), then: rewrite(e.then, visit), else: rewrite(e.else, visit) };
    case 'cmpchain':
      return { ...e, operands: e.operands.map((a) => rewrite(a, visit)) };
    case 'subscript':
      return { ...e, base: rewrite(e.base, visit), index: e.index.map((a) => rewrite(a, visit)) };
    case 'tuple':
      return { ...e, items: e.items.map((a) => rewrite(a, visit)) };
    default:
      return e;
  }
}
