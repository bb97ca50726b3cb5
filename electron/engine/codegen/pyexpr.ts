/**
 * A small parser for the Python subset DaCe writes into tasklets, interstate edges and loop statements, and
 * for both symbolic grammars (legacy SymPy strings and the typed `$` grammar). The generator needs more than
 * the text: it must know which names are connectors, containers or symbols, and it must reject what it cannot
 * translate *before* emitting C++ (findUnsupported parses every code string with this module).
 */

export type PyExpr =
  | { k: 'num'; text: string; isFloat: boolean }
  | { k: 'name'; id: string }
  | { k: 'str'; value: string }
  | { k: 'const'; value: 'True' | 'False' | 'None' }
  | { k: 'bin'; op: string; l: PyExpr; r: PyExpr }
  | { k: 'un'; op: '-' | '+' | 'not' | '~'; e: PyExpr }
  | { k: 'bool'; op: 'and' | 'or'; values: PyExpr[] }
  | { k: 'cmp'; ops: string[]; operands: PyExpr[] }
  | { k: 'ifexp'; cond: PyExpr; then: PyExpr; orelse: PyExpr }
  | { k: 'call'; fn: PyExpr; args: PyExpr[]; kwargs: Array<[string, PyExpr]> }
  | { k: 'attr'; obj: PyExpr; name: string }
  | { k: 'sub'; obj: PyExpr; index: PyExpr[] }
  | { k: 'tuple'; items: PyExpr[] }
  | { k: 'slice' }
  | { k: 'lambda'; params: string[]; body: PyExpr };

export type PyStmt =
  | { k: 'assign'; targets: PyExpr[]; value: PyExpr }
  | { k: 'aug'; target: PyExpr; op: string; value: PyExpr }
  | { k: 'if'; cond: PyExpr; body: PyStmt[]; orelse: PyStmt[] }
  | { k: 'pass' }
  | { k: 'expr'; e: PyExpr };

/** Thrown for text outside the subset; callers turn it into an `UnsupportedFinding` or a TlabError. */
export class PySyntaxError extends Error {}

interface Token {
  t: 'num' | 'name' | 'str' | 'op' | 'end';
  v: string;
  isFloat?: boolean;
}

