/**
 * C++ text for expressions. Integer `//`, `%`, `**`, floor/ceiling and Max/Min go through the helpers of
 * CPP_SYMBOLIC_HELPERS because C++'s own operators truncate toward zero where Python and SymPy floor.
 * Exact (float-free) arithmetic that contains `/` is first brought to one fraction `num/den`, so that e.g.
 * `ceiling(M/512)` and `N*(N + 1)/2` stay exact in integer C++ instead of truncating each division.
 */
import { dottedPath, leftSpine, type BinOp, type Expr } from './ast.js';
import { cppFunction } from './cpp-functions.js';
import { integerTypeOf, isFloatTypeName, moduleConstant } from './evaluate.js';
import { formatFloat } from './show.js';
import { isExact, simplify } from './transform.js';

export interface CppOptions {
  /** C++ text for a symbol (default: its name). */
  symbol?: (name: string) => string;
  /** C++ text for a data-container read `A[i, j]`; without it subscripts are rejected. `base` is the
   * container's name when the subscripted expression is a plain name (containers are not symbols, so it does
   * not go through `symbol`), and the emitted C++ otherwise. */
  subscript?: (base: string, index: string[]) => string;
  /** Python 3 code semantics: `/` is true division (`3 / 2` is 1.5, `tlab_truediv`), and nothing is rewritten
   * into exact rationals, because names in code may hold floats (`floor(x)` stays `std::floor(x)`). Use it
   * for tasklet code and interstate values. */
  pythonDivision?: boolean;
}

// C++ operator precedence, loosest first.
const C_TERNARY = 1,
  C_OR = 2,
  C_AND = 3,
  C_BOR = 4,
  C_XOR = 5,
  C_BAND = 6,
  C_EQ = 7,
  C_REL = 8;
const C_SHIFT = 9,
  C_ADD = 10,
  C_MUL = 11,
  C_UNARY = 12,
  C_ATOM = 14;

const C_OPERATORS: Partial<Record<BinOp, [string, number]>> = {
  '+': ['+', C_ADD],
  '-': ['-', C_ADD],
  '*': ['*', C_MUL],
  '==': ['==', C_EQ],
  '!=': ['!=', C_EQ],
  '<': ['<', C_REL],
  '<=': ['<=', C_REL],
  '>': ['>', C_REL],
  '>=': ['>=', C_REL],
  and: ['&&', C_AND],
  or: ['||', C_OR],
  '&': ['&', C_BAND],
  '|': ['|', C_BOR],
  '^': ['^', C_XOR],
  '<<': ['<<', C_SHIFT],
  '>>': ['>>', C_SHIFT],
};

const HELPER_BY_OP: Partial<Record<BinOp, string>> = { '//': 'tlab_int_floor', '%': 'tlab_py_mod', '**': 'tlab_ipow' };

const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

interface Emitted {
  text: string;
  prec: number;
}

const atom = (text: string): Emitted => ({ text, prec: C_ATOM });
const paren = (e: Emitted, minPrec: number): string => (e.prec < minPrec ? `(${e.text})` : e.text);

interface Fraction {
  num: Expr;
  den: Expr;
}

const ONE: Expr = { k: 'int', v: 1n };
const mul = (a: Expr, b: Expr): Expr => ({ k: 'bin', op: '*', a, b });

/** Brings float-free `+ - * /` arithmetic to one fraction; other nodes are opaque leaves. */
function toFraction(e: Expr): Fraction {
  switch (e.k) {
    case 'bin': {
      if (e.op === '+' || e.op === '-' || e.op === '*' || e.op === '/') {
        // Spine in a loop: sums of many terms are left-deep.
        const { spine, base } = leftSpine(e, (node) => node.op === '+' || node.op === '-' || node.op === '*' || node.op === '/');
        let acc = toFraction(base);
        for (let i = spine.length - 1; i >= 0; i--) {
          const node = spine[i]!;
          const r = toFraction(node.b);
          if (node.op === '*') acc = { num: mul(acc.num, r.num), den: mul(acc.den, r.den) };
          else if (node.op === '/') acc = { num: mul(acc.num, r.den), den: mul(acc.den, r.num) };
          else acc = { num: { k: 'bin', op: node.op, a: mul(acc.num, r.den), b: mul(r.num, acc.den) }, den: mul(acc.den, r.den) };
        }
        return acc;
      }
      const exponent = e.op === '**' ? literalInteger(e.b) : null;
      if (exponent !== null) {
        const base = toFraction(e.a);
        const k: Expr = { k: 'int', v: exponent < 0n ? -exponent : exponent };
        const num: Expr = { k: 'bin', op: '**', a: base.num, b: k };
        const den: Expr = { k: 'bin', op: '**', a: base.den, b: k };
        return exponent < 0n ? { num: den, den: num } : { num, den };
      }
      return { num: e, den: ONE };
    }
    case 'call':
      if ((e.fn === 'Mod' || e.fn === 'mod') && e.args.length === 2) {
        // a mod b = (a.num·b.den mod b.num·a.den) / (a.den·b.den): stays exact when scaled back to an integer.
        const a = toFraction(e.args[0]!);
        const b = toFraction(e.args[1]!);
        const mod: Expr = { k: 'call', fn: '__tlab_py_mod', args: [mul(a.num, b.den), mul(b.num, a.den)], kwargs: [] };
        return { num: mod, den: mul(a.den, b.den) };
      }
      return { num: e, den: ONE };
    case 'un':
      if (e.op === '-' || e.op === '+') {
        const inner = toFraction(e.a);
        return e.op === '-' ? { num: { k: 'un', op: '-', a: inner.num }, den: inner.den } : inner;
      }
      return { num: e, den: ONE };
    default:
      return { num: e, den: ONE };
  }
}

