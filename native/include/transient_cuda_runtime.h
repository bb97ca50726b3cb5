/*
 * Transient Lab CUDA runtime: compiled INTO every generated GPU program (a .cu translation unit), after
 * transient_runtime.h. Plain CUDA C++17, no Node. See docs/gpu.md for the exports it adds to the library.
 *
 * Every device allocation and free of a transient goes through tlab_cuda_malloc / tlab_cuda_free (SCOPED,
 * PERSISTENT) or tlab_cuda_malloc_async / tlab_cuda_free_async (POOL). Each records one event in the library's
 * event buffer (kinds TLAB_EVENT_DEVICE_ALLOC / TLAB_EVENT_DEVICE_FREE) with the HOST time around the API call:
 * for the async pair that is the enqueue cost, which is what a caller pays on its thread. Device time is taken
 * per call with CUDA events around the whole program (__tlab_gpu_timed_program).
 *
 * CUDA errors never abort: the first one is kept (read-and-clear with __dace_gpu_last_error-like
 * __tlab_gpu_last_error) and printed once, as DaCe's DACE_GPU_CHECK does.
 */
#ifndef TRANSIENT_CUDA_RUNTIME_H
#define TRANSIENT_CUDA_RUNTIME_H

#ifdef TLAB_CUDA_HOST
#include "transient_cuda_host_runtime.h"
#else
#include <cuda_runtime.h>
#endif
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#ifndef TRANSIENT_RUNTIME_H
#error "include transient_runtime.h before transient_cuda_runtime.h"
#endif

#define TLAB_CUDA_RUNTIME_VERSION 1

/* The first CUDA error since the last read (per library). */
static cudaError_t tlab_cuda_first_error = cudaSuccess;

static inline cudaError_t tlab_cuda_check(cudaError_t err, const char *what) {
  if (err != cudaSuccess && tlab_cuda_first_error == cudaSuccess) {
    tlab_cuda_first_error = err;
    std::fprintf(stderr, "transient-lab: CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  }
  return err;
}
#define TLAB_CUDA(call) tlab_cuda_check((call), #call)

/* DaCe's runtime spellings of GPU synchronisation that C++ tasklets written for DaCe use (its cudacommon.cuh
 * and the gpu* aliases): the subset check lets only these through (codegen/subset.ts, DACE_GPU_SYNC). */
#ifndef DACE_GPU_CHECK
#define DACE_GPU_CHECK(call) TLAB_CUDA(call)
#endif
#ifndef gpuStreamSynchronize
#define gpuStreamSynchronize cudaStreamSynchronize
#endif
#ifndef gpuDeviceSynchronize
#define gpuDeviceSynchronize cudaDeviceSynchronize
#endif

/* The generated kernels: one template, one instantiation per GPU_Device map (the lambda is the map body),
 * launched through tlab_launch (tlab_launch_blocks when the body synchronises its block: the host runtime runs
 * those threads as fibers; on a device both are the same launch). */
#ifndef TLAB_CUDA_HOST
template <class F>
__global__ void __tlab_kernel(F body) {
  body();
}

template <class F>
static inline void tlab_launch(dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, F body) {
  __tlab_kernel<<<grid, block, shared_bytes, stream>>>(body);
}

template <class F>
static inline void tlab_launch_blocks(dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, F body) {
  __tlab_kernel<<<grid, block, shared_bytes, stream>>>(body);
}
#endif

/* The host runtime names device allocations by transient (for its fault messages); nothing on a device. */
#ifdef TLAB_CUDA_HOST
#define TLAB_NAME_DEVICE_ALLOCATION(p, index) tlab_host_name_allocation((p), (index))
#else
#define TLAB_NAME_DEVICE_ALLOCATION(p, index) ((void)0)
#endif

/* Synchronous device memory (SCOPED, PERSISTENT): DaCe's cudaMalloc/cudaFree, between two host timestamps. */
static inline void *tlab_cuda_malloc(size_t bytes, int32_t transient_index) {
  void *p = nullptr;
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaMalloc(&p, bytes));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_DEVICE_ALLOC);
  TLAB_NAME_DEVICE_ALLOCATION(p, transient_index);
  if (tlab_runtime_events.poison_on && bytes != 0 && p) TLAB_CUDA(cudaMemset(p, tlab_runtime_events.poison_pattern, bytes));
  return p;
}

static inline void tlab_cuda_free(void *p, size_t bytes, int32_t transient_index) {
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaFree(p));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_DEVICE_FREE);
}

/* Page-locked host memory (CPU_Pinned): DaCe's cudaMallocHost/cudaFreeHost. Host memory, so host events. */
static inline void *tlab_cuda_malloc_host(size_t bytes, int32_t transient_index) {
  void *p = nullptr;
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaMallocHost(&p, bytes));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_ALLOC);
  if (tlab_runtime_events.poison_on && bytes != 0 && p) std::memset(p, tlab_runtime_events.poison_pattern, bytes);
  return p;
}

