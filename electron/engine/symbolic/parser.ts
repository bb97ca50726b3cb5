/**
 * Recursive-descent parser for symbolic text (legacy SymPy strings and the typed `$` grammar) and for the
 * Python subset of code strings. Left-associative operator chains are built in loops, so long sums do not
 * deepen the parser's call stack; bracket nesting does. Both, and the height of the tree built, are capped
 * at MAX_EXPRESSION_DEPTH.
 */
import type { Grammar } from '../model/sdfg.js';
import { type BinOp, COMPARISON_OPS, type Expr, exprChildren, type Stmt, SymbolicSyntaxError } from './ast.js';
import { COMPLEX_SUFFIXES, type LexMode, type Token, tokenize } from './lexer.js';

/**
 * The deepest expression the parsers accept, as tree height (a sum of n terms is n levels deep, like
 * `((a + b) + c) + …`), and the deepest bracket/unary nesting of the text. Every recursive walk of a tree in
 * symbolic/ and codegen/ stays well inside Node's default stack below it (tests/engine/symbolic/depth.test.ts
 * walks trees just under it); deeper text is refused with this number in the message. Real files stay far
 * below: the deepest expression of the corpus is 32 levels.
 */
export const MAX_EXPRESSION_DEPTH = 256;
const TOO_DEEP = `expression nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`;

