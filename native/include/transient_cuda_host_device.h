/*
 * Device properties of the host CUDA runtime (transient_cuda_host_runtime.h includes this): what generated code
 * asks about "the device" it runs on. The emulated device has one multiprocessor per OpenMP thread, the OS
 * threads a launch's blocks run on, so a persistent kernel (GPU_Persistent, docs/gpu.md) gets DaCe's
 * SMs × occupancy blocks here too and loops over its points in grid strides.
 */
#ifndef TRANSIENT_CUDA_HOST_DEVICE_H
#define TRANSIENT_CUDA_HOST_DEVICE_H

#ifdef _OPENMP
#include <omp.h>
#endif

enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

static inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  if (!value || device != 0 || attr != cudaDevAttrMultiProcessorCount) return cudaErrorInvalidValue;
#ifdef _OPENMP
  *value = omp_get_max_threads();
#else
  *value = 1; /* built without OpenMP: blocks run one after another */
#endif
  return cudaSuccess;
}

#endif
