/**
 * PyExpr → C++ expression text. Python semantics are kept where C++ differs (`/` is true division, `//` floors,
 * `%` takes the divisor's sign, `**` on integers stays integral); the helpers live in `CPP_HELPERS`, emitted
 * once at the top of every translation unit.
 */
import { calleeName, PySyntaxError, type PyExpr } from './pyexpr.js';

export interface NameResolver {
  /** C++ for reading a bare name; throw PySyntaxError for names that are not visible. */
  read(name: string): string;
  /** C++ for `name[i, j, …]` (a container or an array connector). */
  index(name: string, indices: PyExpr[], emit: (e: PyExpr) => string): string;
}

export interface EmitOptions {
  /** Symbolic fields: `/` is SymPy's exact division of integers and `ceiling(a/b)` is an integer ceiling. */
  symbolic: boolean;
}

const STD_MATH = new Set([
  'sqrt', 'exp', 'exp2', 'log', 'log2', 'log10', 'log1p', 'expm1', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan',
  'atan2', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'floor', 'ceil', 'fabs', 'pow', 'fmod', 'erf', 'erfc',
  'hypot', 'copysign', 'trunc', 'cbrt', 'isnan', 'isinf', 'isfinite', 'tgamma', 'lgamma',
]);
const MATH_ALIASES: Record<string, string> = {
  arcsin: 'asin', arccos: 'acos', arctan: 'atan', arctan2: 'atan2', arcsinh: 'asinh', arccosh: 'acosh',
  arctanh: 'atanh', absolute: 'fabs', power: 'pow', gamma: 'tgamma', ceiling: 'ceil',
};
const MODULES = new Set(['math', 'np', 'numpy', 'dace', 'dace.math', 'cmath']);

export const CAST_TYPES: Record<string, string> = {
  bool: 'bool', bool_: 'bool', int8: 'int8_t', int16: 'int16_t', int32: 'int', int64: 'int64_t', uint8: 'uint8_t',
  uint16: 'uint16_t', uint32: 'uint32_t', uint64: 'uint64_t', float32: 'float', float64: 'double', intp: 'int64_t',
  uintp: 'uint64_t', complex64: 'std::complex<float>', complex128: 'std::complex<double>', int: 'int64_t',
  float: 'double', int_: 'int64_t', float_: 'double',
};

const CONSTANTS: Record<string, string> = {
  pi: '3.141592653589793', e: '2.718281828459045', inf: 'INFINITY', nan: 'NAN', tau: '6.283185307179586',
};

function stripModule(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return name;
  return MODULES.has(name.slice(0, dot)) ? name.slice(dot + 1) : null;
}

function intLiteral(text: string): string {
  const v = BigInt(text);
  if (v > 2147483647n) return v > 9223372036854775807n ? `${v}ULL` : `${v}LL`;
  return text;
}

