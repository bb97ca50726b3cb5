/**
 * float16: DaCe's `dace.float16` is a 2-byte IEEE half. Generated code names it `tlab_half`, defined once per
 * translation unit as the compiler's native half type: `_Float16` for the CPU (GCC ≥ 12, Clang) and CUDA's
 * `__half` (cuda_fp16.h) for GPU programs, which DaCe's CUDA code uses too. Both have the same 2-byte layout, so
 * arguments and workspace slots are plain half arrays whatever the target.
 */
import type { DType, SdfgFile } from '../model/sdfg.js';

const usesHalf = (t: DType | null | undefined): boolean =>
  !!t && ((t.kind === 'scalar' && t.name === 'float16') || (t.kind === 'pointer' && usesHalf(t.base)));

function fileUsesHalf(file: SdfgFile): boolean {
  for (const s of file.sdfgs) {
    for (const d of s.arrays.values()) if (usesHalf(d.dtype)) return true;
    for (const t of s.symbols.values()) if (usesHalf(t)) return true;
  }
  return false;
}

/**
 * CUDA's `__half` mixed with another arithmetic type (`a * 3`, `a < 0.5`) is ambiguous: it converts to float and
 * from int, double, … alike. These overloads give it C's meaning for `_Float16`: with an integer the result is a
 * half, with a float or double it is computed in that type.
 */
const CUDA_MIXED_OPS = [
  'template <class T> using tlab_half_mix_t = std::conditional_t<std::is_integral_v<T>, __half, T>;',
  'template <class T> using tlab_half_calc_t = std::conditional_t<std::is_integral_v<T>, float, T>;',
  '#define TLAB_HALF_OP(op) \\',
  '  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \\',
  '  __host__ __device__ inline tlab_half_mix_t<T> operator op(__half a, T b) { \\',
  '    return tlab_half_mix_t<T>(tlab_half_calc_t<T>(__half2float(a)) op tlab_half_calc_t<T>(b)); } \\',
  '  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \\',
  '  __host__ __device__ inline tlab_half_mix_t<T> operator op(T a, __half b) { \\',
  '    return tlab_half_mix_t<T>(tlab_half_calc_t<T>(a) op tlab_half_calc_t<T>(__half2float(b))); }',
  'TLAB_HALF_OP(+) TLAB_HALF_OP(-) TLAB_HALF_OP(*) TLAB_HALF_OP(/)',
  '#undef TLAB_HALF_OP',
  '#define TLAB_HALF_CMP(op) \\',
  '  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \\',
  '  __host__ __device__ inline bool operator op(__half a, T b) { return tlab_half_calc_t<T>(__half2float(a)) op tlab_half_calc_t<T>(b); } \\',
  '  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \\',
  '  __host__ __device__ inline bool operator op(T a, __half b) { return tlab_half_calc_t<T>(a) op tlab_half_calc_t<T>(__half2float(b)); }',
  'TLAB_HALF_CMP(<) TLAB_HALF_CMP(<=) TLAB_HALF_CMP(>) TLAB_HALF_CMP(>=) TLAB_HALF_CMP(==) TLAB_HALF_CMP(!=)',
  '#undef TLAB_HALF_CMP',
];

/** The `tlab_half` definition for a file that uses float16 (nothing otherwise). */
export function halfPreamble(file: SdfgFile, gpu: boolean): string[] {
  if (!fileUsesHalf(file)) return [];
  return gpu ? ['#include <cuda_fp16.h>', 'using tlab_half = __half;', ...CUDA_MIXED_OPS] : ['using tlab_half = _Float16;'];
}