const OPERATORS = [
  '**=', '//=', '>>=', '<<=', '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '+=', '-=', '*=', '/=', '%=', '&=',
  '|=', '^=', '->', '+', '-', '*', '/', '%', '(', ')', '[', ']', ',', '.', ':', '<', '>', '=', '&', '|', '^', '~', '@',
];
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/;
const TYPED_SUFFIX = /^(?:i8|i16|i32|i64|u8|u16|u32|u64|f16|bf16|f32|f64|e4m3fn|e5m2|c64|c128)\b/;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\\') {
      i++;
      continue;
    }
    if (c === '#') break;
    const rest = src.slice(i);
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = NUMBER.exec(rest)!;
      let text = m[0].replace(/_/g, '');
      i += m[0].length;
      let isFloat = /[.eE]/.test(text) && !/^0[xX]/.test(text);
      const suffix = TYPED_SUFFIX.exec(src.slice(i));
      if (suffix) {
        i += suffix[0].length;
        if (/^[fbe]/.test(suffix[0])) isFloat = true;
        if (suffix[0].startsWith('c')) throw new PySyntaxError(`complex literal '${text}${suffix[0]}' is not supported`);
      }
      if (src[i] === 'j' || src[i] === 'J') throw new PySyntaxError(`complex literal '${text}j' is not supported`);
      if (text.endsWith('.')) text += '0';
      if (text.startsWith('.')) text = '0' + text;
      out.push({ t: 'num', v: text, isFloat });
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^\$?(?:\?|[A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
      if (!m) throw new PySyntaxError(`unexpected '${c}'`);
      if (m[0] === '$?') throw new PySyntaxError('the undefined symbol `?` has no value');
      out.push({ t: 'name', v: m[0].startsWith('$') ? m[0].slice(1) : m[0] });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out.push({ t: 'str', v: src.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) throw new PySyntaxError(`unexpected character '${c}'`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  out.push({ t: 'end', v: '' });
  return out;
}

const CMP_OPS = new Set(['<', '>', '<=', '>=', '==', '!=']);

class Parser {
  private pos = 0;
  constructor(private readonly toks: Token[]) {}

  peek(): Token {
    return this.toks[this.pos]!;
  }
  atOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  atName(v: string): boolean {
    const t = this.peek();
    return t.t === 'name' && t.v === v;
  }
  next(): Token {
    return this.toks[this.pos++]!;
  }
  expectOp(v: string): void {
    const t = this.next();
    if (t.t !== 'op' || t.v !== v) throw new PySyntaxError(`expected '${v}', found '${t.v || 'end of text'}'`);
  }
  atEnd(): boolean {
    return this.peek().t === 'end';
  }

  /** Top-level expression; a bare `a, b` is a tuple. */
  exprList(): PyExpr {
    const first = this.expr();
    if (!this.atOp(',')) return first;
    const items = [first];
    while (this.atOp(',')) {
      this.next();
      if (this.atEnd() || this.atOp(')') || this.atOp('=')) break;
      items.push(this.expr());
    }
    return { k: 'tuple', items };
  }

  expr(): PyExpr {
    if (this.atName('lambda')) {
      this.next();
      const params: string[] = [];
      while (!this.atOp(':')) {
        const t = this.next();
        if (t.t !== 'name') throw new PySyntaxError('bad lambda parameters');
        params.push(t.v);
        if (this.atOp(',')) this.next();
      }
      this.expectOp(':');
      return { k: 'lambda', params, body: this.expr() };
    }
    const body = this.or();
    if (this.atName('if')) {
      this.next();
      const cond = this.or();
      if (!this.atName('else')) throw new PySyntaxError("conditional expression without 'else'");
      this.next();
      return { k: 'ifexp', cond, then: body, orelse: this.expr() };
    }
    return body;
  }
  or(): PyExpr {
    const values = [this.and()];
    while (this.atName('or')) {
      this.next();
      values.push(this.and());
    }
    return values.length === 1 ? values[0]! : { k: 'bool', op: 'or', values };
  }
  and(): PyExpr {
    const values = [this.not()];
    while (this.atName('and')) {
      this.next();
      values.push(this.not());
    }
    return values.length === 1 ? values[0]! : { k: 'bool', op: 'and', values };
  }
  not(): PyExpr {
    if (this.atName('not')) {
      this.next();
      return { k: 'un', op: 'not', e: this.not() };
    }
    return this.cmp();
  }
  cmp(): PyExpr {
    const first = this.bitor();
    const ops: string[] = [];
    const operands = [first];
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && CMP_OPS.has(t.v)) {
        this.next();
        ops.push(t.v);
      } else if (t.t === 'name' && (t.v === 'is' || t.v === 'in')) {
        throw new PySyntaxError(`operator '${t.v}' is not supported`);
      } else break;
      operands.push(this.bitor());
    }
    return ops.length ? { k: 'cmp', ops, operands } : first;
  }
  private binLevel(ops: string[], sub: () => PyExpr): PyExpr {
    let l = sub();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !ops.includes(t.v)) return l;
      this.next();
      l = { k: 'bin', op: t.v, l, r: sub() };
    }
  }
  bitor(): PyExpr {
    return this.binLevel(['|'], () => this.bitxor());
  }
  bitxor(): PyExpr {
    return this.binLevel(['^'], () => this.bitand());
  }
  bitand(): PyExpr {
    return this.binLevel(['&'], () => this.shift());
  }
  shift(): PyExpr {
    return this.binLevel(['<<', '>>'], () => this.arith());
  }
  arith(): PyExpr {
    return this.binLevel(['+', '-'], () => this.term());
  }
  term(): PyExpr {
    return this.binLevel(['*', '/', '//', '%', '@'], () => this.unary());
  }
  unary(): PyExpr {
    const t = this.peek();
    if (t.t === 'op' && (t.v === '-' || t.v === '+' || t.v === '~')) {
      this.next();
      return { k: 'un', op: t.v as '-' | '+' | '~', e: this.unary() };
    }
    return this.power();
  }
  power(): PyExpr {
    const base = this.postfix();
    if (this.atOp('**')) {
      this.next();
      return { k: 'bin', op: '**', l: base, r: this.unary() };
    }
    return base;
  }
  postfix(): PyExpr {
    let e = this.atom();
    for (;;) {
      if (this.atOp('(')) {
        this.next();
        const args: PyExpr[] = [];
        const kwargs: Array<[string, PyExpr]> = [];
        while (!this.atOp(')')) {
          const t = this.peek();
          const after = this.toks[this.pos + 1];
          if (t.t === 'name' && after?.t === 'op' && after.v === '=') {
            this.next();
            this.next();
            kwargs.push([t.v, this.expr()]);
          } else args.push(this.expr());
          if (this.atOp(',')) this.next();
          else if (!this.atOp(')')) throw new PySyntaxError(`expected ',' or ')' in call, found '${this.peek().v}'`);
        }
        this.next();
        e = { k: 'call', fn: e, args, kwargs };
      } else if (this.atOp('[')) {
        this.next();
        const index: PyExpr[] = [];
        while (!this.atOp(']')) {
          index.push(this.sliceItem());
          if (this.atOp(',')) this.next();
          else if (!this.atOp(']')) throw new PySyntaxError(`expected ',' or ']' in subscript, found '${this.peek().v}'`);
        }
        this.next();
        e = { k: 'sub', obj: e, index };
      } else if (this.atOp('.')) {
        this.next();
        const t = this.next();
        if (t.t !== 'name') throw new PySyntaxError('expected an attribute name after "."');
        e = { k: 'attr', obj: e, name: t.v };
      } else return e;
    }
  }
  sliceItem(): PyExpr {
    if (this.atOp(':')) {
      this.next();
      if (!this.atOp(']') && !this.atOp(',')) this.expr();
      return { k: 'slice' };
    }
    const e = this.expr();
    if (this.atOp(':')) {
      this.next();
      if (!this.atOp(']') && !this.atOp(',')) this.expr();
      if (this.atOp(':')) {
        this.next();
        if (!this.atOp(']') && !this.atOp(',')) this.expr();
      }
      return { k: 'slice' };
    }
    return e;
  }
  atom(): PyExpr {
    const t = this.next();
    switch (t.t) {
      case 'num':
        return { k: 'num', text: t.v, isFloat: !!t.isFloat };
      case 'str':
        return { k: 'str', value: t.v };
      case 'name':
        if (t.v === 'True' || t.v === 'False' || t.v === 'None') return { k: 'const', value: t.v };
        if (['if', 'else', 'for', 'while', 'def', 'return', 'import', 'yield', 'with', 'del', 'global'].includes(t.v)) {
          throw new PySyntaxError(`keyword '${t.v}' is not supported here`);
        }
        return { k: 'name', id: t.v };
      case 'op':
        if (t.v === '(') {
          if (this.atOp(')')) {
            this.next();
            return { k: 'tuple', items: [] };
          }
          const e = this.exprList();
          this.expectOp(')');
          return e;
        }
        if (t.v === '[') throw new PySyntaxError('list literals are not supported');
        throw new PySyntaxError(`unexpected '${t.v}'`);
      case 'end':
        throw new PySyntaxError('unexpected end of text');
    }
  }
}

