/**
 * The values of exact evaluation (evaluate.ts) and their arithmetic: exact rationals with bigint numerator and
 * denominator, floats where an expression asks for them, and booleans; Python's semantics for `//`, `%`, `**`
 * and comparisons, and a size limit that refuses results too large to be a real program's size.
 */
import type { BinOp } from './ast.js';

export type Value = { k: 'rat'; n: bigint; d: bigint } | { k: 'float'; v: number } | { k: 'bool'; v: boolean };
export type Numeric = Exclude<Value, { k: 'bool' }>;

/** A symbol's value: bigint (exact), number (exact when integral, float otherwise), boolean. */
export type Env = (name: string) => bigint | number | boolean | undefined;

// Refuse results whose size would exhaust memory instead of hanging (2**10**9 is a valid expression). Sizes,
// counts and conditions never need more than 64 bits; 65,536 bits (about 10^19728) leaves a wide margin while
// a product of thousands of big factors (`N * N * …` with N = 2^40) stops after a few milliseconds, not seconds.
export const MAX_RESULT_BITS = 65_536;

const ONE: Numeric = { k: 'rat', n: 1n, d: 1n };
const ZERO: Numeric = { k: 'rat', n: 0n, d: 1n };

export function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function bitLength(x: bigint): number {
  return abs(x).toString(2).length;
}

/** Magnitude bound of every exact value: products and sums of huge terms would otherwise grow without end
 * (`(2**999999) * (2**999999) * …` reaches V8's BigInt limit, and gets slower with every factor). */
const MAX_MAGNITUDE = 1n << BigInt(MAX_RESULT_BITS);
const MIN_MAGNITUDE = -MAX_MAGNITUDE;

/** Compared with constants made once: V8 compares BigInts of different lengths by their length alone. */
function tooLarge(x: bigint): boolean {
  return x > MAX_MAGNITUDE || x < MIN_MAGNITUDE;
}

export function rat(n: bigint, d: bigint = 1n): Value {
  if (d === 0n) throw new Error('division by zero');
  if (tooLarge(n) || tooLarge(d)) throw new Error(`value too large (more than ${MAX_RESULT_BITS} bits)`);
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (d === 1n) return { k: 'rat', n, d };
  const g = gcd(n, d);
  return g === 1n ? { k: 'rat', n, d } : { k: 'rat', n: n / g, d: d / g };
}