export function emitExpr(e: PyExpr, names: NameResolver, opts: EmitOptions): string {
  const go = (x: PyExpr): string => emitExpr(x, names, opts);
  switch (e.k) {
    case 'num':
      return e.isFloat ? e.text : intLiteral(e.text);
    case 'const':
      if (e.value === 'None') throw new PySyntaxError('None has no C++ value here');
      return e.value === 'True' ? 'true' : 'false';
    case 'str':
      throw new PySyntaxError('string values are not supported');
    case 'name':
      return names.read(e.id);
    case 'un':
      if (e.op === 'not') return `(!${go(e.e)})`;
      return `(${e.op}${go(e.e)})`;
    case 'bool':
      return `(${e.values.map(go).join(e.op === 'and' ? ' && ' : ' || ')})`;
    case 'cmp': {
      const parts: string[] = [];
      const operands = e.operands.map(go);
      for (let i = 0; i < e.ops.length; i++) parts.push(`(${operands[i]} ${e.ops[i]} ${operands[i + 1]})`);
      return parts.length === 1 ? parts[0]! : `(${parts.join(' && ')})`;
    }
    case 'ifexp':
      return `(${go(e.cond)} ? ${go(e.then)} : ${go(e.orelse)})`;
    case 'bin': {
      const l = go(e.l);
      const r = go(e.r);
      switch (e.op) {
        case '+': case '-': case '*': case '&': case '|': case '^': case '<<': case '>>':
          return `(${l} ${e.op} ${r})`;
        case '/':
          return opts.symbolic ? `(${l} / ${r})` : `__tlab_truediv(${l}, ${r})`;
        case '//':
          return `__tlab_floordiv(${l}, ${r})`;
        case '%':
          return `__tlab_mod(${l}, ${r})`;
        case '**':
          return emitPower(e.l, e.r, l, r);
      }
      throw new PySyntaxError(`operator '${e.op}' is not supported`);
    }
    case 'call':
      return emitCall(e, names, opts, go);
    case 'attr': {
      const full = calleeName(e);
      const bare = full ? stripModule(full) : null;
      if (bare && CONSTANTS[bare]) return CONSTANTS[bare]!;
      throw new PySyntaxError(`attribute '${full ?? e.name}' is not supported`);
    }
    case 'sub': {
      if (e.obj.k !== 'name') throw new PySyntaxError('only names can be subscripted');
      if (e.index.some((i) => i.k === 'slice')) throw new PySyntaxError('slices are not supported in code');
      return names.index(e.obj.id, e.index, go);
    }
    case 'tuple':
      throw new PySyntaxError('tuples are not supported as values');
    case 'slice':
      throw new PySyntaxError('slices are not supported in code');
    case 'lambda':
      throw new PySyntaxError('lambdas are only supported as WCR functions');
  }
}

function emitPower(lExpr: PyExpr, rExpr: PyExpr, l: string, r: string): string {
  // Small constant integer exponents stay exact multiplications, as DaCe's own unparser does.
  if (rExpr.k === 'num' && !rExpr.isFloat) {
    const n = Number(rExpr.text);
    if (n === 0) return `__tlab_pow(${l}, 0)`;
    if (n >= 1 && n <= 4) return `(${Array(n).fill(l).join(' * ')})`;
  }
  if (lExpr.k === 'num' && !lExpr.isFloat && lExpr.text === '2' && rExpr.k !== 'num') return `__tlab_pow(2, ${r})`;
  return `__tlab_pow(${l}, ${r})`;
}

function emitCall(e: Extract<PyExpr, { k: 'call' }>, names: NameResolver, opts: EmitOptions, go: (x: PyExpr) => string): string {
  const full = calleeName(e.fn);
  if (full === null) throw new PySyntaxError('computed function calls are not supported');
  const args = e.args;
  const need = (n: number) => {
    if (args.length !== n) throw new PySyntaxError(`${full}() expects ${n} argument(s), got ${args.length}`);
  };
  // Symbolic-grammar wrappers.
  if (full === 'symbol') {
    if (args[0]?.k !== 'name') throw new PySyntaxError('symbol() without a name');
    return names.read(args[0].id);
  }
  if (full === 'SymExpr') return go(args[0]!);
  if (e.kwargs.length) throw new PySyntaxError(`keyword arguments to ${full}() are not supported`);
  const bare = stripModule(full);
  if (bare === null) throw new PySyntaxError(`function '${full}' is not supported`);
  if (CAST_TYPES[bare] && (full === bare || full.startsWith('dace.') || full.startsWith('np.') || full.startsWith('numpy.'))) {
    need(1);
    return `static_cast<${CAST_TYPES[bare]}>(${go(args[0]!)})`;
  }
  switch (bare) {
    case 'min': case 'Min': case 'minimum': case 'fmin':
      if (args.length < 2) throw new PySyntaxError(`${full}() needs at least two arguments`);
      return `__tlab_min(${args.map(go).join(', ')})`;
    case 'max': case 'Max': case 'maximum': case 'fmax':
      if (args.length < 2) throw new PySyntaxError(`${full}() needs at least two arguments`);
      return `__tlab_max(${args.map(go).join(', ')})`;
    case 'abs': case 'Abs':
      need(1);
      return `__tlab_abs(${go(args[0]!)})`;
    case 'Mod':
      need(2);
      return `__tlab_mod(${go(args[0]!)}, ${go(args[1]!)})`;
    case 'int_floor': case '__int_floor':
      need(2);
      return `__tlab_floordiv(${go(args[0]!)}, ${go(args[1]!)})`;
    case 'int_ceil': case '__int_ceil':
      need(2);
      return `__tlab_ceildiv(${go(args[0]!)}, ${go(args[1]!)})`;
    case 'Eq':
      need(2);
      return `(${go(args[0]!)} == ${go(args[1]!)})`;
    case 'Ne':
      need(2);
      return `(${go(args[0]!)} != ${go(args[1]!)})`;
    case 'bitwise_and':
      need(2);
      return `(${go(args[0]!)} & ${go(args[1]!)})`;
    case 'bitwise_or':
      need(2);
      return `(${go(args[0]!)} | ${go(args[1]!)})`;
    case 'bitwise_xor':
      need(2);
      return `(${go(args[0]!)} ^ ${go(args[1]!)})`;
    case 'sign':
      need(1);
      return `__tlab_sign(${go(args[0]!)})`;
    case 'round':
      need(1);
      return `static_cast<int64_t>(std::nearbyint(${go(args[0]!)}))`;
  }
  if ((bare === 'ceiling' || bare === 'ceil' || bare === 'floor') && opts.symbolic && args[0]?.k === 'bin' && args[0].op === '/') {
    const fn = bare === 'floor' ? '__tlab_floordiv' : '__tlab_ceildiv';
    return `${fn}(${go(args[0].l)}, ${go(args[0].r)})`;
  }
  if (bare === 'ceiling' && opts.symbolic) return go(args[0]!);
  const std = MATH_ALIASES[bare] ?? bare;
  if (STD_MATH.has(std)) {
    if (args.length === 0) throw new PySyntaxError(`${full}() needs arguments`);
    return `std::${std}(${args.map(go).join(', ')})`;
  }
  throw new PySyntaxError(`function '${full}' is not supported`);
}