static inline void tlab_cuda_free_host(void *p, size_t bytes, int32_t transient_index) {
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaFreeHost(p));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_FREE);
}

/* Stream-ordered pool (POOL): DaCe's cudaMallocAsync/cudaFreeAsync on the stream of the allocation. */
static inline void *tlab_cuda_malloc_async(size_t bytes, cudaStream_t stream, int32_t transient_index) {
  void *p = nullptr;
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaMallocAsync(&p, bytes, stream));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_DEVICE_ALLOC);
  TLAB_NAME_DEVICE_ALLOCATION(p, transient_index);
  if (tlab_runtime_events.poison_on && bytes != 0 && p) TLAB_CUDA(cudaMemsetAsync(p, tlab_runtime_events.poison_pattern, bytes, stream));
  return p;
}

static inline void tlab_cuda_free_async(void *p, size_t bytes, cudaStream_t stream, int32_t transient_index) {
  const uint64_t t0 = tlab_now_ns();
  TLAB_CUDA(cudaFreeAsync(p, stream));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_DEVICE_FREE);
}

/* `setzero` on device memory (DaCe: cudaMemset; stream-ordered here so POOL memory is zeroed after its alloc). */
static inline void tlab_cuda_zero(void *p, size_t bytes, cudaStream_t stream) {
  if (bytes) TLAB_CUDA(cudaMemsetAsync(p, 0, bytes, stream));
}

/*
 * A strided n-d copy between any two memories (UVA: cudaMemcpyDefault), as DaCe's copy dispatch does for
 * host<->device and device<->device memlets. Counts and strides are in elements; the innermost dimension
 * with unit strides on both sides becomes one contiguous row, the next one a 2-D pitch copy, the rest loops.
 */
static inline void tlab_cuda_copy(void *dst, const int64_t *dst_strides, const void *src, const int64_t *src_strides,
                                  const int64_t *counts, int ndim, size_t elem, cudaStream_t stream) {
  for (int d = 0; d < ndim; d++)
    if (counts[d] <= 0) return;
  char *db = static_cast<char *>(dst);
  const char *sb = static_cast<const char *>(src);
  if (ndim == 0) {
    TLAB_CUDA(cudaMemcpyAsync(db, sb, elem, cudaMemcpyDefault, stream));
    return;
  }
  const int last = ndim - 1;
  const bool rows = dst_strides[last] == 1 && src_strides[last] == 1;
  const size_t width = rows ? static_cast<size_t>(counts[last]) * elem : elem;
  const size_t height = rows ? 1 : static_cast<size_t>(counts[last]);
  const size_t dpitch = rows ? width : static_cast<size_t>(dst_strides[last]) * elem;
  const size_t spitch = rows ? width : static_cast<size_t>(src_strides[last]) * elem;
  int64_t outer = 1;
  for (int d = 0; d < last; d++) outer *= counts[d];
  for (int64_t k = 0; k < outer; k++) {
    int64_t rest = k, doff = 0, soff = 0;
    for (int d = last - 1; d >= 0; d--) {
      const int64_t i = rest % counts[d];
      rest /= counts[d];
      doff += i * dst_strides[d];
      soff += i * src_strides[d];
    }
    char *dp = db + doff * static_cast<int64_t>(elem);
    const char *sp = sb + soff * static_cast<int64_t>(elem);
    if (height == 1) TLAB_CUDA(cudaMemcpyAsync(dp, sp, width, cudaMemcpyDefault, stream));
    else TLAB_CUDA(cudaMemcpy2DAsync(dp, dpitch, sp, spitch, width, height, cudaMemcpyDefault, stream));
  }
}

/* Blocks of a persistent kernel (GPU_Persistent maps): DaCe's `dace_number_blocks`, ceil(SM fraction × SMs) ×
 * occupancy with its defaults (compiler.cuda.persistent_map_SM_fraction 1, persistent_map_occupancy 2). */
static inline int64_t tlab_persistent_blocks(void) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms < 1) sms = 1;
  return int64_t(sms) * 2;
}

/* The two events of __tlab_gpu_timed_program: created once, at the first init, so a timed call pays only for
 * recording them (process-wide, like the default pool; the process ends with the runner). */
static cudaEvent_t tlab_cuda_event_start = nullptr;
static cudaEvent_t tlab_cuda_event_stop = nullptr;

/* DaCe's __dace_init_cuda: device 0, a warm-up allocation, nothing else unless a pooled transient exists. */
static inline int tlab_cuda_init(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "transient-lab: no CUDA device\n");
    return 2;
  }
  if (cudaSetDevice(0) != cudaSuccess) return 4;
  void *warm = nullptr;
  if (cudaMalloc(&warm, 1) != cudaSuccess) return 4;
  cudaFree(warm);
  if (!tlab_cuda_event_start && cudaEventCreate(&tlab_cuda_event_start) != cudaSuccess) return 4;
  if (!tlab_cuda_event_stop && cudaEventCreate(&tlab_cuda_event_stop) != cudaSuccess) return 4;
  return 0;
}

