/** Tree queries and rewrites: free symbols, substitution, SymExpr approximation, simplification, builders. */
import { leftSpine, type BinOp, type Expr } from './ast.js';
import { evaluate, isFloatFunction, isFloatTypeName, type Value } from './evaluate.js';
import { show } from './show.js';

type BinNode = Extract<Expr, { k: 'bin' }>;

/** Names used as module prefixes in code (`math.pi`); they are not program symbols. */
const MODULE_NAMES = new Set(['math', 'np', 'numpy', 'dace', 'cmath', 'sympy']);

function children(e: Expr): Expr[] {
  switch (e.k) {
    case 'bin':
      return [e.a, e.b];
    case 'un':
      return [e.a];
    case 'cmpchain':
      return e.operands;
    case 'call':
      return [...e.args, ...e.kwargs.map(([, v]) => v)];
    case 'ternary':
      return [e.cond, e.then, e.else];
    case 'subscript':
      return [e.base, ...e.index];
    case 'attr':
      return e.base.k === 'sym' && MODULE_NAMES.has(e.base.name) ? [] : [e.base];
    case 'tuple':
      return e.items;
    default:
      return [];
  }
}

/** Names of the `sym` nodes: function names and module prefixes (`math` in `math.pi`) are not included. */
export function freeSymbols(e: Expr): Set<string> {
  const names = new Set<string>();
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.k === 'sym') names.add(node.name);
    else for (const c of children(node)) stack.push(c);
  }
  return names;
}

/**
 * Rebuilds `e` bottom-up, letting `visit` replace a node before its children are visited (return undefined
 * to descend). Left spines of binary operators are handled in a loop to keep deep sums off the call stack.
 */
function rewrite(e: Expr, visit: (node: Expr) => Expr | undefined): Expr {
  const replaced = visit(e);
  if (replaced !== undefined) return replaced;
  switch (e.k) {
    case 'bin': {
      const { spine, base } = leftSpine(e, (node) => visit(node) === undefined);
      let acc = rewrite(base, visit);
      for (let i = spine.length - 1; i >= 0; i--) {
        const node = spine[i]!;
        const right = rewrite(node.b, visit);
        acc = acc === node.a && right === node.b ? node : { k: 'bin', op: node.op, a: acc, b: right };
      }
      return acc;
    }
    case 'un': {
      const a = rewrite(e.a, visit);
      return a === e.a ? e : { k: 'un', op: e.op, a };
    }
    case 'cmpchain':
      return { k: 'cmpchain', ops: e.ops, operands: e.operands.map((o) => rewrite(o, visit)) };
    case 'call':
      return {
        k: 'call',
        fn: e.fn,
        args: e.args.map((a) => rewrite(a, visit)),
        kwargs: e.kwargs.map(([key, v]) => [key, rewrite(v, visit)]),
      };
    case 'ternary':
      return { k: 'ternary', cond: rewrite(e.cond, visit), then: rewrite(e.then, visit), else: rewrite(e.else, visit) };
    case 'subscript':
      return { k: 'subscript', base: rewrite(e.base, visit), index: e.index.map((i) => rewrite(i, visit)) };
    case 'attr':
      return { k: 'attr', base: rewrite(e.base, visit), name: e.name };
    case 'tuple':
      return { k: 'tuple', items: e.items.map((i) => rewrite(i, visit)) };
    default:
      return e;
  }
}

/** Replaces symbols by expressions (simultaneously: replacements are not substituted again). */
export function substitute(e: Expr, map: ReadonlyMap<string, Expr>): Expr {
  if (map.size === 0) return e;
  return rewrite(e, (node) => (node.k === 'sym' ? (map.get(node.name) ?? node) : undefined));
}

/** The over-approximation of every `SymExpr(exact, approx)` inside `e`: what DaCe allocates. */
export function approxOf(e: Expr): Expr {
  return rewrite(e, (node) => {
    if (node.k !== 'call' || node.fn !== 'SymExpr' || node.args.length === 0) return undefined;
    return approxOf(node.args[node.args.length - 1]!);
  });
}

