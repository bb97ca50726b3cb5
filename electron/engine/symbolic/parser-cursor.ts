/**
 * The token cursor under the symbolic parsers (parser.ts): position, lookahead, errors that point at the text,
 * and the depth limit every parser node passes through. Apart from the grammars (parser-expr.ts,
 * parser-statements.ts) because it is the one place that knows MAX_EXPRESSION_DEPTH is enforced, on nesting
 * while parsing and on the height of each node built.
 */
import { type Expr, exprChildren, SymbolicSyntaxError } from './ast.js';
import type { LexMode, Token } from './lexer.js';

/**
 * The deepest expression the parsers accept, as tree height (a sum of n terms is n levels deep, like
 * `((a + b) + c) + …`), and the deepest bracket/unary nesting of the text. Every recursive walk of a tree in
 * symbolic/ and codegen/ stays well inside Node's default stack below it (tests/engine/symbolic/depth.test.ts
 * walks trees just under it); deeper text is refused with this number in the message. Real files stay far
 * below: the deepest expression of the corpus is 32 levels.
 */
export const MAX_EXPRESSION_DEPTH = 256;
export const TOO_DEEP = `expression nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`;

export function freeze<T extends object>(node: T): T {
  return Object.freeze(node);
}

/** Reads tokens for the grammars that extend it. */
export class TokenCursor {
  protected pos = 0;
  protected nesting = 0;
  /** Tree height of the inner nodes this parser built; a leaf is absent (height 1). */
  private readonly heights = new Map<Expr, number>();

  constructor(
    private readonly src: string,
    protected readonly tokens: Token[],
    protected readonly mode: LexMode,
  ) {}

  protected peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  protected next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  protected isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  protected isName(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'name' && t.text === text;
  }

  protected expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(`expected '${text}' but found ${describe(this.peek())}`);
    return this.next();
  }

  fail(reason: string, at: number = this.peek().pos): never {
    throw new SymbolicSyntaxError(reason, this.src, at);
  }

  protected enter(): void {
    if (++this.nesting > MAX_EXPRESSION_DEPTH) this.fail(TOO_DEEP);
  }

  /** Freezes a new inner node; refuses it when the tree would get deeper than MAX_EXPRESSION_DEPTH. */
  protected node<T extends Expr>(e: T): T {
    let below = 0;
    for (const c of exprChildren(e)) below = Math.max(below, this.heights.get(c) ?? 1);
    if (below >= MAX_EXPRESSION_DEPTH) this.fail(TOO_DEEP);
    this.heights.set(e, below + 1);
    return freeze(e);
  }

  protected leave(): void {
    this.nesting--;
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  expectEnd(): void {
    if (!this.atEnd()) this.fail(`unexpected ${describe(this.peek())}`);
  }
}

/** A token as the parsers' error messages name it. */
export function describe(t: Token): string {
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