/** `3`, `-3` (parsed as a negation) or `+3`; null for anything else. */
function literalInteger(e: Expr): bigint | null {
  if (e.k === 'int') return e.v;
  if (e.k === 'un' && (e.op === '-' || e.op === '+') && e.a.k === 'int') return e.op === '-' ? -e.a.v : e.a.v;
  return null;
}

const divisionCache = new WeakMap<Expr, boolean>();

/** The arithmetic operands toFraction looks through; a `/` among them makes the node a fraction. */
function fractionOperands(e: Expr): Expr[] {
  if (e.k === 'bin' && (e.op === '+' || e.op === '-' || e.op === '*')) return [e.a, e.b];
  if (e.k === 'bin' && e.op === '**' && literalInteger(e.b) !== null) return [e.a];
  if (e.k === 'un' && (e.op === '-' || e.op === '+')) return [e.a];
  if (e.k === 'call' && (e.fn === 'Mod' || e.fn === 'mod') && e.args.length === 2) return e.args;
  return [];
}

function isDivision(e: Expr): boolean {
  return e.k === 'bin' && (e.op === '/' || (e.op === '**' && (literalInteger(e.b) ?? 0n) < 0n));
}

/** Memoised, with an explicit stack: emitting a long sum asks this of every node on its spine. */
function containsDivision(e: Expr): boolean {
  const cached = divisionCache.get(e);
  if (cached !== undefined) return cached;
  const stack: Array<[Expr, boolean]> = [[e, false]];
  while (stack.length > 0) {
    const [node, expanded] = stack.pop()!;
    if (divisionCache.has(node)) continue;
    if (isDivision(node)) {
      divisionCache.set(node, true);
      continue;
    }
    const operands = fractionOperands(node);
    if (!expanded) {
      stack.push([node, true]);
      for (const o of operands) if (!divisionCache.has(o)) stack.push([o, false]);
    } else {
      divisionCache.set(
        node,
        operands.some((o) => divisionCache.get(o) === true),
      );
    }
  }
  return divisionCache.get(e)!;
}

class CppEmitter {
  /** Some ancestor is float arithmetic, so an exact non-integer quotient must keep its fraction. */
  private floatContext = false;

  constructor(private readonly opts: CppOptions) {}

  emit(e: Expr): Emitted {
    const outer = this.floatContext;
    this.floatContext = outer || !this.exact(e);
    try {
      return this.emitNode(e);
    } finally {
      this.floatContext = outer;
    }
  }

  /** Exact rational arithmetic applies: symbolic fields only, since code may read float-valued names. */
  private exact(e: Expr): boolean {
    return !this.opts.pythonDivision && isExact(e);
  }