/** The exact part of every `SymExpr(exact, approx)` inside `e`: what indexing uses. */
export function exactOf(e: Expr): Expr {
  return rewrite(e, (node) => (node.k === 'call' && node.fn === 'SymExpr' && node.args.length > 0 ? exactOf(node.args[0]!) : undefined));
}

// ----------------------------------------------------------------------------------------------------------
// exactness: a subtree without floats evaluates in exact rationals, so reassociating it is value-preserving
// ----------------------------------------------------------------------------------------------------------

const exactCache = new WeakMap<Expr, boolean>();

function ownNodeExact(e: Expr): boolean {
  switch (e.k) {
    case 'float':
    case 'none':
    case 'subscript':
    case 'attr':
    case 'tuple':
      return false;
    case 'sym':
      return e.dtype === undefined || !isFloatTypeName(e.dtype);
    case 'call':
      return !isFloatFunction(e.fn) && !e.fn.includes('complex');
    default:
      return true;
  }
}

/** True when `e` has no float literal, float function or float-typed symbol (symbols default to integers). */
export function isExact(e: Expr): boolean {
  const cached = exactCache.get(e);
  if (cached !== undefined) return cached;
  // Post-order with an explicit stack so that long spines do not recurse.
  const stack: Array<[Expr, boolean]> = [[e, false]];
  while (stack.length > 0) {
    const [node, expanded] = stack.pop()!;
    if (exactCache.has(node)) continue;
    const kids = node.k === 'attr' ? [node.base] : children(node);
    if (!expanded) {
      stack.push([node, true]);
      for (const c of kids) if (!exactCache.has(c)) stack.push([c, false]);
    } else {
      exactCache.set(node, ownNodeExact(node) && kids.every((c) => exactCache.get(c) === true));
    }
  }
  return exactCache.get(e)!;
}

// ----------------------------------------------------------------------------------------------------------
// simplify
// ----------------------------------------------------------------------------------------------------------

const int = (v: bigint): Expr => ({ k: 'int', v });
const isInt = (e: Expr, v?: bigint): e is Extract<Expr, { k: 'int' }> => e.k === 'int' && (v === undefined || e.v === v);
const isLiteral = (e: Expr): boolean => e.k === 'int' || e.k === 'bool';

// Folding `2**100000` into one literal would make the text, not the program, the bottleneck.
const MAX_FOLDED_BITS = 4096;

function literalOf(v: Value): Expr | undefined {
  if (v.k === 'bool') return { k: 'bool', v: v.v };
  if (v.k === 'rat' && v.d === 1n && v.n.toString(2).length <= MAX_FOLDED_BITS) return int(v.n);
  return undefined;
}

/** Evaluates a closed exact subtree to a literal when its value is an integer or a bool. */
function fold(e: Expr): Expr {
  try {
    return literalOf(evaluate(e, () => undefined)) ?? e;
  } catch {
    // Division by zero and the like stay in the tree: simplify never hides an error of a closed expression.
    return e;
  }
}

/** `k*f1*f2` left-deep, with `k` omitted when 1. */
function product(coef: bigint, factors: Expr[]): Expr {
  if (factors.length === 0) return int(coef);
  if (coef === -1n && factors.length === 1) return { k: 'un', op: '-', a: factors[0]! };
  let acc: Expr = coef === 1n ? factors[0]! : { k: 'bin', op: '*', a: int(coef), b: factors[0]! };
  for (const f of factors.slice(1)) acc = { k: 'bin', op: '*', a: acc, b: f };
  return acc;
}