/** ⌊n/d⌋ for d ≠ 0. */
export function floorDiv(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new Error('division by zero');
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** ⌈n/d⌉ for d ≠ 0. */
function ceilDiv(n: bigint, d: bigint): bigint {
  return -floorDiv(-n, d);
}

export function valueToNumber(v: Value): number {
  if (v.k === 'float') return v.v;
  if (v.k === 'bool') return v.v ? 1 : 0;
  if (v.d === 1n) return Number(v.n);
  // Scale before converting so that huge numerators and denominators do not both overflow to Infinity.
  const shift = BigInt(Math.max(0, Math.max(bitLength(v.n), bitLength(v.d)) - 1000));
  return Number(v.n >> shift) / Number(v.d >> shift);
}

export function truthy(v: Value): boolean {
  if (v.k === 'bool') return v.v;
  if (v.k === 'float') return v.v !== 0;
  return v.n !== 0n;
}

/** Bools take part in arithmetic as 0/1, as in Python. */
export function arith(v: Value): Numeric {
  return v.k === 'bool' ? (v.v ? ONE : ZERO) : v;
}

export function asInteger(v: Value, what: string): bigint {
  const a = arith(v);
  if (a.k === 'rat' && a.d === 1n) return a.n;
  if (a.k === 'float' && Number.isInteger(a.v)) return BigInt(a.v);
  throw new Error(`${what} needs integer operands, got ${describeValue(v)}`);
}

export function describeValue(v: Value): string {
  if (v.k === 'bool') return v.v ? 'True' : 'False';
  if (v.k === 'float') return String(v.v);
  return v.d === 1n ? v.n.toString() : `${v.n}/${v.d}`;
}

export function fromNumber(x: number): Value {
  return Number.isInteger(x) ? { k: 'rat', n: BigInt(x), d: 1n } : { k: 'float', v: x };
}

export function compare(a: Value, b: Value): number {
  const x = arith(a);
  const y = arith(b);
  if (x.k === 'rat' && y.k === 'rat') {
    const diff = x.n * y.d - y.n * x.d;
    return diff < 0n ? -1 : diff > 0n ? 1 : 0;
  }
  const p = valueToNumber(x);
  const q = valueToNumber(y);
  if (Number.isNaN(p) || Number.isNaN(q)) return Number.NaN;
  return p < q ? -1 : p > q ? 1 : 0;
}

function power(base: Value, exponent: Value): Value {
  const b = arith(base);
  const e = arith(exponent);
  if (b.k === 'rat' && e.k === 'rat' && e.d === 1n) {
    const k = e.n < 0n ? -e.n : e.n;
    const resultBits = Math.max(bitLength(b.n), bitLength(b.d)) * Number(k);
    if (resultBits > MAX_RESULT_BITS && abs(b.n) !== 1n && b.n !== 0n) {
      throw new Error(`power result too large (about ${resultBits} bits)`);
    }
    const n = b.n ** k;
    const d = b.d ** k;
    if (e.n >= 0n) return rat(n, d);
    if (n === 0n) throw new Error('zero raised to a negative power');
    return rat(d, n);
  }
  return { k: 'float', v: Math.pow(valueToNumber(b), valueToNumber(e)) };
}

export function applyBinary(op: BinOp, left: Value, right: Value): Value {
  switch (op) {
    case '==':
      return { k: 'bool', v: compare(left, right) === 0 };
    case '!=':
      return { k: 'bool', v: compare(left, right) !== 0 };
    case '<':
      return { k: 'bool', v: compare(left, right) < 0 };
    case '<=':
      return { k: 'bool', v: compare(left, right) <= 0 };
    case '>':
      return { k: 'bool', v: compare(left, right) > 0 };
    case '>=':
      return { k: 'bool', v: compare(left, right) >= 0 };
    case 'and':
      return truthy(left) ? right : left;
    case 'or':
      return truthy(left) ? left : right;
    case '&':
    case '|':
    case '^': {
      if (left.k === 'bool' && right.k === 'bool') {
        return { k: 'bool', v: op === '&' ? left.v && right.v : op === '|' ? left.v || right.v : left.v !== right.v };
      }
      const x = asInteger(left, `'${op}'`);
      const y = asInteger(right, `'${op}'`);
      return rat(op === '&' ? x & y : op === '|' ? x | y : x ^ y);
    }
    case '<<':
    case '>>': {
      const x = asInteger(left, `'${op}'`);
      const y = asInteger(right, `'${op}'`);
      if (y < 0n) throw new Error('negative shift count');
      if (op === '<<' && y > BigInt(MAX_RESULT_BITS)) throw new Error('shift result too large');
      return rat(op === '<<' ? x << y : x >> y);
    }
    case '**':
      return power(left, right);
    default:
      break;
  }
  const x = arith(left);
  const y = arith(right);
  if (x.k === 'rat' && y.k === 'rat') {
    switch (op) {
      case '+':
        return rat(x.n * y.d + y.n * x.d, x.d * y.d);
      case '-':
        return rat(x.n * y.d - y.n * x.d, x.d * y.d);
      case '*':
        return rat(x.n * y.n, x.d * y.d);
      case '/':
        return rat(x.n * y.d, x.d * y.n);
      case '//':
        return rat(floorDiv(x.n * y.d, x.d * y.n));
      case '%': {
        // a mod b = a - b⌊a/b⌋, exact for rationals.
        const q = floorDiv(x.n * y.d, x.d * y.n);
        return rat(x.n * y.d - q * y.n * x.d, x.d * y.d);
      }
    }
  }
  const p = valueToNumber(x);
  const q = valueToNumber(y);
  switch (op) {
    case '+':
      return { k: 'float', v: p + q };
    case '-':
      return { k: 'float', v: p - q };
    case '*':
      return { k: 'float', v: p * q };
    case '/':
      if (q === 0) throw new Error('division by zero');
      return { k: 'float', v: p / q };
    case '//':
      if (q === 0) throw new Error('division by zero');
      return { k: 'float', v: Math.floor(p / q) };
    case '%': {
      if (q === 0) throw new Error('division by zero');
      const r = p % q;
      return { k: 'float', v: r !== 0 && r < 0 !== q < 0 ? r + q : r };
    }
  }
  throw new Error(`unknown operator '${String(op)}'`);
}

export function floorValue(v: Value): Value {
  const x = arith(v);
  if (x.k === 'rat') return rat(floorDiv(x.n, x.d));
  return fromNumber(Math.floor(x.v));
}

export function ceilValue(v: Value): Value {
  const x = arith(v);
  if (x.k === 'rat') return rat(ceilDiv(x.n, x.d));
  return fromNumber(Math.ceil(x.v));
}

export function truncValue(v: Value): bigint {
  const x = arith(v);
  if (x.k === 'rat') return x.n / x.d;
  if (!Number.isFinite(x.v)) throw new Error(`cannot convert ${x.v} to an integer`);
  return BigInt(Math.trunc(x.v));
}