const BINARY_LEVELS: ReadonlyArray<ReadonlyArray<BinOp>> = [['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '//', '%']];

const AUGMENTED: Record<string, BinOp> = {
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

const UNSUPPORTED_KEYWORDS = new Set([
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

function freeze<T extends object>(node: T): T {
  return Object.freeze(node);
}

class Parser {
  private pos = 0;
  private nesting = 0;
  /** Tree height of the inner nodes this parser built; a leaf is absent (height 1). */
  private readonly heights = new Map<Expr, number>();

  constructor(
    private readonly src: string,
    private readonly tokens: Token[],
    private readonly mode: LexMode,
  ) {}

  // ------------------------------------------------------------------------------------------------------
  // token helpers
  // ------------------------------------------------------------------------------------------------------

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  private isName(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'name' && t.text === text;
  }

  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(`expected '${text}' but found ${describe(this.peek())}`);
    return this.next();
  }

  fail(reason: string, at: number = this.peek().pos): never {
    throw new SymbolicSyntaxError(reason, this.src, at);
  }

  private enter(): void {
    if (++this.nesting > MAX_EXPRESSION_DEPTH) this.fail(TOO_DEEP);
  }

  /** Freezes a new inner node; refuses it when the tree would get deeper than MAX_EXPRESSION_DEPTH. */
  private node<T extends Expr>(e: T): T {
    let below = 0;
    for (const c of exprChildren(e)) below = Math.max(below, this.heights.get(c) ?? 1);
    if (below >= MAX_EXPRESSION_DEPTH) this.fail(TOO_DEEP);
    this.heights.set(e, below + 1);
    return freeze(e);
  }

  private leave(): void {
    this.nesting--;
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  expectEnd(): void {
    if (!this.atEnd()) this.fail(`unexpected ${describe(this.peek())}`);
  }

  // ------------------------------------------------------------------------------------------------------
  // expressions
  // ------------------------------------------------------------------------------------------------------

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

  // ------------------------------------------------------------------------------------------------------
  // statements
  // ------------------------------------------------------------------------------------------------------

  parseStatements(): Stmt[] {
    const body: Stmt[] = [];
    while (!this.atEnd()) {
      const t = this.peek();
      if (t.kind === 'newline') {
        this.next();
        continue;
      }
      if (t.kind === 'indent') this.fail('unexpected indentation');
      if (t.kind === 'dedent') this.fail('unexpected dedent');
      this.parseStatement(body);
    }
    return body;
  }

  /** One statement or one `;`-separated line of simple statements, appended to `out`. */
  private parseStatement(out: Stmt[]): void {
    if (this.isName('if')) {
      out.push(this.parseIf());
      return;
    }
    if (this.isName('elif') || this.isName('else')) this.fail(`'${this.peek().text}' without a matching 'if'`);
    this.parseSimpleLine(out);
  }

  private parseSimpleLine(out: Stmt[]): void {
    for (;;) {
      out.push(this.parseSimpleStatement());
      if (!this.isOp(';')) break;
      this.next();
      const t = this.peek();
      if (t.kind === 'newline' || t.kind === 'eof') break;
    }
    const end = this.peek();
    if (end.kind === 'newline') this.next();
    else if (end.kind !== 'eof' && end.kind !== 'dedent') this.fail(`unexpected ${describe(end)}`);
  }

  private parseSimpleStatement(): Stmt {
    if (this.isName('pass')) {
      this.next();
      return freeze({ k: 'pass' });
    }
    const t = this.peek();
    if (t.kind === 'name' && UNSUPPORTED_KEYWORDS.has(t.text)) this.fail(`'${t.text}' statements are not supported`);
    const first = this.parseExprOrTuple();
    const next = this.peek();
    if (next.kind === 'op' && next.text in AUGMENTED) {
      this.checkTarget(first, t.pos);
      this.next();
      const value = this.parseExprOrTuple();
      return freeze({ k: 'augassign', op: AUGMENTED[next.text]!, target: first, value });
    }
    if (!this.isOp('=')) return freeze({ k: 'expr', e: first });
    const chain: Expr[] = [first];
    const positions = [t.pos];
    while (this.isOp('=')) {
      this.next();
      positions.push(this.peek().pos);
      chain.push(this.parseExprOrTuple());
    }
    const value = chain.pop()!;
    chain.forEach((target, i) => this.checkTarget(target, positions[i]!));
    return freeze({ k: 'assign', targets: freeze(chain), value });
  }

  private checkTarget(target: Expr, at: number): void {
    if (target.k === 'sym' || target.k === 'subscript' || target.k === 'attr') return;
    if (target.k === 'tuple' && target.items.length > 0) {
      for (const item of target.items) this.checkTarget(item, at);
      return;
    }
    this.fail('cannot assign to this expression', at);
  }

  private parseIf(): Stmt {
    const keyword = this.next();
    const cond = this.parseExpr();
    this.expectOp(':');
    const then = this.parseSuite(keyword);
    let otherwise: Stmt[] = [];
    if (this.isName('elif')) {
      otherwise = [this.parseIf()];
    } else if (this.isName('else')) {
      const elseKeyword = this.next();
      this.expectOp(':');
      otherwise = this.parseSuite(elseKeyword);
    }
    return freeze({ k: 'if', cond, then: freeze(then), else: freeze(otherwise) });
  }

  private parseSuite(owner: Token): Stmt[] {
    const body: Stmt[] = [];
    if (this.peek().kind !== 'newline') {
      // `if c: a = 1; b = 2` on one line.
      this.parseSimpleLine(body);
      return body;
    }
    this.next();
    if (this.peek().kind !== 'indent') this.fail(`expected an indented block after '${owner.text}' at column ${owner.pos + 1}`);
    this.next();
    this.enter();
    while (this.peek().kind !== 'dedent' && !this.atEnd()) {
      if (this.peek().kind === 'newline') {
        this.next();
        continue;
      }
      if (this.peek().kind === 'indent') this.fail('unexpected indentation');
      this.parseStatement(body);
    }
    if (this.peek().kind === 'dedent') this.next();
    this.leave();
    return body;
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of input';
    case 'newline':
      return 'end of line';
    case 'indent':
      return 'indentation';
    case 'dedent':
      return 'dedent';
    case 'sym':
      return `symbol '$${t.text}'`;
    default:
      return `'${t.text}'`;
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

// ----------------------------------------------------------------------------------------------------------
// public entry points
// ----------------------------------------------------------------------------------------------------------

// Two generations instead of strict LRU: Map deletions from the front leave tombstones that make eviction
// one entry at a time quadratic, while swapping generations is O(1) and keeps recently used trees.
const SYM_CACHE_GENERATION = 50_000;
let symCacheCurrent = new Map<string, Expr>();
let symCachePrevious = new Map<string, Expr>();

function rememberSym(key: string, e: Expr): void {
  if (symCacheCurrent.size >= SYM_CACHE_GENERATION) {
    symCachePrevious = symCacheCurrent;
    symCacheCurrent = new Map();
  }
  symCacheCurrent.set(key, e);
}

/**
 * Parses a symbolic property (shape, range field, symbol mapping value, …). Results are memoised by
 * (grammar, text) in a bounded map because the same few strings repeat millions of times in big files.
 * The returned tree is frozen and shared between callers.
 */
export function parseSym(src: string, grammar: Grammar): Expr {
  const key = grammar === 'typed' ? `t${src}` : `l${src}`;
  const hit = symCacheCurrent.get(key);
  if (hit !== undefined) return hit;
  const older = symCachePrevious.get(key);
  if (older !== undefined) {
    rememberSym(key, older);
    return older;
  }
  const parser = new Parser(src, tokenize(src, grammar, false), grammar);
  if (parser.atEnd()) parser.fail('empty expression');
  const e = parser.parseExpr();
  parser.expectEnd();
  rememberSym(key, e);
  return e;
}

/** Parses one Python expression (a condition, an interstate assignment value, a loop condition). */
export function parsePython(src: string): Expr {
  const parser = new Parser(src, tokenize(src, 'python', false), 'python');
  if (parser.atEnd()) parser.fail('empty expression');
  const e = parser.parseExprOrTuple();
  parser.expectEnd();
  return e;
}

/** Parses Python statements: tasklet bodies, loop init/update statements. */
export function parsePythonStatements(src: string): Stmt[] {
  const parser = new Parser(src, tokenize(src, 'python', true), 'python');
  return parser.parseStatements();
}

/** Parses a Python lambda such as a write-conflict resolution `lambda a, b: a + b`; the parameters are `sym` nodes in the body. */
export function parsePythonLambda(src: string): { params: string[]; body: Expr } {
  const parser = new Parser(src, tokenize(src, 'python', false), 'python');
  if (parser.atEnd()) parser.fail('empty expression');
  const lambda = parser.parseLambda();
  parser.expectEnd();
  return lambda;
}

/** Typed iff some sample has `$` followed by a letter, `_` or `?` (sdfg-format.md §10.3). */
export function detectGrammar(samples: Iterable<string>): Grammar {
  for (const s of samples) {
    let at = s.indexOf('$');
    while (at !== -1 && at + 1 < s.length) {
      const c = s.charCodeAt(at + 1);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 63) return 'typed';
      at = s.indexOf('$', at + 1);
    }
  }
  return 'legacy';
}
