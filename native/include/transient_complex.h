/*
 * Complex numbers of generated programs (dace.complex64/complex128): `tlab_complex64`, `tlab_complex128`.
 *
 * CPU programs and GPU programs on the host backend (TLAB_CUDA_HOST) use std::complex. Under nvcc, std::complex
 * is host-only, so a GPU program uses thrust::complex, as DaCe's runtime does for CUDA: the same layout (two
 * T), usable in host and device code. Tasklets call std::real/imag/conj/abs/exp/... (symbolic/cpp-functions.ts
 * emits the std:: names for CPU and CUDA alike); the overloads below forward those to thrust in device code.
 * docs/codegen.md ("Complex numbers") and docs/gpu.md say where the types appear.
 */
#ifndef TRANSIENT_COMPLEX_H
#define TRANSIENT_COMPLEX_H

#include <complex>

#if defined(__CUDACC__) && !defined(TLAB_CUDA_HOST)
#include <thrust/complex.h>

template <class T> using tlab_complex = thrust::complex<T>;

/* std:: names for thrust::complex arguments: overloads (not specialisations) that only match thrust's type, so
 * every std:: call on real arguments resolves as before. */
namespace std {
#define TLAB_CX_UNARY(fn, ret)                                                                                   \
  template <class T> __host__ __device__ inline ret fn(const thrust::complex<T> &z) { return thrust::fn(z); }
TLAB_CX_UNARY(abs, T)
TLAB_CX_UNARY(arg, T)
TLAB_CX_UNARY(norm, T)
TLAB_CX_UNARY(conj, thrust::complex<T>)
TLAB_CX_UNARY(exp, thrust::complex<T>)
TLAB_CX_UNARY(log, thrust::complex<T>)
TLAB_CX_UNARY(log10, thrust::complex<T>)
TLAB_CX_UNARY(sqrt, thrust::complex<T>)
TLAB_CX_UNARY(sin, thrust::complex<T>)
TLAB_CX_UNARY(cos, thrust::complex<T>)
TLAB_CX_UNARY(tan, thrust::complex<T>)
TLAB_CX_UNARY(sinh, thrust::complex<T>)
TLAB_CX_UNARY(cosh, thrust::complex<T>)
TLAB_CX_UNARY(tanh, thrust::complex<T>)
TLAB_CX_UNARY(asin, thrust::complex<T>)
TLAB_CX_UNARY(acos, thrust::complex<T>)
TLAB_CX_UNARY(atan, thrust::complex<T>)
#undef TLAB_CX_UNARY
template <class T> __host__ __device__ inline T real(const thrust::complex<T> &z) { return z.real(); }
template <class T> __host__ __device__ inline T imag(const thrust::complex<T> &z) { return z.imag(); }
template <class T, class U> __host__ __device__ inline auto pow(const thrust::complex<T> &a, const U &b) {
  return thrust::pow(a, b);
}
template <class T, class U> __host__ __device__ inline auto pow(const T &a, const thrust::complex<U> &b) {
  return thrust::pow(a, b);
}
template <class T, class U>
__host__ __device__ inline auto pow(const thrust::complex<T> &a, const thrust::complex<U> &b) {
  return thrust::pow(a, b);
}
} // namespace std
#else
template <class T> using tlab_complex = std::complex<T>;
#endif

using tlab_complex64 = tlab_complex<float>;
using tlab_complex128 = tlab_complex<double>;

#endif