/** Parses one expression (Python code, or a symbolic field in either grammar). */
export function parseExpr(src: string): PyExpr {
  const p = new Parser(tokenize(src));
  const e = p.exprList();
  if (!p.atEnd()) throw new PySyntaxError(`unexpected '${p.peek().v}' after the expression`);
  return e;
}

interface Line {
  indent: number;
  text: string;
}

/** Joins physical lines into logical ones (open brackets, backslashes) and splits `;`. */
function logicalLines(src: string): Line[] {
  const out: Line[] = [];
  let pending = '';
  let pendingIndent = 0;
  let depth = 0;
  for (const raw of src.replace(/\r\n?/g, '\n').split('\n')) {
    const noComment = stripComment(raw);
    if (!pending && !noComment.trim()) continue;
    if (!pending) pendingIndent = noComment.length - noComment.trimStart().length;
    pending += (pending ? ' ' : '') + noComment.trim();
    for (const ch of noComment) {
      if ('([{'.includes(ch)) depth++;
      else if (')]}'.includes(ch)) depth--;
    }
    if (depth > 0 || pending.endsWith('\\')) {
      if (pending.endsWith('\\')) pending = pending.slice(0, -1);
      continue;
    }
    for (const part of splitSemicolons(pending)) if (part.trim()) out.push({ indent: pendingIndent, text: part.trim() });
    pending = '';
    depth = 0;
  }
  if (pending.trim()) throw new PySyntaxError('unbalanced brackets');
  return out;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function splitSemicolons(text: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ';') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const AUG_OPS = ['+=', '-=', '*=', '/=', '//=', '%=', '**=', '&=', '|=', '^=', '<<=', '>>='];

function parseSimple(text: string): PyStmt {
  if (text === 'pass') return { k: 'pass' };
  const toks = tokenize(text);
  const p = new Parser(toks);
  const first = p.exprList();
  if (p.atEnd()) return { k: 'expr', e: first };
  const t = p.peek();
  if (t.t === 'op' && AUG_OPS.includes(t.v)) {
    p.next();
    const value = p.exprList();
    if (!p.atEnd()) throw new PySyntaxError(`unexpected '${p.peek().v}'`);
    return { k: 'aug', target: first, op: t.v.slice(0, -1), value };
  }
  if (t.t === 'op' && t.v === ':') throw new PySyntaxError('annotated assignments are not supported');
  const targets = [first];
  let value: PyExpr | null = null;
  while (p.atOp('=')) {
    p.next();
    const e = p.exprList();
    if (p.atOp('=')) targets.push(e);
    else value = e;
  }
  if (!value || !p.atEnd()) throw new PySyntaxError(`cannot parse statement '${text}'`);
  return { k: 'assign', targets, value };
}

/** Parses statements (assignments, augmented assignments, if/elif/else, pass, expressions). */
export function parseStatements(src: string): PyStmt[] {
  const lines = logicalLines(src);
  let i = 0;
  const block = (indent: number): PyStmt[] => {
    const out: PyStmt[] = [];
    while (i < lines.length && lines[i]!.indent >= indent) {
      const line = lines[i]!;
      if (line.indent > indent) throw new PySyntaxError(`unexpected indentation at '${line.text}'`);
      const head = /^(if|elif|else|for|while|def|return|with|try|import|from|class)\b/.exec(line.text);
      if (head && head[1] === 'if') {
        out.push(ifChain(line, indent));
        continue;
      }
      if (head && head[1] !== 'if') throw new PySyntaxError(`'${head[1]}' statements are not supported`);
      out.push(parseSimple(line.text));
      i++;
    }
    return out;
  };
  const suite = (line: Line, afterColon: string): PyStmt[] => {
    i++;
    if (afterColon.trim()) return [parseSimple(afterColon.trim())];
    if (i >= lines.length || lines[i]!.indent <= line.indent) throw new PySyntaxError('expected an indented block');
    return block(lines[i]!.indent);
  };
  const ifChain = (line: Line, indent: number): PyStmt => {
    const m = /^(?:if|elif)\b(.*)$/.exec(line.text)!;
    const { cond, rest } = splitHeader(m[1]!);
    const body = suite(line, rest);
    let orelse: PyStmt[] = [];
    const nextLine = lines[i];
    if (nextLine && nextLine.indent === indent) {
      if (/^elif\b/.test(nextLine.text)) orelse = [ifChain(nextLine, indent)];
      else if (/^else\s*:/.test(nextLine.text)) orelse = suite(nextLine, nextLine.text.replace(/^else\s*:/, ''));
    }
    return { k: 'if', cond: parseExpr(cond), body, orelse };
  };
  const result = block(lines.length ? lines[0]!.indent : 0);
  if (i < lines.length) throw new PySyntaxError(`unexpected indentation at '${lines[i]!.text}'`);
  return result;
}

/** Splits `cond: rest` at the colon that closes an `if` header (not one inside brackets or a lambda). */
function splitHeader(text: string): { cond: string; rest: string } {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ':' && depth === 0) return { cond: text.slice(0, i), rest: text.slice(i + 1) };
  }
  throw new PySyntaxError(`missing ':' in '${text}'`);
}

