/**
 * The expression grammar of the symbolic parsers (parser.ts): legacy SymPy text, the typed `$` grammar and
 * Python expressions, with lambdas (a memlet's WCR). Left-associative operator chains are built in loops, so
 * long sums do not deepen the call stack; bracket nesting does (parser-cursor.ts caps both). Python statements
 * build on it in parser-statements.ts.
 */
import { type BinOp, COMPARISON_OPS, type Expr } from './ast.js';
import { COMPLEX_SUFFIXES, type Token } from './lexer.js';
import { describe, freeze, MAX_EXPRESSION_DEPTH, TokenCursor, TOO_DEEP } from './parser-cursor.js';

const BINARY_LEVELS: ReadonlyArray<ReadonlyArray<BinOp>> = [['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '//', '%']];

/** Augmented assignment operators: a bare tuple ends before one; parser-statements.ts parses the statement. */
export const AUGMENTED: Record<string, BinOp> = {
  '+=': '+',
  '-=': '-',
  '*=': '*',
  '/=': '/',
  '//=': '//',
  '%=': '%',
  '**=': '**',
  '&=': '&',
  '|=': '|',
  '^=': '^',
  '<<=': '<<',
  '>>=': '>>',
};

export const UNSUPPORTED_KEYWORDS = new Set([
  'for',
  'while',
  'def',
  'class',
  'return',
  'import',
  'from',
  'lambda',
  'with',
  'try',
  'except',
  'finally',
  'raise',
  'yield',
  'del',
  'global',
  'nonlocal',
  'assert',
  'break',
  'continue',
  'async',
  'await',
  'in',
  'is',
]);

const COMPLEX_TYPE_BY_SUFFIX: Record<string, string> = { c64: 'dace.complex64', c128: 'dace.complex128' };

export class ExpressionParser extends TokenCursor {
  /** Expression, or a bare tuple `a, b` where Python allows one (statement level). */
  parseExprOrTuple(): Expr {
    const first = this.parseExpr();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.endsExpression()) break;
      items.push(this.parseExpr());
    }
    return this.node({ k: 'tuple', items: freeze(items) });
  }

  private endsExpression(): boolean {
    const t = this.peek();
    return (
      t.kind === 'eof' ||
      t.kind === 'newline' ||
      (t.kind === 'op' && (t.text === ')' || t.text === ']' || t.text === '=' || t.text === ';' || t.text === ':' || t.text in AUGMENTED))
    );
  }

  parseExpr(): Expr {
    this.enter();
    const body = this.parseOr();
    let result = body;
    if (this.isName('if')) {
      this.next();
      const cond = this.parseOr();
      if (!this.isName('else')) this.fail(`expected 'else' in conditional expression but found ${describe(this.peek())}`);
      this.next();
      const otherwise = this.parseExpr();
      result = this.node({ k: 'ternary', cond, then: body, else: otherwise });
    }
    this.leave();
    return result;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isName('or')) {
      this.next();
      left = this.node({ k: 'bin', op: 'or', a: left, b: this.parseAnd() });
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.isName('and')) {
      this.next();
      left = this.node({ k: 'bin', op: 'and', a: left, b: this.parseNot() });
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.isName('not')) {
      this.next();
      this.enter();
      const operand = this.parseNot();
      this.leave();
      return this.node({ k: 'un', op: 'not', a: operand });
    }
    return this.parseComparison();
  }

  private comparisonOp(): BinOp | null {
    const t = this.peek();
    if (t.kind === 'op' && COMPARISON_OPS.has(t.text as BinOp)) return t.text as BinOp;
    if (t.kind === 'name' && (t.text === 'in' || t.text === 'is' || (t.text === 'not' && this.isName('in', 1)))) {
      this.fail(`operator '${t.text}' is not supported`);
    }
    return null;
  }

  private parseComparison(): Expr {
    const first = this.parseBinary(0);
    let op = this.comparisonOp();
    if (op === null) return first;
    const ops: BinOp[] = [];
    const operands: Expr[] = [first];
    while (op !== null) {
      this.next();
      ops.push(op);
      operands.push(this.parseBinary(0));
      op = this.comparisonOp();
    }
    if (ops.length === 1) return this.node({ k: 'bin', op: ops[0]!, a: operands[0]!, b: operands[1]! });
    return this.node({ k: 'cmpchain', ops: freeze(ops), operands: freeze(operands) });
  }

  private parseBinary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.parseUnary();
    const ops = BINARY_LEVELS[level]!;
    let left = this.parseBinary(level + 1);
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || !ops.includes(t.text as BinOp)) return left;
      this.next();
      left = this.node({ k: 'bin', op: t.text as BinOp, a: left, b: this.parseBinary(level + 1) });
    }
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '-' || t.text === '+' || t.text === '~')) {
      this.next();
      this.enter();
      const operand = this.parseUnary();
      this.leave();
      return this.node({ k: 'un', op: t.text, a: operand });
    }
    return this.parsePower();
  }

  private parsePower(): Expr {
    const base = this.parsePostfix();
    if (!this.isOp('**')) return base;
    this.next();
    this.enter();
    // Right-associative, and the exponent may carry its own sign: 2**-1.
    const exponent = this.parseUnary();
    this.leave();
    return this.node({ k: 'bin', op: '**', a: base, b: exponent });
  }

  private parsePostfix(): Expr {
    let e = this.parseAtom();
    // `a.b.c…`, `a[0][0]…` and `f()()…` build left-deep trees as deep as the chain is long.
    let chain = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && (t.text === '.' || t.text === '(' || t.text === '[') && ++chain + this.nesting > MAX_EXPRESSION_DEPTH) {
        this.fail(TOO_DEEP);
      }
      if (t.kind === 'op' && t.text === '.') {
        this.next();
        const name = this.next();
        if (name.kind !== 'name') this.fail(`expected an attribute name after '.' but found ${describe(name)}`, name.pos);
        e = this.node({ k: 'attr', base: e, name: name.text });
      } else if (t.kind === 'op' && t.text === '(') {
        e = this.parseCall(e, t);
      } else if (t.kind === 'op' && t.text === '[') {
        this.next();
        this.enter();
        const index: Expr[] = [];
        while (!this.isOp(']')) {
          if (this.isOp(':')) this.fail('slices are not supported');
          index.push(this.parseExpr());
          if (this.isOp(':')) this.fail('slices are not supported');
          if (!this.isOp(',')) break;
          this.next();
        }
        this.expectOp(']');
        this.leave();
        if (index.length === 0) this.fail('empty subscript', t.pos);
        // Python indexes with one tuple whether or not it is parenthesised: `A[(i, j)]` is `A[i, j]` (MLIR-DaCe
        // writes its indirect loads and stores so).
        const only = index.length === 1 ? index[0]! : null;
        const items = only?.k === 'tuple' && only.items.length > 0 ? [...only.items] : index;
        e = this.node({ k: 'subscript', base: e, index: freeze(items) });
      } else if (
        this.mode === 'typed' &&
        t.kind === 'name' &&
        !t.spaceBefore &&
        COMPLEX_SUFFIXES.has(t.text) &&
        this.tokens[this.pos - 1]?.text === ')'
      ) {
        // `(1.0 + 2.0j)c128`: a typed complex literal.
        this.next();
        e = this.node({ k: 'call', fn: COMPLEX_TYPE_BY_SUFFIX[t.text]!, args: freeze([e]), kwargs: freeze([]) });
      } else {
        return e;
      }
    }
  }

  private parseCall(callee: Expr, open: Token): Expr {
    const fn = dottedName(callee);
    if (fn === null) this.fail('only named functions can be called', open.pos);
    this.next();
    this.enter();
    const args: Expr[] = [];
    const kwargs: Array<[string, Expr]> = [];
    while (!this.isOp(')')) {
      const t = this.peek();
      if (t.kind === 'name' && this.isOp('=', 1)) {
        this.next();
        this.next();
        kwargs.push(freeze<[string, Expr]>([t.text, this.parseExpr()]));
      } else {
        if (t.kind === 'op' && (t.text === '*' || t.text === '**')) this.fail('argument unpacking is not supported');
        if (kwargs.length > 0) this.fail('positional argument after keyword argument');
        args.push(this.parseExpr());
      }
      if (!this.isOp(',')) break;
      this.next();
    }
    this.expectOp(')');
    this.leave();
    if (fn === 'symbol' && this.mode === 'typed') return this.typedSymbol(args, kwargs, open);
    return this.node({ k: 'call', fn, args: freeze(args), kwargs: freeze(kwargs) });
  }

  /** `symbol($n, dtype=dace.int64, nonnegative=True)` → the symbol with its dtype (assumptions are dropped). */
  private typedSymbol(args: Expr[], kwargs: Array<[string, Expr]>, open: Token): Expr {
    const target = args[0];
    if (args.length !== 1 || target === undefined || target.k !== 'sym') {
      this.fail('symbol(...) takes exactly one $-symbol as positional argument', open.pos);
    }
    const dtypeArg = kwargs.find(([key]) => key === 'dtype')?.[1];
    if (dtypeArg === undefined) return target;
    const dtype = dottedName(dtypeArg);
    if (dtype === null) this.fail('symbol(...) dtype must be a type name such as dace.int64', open.pos);
    return freeze({ k: 'sym', name: target.name, dtype: dtype.startsWith('dace.') ? dtype.slice(5) : dtype });
  }

  private parseAtom(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'int': {
        const node: Expr = t.suffix === undefined ? { k: 'int', v: t.intValue! } : { k: 'int', v: t.intValue!, suffix: t.suffix };
        return freeze(node);
      }
      case 'float': {
        // Keep a float-looking text so that show() re-parses to a float (`8f32` → `8.0`).
        const text = /[.eE]/.test(t.text) || !/^[0-9]+$/.test(t.text) ? t.text : `${t.text}.0`;
        if (t.suffix !== undefined && COMPLEX_SUFFIXES.has(t.suffix)) {
          const real = freeze({ k: 'float' as const, v: t.floatValue!, text });
          return this.node({ k: 'call', fn: COMPLEX_TYPE_BY_SUFFIX[t.suffix]!, args: freeze([real]), kwargs: freeze([]) });
        }
        return freeze(
          t.suffix === undefined ? { k: 'float', v: t.floatValue!, text } : { k: 'float', v: t.floatValue!, text, suffix: t.suffix },
        );
      }
      case 'imag': {
        // The model has no complex literal: `2.0j` is `complex(0, 2.0)`.
        const text = /[.eE]/.test(t.text) ? t.text : `${t.text}.0`;
        const imag = freeze({ k: 'float' as const, v: t.floatValue!, text });
        return this.node({ k: 'call', fn: 'complex', args: freeze([freeze({ k: 'int' as const, v: 0n }), imag]), kwargs: freeze([]) });
      }
      case 'sym':
        return freeze({ k: 'sym', name: t.text });
      case 'name':
        return this.nameAtom(t);
      case 'op':
        if (t.text === '(') return this.parenthesized(t);
        return this.fail(`unexpected ${describe(t)}`, t.pos);
      default:
        return this.fail(`unexpected ${describe(t)}`, t.pos);
    }
  }

  private nameAtom(t: Token): Expr {
    switch (t.text) {
      case 'True':
        return freeze({ k: 'bool', v: true });
      case 'False':
        return freeze({ k: 'bool', v: false });
      case 'None':
        return freeze({ k: 'none' });
      case 'and':
      case 'or':
      case 'if':
      case 'else':
      case 'elif':
      case 'not':
      case 'pass':
        return this.fail(`unexpected keyword '${t.text}'`, t.pos);
      default:
        if (UNSUPPORTED_KEYWORDS.has(t.text)) return this.fail(`'${t.text}' is not supported`, t.pos);
        return freeze({ k: 'sym', name: t.text });
    }
  }

  private parenthesized(open: Token): Expr {
    this.enter();
    if (this.isOp(')')) {
      this.next();
      this.leave();
      return freeze({ k: 'tuple', items: freeze([]) });
    }
    const first = this.parseExpr();
    let result: Expr = first;
    if (this.isOp(',')) {
      const items = [first];
      while (this.isOp(',')) {
        this.next();
        if (this.isOp(')')) break;
        items.push(this.parseExpr());
      }
      result = this.node({ k: 'tuple', items: freeze(items) });
    }
    if (!this.isOp(')')) this.fail(`expected ')' to close the '(' at column ${open.pos + 1} but found ${describe(this.peek())}`);
    this.next();
    this.leave();
    return result;
  }

  /** `lambda a, b: body`, optionally in parentheses: the only place a lambda is valid (a memlet's WCR). */
  parseLambda(): { params: string[]; body: Expr } {
    const wrapped = this.isOp('(');
    if (wrapped) this.next();
    if (!this.isName('lambda')) this.fail(`expected 'lambda' but found ${describe(this.peek())}`);
    this.next();
    const params: string[] = [];
    while (!this.isOp(':')) {
      const t = this.next();
      if (t.kind !== 'name' || UNSUPPORTED_KEYWORDS.has(t.text)) this.fail(`expected a parameter name but found ${describe(t)}`, t.pos);
      if (params.includes(t.text)) this.fail(`duplicate parameter '${t.text}'`, t.pos);
      params.push(t.text);
      if (!this.isOp(',')) break;
      this.next();
    }
    this.expectOp(':');
    const body = this.parseExpr();
    if (wrapped) this.expectOp(')');
    return Object.freeze({ params: Object.freeze(params) as string[], body });
  }
}

/** `math.exp` for the callee tree of a dotted name, null for anything else. */
function dottedName(e: Expr): string | null {
  const parts: string[] = [];
  let cur = e;
  while (cur.k === 'attr') {
    parts.push(cur.name);
    cur = cur.base;
  }
  if (cur.k !== 'sym' || cur.dtype !== undefined || cur.name === '?') return null;
  parts.push(cur.name);
  return parts.reverse().join('.');
}
