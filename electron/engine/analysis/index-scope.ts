/**
 * What the index-range analysis (index-ranges.ts), its sinks (index-sinks.ts) and its joint pass (index-joint.ts)
 * share: what a name holds (a carrier of an argument's value, and what an expression carries), the per-SDFG
 * scope they walk, and small expression helpers.
 */
import type { DataDescriptor, Sdfg, SdfgFile } from '../model/sdfg.js';
import { evalInt, freeSymbols, parsePython, parseSym, substitute, type Expr } from '../symbolic/index.js';

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

/** `src` in the SDFG's grammar, or null where it does not parse (the access it belongs to is skipped). */
export function trySym(src: string, grammar: SdfgFile['grammar']): Expr | null {
  try {
    return parseSym(src, grammar);
  } catch {
    return null;
  }
}

/** `src` as a Python expression, or null where it does not parse. */
export function tryPython(src: string): Expr | null {
  try {
    return parsePython(src);
  } catch {
    return null;
  }
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

/** What an expression holds: each carrier among its names (and subscripts of carrier containers). */
export function carriersOf(scope: Scope, x: Expr, role: Carrier['role']): Carrier[] {
  const out: Carrier[] = [];
  // Subscripts of (or plain reads of scalar) carrier containers.
  const subs: Array<{ node: Expr; carriers: Carrier[] }> = [];
  rewrite(x, (n) => {
    if (n.k === 'subscript' || n.k === 'attr') {
      const name = n.k === 'subscript' ? dottedName(n.base) : dottedName(n);
      const cs = name !== null ? scope.containers.get(memberName(name)) : undefined;
      if (cs) {
        subs.push({ node: n, carriers: cs });
        return n;
      }
    }
    return undefined;
  });
  for (const s of subs) {
    for (const c of s.carriers) {
      const f = rewrite(x, (n) => (n === s.node ? c.f : undefined));
      out.push({ arg: c.arg, f, role: role ?? c.role });
    }
  }
  for (const name of freeSymbols(x)) {
    // A scalar container (a transient a tasklet wrote) is read by its name too.
    const cs = scope.symbols.get(name) ?? (descriptorOf(scope.sdfg, name)?.arrayLike === false ? scope.containers.get(name) : undefined);
    if (!cs) continue;
    for (const c of cs) out.push({ arg: c.arg, f: substitute(x, new Map([[name, c.f]])), role: role ?? c.role });
  }
  return out;
}

export function addCarriers(table: Map<string, Carrier[]>, name: string, cs: Carrier[]): void {
  if (!cs.length) return;
  const list = table.get(name) ?? [];
  for (const c of cs) {
    if (list.length >= MAX_CARRIERS) break;
    if (!list.some((o) => o.arg === c.arg && o.role === c.role && JSON.stringify(o.f, big) === JSON.stringify(c.f, big))) list.push(c);
  }
  table.set(name, list);
}

function big(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** Every combination of the named variables at their range's bounds (one empty map when none). */
export function corners(names: readonly string[], ranges: ReadonlyMap<string, [bigint, bigint]>): Array<Map<string, bigint>> {
  let out: Array<Map<string, bigint>> = [new Map<string, bigint>()];
  for (const n of names) {
    const [lo, hi] = ranges.get(n)!;
    const at = (m: Map<string, bigint>, v: bigint) => new Map<string, bigint>([...m, [n, v]]);
    out = out.flatMap((m) => (lo === hi ? [at(m, lo)] : [at(m, lo), at(m, hi)]));
  }
  return out;
}
