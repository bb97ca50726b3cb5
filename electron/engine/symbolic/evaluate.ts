/**
 * Exact evaluation. Integers and `/` stay exact rationals (bigint numerator/denominator) because sizes of
 * big programs pass 2^53 (`N**5`, products of many extents); floats appear only where the expression
 * itself asks for them (a float literal, a float cast, a math function, a float-typed symbol).
 */
import { dottedPath, leftSpine, type Expr, UnboundSymbolError } from './ast.js';
import {
  abs,
  applyBinary,
  arith,
  asInteger,
  ceilValue,
  compare,
  describeValue,
  floorValue,
  fromNumber,
  rat,
  truncValue,
  truthy,
  valueToNumber,
  MAX_RESULT_BITS,
  type Value,
  type Env,
} from './values.js';

export type { Env, Value } from './values.js';

const INTEGER_TYPES: Record<string, { bits: number; signed: boolean }> = {
  int8: { bits: 8, signed: true },
  int16: { bits: 16, signed: true },
  int32: { bits: 32, signed: true },
  int64: { bits: 64, signed: true },
  uint8: { bits: 8, signed: false },
  uint16: { bits: 16, signed: false },
  uint32: { bits: 32, signed: false },
  uint64: { bits: 64, signed: false },
};
const FLOAT_TYPES = new Set(['float', 'float16', 'float32', 'float64', 'bfloat16', 'double']);

/** `int32`, `dace.int64`, `np.uint8`… → the integer type. */
export function integerTypeOf(fn: string): { bits: number; signed: boolean } | undefined {
  return INTEGER_TYPES[stripModule(fn)];
}

export function isFloatTypeName(name: string): boolean {
  return FLOAT_TYPES.has(stripModule(name));
}

function stripModule(fn: string): string {
  const dot = fn.lastIndexOf('.');
  return dot === -1 ? fn : fn.slice(dot + 1);
}

/** C-style conversion: truncate toward zero, then wrap to the type's width. */
function castInteger(v: Value, type: { bits: number; signed: boolean }): Value {
  const raw = truncValue(v);
  return rat(type.signed ? BigInt.asIntN(type.bits, raw) : BigInt.asUintN(type.bits, raw));
}

const MATH_FUNCTIONS: Record<string, (x: number, y?: number) => number> = {
  exp: Math.exp,
  log: (x, base) => (base === undefined ? Math.log(x) : Math.log(x) / Math.log(base)),
  log2: Math.log2,
  log10: Math.log10,
  sqrt: Math.sqrt,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: (y, x) => Math.atan2(y, x ?? 1),
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  pow: (x, y) => Math.pow(x, y ?? 1),
  fabs: Math.abs,
  expm1: Math.expm1,
  log1p: Math.log1p,
  cbrt: Math.cbrt,
  erf: erf,
};

/** Names that evaluate to floats: the math library and float casts. toCpp and simplify consult this too. */
export function isFloatFunction(fn: string): boolean {
  const base = stripModule(fn);
  if (isFloatTypeName(fn)) return true;
  return base in MATH_FUNCTIONS && (fn === base || fn.startsWith('math.') || fn.startsWith('np.') || fn.startsWith('numpy.'));
}

// Abramowitz–Stegun 7.1.26; erf is the only math function JavaScript lacks and tasklets rarely use it.
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return sign * y;
}

const MODULE_CONSTANTS: Record<string, number> = {
  'math.pi': Math.PI,
  'math.e': Math.E,
  'math.inf': Infinity,
  'math.nan': NaN,
  'math.tau': 2 * Math.PI,
  'np.pi': Math.PI,
  'numpy.pi': Math.PI,
  'np.e': Math.E,
  'numpy.e': Math.E,
};

export function moduleConstant(dotted: string): number | undefined {
  return MODULE_CONSTANTS[dotted];
}

function arity(fn: string, args: Value[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw new Error(`${fn}() takes ${expected} argument(s), got ${args.length}`);
  }
}