/** Splits a simplified term into an integer coefficient and the remaining factors. */
function splitCoefficient(t: Expr): { coef: bigint; factors: Expr[] } {
  if (t.k === 'un' && t.op === '-') {
    const inner = splitCoefficient(t.a);
    return { coef: -inner.coef, factors: inner.factors };
  }
  const factors: Expr[] = [];
  let cur = t;
  while (cur.k === 'bin' && cur.op === '*') {
    factors.push(cur.b);
    cur = cur.a;
  }
  factors.push(cur);
  factors.reverse();
  if (isInt(factors[0]!)) return { coef: factors[0].v, factors: factors.slice(1) };
  return { coef: 1n, factors };
}

function simplifySum(e: Expr): Expr {
  let constant = 0n;
  const terms = new Map<string, { coef: bigint; factors: Expr[] }>();
  const stack: Array<[Expr, bigint]> = [[e, 1n]];
  while (stack.length > 0) {
    const [node, sign] = stack.pop()!;
    if (node.k === 'bin' && (node.op === '+' || node.op === '-')) {
      // Pushed right first so that terms keep their written order.
      stack.push([node.b, node.op === '+' ? sign : -sign], [node.a, sign]);
      continue;
    }
    if (node.k === 'un' && (node.op === '-' || node.op === '+')) {
      stack.push([node.a, node.op === '-' ? -sign : sign]);
      continue;
    }
    const leaf = simplifyNode(node);
    if (isInt(leaf)) {
      constant += sign * leaf.v;
      continue;
    }
    const { coef, factors } = splitCoefficient(leaf);
    if (factors.length === 0) {
      constant += sign * coef;
      continue;
    }
    const key = show(product(1n, factors));
    const entry = terms.get(key);
    if (entry) entry.coef += sign * coef;
    else terms.set(key, { coef: sign * coef, factors });
  }
  let acc: Expr | null = null;
  for (const { coef, factors } of terms.values()) {
    if (coef === 0n) continue;
    if (acc === null) acc = product(coef, factors);
    else if (coef < 0n) acc = { k: 'bin', op: '-', a: acc, b: product(-coef, factors) };
    else acc = { k: 'bin', op: '+', a: acc, b: product(coef, factors) };
  }
  if (acc === null) return int(constant);
  if (constant > 0n) return { k: 'bin', op: '+', a: acc, b: int(constant) };
  if (constant < 0n) return { k: 'bin', op: '-', a: acc, b: int(-constant) };
  return acc;
}

function simplifyProduct(e: Expr): Expr {
  let coef = 1n;
  const factors: Expr[] = [];
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.k === 'bin' && node.op === '*') {
      stack.push(node.b, node.a);
      continue;
    }
    const leaf = simplifyNode(node);
    if (isInt(leaf)) coef *= leaf.v;
    else if (leaf.k === 'bin' && leaf.op === '*') {
      const split = splitCoefficient(leaf);
      coef *= split.coef;
      factors.push(...split.factors);
    } else factors.push(leaf);
  }
  if (coef === 0n) return int(0n);
  return product(coef, factors);
}

function simplifyBinary(e: BinNode): Expr {
  // Left spine iteratively, then local rules per node.
  const { spine, base } = leftSpine(e, (node) => !(isExact(node) && (node.op === '+' || node.op === '-' || node.op === '*')));
  let acc = simplifyNode(base);
  for (let i = spine.length - 1; i >= 0; i--) {
    const node = spine[i]!;
    acc = simplifyLocal(node.op, acc, simplifyNode(node.b), isExact(node));
  }
  return acc;
}

function simplifyLocal(op: BinOp, a: Expr, b: Expr, exact: boolean): Expr {
  const node: Expr = { k: 'bin', op, a, b };
  if (exact && isLiteral(a) && isLiteral(b)) {
    if (
      op === '**' &&
      isInt(b) &&
      isInt(a) &&
      a.v !== 0n &&
      a.v !== 1n &&
      a.v !== -1n &&
      a.v.toString(2).length * Number(b.v > 0n ? b.v : 0n) > MAX_FOLDED_BITS
    ) {
      return node;
    }
    return fold(node);
  }
  switch (op) {
    case '+':
      if (isInt(b, 0n)) return a;
      if (isInt(a, 0n)) return b;
      break;
    case '-':
      if (isInt(b, 0n)) return a;
      break;
    case '*':
      if (isInt(b, 1n)) return a;
      if (isInt(a, 1n)) return b;
      break;
    case '/':
      if (isInt(b, 1n)) return a;
      break;
    case '**':
      if (isInt(b, 1n)) return a;
      if (exact && isInt(b, 0n)) return int(1n);
      break;
    default:
      break;
  }
  return node;
}

