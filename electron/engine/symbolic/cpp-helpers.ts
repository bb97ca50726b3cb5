/**
 * The C++ side of toCpp (cpp.ts): the helper functions its output calls (exact division, Python's floor division
 * and modulo, integer powers, bitwise tests), pasted once into every generated translation unit.
 */

/** Helpers used by toCpp output; paste once into every generated translation unit (C++17). */
export const CPP_SYMBOLIC_HELPERS = String.raw`#ifndef TLAB_SYMBOLIC_HELPERS
#define TLAB_SYMBOLIC_HELPERS
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

// Python/SymPy integer semantics: floor division, modulo with the divisor's sign, exact powers.
template <class A, class B>
static inline auto tlab_int_floor(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return std::floor(static_cast<T>(a) / static_cast<T>(b));
  }
}

template <class A, class B>
static inline auto tlab_int_ceil(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T q = x / y;
    return (x % y != 0 && ((x < 0) == (y < 0))) ? static_cast<T>(q + 1) : q;
  } else {
    return std::ceil(static_cast<T>(a) / static_cast<T>(b));
  }
}

// Python 3 true division in code: only integer operands are promoted (to double).
template <class A, class B>
static inline auto tlab_truediv(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) return static_cast<double>(a) / static_cast<double>(b);
  else return a / b;
}

// Exact rational division brought to one fraction: exact when it divides, floored otherwise.
template <class A, class B>
static inline auto tlab_div(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) return tlab_int_floor(a, b);
  else return static_cast<T>(a) / static_cast<T>(b);
}

template <class A, class B>
static inline auto tlab_py_mod(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T r = x % y;
    return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<T>(r + y) : r;
  } else {
    const T y = static_cast<T>(b);
    const T r = std::fmod(static_cast<T>(a), y);
    return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<T>(r + y) : r;
  }
}

// Integer base and exponent: square-and-multiply; a negative exponent floors 1/a^k like tlab_div does.
template <class A, class B>
static inline auto tlab_ipow(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    using T = std::conditional_t<(sizeof(A) < sizeof(long long)), long long, A>;
    T base = static_cast<T>(a);
    if (b < 0) {
      if (base == 1) return static_cast<T>(1);
      if (base == -1) return static_cast<T>((-b) % 2 == 0 ? 1 : -1);
      const bool negative = base < 0 && (-b) % 2 != 0;
      return static_cast<T>(negative ? -1 : 0);
    }
    T result = 1;
    for (auto e = b; e > 0; e /= 2) {
      if (e % 2 != 0) result *= base;
      if (e > 1) base *= base;
    }
    return result;
  } else {
    using T = std::common_type_t<A, B, double>;
    return std::pow(static_cast<T>(a), static_cast<T>(b));
  }
}

template <class A>
static inline A tlab_max(A a) { return a; }
template <class A, class B, class... R>
static inline auto tlab_max(A a, B b, R... rest) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return tlab_max(x < y ? y : x, rest...);
}

template <class A>
static inline A tlab_min(A a) { return a; }
template <class A, class B, class... R>
static inline auto tlab_min(A a, B b, R... rest) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return tlab_min(y < x ? y : x, rest...);
}

template <class A>
static inline A tlab_abs(A a) { return a < 0 ? static_cast<A>(-a) : a; }

// NumPy functions of tasklet code (cpp-functions.ts). NumPy's results where DaCe's math.h differs: sign and
// heaviside of NaN are NaN (DaCe: 0 and h), maximum/minimum propagate NaN.
template <class A>
static inline A tlab_sign(A a) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(a)) return a;
  }
  return static_cast<A>((A(0) < a) - (a < A(0)));
}

template <class A, class B>
static inline auto tlab_heaviside(A x, B h) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(static_cast<T>(x))) return static_cast<T>(x);
  }
  return x < A(0) ? T(0) : (A(0) < x ? T(1) : static_cast<T>(h));
}

template <class A, class B>
static inline auto tlab_maximum(A a, B b) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return x;
    if (std::isnan(y)) return y;
  }
  return x < y ? y : x;
}

template <class A, class B>
static inline auto tlab_minimum(A a, B b) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return x;
    if (std::isnan(y)) return y;
  }
  return y < x ? y : x;
}

// np.clip: minimum(maximum(a, lo), hi), so lo > hi gives hi as in NumPy.
template <class A, class L, class H>
static inline auto tlab_clip(A a, L lo, H hi) { return tlab_minimum(tlab_maximum(a, lo), hi); }

template <class A>
static inline bool tlab_isnan(A a) {
  if constexpr (std::is_floating_point_v<A>) return std::isnan(a);
  else return false;
}
template <class A>
static inline bool tlab_isinf(A a) {
  if constexpr (std::is_floating_point_v<A>) return std::isinf(a);
  else return false;
}
template <class A>
static inline bool tlab_isfinite(A a) {
  if constexpr (std::is_floating_point_v<A>) return std::isfinite(a);
  else return true;
}
template <class A>
static inline bool tlab_signbit(A a) {
  if constexpr (std::is_floating_point_v<A>) return std::signbit(a);
  else return a < A(0);
}

// C's remainder (np.fmod, math.fmod, DaCe's cpp_mod): the sign of the dividend.
template <class A, class B>
static inline auto tlab_fmod(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<T>(a) % static_cast<T>(b));
  else return std::fmod(static_cast<T>(a), static_cast<T>(b));
}

template <class A, class B>
static inline double tlab_float_pow(A a, B b) { return std::pow(static_cast<double>(a), static_cast<double>(b)); }

template <class A>
static inline A tlab_square(A a) { return static_cast<A>(a * a); }

template <class A>
static inline A tlab_reciprocal(A a) { return static_cast<A>(A(1) / a); }

template <class A>
static inline auto tlab_deg2rad(A a) {
  using T = std::conditional_t<std::is_floating_point_v<A>, A, double>;
  return static_cast<T>(a) * static_cast<T>(3.14159265358979323846 / 180.0);
}
template <class A>
static inline auto tlab_rad2deg(A a) {
  using T = std::conditional_t<std::is_floating_point_v<A>, A, double>;
  return static_cast<T>(a) * static_cast<T>(180.0 / 3.14159265358979323846);
}

template <class A, class B>
static inline auto tlab_gcd(A a, B b) {
  using T = std::common_type_t<A, B>;
  T x = tlab_abs(static_cast<T>(a)), y = tlab_abs(static_cast<T>(b));
  while (y != 0) {
    const T r = x % y;
    x = y;
    y = r;
  }
  return x;
}
template <class A, class B>
static inline auto tlab_lcm(A a, B b) {
  using T = std::common_type_t<A, B>;
  const T g = tlab_gcd(a, b);
  return g == 0 ? T(0) : static_cast<T>(tlab_abs(static_cast<T>(a)) / g * tlab_abs(static_cast<T>(b)));
}

// Fortran intrinsics of DaCe's Fortran frontend: IBSET, IBCLR, BTEST, ISHFT.
template <class A, class B>
static inline A tlab_bitwise_set(A a, B bit) { return static_cast<A>(a | (static_cast<A>(1) << bit)); }
template <class A, class B>
static inline A tlab_bitwise_clear(A a, B bit) { return static_cast<A>(a & ~(static_cast<A>(1) << bit)); }
template <class A, class B>
static inline bool tlab_bitwise_test(A a, B bit) { return ((a >> bit) & 1) != 0; }
template <class A, class B>
static inline A tlab_bitwise_shift(A a, B by) { return by >= 0 ? static_cast<A>(a << by) : static_cast<A>(a >> (-by)); }
#endif
`;
