/**
 * The only place where the analysis touches the symbolic module. Everything else works with these few
 * helpers, so a change in the symbolic API is a change here only.
 *
 * Parsing is memoised per source string: a 166 MB file repeats the same shape strings thousands of times,
 * and most of the analysis time would otherwise go into re-tokenising them.
 */
import type { Grammar } from '../model/sdfg.js';
import { E, approxOf, evalInt, freeSymbols, parsePython, parseSym, show, simplify, substitute, type Expr } from '../symbolic/index.js';

export type { Expr };

export class ExprCache {
  private readonly symbolic = new Map<string, Expr | Error>();
  private readonly python = new Map<string, Expr | Error>();
  private readonly names = new WeakMap<object, ReadonlySet<string>>();

  constructor(readonly grammar: Grammar) {}

  /** A symbolic field (shape, total_size, range bound, symbol mapping); throws the parser's error. */
  sym(src: string): Expr {
    let hit = this.symbolic.get(src);
    if (hit === undefined) {
      try {
        hit = parseSym(src, this.grammar);
      } catch (err) {
        hit = err instanceof Error ? err : new Error(String(err));
      }
      this.symbolic.set(src, hit);
    }
    if (hit instanceof Error) throw hit;
    return hit;
  }

  /** A symbolic field as people read it (`I + 2`, not the typed grammar's `2 + $I`); the source text when
   * it does not parse, so display never fails. */
  display(src: string): string {
    try {
      return show(this.sym(src));
    } catch {
      return src;
    }
  }

  /** Like `sym`, but for sizes: a `SymExpr(exact, approx)` contributes its over-approximation. */
  size(src: string): Expr {
    return approxOf(this.sym(src));
  }

  /** Python code (conditions, assignments' right-hand sides); throws on syntax errors. */
  py(src: string): Expr {
    let hit = this.python.get(src);
    if (hit === undefined) {
      try {
        hit = parsePython(src);
      } catch (err) {
        hit = err instanceof Error ? err : new Error(String(err));
      }
      this.python.set(src, hit);
    }
    if (hit instanceof Error) throw hit;
    return hit;
  }

  /** Free names of an expression (symbols, and containers read by subscripts in Python code). */
  namesOf(e: Expr): ReadonlySet<string> {
    const key = e as unknown as object;
    let hit = this.names.get(key);
    if (!hit) {
      hit = freeSymbols(e);
      this.names.set(key, hit);
    }
    return hit;
  }
}

export const intExpr = (v: bigint | number): Expr => E.int(typeof v === 'bigint' ? v : BigInt(v));
export const symExpr = (name: string): Expr => E.sym(name);
// Raw nodes: the builders in E simplify on every call, which is quadratic for long running sums; callers
// simplify once when rendering.
export const addExpr = (a: Expr, b: Expr): Expr => ({ k: 'bin', op: '+', a, b });
export const mulExpr = (a: Expr, b: Expr): Expr => ({ k: 'bin', op: '*', a, b });

export function evaluate(e: Expr, env: ReadonlyMap<string, bigint>): bigint | null {
  try {
    return evalInt(e, env);
  } catch {
    // Division by zero or a non-integer result on odd symbol values: the value is simply unknown.
    return null;
  }
}

export function rename(e: Expr, mapping: ReadonlyMap<string, Expr>): Expr {
  return mapping.size === 0 ? e : substitute(e, mapping);
}

export function render(e: Expr): string {
  try {
    return show(simplify(e));
  } catch {
    return show(e);
  }
}