/** Every identifier read by an expression (attribute names excluded, `math.sqrt` yields `math`). */
export function namesIn(e: PyExpr, out: Set<string> = new Set()): Set<string> {
  switch (e.k) {
    case 'name':
      out.add(e.id);
      break;
    case 'bin':
      namesIn(e.l, out);
      namesIn(e.r, out);
      break;
    case 'un':
      namesIn(e.e, out);
      break;
    case 'bool':
      e.values.forEach((v) => namesIn(v, out));
      break;
    case 'cmp':
      e.operands.forEach((v) => namesIn(v, out));
      break;
    case 'ifexp':
      namesIn(e.cond, out);
      namesIn(e.then, out);
      namesIn(e.orelse, out);
      break;
    case 'call':
      if (e.fn.k === 'name' && e.fn.id === 'symbol' && e.args[0]?.k === 'name') {
        out.add(e.args[0].id);
        break;
      }
      namesIn(e.fn, out);
      e.args.forEach((v) => namesIn(v, out));
      e.kwargs.forEach(([, v]) => namesIn(v, out));
      break;
    case 'attr':
      namesIn(e.obj, out);
      break;
    case 'sub':
      namesIn(e.obj, out);
      e.index.forEach((v) => namesIn(v, out));
      break;
    case 'tuple':
      e.items.forEach((v) => namesIn(v, out));
      break;
    case 'lambda': {
      const inner = namesIn(e.body);
      for (const n of inner) if (!e.params.includes(n)) out.add(n);
      break;
    }
    default:
      break;
  }
  return out;
}