function callFunction(e: Extract<Expr, { k: 'call' }>, env: Env): Value {
  const fn = e.fn;
  if (fn === 'Piecewise') {
    // Piecewise((value, condition), ...): the first true condition wins.
    for (const piece of e.args) {
      if (piece.k !== 'tuple' || piece.items.length !== 2) throw new Error('Piecewise() arguments must be (value, condition) pairs');
      if (truthy(evaluate(piece.items[1]!, env))) return evaluate(piece.items[0]!, env);
    }
    throw new Error('Piecewise(): no condition holds');
  }
  if (fn === 'SymExpr') {
    if (e.args.length < 1 || e.args.length > 2) throw new Error('SymExpr() takes 1 or 2 arguments');
    return evaluate(e.args[0]!, env);
  }
  const args = e.args.map((a) => evaluate(a, env));
  const base = stripModule(fn);
  switch (fn) {
    case 'int_floor':
    case '__int_floor':
    case 'floor_div':
      arity(fn, args, 2);
      return applyBinary('//', args[0]!, args[1]!);
    case 'int_ceil': {
      arity(fn, args, 2);
      return ceilValue(applyBinary('/', args[0]!, args[1]!));
    }
    case 'Mod':
    case 'mod':
      arity(fn, args, 2);
      return applyBinary('%', args[0]!, args[1]!);
    case 'floor':
    case 'math.floor':
    case 'np.floor':
      if (args.length === 2) return applyBinary('//', args[0]!, args[1]!);
      arity(fn, args, 1);
      return floorValue(args[0]!);
    case 'ceiling':
    case 'ceil':
    case 'math.ceil':
    case 'np.ceil':
      arity(fn, args, 1);
      return ceilValue(args[0]!);
    case 'Max':
    case 'max':
    case 'Min':
    case 'min': {
      arity(fn, args, 1, Infinity);
      const wantMax = fn === 'Max' || fn === 'max';
      let best = args[0]!;
      for (const v of args.slice(1)) {
        const c = compare(v, best);
        if (wantMax ? c > 0 : c < 0) best = v;
      }
      return best;
    }
    case 'Abs':
    case 'abs':
    case 'math.fabs': {
      arity(fn, args, 1);
      const x = arith(args[0]!);
      const r = x.k === 'rat' ? rat(abs(x.n), x.d) : { k: 'float' as const, v: Math.abs(x.v) };
      return fn === 'math.fabs' ? { k: 'float', v: valueToNumber(r) } : r;
    }
    case 'int':
      arity(fn, args, 1);
      return rat(truncValue(args[0]!));
    case 'bool':
      arity(fn, args, 1);
      return { k: 'bool', v: truthy(args[0]!) };
    case 'Eq':
    case 'Ne':
    case 'Lt':
    case 'Le':
    case 'Gt':
    case 'Ge': {
      arity(fn, args, 2);
      const op = ({ Eq: '==', Ne: '!=', Lt: '<', Le: '<=', Gt: '>', Ge: '>=' } as const)[fn];
      return applyBinary(op, args[0]!, args[1]!);
    }
    case 'And':
    case 'Or':
      arity(fn, args, 1, Infinity);
      return { k: 'bool', v: fn === 'And' ? args.every(truthy) : args.some(truthy) };
    case 'Not':
      arity(fn, args, 1);
      return { k: 'bool', v: !truthy(args[0]!) };
    case 'round': {
      arity(fn, args, 1);
      // Python rounds half to even.
      const x = valueToNumber(args[0]!);
      const r = Math.round(x);
      return rat(BigInt(Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r));
    }
    // Fortran intrinsics as emitted by DaCe's Fortran frontend (IAND, IOR, IEOR, IBSET, IBCLR, BTEST, ISHFT).
    case 'bitwise_and':
    case 'bitwise_or':
    case 'bitwise_xor': {
      arity(fn, args, 2);
      const x = asInteger(args[0]!, fn);
      const y = asInteger(args[1]!, fn);
      return rat(fn === 'bitwise_and' ? x & y : fn === 'bitwise_or' ? x | y : x ^ y);
    }
    case 'bitwise_not':
      arity(fn, args, 1);
      return rat(~asInteger(args[0]!, fn));
    case 'bitwise_set':
    case 'bitwise_clear':
    case 'bitwise_test': {
      arity(fn, args, 2);
      const x = asInteger(args[0]!, fn);
      const bit = asInteger(args[1]!, fn);
      if (bit < 0n || bit > 1024n) throw new Error(`${fn}(): bit position ${bit} out of range`);
      if (fn === 'bitwise_set') return rat(x | (1n << bit));
      if (fn === 'bitwise_clear') return rat(x & ~(1n << bit));
      return { k: 'bool', v: ((x >> bit) & 1n) === 1n };
    }
    case 'bitwise_shift': {
      arity(fn, args, 2);
      const x = asInteger(args[0]!, fn);
      const by = asInteger(args[1]!, fn);
      if (by > BigInt(MAX_RESULT_BITS)) throw new Error('shift result too large');
      return rat(by >= 0n ? x << by : x >> -by);
    }
    case 'complex':
    case 'dace.complex64':
    case 'dace.complex128':
      throw new Error(`complex values are not supported (${fn})`);
    default:
      break;
  }
  const intType = integerTypeOf(fn);
  if (intType !== undefined && (fn === base || fn.startsWith('dace.') || fn.startsWith('np.') || fn.startsWith('numpy.'))) {
    arity(fn, args, 1);
    return castInteger(args[0]!, intType);
  }
  if (isFloatTypeName(fn)) {
    arity(fn, args, 1);
    const x = valueToNumber(args[0]!);
    return { k: 'float', v: base === 'float32' ? Math.fround(x) : x };
  }
  if (isFloatFunction(fn)) {
    const f = MATH_FUNCTIONS[base]!;
    arity(fn, args, 1, f.length >= 2 || base === 'log' ? 2 : 1);
    const x = valueToNumber(args[0]!);
    return { k: 'float', v: args.length === 2 ? f(x, valueToNumber(args[1]!)) : f(x) };
  }
  throw new Error(`unknown function '${fn}'`);
}