  private emitNode(e: Expr): Emitted {
    switch (e.k) {
      case 'int':
        return intLiteral(e.v);
      case 'float':
        return floatLiteral(e.v);
      case 'bool':
        return atom(e.v ? 'true' : 'false');
      case 'none':
        throw new Error('None has no C++ value');
      case 'sym':
        if (e.name === '?') throw new Error("the undefined symbol '?' has no C++ value");
        return atom(this.opts.symbol ? this.opts.symbol(e.name) : e.name);
      case 'bin':
        return this.binary(e);
      case 'un': {
        if ((e.op === '-' || e.op === '+') && this.exact(e) && containsDivision(e)) return this.fraction(toFraction(e));
        const a = this.emit(e.a);
        const op = e.op === 'not' ? '!' : e.op;
        // `- -x` must not become the decrement operator.
        const text = paren(a, C_UNARY);
        return { text: `${op}${text.startsWith(op) && op !== '!' && op !== '~' ? ' ' : ''}${text}`, prec: C_UNARY };
      }
      case 'cmpchain': {
        const parts: string[] = [];
        for (let i = 0; i < e.ops.length; i++) {
          parts.push(this.emit({ k: 'bin', op: e.ops[i]!, a: e.operands[i]!, b: e.operands[i + 1]! }).text);
        }
        return { text: parts.map((p) => `(${p})`).join(' && '), prec: C_AND };
      }
      case 'call':
        return this.call(e);
      case 'ternary': {
        const cond = this.emit(e.cond);
        const then = this.emit(e.then);
        const otherwise = this.emit(e.else);
        return { text: `${paren(cond, C_OR)} ? ${paren(then, C_OR)} : ${paren(otherwise, C_TERNARY)}`, prec: C_TERNARY };
      }
      case 'subscript': {
        if (!this.opts.subscript) throw new Error('reading a data container needs the subscript option of toCpp');
        const base = e.base.k === 'sym' && e.base.dtype === undefined ? e.base.name : this.emit(e.base).text;
        return atom(
          this.opts.subscript(
            base,
            e.index.map((i) => this.emit(i).text),
          ),
        );
      }
      case 'attr': {
        const dotted = dottedPath(e);
        const constant = dotted === null ? undefined : moduleConstant(dotted);
        if (constant !== undefined) return floatLiteral(constant);
        return atom(`${paren(this.emit(e.base), C_ATOM)}.${e.name}`);
      }
      case 'tuple':
        throw new Error('a tuple has no C++ value');
    }
  }

  private fraction(f: Fraction): Emitted {
    const num = simplify(f.num);
    const den = simplify(f.den);
    if (den.k === 'int' && den.v === 1n) return this.emit(num);
    if (this.floatContext) return atom(`(static_cast<double>(${this.emit(num).text}) / static_cast<double>(${this.emit(den).text}))`);
    return atom(`tlab_div(${this.emit(num).text}, ${this.emit(den).text})`);
  }

  private binary(e: Extract<Expr, { k: 'bin' }>): Emitted {
    if (this.exact(e) && (e.op === '+' || e.op === '-' || e.op === '*' || e.op === '/') && containsDivision(e)) {
      return this.fraction(toFraction(e));
    }
    if (e.op === '/' && this.opts.pythonDivision) {
      // Integer operands divide as doubles; float operands keep their own type (float32 code stays float32).
      return atom(`tlab_truediv(${this.emit(e.a).text}, ${this.emit(e.b).text})`);
    }
    if (e.op === '/') {
      // Python true division where floats are involved.
      return { text: `static_cast<double>(${this.emit(e.a).text}) / ${paren(this.emit(e.b), C_UNARY)}`, prec: C_MUL };
    }
    if (HELPER_BY_OP[e.op] !== undefined) {
      // `a // b % c // …` is left-deep like a long sum: walk its spine in a loop.
      const { spine, base } = leftSpine(e, (node) => HELPER_BY_OP[node.op] !== undefined && !(this.exact(node) && containsDivision(node)));
      let text = this.emit(base).text;
      for (let i = spine.length - 1; i >= 0; i--) {
        const node = spine[i]!;
        text = `${HELPER_BY_OP[node.op]}(${text}, ${this.emit(node.b).text})`;
      }
      return atom(text);
    }
    // Left spine in a loop: long sums are left-deep.
    const { spine, base } = leftSpine(e, (node) => C_OPERATORS[node.op] !== undefined && !(this.exact(node) && containsDivision(node)));
    let acc = this.emit(base);
    for (let i = spine.length - 1; i >= 0; i--) {
      const node = spine[i]!;
      const [op, p] = C_OPERATORS[node.op]!;
      const right = this.emit(node.b);
      // Comparisons of comparisons and mixed bitwise/relational nesting always get parentheses for clarity.
      const leftMin = p === C_EQ || p === C_REL ? p + 1 : p;
      acc = { text: `${paren(acc, leftMin)} ${op} ${paren(right, p + 1)}`, prec: p };
    }
    return acc;
  }

  private args(e: Extract<Expr, { k: 'call' }>, count: number | [number, number]): string[] {
    const [min, max] = typeof count === 'number' ? [count, count] : count;
    if (e.args.length < min || e.args.length > max)
      throw new Error(`${e.fn}() takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${e.args.length}`);
    return e.args.map((a) => this.emit(a).text);
  }

