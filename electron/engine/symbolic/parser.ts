/**
 * Recursive-descent parser for symbolic text (legacy SymPy strings and the typed `$` grammar) and for the
 * Python subset of code strings. Left-associative operator chains are built in loops, so long sums do not
 * deepen the parser's call stack; bracket nesting does. Both, and the height of the tree built, are capped
 * at MAX_EXPRESSION_DEPTH.
 *
 * This file is the entry points and the memo of parsed symbolic text; the grammars are parser-expr.ts
 * (expressions) and parser-statements.ts (Python statements) over the token cursor of parser-cursor.ts.
 */
import type { Grammar } from '../model/sdfg.js';
import type { Expr, Stmt } from './ast.js';
import { tokenize } from './lexer.js';
import { ExpressionParser } from './parser-expr.js';
import { StatementParser } from './parser-statements.js';

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
  const parser = new ExpressionParser(src, tokenize(src, grammar, false), grammar);
  if (parser.atEnd()) parser.fail('empty expression');
  const e = parser.parseExpr();
  parser.expectEnd();
  rememberSym(key, e);
  return e;
}

/** Parses one Python expression (a condition, an interstate assignment value, a loop condition). */
export function parsePython(src: string): Expr {
  const parser = new ExpressionParser(src, tokenize(src, 'python', false), 'python');
  if (parser.atEnd()) parser.fail('empty expression');
  const e = parser.parseExprOrTuple();
  parser.expectEnd();
  return e;
}

/** Parses Python statements: tasklet bodies, loop init/update statements. */
export function parsePythonStatements(src: string): Stmt[] {
  const parser = new StatementParser(src, tokenize(src, 'python', true), 'python');
  return parser.parseStatements();
}

/** Parses a Python lambda such as a write-conflict resolution `lambda a, b: a + b`; the parameters are `sym` nodes in the body. */
export function parsePythonLambda(src: string): { params: string[]; body: Expr } {
  const parser = new ExpressionParser(src, tokenize(src, 'python', false), 'python');
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