export function namesInStatements(stmts: PyStmt[], reads: Set<string> = new Set(), writes: Set<string> = new Set()) {
  for (const s of stmts) {
    switch (s.k) {
      case 'assign':
        namesIn(s.value, reads);
        for (const t of s.targets) {
          if (t.k === 'name') writes.add(t.id);
          else if (t.k === 'sub' && t.obj.k === 'name') {
            writes.add(t.obj.id);
            t.index.forEach((x) => namesIn(x, reads));
          } else namesIn(t, reads);
        }
        break;
      case 'aug':
        namesIn(s.value, reads);
        namesIn(s.target, reads);
        if (s.target.k === 'name') writes.add(s.target.id);
        else if (s.target.k === 'sub' && s.target.obj.k === 'name') writes.add(s.target.obj.id);
        break;
      case 'if':
        namesIn(s.cond, reads);
        namesInStatements(s.body, reads, writes);
        namesInStatements(s.orelse, reads, writes);
        break;
      case 'expr':
        namesIn(s.e, reads);
        break;
      default:
        break;
    }
  }
  return { reads, writes };
}

// ---------------------------------------------------------------------------------------------------------
// Integer evaluation of symbolic fields (shapes, strides, sizes) with concrete symbol values
// ---------------------------------------------------------------------------------------------------------

function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PySyntaxError('division by zero');
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}
function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}
function pyMod(a: bigint, b: bigint): bigint {
  return a - floorDiv(a, b) * b;
}