/* What DaCe's __dace_init_cuda does when a pooled transient exists: the default pool of device 0 keeps
 * `threshold` bytes reserved across synchronisations (UINT64_MAX: never release). Process-wide. */
static inline int tlab_cuda_set_release_threshold(uint64_t threshold) {
  cudaMemPool_t pool;
  if (TLAB_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0)) != cudaSuccess) return 1;
  if (TLAB_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold)) != cudaSuccess) return 1;
  return 0;
}

/* Device-side atomics for write-conflict resolution inside kernels. */
template <class T, class F>
__device__ inline void tlab_atomic_update(T *address, F combine) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic WCR needs a 4- or 8-byte type");
  using U = typename std::conditional<sizeof(T) == 4, unsigned int, unsigned long long>::type;
  U *word = reinterpret_cast<U *>(address);
  U old = *word, assumed;
  do {
    assumed = old;
    T current;
    memcpy(&current, &assumed, sizeof(T));
    const T next = combine(current);
    U desired;
    memcpy(&desired, &next, sizeof(T));
    old = atomicCAS(word, assumed, desired);
  } while (assumed != old);
}

template <class T>
__device__ inline void tlab_atomic_add(T *address, T value) {
  if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value || std::is_same<T, int>::value ||
                std::is_same<T, unsigned int>::value || std::is_same<T, unsigned long long>::value) {
    atomicAdd(address, value);
  } else {
    tlab_atomic_update(address, [value](T a) { return static_cast<T>(a + value); });
  }
}

#ifndef TLAB_RUNTIME_TYPES_ONLY
extern "C" {

TLAB_EXPORT int __tlab_cuda_runtime_version(void) { return TLAB_CUDA_RUNTIME_VERSION; }

/* Read-and-clear of the first CUDA error (0 = none); also picks up asynchronous kernel errors. */
TLAB_EXPORT int __tlab_gpu_last_error(void) {
  tlab_cuda_check(cudaGetLastError(), "kernel launch");
  const int e = static_cast<int>(tlab_cuda_first_error);
  tlab_cuda_first_error = cudaSuccess;
  return e;
}

TLAB_EXPORT const char *__tlab_gpu_error_string(int err) { return cudaGetErrorString(static_cast<cudaError_t>(err)); }

TLAB_EXPORT int __tlab_gpu_synchronize(void) { return static_cast<int>(tlab_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize")); }

/* Argument memory for the runner (non-transient arrays are device pointers): plain cudaMalloc, never recorded. */
TLAB_EXPORT void *__tlab_gpu_malloc(uint64_t bytes) {
  void *p = nullptr;
#ifdef TLAB_CUDA_HOST
  return tlab_host_malloc(&p, bytes ? bytes : 1, -1, TLAB_REGION_ARGUMENTS) == cudaSuccess ? p : nullptr;
#else
  return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : nullptr;
#endif
}
TLAB_EXPORT int __tlab_gpu_free(void *p) { return static_cast<int>(cudaFree(p)); }
/* kind: 0 host→device, 1 device→host, 2 device→device (synchronous). */
TLAB_EXPORT int __tlab_gpu_memcpy(void *dst, const void *src, uint64_t bytes, int kind) {
  const cudaMemcpyKind k = kind == 0 ? cudaMemcpyHostToDevice : kind == 1 ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
  return static_cast<int>(cudaMemcpy(dst, src, bytes, k));
}
TLAB_EXPORT int __tlab_gpu_memset(void *dst, int value, uint64_t bytes) { return static_cast<int>(cudaMemset(dst, value, bytes)); }

/*
 * Pool attributes of the default pool of device 0, in bytes: out[0] reserved current, out[1] reserved high
 * water, out[2] used current, out[3] used high water. `reset` != 0 resets both high-water marks afterwards.
 */
TLAB_EXPORT int __tlab_gpu_pool_attributes(uint64_t *out, int reset) {
  cudaMemPool_t pool;
  if (cudaDeviceGetDefaultMemPool(&pool, 0) != cudaSuccess) return 1;
  const cudaMemPoolAttr attrs[4] = {cudaMemPoolAttrReservedMemCurrent, cudaMemPoolAttrReservedMemHigh, cudaMemPoolAttrUsedMemCurrent,
                                    cudaMemPoolAttrUsedMemHigh};
  for (int i = 0; i < 4; i++) {
    unsigned long long v = 0;
    if (cudaMemPoolGetAttribute(pool, attrs[i], &v) != cudaSuccess) return 1;
    out[i] = static_cast<uint64_t>(v);
  }
  if (reset) {
    unsigned long long zero = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero);
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
  }
  return 0;
}

} /* extern "C" */
#endif /* TLAB_RUNTIME_TYPES_ONLY */

#endif /* TRANSIENT_CUDA_RUNTIME_H */
