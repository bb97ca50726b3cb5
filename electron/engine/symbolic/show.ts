/** Readable text in the legacy grammar with the fewest parentheses that keep the tree's shape. */
import { leftSpine, type BinOp, type Expr } from './ast.js';

// Binding strength, loosest first (Python's table).
const P_TERNARY = 1,
  P_OR = 2,
  P_AND = 3,
  P_NOT = 4,
  P_CMP = 5,
  P_BOR = 6,
  P_XOR = 7,
  P_BAND = 8,
  P_SHIFT = 9;
const P_ADD = 10,
  P_MUL = 11,
  P_UNARY = 12,
  P_POW = 13,
  P_ATOM = 14;

function binaryPrecedence(op: BinOp): number {
  switch (op) {
    case 'or':
      return P_OR;
    case 'and':
      return P_AND;
    case '|':
      return P_BOR;
    case '^':
      return P_XOR;
    case '&':
      return P_BAND;
    case '<<':
    case '>>':
      return P_SHIFT;
    case '+':
    case '-':
      return P_ADD;
    case '*':
    case '/':
    case '//':
    case '%':
      return P_MUL;
    case '**':
      return P_POW;
    default:
      return P_CMP;
  }
}

interface Shown {
  text: string;
  prec: number;
}

function wrap(s: Shown, needParens: boolean): string {
  return needParens ? `(${s.text})` : s.text;
}

/** Float literal text that re-parses as a float. */
function floatText(e: Extract<Expr, { k: 'float' }>): string {
  if (/^(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?:\.[0-9]*)?[eE][+-]?[0-9]+|\.[0-9]+[eE][+-]?[0-9]+)$/.test(e.text) && Number(e.text) === e.v) {
    return e.text;
  }
  return formatFloat(e.v);
}

export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'math.nan';
  if (v === Infinity) return 'math.inf';
  if (v === -Infinity) return '-math.inf';
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function leftNeedsParens(op: BinOp, left: Shown): boolean {
  const p = binaryPrecedence(op);
  if (p === P_CMP) return left.prec <= P_CMP;
  if (op === '**') return left.prec <= P_POW;
  return left.prec < p;
}

function rightNeedsParens(op: BinOp, right: Shown): boolean {
  const p = binaryPrecedence(op);
  if (op === '**') return right.prec < P_UNARY;
  return right.prec <= p;
}

function showNode(e: Expr): Shown {
  switch (e.k) {
    case 'int':
      return { text: e.v.toString(), prec: e.v < 0n ? P_UNARY : P_ATOM };
    case 'float': {
      const text = floatText(e);
      return { text, prec: text.startsWith('-') ? P_UNARY : P_ATOM };
    }
    case 'bool':
      return { text: e.v ? 'True' : 'False', prec: P_ATOM };
    case 'none':
      return { text: 'None', prec: P_ATOM };
    case 'sym':
      return { text: e.name, prec: P_ATOM };
    case 'bin': {
      const { spine, base } = leftSpine(e);
      let acc = showNode(base);
      for (let i = spine.length - 1; i >= 0; i--) {
        const node = spine[i]!;
        const right = showNode(node.b);
        // SymPy's spacing: `64*N`, `M/512`, `K**2`, but `N - 1`.
        const op = node.op === '*' || node.op === '/' || node.op === '**' ? node.op : ` ${node.op} `;
        acc = {
          text: `${wrap(acc, leftNeedsParens(node.op, acc))}${op}${wrap(right, rightNeedsParens(node.op, right))}`,
          prec: binaryPrecedence(node.op),
        };
      }
      return acc;
    }
    case 'un': {
      const operand = showNode(e.a);
      if (e.op === 'not') return { text: `not ${wrap(operand, operand.prec < P_NOT)}`, prec: P_NOT };
      return { text: `${e.op}${wrap(operand, operand.prec < P_UNARY)}`, prec: P_UNARY };
    }
    case 'cmpchain': {
      const parts = [showOperand(e.operands[0]!, P_CMP)];
      e.ops.forEach((op, i) => parts.push(op, showOperand(e.operands[i + 1]!, P_CMP)));
      return { text: parts.join(' '), prec: P_CMP };
    }
    case 'call': {
      const args = e.args.map((a) => show(a));
      for (const [key, value] of e.kwargs) args.push(`${key}=${show(value)}`);
      return { text: `${e.fn}(${args.join(', ')})`, prec: P_ATOM };
    }
    case 'ternary': {
      const then = showNode(e.then);
      const cond = showNode(e.cond);
      const otherwise = showNode(e.else);
      return {
        text: `${wrap(then, then.prec <= P_TERNARY)} if ${wrap(cond, cond.prec <= P_TERNARY)} else ${otherwise.text}`,
        prec: P_TERNARY,
      };
    }
    case 'subscript':
      return { text: `${showBase(e.base)}[${e.index.map((i) => show(i)).join(', ')}]`, prec: P_ATOM };
    case 'attr':
      return { text: `${showBase(e.base)}.${e.name}`, prec: P_ATOM };
    case 'tuple': {
      const items = e.items.map((i) => show(i));
      return { text: items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`, prec: P_ATOM };
    }
  }
}

function showOperand(e: Expr, parentPrec: number): string {
  const s = showNode(e);
  return wrap(s, s.prec <= parentPrec);
}

function showBase(e: Expr): string {
  const s = showNode(e);
  // `1.real` would lex as the float `1.`: number bases always get parentheses.
  return wrap(s, s.prec < P_ATOM || e.k === 'int' || e.k === 'float');
}

/** Legacy-grammar text (no `$`, dtypes and literal suffixes dropped) that parseSym(text, 'legacy') reads back
 * to a tree with the same value (a negative literal comes back as a negated one). */
export function show(e: Expr): string {
  return showNode(e).text;
}