  /** `floor(a/b)`-style helpers: exact operands become one fraction first. */
  private roundedQuotient(helper: 'tlab_int_floor' | 'tlab_int_ceil', quotient: Expr): Emitted {
    if (!this.exact(quotient)) {
      const std = helper === 'tlab_int_floor' ? 'std::floor' : 'std::ceil';
      return atom(`${std}(${this.emit(quotient).text})`);
    }
    const f = toFraction(quotient);
    const num = simplify(f.num);
    const den = simplify(f.den);
    if (den.k === 'int' && den.v === 1n) return this.emit(num);
    return atom(`${helper}(${this.emit(num).text}, ${this.emit(den).text})`);
  }

  private call(e: Extract<Expr, { k: 'call' }>): Emitted {
    const fn = e.fn;
    const div = (a: Expr, b: Expr): Expr => ({ k: 'bin', op: '/', a, b });
    switch (fn) {
      case 'int_floor':
      case '__int_floor':
      case 'floor_div':
        this.args(e, 2);
        return this.exact(e)
          ? this.roundedQuotient('tlab_int_floor', div(e.args[0]!, e.args[1]!))
          : atom(`tlab_int_floor(${this.args(e, 2).join(', ')})`);
      case 'int_ceil':
        this.args(e, 2);
        return this.exact(e)
          ? this.roundedQuotient('tlab_int_ceil', div(e.args[0]!, e.args[1]!))
          : atom(`tlab_int_ceil(${this.args(e, 2).join(', ')})`);
      case 'floor':
      case 'math.floor':
      case 'np.floor':
        if (e.args.length === 2) return this.call({ ...e, fn: 'int_floor' });
        this.args(e, 1);
        return this.roundedQuotient('tlab_int_floor', e.args[0]!);
      case 'ceiling':
      case 'ceil':
      case 'math.ceil':
      case 'np.ceil':
        this.args(e, 1);
        return this.roundedQuotient('tlab_int_ceil', e.args[0]!);
      case 'Mod':
      case 'mod': {
        this.args(e, 2);
        if (this.exact(e)) return this.fraction(toFraction(e));
        return atom(`tlab_py_mod(${this.args(e, 2).join(', ')})`);
      }
      case '__tlab_py_mod':
        return atom(`tlab_py_mod(${e.args.map((a) => this.emit(simplify(a)).text).join(', ')})`);
      case 'Max':
      case 'max':
        return atom(`tlab_max(${this.args(e, [1, Infinity]).join(', ')})`);
      case 'Min':
      case 'min':
        return atom(`tlab_min(${this.args(e, [1, Infinity]).join(', ')})`);
      case 'Abs':
      case 'abs':
        return atom(`tlab_abs(${this.args(e, 1)[0]})`);
      case 'SymExpr':
        this.args(e, [1, 2]);
        return this.emit(e.args[0]!);
      case 'int':
        return this.cast('long long', e);
      case 'bool':
        return this.cast('bool', e);
      case 'Eq':
      case 'Ne':
      case 'Lt':
      case 'Le':
      case 'Gt':
      case 'Ge': {
        this.args(e, 2);
        const op = ({ Eq: '==', Ne: '!=', Lt: '<', Le: '<=', Gt: '>', Ge: '>=' } as const)[fn];
        return this.emit({ k: 'bin', op, a: e.args[0]!, b: e.args[1]! });
      }
      case 'And':
      case 'Or':
        return {
          text: this.args(e, [1, Infinity])
            .map((a) => `(${a})`)
            .join(fn === 'And' ? ' && ' : ' || '),
          prec: fn === 'And' ? C_AND : C_OR,
        };
      case 'Not':
        return { text: `!(${this.args(e, 1)[0]})`, prec: C_UNARY };
      case 'round':
        return atom(`static_cast<long long>(std::nearbyint(${this.args(e, 1)[0]}))`);
      case 'Piecewise':
        return this.piecewise(e);
      case 'bitwise_and':
      case 'bitwise_or':
      case 'bitwise_xor': {
        const [a, b] = this.args(e, 2);
        const op = fn === 'bitwise_and' ? '&' : fn === 'bitwise_or' ? '|' : '^';
        return { text: `(${a}) ${op} (${b})`, prec: fn === 'bitwise_and' ? C_BAND : fn === 'bitwise_or' ? C_BOR : C_XOR };
      }
      case 'bitwise_not':
        return { text: `~(${this.args(e, 1)[0]})`, prec: C_UNARY };
      case 'bitwise_set':
      case 'bitwise_clear':
      case 'bitwise_test':
      case 'bitwise_shift':
        return atom(`tlab_${fn}(${this.args(e, 2).join(', ')})`);
      case 'complex':
        return atom(`tlab_complex128(${this.args(e, [1, 2]).join(', ')})`);
      case 'dace.complex64':
        return atom(`tlab_complex64(${this.args(e, 1)[0]})`);
      case 'dace.complex128':
        return atom(`tlab_complex128(${this.args(e, 1)[0]})`);
      default:
        break;
    }
    const intType = integerTypeOf(fn);
    if (intType !== undefined) return this.cast(`${intType.signed ? '' : 'u'}int${intType.bits}_t`, e);
    if (isFloatTypeName(fn)) return this.cast(fn.endsWith('float32') ? 'float' : 'double', e);
    const base = fn.slice(fn.lastIndexOf('.') + 1);
    if (base === 'log' && e.args.length === 2 && cppFunction(fn)) {
      const [x, b] = this.args(e, 2);
      return { text: `std::log(${x}) / std::log(${b})`, prec: C_MUL };
    }
    if (fn === 'where' || fn === 'np.where' || fn === 'numpy.where') {
      // np.where on scalars, as in a tasklet: a conditional expression.
      this.args(e, 3);
      return this.emit({ k: 'ternary', cond: e.args[0]!, then: e.args[1]!, else: e.args[2]! });
    }
    const f = cppFunction(fn);
    if (f) return atom(`${f.cpp}(${this.args(e, [f.min, f.max]).join(', ')})`);
    throw new Error(`no C++ translation for function '${fn}'`);
  }