function simplifyNode(e: Expr): Expr {
  switch (e.k) {
    case 'int':
    case 'float':
    case 'bool':
    case 'none':
    case 'sym':
      return e;
    case 'bin':
      if (isExact(e) && (e.op === '+' || e.op === '-')) return simplifySum(e);
      if (isExact(e) && e.op === '*') return simplifyProduct(e);
      return simplifyBinary(e);
    case 'un': {
      if (isExact(e) && (e.op === '-' || e.op === '+')) return simplifySum(e);
      const a = simplifyNode(e.a);
      const node: Expr = { k: 'un', op: e.op, a };
      return isLiteral(a) && isExact(e) ? fold(node) : node;
    }
    case 'cmpchain': {
      const operands = e.operands.map(simplifyNode);
      const node: Expr = { k: 'cmpchain', ops: e.ops, operands };
      return isExact(e) && operands.every(isLiteral) ? fold(node) : node;
    }
    case 'call': {
      const args = e.args.map(simplifyNode);
      const node: Expr = { k: 'call', fn: e.fn, args, kwargs: e.kwargs.map(([key, v]) => [key, simplifyNode(v)]) };
      return isExact(e) && e.kwargs.length === 0 && args.every(isLiteral) ? fold(node) : node;
    }
    case 'ternary': {
      const cond = simplifyNode(e.cond);
      if (isLiteral(cond)) {
        const taken = cond.k === 'bool' ? cond.v : isInt(cond) && cond.v !== 0n;
        return simplifyNode(taken ? e.then : e.else);
      }
      return { k: 'ternary', cond, then: simplifyNode(e.then), else: simplifyNode(e.else) };
    }
    case 'subscript':
      return { k: 'subscript', base: simplifyNode(e.base), index: e.index.map(simplifyNode) };
    case 'attr':
      return { k: 'attr', base: simplifyNode(e.base), name: e.name };
    case 'tuple':
      return { k: 'tuple', items: e.items.map(simplifyNode) };
  }
}

/**
 * Constant folding, `x+0`, `x*1`, `x*0`, merging of integer constants and like terms in sums and products.
 * Never changes the value: reassociation and `x*0 → 0` are applied only to float-free subtrees (symbols
 * without a float dtype count as integers, as DaCe's size symbols are); float subtrees get only the
 * identities that hold in IEEE arithmetic.
 */
export function simplify(e: Expr): Expr {
  return simplifyNode(e);
}

/** Builders that simplify as they go. */
export const E = {
  int(n: bigint | number): Expr {
    if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new Error(`E.int(${n}): not a safe integer`);
    return int(BigInt(n));
  },
  sym(name: string): Expr {
    return { k: 'sym', name };
  },
  add(a: Expr, b: Expr): Expr {
    return simplify({ k: 'bin', op: '+', a, b });
  },
  sub(a: Expr, b: Expr): Expr {
    return simplify({ k: 'bin', op: '-', a, b });
  },
  mul(a: Expr, b: Expr): Expr {
    return simplify({ k: 'bin', op: '*', a, b });
  },
  /** Exact (rational) division, as `/` in symbolic fields. */
  div(a: Expr, b: Expr): Expr {
    return simplify({ k: 'bin', op: '/', a, b });
  },
  call(fn: string, ...args: Expr[]): Expr {
    return simplify({ k: 'call', fn, args, kwargs: [] });
  },
};
