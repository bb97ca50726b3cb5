/**
 * The Python statement subset of code strings (tasklet bodies, loop init/update): assignments, augmented and
 * chained, `pass`, and `if`/`elif`/`else` with indented suites. Apart from the expression grammar it builds on
 * (parser-expr.ts) because only parsePythonStatements (parser.ts) needs it.
 */
import type { Expr, Stmt } from './ast.js';
import type { Token } from './lexer.js';
import { describe, freeze } from './parser-cursor.js';
import { AUGMENTED, ExpressionParser, UNSUPPORTED_KEYWORDS } from './parser-expr.js';

export class StatementParser extends ExpressionParser {
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
