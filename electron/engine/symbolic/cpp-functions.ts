/**
 * The math and NumPy functions tasklet code may call, and their C++: one table for every target (the CUDA
 * backend marks the helpers of CPP_SYMBOLIC_HELPERS `__host__ __device__`, so kernels call the same code).
 * Names are those DaCe's Python frontend writes into tasklets (its ufunc table in
 * dace/frontend/python/replacements/ufunc.py: `sign_numpy_2`, `heaviside`, `py_mod`, `cpp_mod`, …) and those a
 * user writes (`math.*`, `np.*`, `numpy.*` or bare). Semantics are NumPy's where DaCe's runtime differs
 * (sign and heaviside of NaN are NaN, `np.maximum` propagates NaN), so a profiled program computes what its
 * Python says.
 */

export interface CppFunction {
  /** C++ callee (a `std::` function or a helper of CPP_SYMBOLIC_HELPERS). */
  cpp: string;
  /** Accepted argument counts. */
  min: number;
  max: number;
}

const fn = (cpp: string, min: number, max = min): CppFunction => ({ cpp, min, max });

const STD_UNARY = [
  'exp',
  'exp2',
  'expm1',
  'log',
  'log2',
  'log10',
  'log1p',
  'sqrt',
  'cbrt',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'sinh',
  'cosh',
  'tanh',
  'asinh',
  'acosh',
  'atanh',
  'erf',
  'erfc',
  'tgamma',
  'lgamma',
  'fabs',
  'trunc',
  'rint',
];
const STD_BINARY = ['atan2', 'pow', 'hypot', 'copysign', 'nextafter', 'fmax', 'fmin', 'ldexp'];

const FUNCTIONS: Record<string, CppFunction> = {
  ...Object.fromEntries(STD_UNARY.map((n) => [n, fn(`std::${n}`, 1)])),
  ...Object.fromEntries(STD_BINARY.map((n) => [n, fn(`std::${n}`, 2)])),
  // NumPy's spellings of the same functions.
  arcsin: fn('std::asin', 1),
  arccos: fn('std::acos', 1),
  arctan: fn('std::atan', 1),
  arcsinh: fn('std::asinh', 1),
  arccosh: fn('std::acosh', 1),
  arctanh: fn('std::atanh', 1),
  arctan2: fn('std::atan2', 2),
  abs: fn('tlab_abs', 1),
  absolute: fn('tlab_abs', 1),
  sign: fn('tlab_sign', 1),
  sign_numpy_2: fn('tlab_sign', 1),
  heaviside: fn('tlab_heaviside', 2),
  clip: fn('tlab_clip', 3),
  maximum: fn('tlab_maximum', 2),
  minimum: fn('tlab_minimum', 2),
  isnan: fn('tlab_isnan', 1),
  isinf: fn('tlab_isinf', 1),
  isfinite: fn('tlab_isfinite', 1),
  signbit: fn('tlab_signbit', 1),
  fmod: fn('tlab_fmod', 2),
  cpp_mod: fn('tlab_fmod', 2),
  remainder: fn('tlab_py_mod', 2),
  py_mod: fn('tlab_py_mod', 2),
  py_floor: fn('tlab_int_floor', 2),
  floor_divide: fn('tlab_int_floor', 2),
  power: fn('tlab_ipow', 2),
  float_power: fn('tlab_float_pow', 2),
  np_float_pow: fn('tlab_float_pow', 2),
  square: fn('tlab_square', 1),
  reciprocal: fn('tlab_reciprocal', 1),
  deg2rad: fn('tlab_deg2rad', 1),
  radians: fn('tlab_deg2rad', 1),
  rad2deg: fn('tlab_rad2deg', 1),
  degrees: fn('tlab_rad2deg', 1),
  gcd: fn('tlab_gcd', 2),
  lcm: fn('tlab_lcm', 2),
  // Complex parts (NumPy's real, imag, conj; std:: takes real arguments too).
  real: fn('std::real', 1),
  imag: fn('std::imag', 1),
  conj: fn('std::conj', 1),
  conjugate: fn('std::conj', 1),
};

const MODULES = ['math.', 'np.', 'numpy.'];

/** The C++ of tasklet function `name` (bare or under `math.`, `np.`, `numpy.`), undefined when it has none. */
export function cppFunction(name: string): CppFunction | undefined {
  const module = MODULES.find((m) => name.startsWith(m));
  const base = module ? name.slice(module.length) : name;
  return Object.hasOwn(FUNCTIONS, base) ? FUNCTIONS[base] : undefined;
}