/** Evaluates an integer symbolic expression; unknown names throw (the caller reports which symbol). */
export function evalInt(e: PyExpr, env: (name: string) => bigint): bigint {
  const ev = (x: PyExpr) => evalInt(x, env);
  switch (e.k) {
    case 'num':
      if (e.isFloat) {
        const f = Number(e.text);
        if (!Number.isInteger(f)) throw new PySyntaxError(`non-integer value ${e.text} in a size`);
        return BigInt(f);
      }
      return BigInt(e.text);
    case 'const':
      if (e.value === 'None') throw new PySyntaxError('None in a size');
      return e.value === 'True' ? 1n : 0n;
    case 'name':
      return env(e.id);
    case 'un':
      if (e.op === '-') return -ev(e.e);
      if (e.op === '+') return ev(e.e);
      if (e.op === 'not') return ev(e.e) === 0n ? 1n : 0n;
      return ~ev(e.e);
    case 'bin': {
      const l = ev(e.l);
      const r = ev(e.r);
      switch (e.op) {
        case '+': return l + r;
        case '-': return l - r;
        case '*': return l * r;
        case '/': return floorDiv(l, r);
        case '//': return floorDiv(l, r);
        case '%': return pyMod(l, r);
        case '**':
          if (r < 0n) throw new PySyntaxError('negative exponent in a size');
          return l ** r;
        case '&': return l & r;
        case '|': return l | r;
        case '^': return l ^ r;
        case '<<': return l << r;
        case '>>': return l >> r;
      }
      throw new PySyntaxError(`operator ${e.op} in a size`);
    }
    case 'cmp': {
      for (let i = 0; i < e.ops.length; i++) {
        const a = ev(e.operands[i]!);
        const b = ev(e.operands[i + 1]!);
        const ok = { '<': a < b, '>': a > b, '<=': a <= b, '>=': a >= b, '==': a === b, '!=': a !== b }[e.ops[i]!];
        if (!ok) return 0n;
      }
      return 1n;
    }
    case 'bool': {
      if (e.op === 'and') return e.values.every((v) => ev(v) !== 0n) ? 1n : 0n;
      return e.values.some((v) => ev(v) !== 0n) ? 1n : 0n;
    }
    case 'ifexp':
      return ev(e.cond) !== 0n ? ev(e.then) : ev(e.orelse);
    case 'call': {
      const fn = calleeName(e.fn);
      const args = e.args;
      if (fn === 'symbol' && args[0]?.k === 'name') return env(args[0].id);
      if (fn === 'SymExpr') return ev(args[0]!);
      if ((fn === 'ceiling' || fn === 'ceil') && args[0]?.k === 'bin' && args[0].op === '/') {
        return ceilDiv(ev(args[0].l), ev(args[0].r));
      }
      if (fn === 'ceiling' || fn === 'floor' || fn === 'int' || fn === 'ceil') return ev(args[0]!);
      const vals = args.map(ev);
      switch (fn) {
        case 'Max': case 'max': return vals.reduce((a, b) => (a > b ? a : b));
        case 'Min': case 'min': return vals.reduce((a, b) => (a < b ? a : b));
        case 'Abs': case 'abs': return vals[0]! < 0n ? -vals[0]! : vals[0]!;
        case 'Mod': return pyMod(vals[0]!, vals[1]!);
        case 'int_floor': case '__int_floor': return floorDiv(vals[0]!, vals[1]!);
        case 'int_ceil': case '__int_ceil': return ceilDiv(vals[0]!, vals[1]!);
        case 'Eq': return vals[0] === vals[1] ? 1n : 0n;
        case 'Ne': return vals[0] !== vals[1] ? 1n : 0n;
      }
      throw new PySyntaxError(`function ${fn ?? '?'} in a size`);
    }
    default:
      throw new PySyntaxError(`cannot evaluate ${e.k} in a size`);
  }
}

/** `math.sqrt` → `math.sqrt`, `sqrt` → `sqrt`, `dace.float64` → `dace.float64`; null for computed callees. */
export function calleeName(fn: PyExpr): string | null {
  if (fn.k === 'name') return fn.id;
  if (fn.k === 'attr') {
    const base = calleeName(fn.obj);
    return base === null ? null : `${base}.${fn.name}`;
  }
  return null;
}