/** Runtime helpers for Python semantics; templates so that integer and floating types both work. */
export const CPP_HELPERS = String.raw`
template <typename A, typename B> static inline auto __tlab_truediv(A a, B b) {
  if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) return double(a) / double(b);
  else return a / b;
}
template <typename A, typename B> static inline auto __tlab_floordiv(A a, B b) {
  if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) {
    using R = typename std::common_type<A, B>::type;
    R q = R(a) / R(b);
    return (R(a) % R(b) != 0 && ((a < 0) != (b < 0))) ? R(q - 1) : q;
  } else {
    return std::floor(a / b);
  }
}
template <typename A, typename B> static inline auto __tlab_ceildiv(A a, B b) { return -__tlab_floordiv(-a, b); }
template <typename A, typename B> static inline auto __tlab_mod(A a, B b) {
  if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) {
    using R = typename std::common_type<A, B>::type;
    R r = R(a) % R(b);
    return (r != 0 && ((r < 0) != (b < 0))) ? R(r + b) : r;
  } else {
    auto r = std::fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
}
template <typename A, typename B> static inline auto __tlab_pow(A a, B b) {
  if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) {
    using R = typename std::common_type<A, B, int64_t>::type;
    if (b < 0) return R(std::pow(double(a), double(b)));
    R result = 1, base = a;
    for (B e = b; e > 0; e >>= 1) { if (e & 1) result *= base; base *= base; }
    return result;
  } else {
    return std::pow(a, b);
  }
}
template <typename A> static inline auto __tlab_abs(A a) {
  if constexpr (std::is_unsigned<A>::value) return a; else return std::abs(a);
}
template <typename A> static inline A __tlab_sign(A a) { return A((A(0) < a) - (a < A(0))); }
template <typename A> static inline A __tlab_min(A a) { return a; }
template <typename A, typename B, typename... R> static inline auto __tlab_min(A a, B b, R... rest) {
  using C = typename std::common_type<A, B>::type;
  return __tlab_min(C(b) < C(a) ? C(b) : C(a), rest...);
}
template <typename A> static inline A __tlab_max(A a) { return a; }
template <typename A, typename B, typename... R> static inline auto __tlab_max(A a, B b, R... rest) {
  using C = typename std::common_type<A, B>::type;
  return __tlab_max(C(a) < C(b) ? C(b) : C(a), rest...);
}
`;