function symbolValue(e: Extract<Expr, { k: 'sym' }>, env: Env): Value {
  const raw = env(e.name);
  if (raw === undefined) throw new UnboundSymbolError(e.name);
  if (typeof raw === 'boolean') return { k: 'bool', v: raw };
  if (typeof raw === 'bigint') return e.dtype !== undefined && isFloatTypeName(e.dtype) ? { k: 'float', v: Number(raw) } : rat(raw);
  if (e.dtype !== undefined && isFloatTypeName(e.dtype)) return { k: 'float', v: raw };
  return fromNumber(raw);
}

/**
 * Evaluates `e`. Throws UnboundSymbolError for a symbol `env` does not bind and Error for anything
 * meaningless (division by zero, unknown function, complex values, reads of data containers).
 */
export function evaluate(e: Expr, env: Env): Value {
  switch (e.k) {
    case 'int':
      return rat(e.v);
    case 'float':
      return { k: 'float', v: e.v };
    case 'bool':
      return { k: 'bool', v: e.v };
    case 'none':
      throw new Error('None has no value');
    case 'sym':
      return symbolValue(e, env);
    case 'bin': {
      // Walk the left spine in a loop: sums of thousands of terms are left-deep trees.
      const { spine, base } = leftSpine(e);
      let acc = evaluate(base, env);
      for (let i = spine.length - 1; i >= 0; i--) {
        const node = spine[i]!;
        if (node.op === 'and') acc = truthy(acc) ? evaluate(node.b, env) : acc;
        else if (node.op === 'or') acc = truthy(acc) ? acc : evaluate(node.b, env);
        else acc = applyBinary(node.op, acc, evaluate(node.b, env));
      }
      return acc;
    }
    case 'un': {
      const x = evaluate(e.a, env);
      switch (e.op) {
        case 'not':
          return { k: 'bool', v: !truthy(x) };
        case '+':
          return arith(x);
        case '-': {
          const y = arith(x);
          return y.k === 'rat' ? { k: 'rat', n: -y.n, d: y.d } : { k: 'float', v: -y.v };
        }
        case '~':
          return rat(~asInteger(x, "'~'"));
      }
      break;
    }
    case 'cmpchain': {
      let left = evaluate(e.operands[0]!, env);
      for (let i = 0; i < e.ops.length; i++) {
        const right = evaluate(e.operands[i + 1]!, env);
        if (!truthy(applyBinary(e.ops[i]!, left, right))) return { k: 'bool', v: false };
        left = right;
      }
      return { k: 'bool', v: true };
    }
    case 'call':
      return callFunction(e, env);
    case 'ternary':
      return truthy(evaluate(e.cond, env)) ? evaluate(e.then, env) : evaluate(e.else, env);
    case 'attr': {
      const dotted = dottedPath(e);
      const constant = dotted === null ? undefined : moduleConstant(dotted);
      if (constant === undefined) throw new Error(`cannot evaluate attribute '${e.name}'`);
      return { k: 'float', v: constant };
    }
    case 'subscript':
      throw new Error('cannot evaluate a read of a data container');
    case 'tuple':
      throw new Error('cannot evaluate a tuple to a single value');
  }
  throw new Error('unknown expression node');
}

/** Integer value, null when a symbol is unbound; throws Error when the value is not an integer. */
export function evalInt(e: Expr, env: ReadonlyMap<string, bigint>): bigint | null {
  let v: Value;
  try {
    v = evaluate(e, (name) => env.get(name));
  } catch (err) {
    if (err instanceof UnboundSymbolError) return null;
    throw err;
  }
  if (v.k === 'rat' && v.d === 1n) return v.n;
  if (v.k === 'float' && Number.isInteger(v.v)) return BigInt(v.v);
  throw new Error(`expected an integer, got ${describeValue(v)}`);
}
