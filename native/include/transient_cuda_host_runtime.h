/*
 * Transient Lab host CUDA runtime (`--gpu host`, docs/gpu-host.md): the subset of the CUDA runtime API and of
 * CUDA C++ that generated GPU programs use, implemented on the CPU so the very same translation unit compiles
 * with g++ (`-x c++ -DTLAB_CUDA_HOST -fopenmp`) and runs on a machine without a GPU. transient_cuda_runtime.h
 * includes it in place of <cuda_runtime.h>; everything above that (instrumented allocators, copies, exports) is
 * shared with the device build.
 *
 * - Kernels (`tlab_launch`): blocks in parallel over OpenMP threads, the threads of a block one after another on
 *   the block's OS thread. `tlab_launch_blocks` (kernels whose body synchronises: thread-block and warp maps)
 *   runs every thread of the block as a fiber (ucontext) so `__syncthreads()` and `__syncwarp()` are real
 *   barriers: a thread that reaches one waits until every live thread of its block (of its warp) has.
 *   `__shared__` is one instance per OS thread, i.e. per running block.
 * - Device memory is not host memory: every allocation is its own mapping with PROT_NONE guard pages, the data
 *   placed against the guard page after it (256-B aligned, the slack before that page filled with a canary).
 *   Outside kernel launches, copies and memsets every device region is PROT_NONE, so host code touching device
 *   memory faults; a SIGSEGV handler names the array (`__tlab_gpu_transient_name`) and what happened before the
 *   process dies (the supervised runner reports the line). Blocks freed to the pool stay PROT_NONE in kernels.
 * - The default pool: cudaMallocAsync/cudaFreeAsync with per-stream reuse of freed blocks, the release
 *   threshold (blocks above it are released at synchronisation), cudaMemPoolTrimTo and the four
 *   reserved/used current/high attributes.
 * - Streams and events: everything runs synchronously in issue order (a kernel is done when its launch
 *   returns); an event records the host clock.
 *
 * This header declares the types and errors; the rest is in the headers it includes, in this order:
 * transient_cuda_host_regions.h (device memory regions, the fault handler), transient_cuda_host_memory.h (the
 * pool, cudaMalloc/cudaFree, copies and memsets), transient_cuda_host_streams.h (device, streams, events),
 * transient_cuda_host_kernels.h (launches, barriers, atomics) and transient_cuda_host_device.h (device
 * properties). The build hashes every one of them into a program's cache key (compile/build.ts).
 */
#ifndef TRANSIENT_CUDA_HOST_RUNTIME_H
#define TRANSIENT_CUDA_HOST_RUNTIME_H

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static thread_local

/* ---- types ---- */
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5,
  cudaMemPoolAttrReservedMemHigh = 6,
  cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8,
};
struct tlab_host_stream {
  int id;
};
typedef tlab_host_stream *cudaStream_t;
struct tlab_host_event {
  uint64_t ns;
  bool recorded;
};
typedef tlab_host_event *cudaEvent_t;
struct tlab_host_pool;
typedef tlab_host_pool *cudaMemPool_t;

/* ---- errors ---- */
static cudaError_t tlab_host_last_error = cudaSuccess;

static inline cudaError_t tlab_host_fail(cudaError_t err) {
  if (err != cudaSuccess) __atomic_store_n(&tlab_host_last_error, err, __ATOMIC_RELAXED);
  return err;
}

static inline cudaError_t cudaGetLastError(void) {
  const cudaError_t e = __atomic_exchange_n(&tlab_host_last_error, cudaSuccess, __ATOMIC_RELAXED);
  return e;
}
static inline cudaError_t cudaPeekAtLastError(void) { return tlab_host_last_error; }

static inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}

/* Names of the generated program's transients (emitted by the CUDA backend). */
extern "C" const char *__tlab_gpu_transient_name(uint32_t index);

#include "transient_cuda_host_regions.h"
#include "transient_cuda_host_memory.h"
#include "transient_cuda_host_streams.h"
#include "transient_cuda_host_kernels.h"
#include "transient_cuda_host_device.h"

#endif /* TRANSIENT_CUDA_HOST_RUNTIME_H */