  /** Conversions truncate toward zero in both Python and C++; an exact quotient is divided in integers. */
  private cast(type: string, e: Extract<Expr, { k: 'call' }>): Emitted {
    this.args(e, 1);
    const arg = e.args[0]!;
    if (this.exact(arg) && containsDivision(arg)) {
      const f = toFraction(arg);
      const num = this.emit(simplify(f.num)).text;
      const den = this.emit(simplify(f.den)).text;
      if (type === 'double' || type === 'float') return atom(`(static_cast<${type}>(${num}) / static_cast<${type}>(${den}))`);
      return atom(`static_cast<${type}>((${num}) / (${den}))`);
    }
    return atom(`static_cast<${type}>(${this.emit(arg).text})`);
  }

  private piecewise(e: Extract<Expr, { k: 'call' }>): Emitted {
    const pieces = e.args.map((p) => {
      if (p.k !== 'tuple' || p.items.length !== 2) throw new Error('Piecewise() arguments must be (value, condition) pairs');
      return { value: p.items[0]!, cond: p.items[1]! };
    });
    const last = pieces[pieces.length - 1];
    if (!last || !(last.cond.k === 'bool' && last.cond.v)) {
      throw new Error('Piecewise() without a final (value, True) branch has no C++ value when no condition holds');
    }
    let text = `(${this.emit(last.value).text})`;
    for (let i = pieces.length - 2; i >= 0; i--) {
      text = `(${this.emit(pieces[i]!.cond).text}) ? (${this.emit(pieces[i]!.value).text}) : ${text}`;
    }
    return { text, prec: C_TERNARY };
  }
}

function intLiteral(v: bigint): Emitted {
  if (v === INT64_MIN) return atom('(-9223372036854775807LL - 1)');
  const magnitude = v < 0n ? -v : v;
  let text: string;
  if (magnitude <= INT32_MAX) text = magnitude.toString();
  else if (magnitude <= INT64_MAX) text = `${magnitude}LL`;
  else if (v > 0n && v <= UINT64_MAX) text = `${v}ULL`;
  else throw new Error(`integer ${v} does not fit in 64 bits`);
  return v < 0n ? { text: `-${text}`, prec: C_UNARY } : atom(text);
}

function floatLiteral(v: number): Emitted {
  if (Number.isNaN(v)) return atom('std::numeric_limits<double>::quiet_NaN()');
  if (!Number.isFinite(v))
    return v > 0 ? atom('std::numeric_limits<double>::infinity()') : { text: '-std::numeric_limits<double>::infinity()', prec: C_UNARY };
  const text = formatFloat(v);
  return text.startsWith('-') ? { text, prec: C_UNARY } : atom(text);
}

/**
 * C++ expression text for `e`. Symbols without a float dtype are integers; exact `/` is emitted as
 * `tlab_div(num, den)`, which is exact whenever the quotient is an integer (the case for sizes and
 * indices) and floors otherwise; inside float arithmetic the quotient is computed in double. Throws Error for what C++ cannot express (None, tuples, `?`, unknown functions).
 */
export function toCpp(e: Expr, opts: CppOptions = {}): string {
  return new CppEmitter(opts).emit(e).text;
}
