/**
 * Expression and statement trees shared by every consumer of `engine/symbolic`.
 *
 * Trees returned by the parsers are frozen and may be shared between callers (parseSym memoises them), so
 * every transformation in this module builds new nodes instead of editing old ones.
 */

export type BinOp =
  '+' | '-' | '*' | '/' | '//' | '%' | '**' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or' | '&' | '|' | '^' | '<<' | '>>';

type UnOp = '-' | '+' | 'not' | '~';

export type Expr =
  /** `suffix` keeps a typed-grammar suffix such as `i64` (the value does not depend on it). */
  | { k: 'int'; v: bigint; suffix?: string }
  /** Non-integer literal; `text` is the literal as written without its typed suffix (`f32`, …), which is kept in `suffix`. */
  | { k: 'float'; v: number; text: string; suffix?: string }
  | { k: 'bool'; v: boolean }
  | { k: 'none' }
  /** `$N` → name 'N'; `symbol($n, dtype=dace.int64)` → name 'n', dtype 'int64'; `$?` → name '?'. */
  | { k: 'sym'; name: string; dtype?: string }
  | { k: 'bin'; op: BinOp; a: Expr; b: Expr }
  | { k: 'un'; op: UnOp; a: Expr }
  /** `a < b < c`: only built for two or more comparisons; `operands.length === ops.length + 1`. */
  | { k: 'cmpchain'; ops: BinOp[]; operands: Expr[] }
  /** `fn` may be dotted: 'math.exp', 'dace.float64'. */
  | { k: 'call'; fn: string; args: Expr[]; kwargs: Array<[string, Expr]> }
  | { k: 'ternary'; cond: Expr; then: Expr; else: Expr }
  /** `A[i, j]`: conditions and tasklets may read data containers. */
  | { k: 'subscript'; base: Expr; index: Expr[] }
  /** `math.pi` */
  | { k: 'attr'; base: Expr; name: string }
  | { k: 'tuple'; items: Expr[] };

export type Stmt =
  /** `a = b = expr`: targets are sym, subscript, attr or tuples of those. */
  | { k: 'assign'; targets: Expr[]; value: Expr }
  | { k: 'augassign'; op: BinOp; target: Expr; value: Expr }
  /** `elif` is folded into `else` as a nested `if`. */
  | { k: 'if'; cond: Expr; then: Stmt[]; else: Stmt[] }
  | { k: 'pass' }
  | { k: 'expr'; e: Expr };

export type BinExpr = Extract<Expr, { k: 'bin' }>;

/**
 * The left spine of a binary tree, walked in a loop: sums of thousands of terms are left-deep, and recursing
 * down them would overflow the stack. `spine` is outermost first; `base` is the leftmost operand where the
 * walk stopped (at a non-binary node, or at the first node `follow` rejects).
 */
export function leftSpine(e: Expr, follow: (node: BinExpr) => boolean = () => true): { spine: BinExpr[]; base: Expr } {
  const spine: BinExpr[] = [];
  let cur: Expr = e;
  while (cur.k === 'bin' && follow(cur)) {
    spine.push(cur);
    cur = cur.a;
  }
  return { spine, base: cur };
}

/** Tree height (a leaf is 1), with an explicit stack: also for trees built by substitution, deeper than the parser allows. */
export function exprHeight(e: Expr): number {
  let max = 0;
  const stack: Array<[Expr, number]> = [[e, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    for (const c of exprChildren(node)) stack.push([c, depth + 1]);
  }
  return max;
}

/** The direct sub-expressions of a node (call arguments, then keyword values). */
export function exprChildren(e: Expr): readonly Expr[] {
  switch (e.k) {
    case 'bin':
      return [e.a, e.b];
    case 'un':
      return [e.a];
    case 'cmpchain':
      return e.operands;
    case 'call':
      return e.kwargs.length ? [...e.args, ...e.kwargs.map(([, v]) => v)] : e.args;
    case 'ternary':
      return [e.cond, e.then, e.else];
    case 'subscript':
      return [e.base, ...e.index];
    case 'attr':
      return [e.base];
    case 'tuple':
      return e.items;
    default:
      return [];
  }
}

/** `math.pi` → "math.pi"; null unless the expression is a chain of attributes on a name. */
export function dottedPath(e: Expr): string | null {
  const parts: string[] = [];
  let cur = e;
  while (cur.k === 'attr') {
    parts.push(cur.name);
    cur = cur.base;
  }
  if (cur.k !== 'sym') return null;
  parts.push(cur.name);
  return parts.reverse().join('.');
}

export const COMPARISON_OPS: ReadonlySet<BinOp> = new Set<BinOp>(['==', '!=', '<', '<=', '>', '>=']);

/** A symbolic or code string could not be parsed. `position` is a 0-based offset into `source`. */
export class SymbolicSyntaxError extends Error {
  readonly source: string;
  readonly position: number;

  constructor(reason: string, source: string, position: number) {
    super(`${reason} at column ${position + 1} of ${quoteExcerpt(source, position)}`);
    this.name = 'SymbolicSyntaxError';
    this.source = source;
    this.position = position;
  }
}

/** Evaluation needed a symbol the environment does not bind. */
export class UnboundSymbolError extends Error {
  readonly symbol: string;

  constructor(symbol: string) {
    super(`symbol '${symbol}' has no value`);
    this.name = 'UnboundSymbolError';
    this.symbol = symbol;
  }
}

// Messages end up in one-line CLI output, so huge expressions are cut around the faulty column.
function quoteExcerpt(source: string, position: number): string {
  const maxChars = 120;
  if (source.length <= maxChars) return JSON.stringify(source);
  const from = Math.max(0, Math.min(position - maxChars / 2, source.length - maxChars));
  const cut = source.slice(from, from + maxChars);
  return `${from > 0 ? '…' : ''}${JSON.stringify(cut)}${from + maxChars < source.length ? '…' : ''}`;
}
