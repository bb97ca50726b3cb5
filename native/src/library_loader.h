// dlopen()s a generated program library and resolves the uniform `__tlab_*` trampolines (docs/runtime-abi.md).
// Plain C++: no N-API here, so failures are reported as LoadError and turned into JS errors by the binding.
#pragma once

#define TLAB_RUNTIME_TYPES_ONLY
#include "transient_runtime.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tlab {

using AbiVersionFn = int (*)();
// `argv`: the vector __tlab_program takes; read only when __tlab_init_arg_count() is non-zero (may be NULL then).
using InitFn = void *(*)(const int64_t *symbols, void *const *argv);
using ProgramFn = void (*)(void *handle, void *const *argv);
using ExitFn = int (*)(void *handle);
using ExternalSizeFn = uint64_t (*)(void *handle, const char *storage, const int64_t *symbols);
using SetExternalFn = int (*)(void *handle, const char *storage, char *base, const int64_t *symbols);
using ExternalSlotCountFn = uint32_t (*)(const char *storage);
using SetExternalOffsetsFn = int (*)(void *handle, const char *storage, char *base, const uint64_t *offsets,
                                     uint32_t count);
using EventsFn = tlab_event_buffer *(*)();
using SetPoisonFn = void (*)(int on, int pattern);
using CountFn = uint32_t (*)();

// The GPU runner ABI (docs/gpu.md, "ABI for the runner"): exported by every GPU program library.
using GpuTimedProgramFn = int (*)(void *handle, void *const *argv, uint64_t *hostNs, float *deviceMs);
using GpuIntFn = int (*)();
using GpuErrorStringFn = const char *(*)(int error);
using GpuMallocFn = void *(*)(uint64_t bytes);
using GpuFreeFn = int (*)(void *pointer);
using GpuMemcpyFn = int (*)(void *dst, const void *src, uint64_t bytes, int kind);
using GpuMemsetFn = int (*)(void *dst, int value, uint64_t bytes);
using GpuPoolAttributesFn = int (*)(uint64_t *out, int reset);
using GpuReleaseThresholdFn = uint64_t (*)();

// __tlab_gpu_memcpy kinds.
constexpr int kGpuHostToDevice = 0;
constexpr int kGpuDeviceToHost = 1;
constexpr int kGpuDeviceToDevice = 2;
// TLAB_CUDA_RUNTIME_VERSION this addon speaks (native/include/transient_cuda_runtime.h).
constexpr int kGpuRuntimeVersion = 1;

struct GpuTrampolines {
  GpuTimedProgramFn timedProgram = nullptr;
  GpuIntFn lastError = nullptr;
  GpuErrorStringFn errorString = nullptr;
  GpuIntFn synchronize = nullptr;
  GpuMallocFn malloc = nullptr;
  GpuFreeFn free = nullptr;
  GpuMemcpyFn memcpy = nullptr;
  GpuMemsetFn memset = nullptr;
  GpuPoolAttributesFn poolAttributes = nullptr;
  GpuIntFn pooled = nullptr;
  GpuReleaseThresholdFn releaseThreshold = nullptr;
  CountFn kernelCount = nullptr;
  GpuIntFn runtimeVersion = nullptr;

  // "cudaError 700: an illegal memory access was encountered" (the library's cudaGetErrorString).
  std::string Describe(int error) const {
    const char *text = errorString != nullptr ? errorString(error) : nullptr;
    return "cudaError " + std::to_string(error) + ": " + (text != nullptr ? text : "unknown CUDA error");
  }
};

struct Trampolines {
  AbiVersionFn abiVersion = nullptr;
  InitFn init = nullptr;
  ProgramFn program = nullptr;
  ExitFn exit = nullptr;
  ExternalSizeFn externalSize = nullptr;
  SetExternalFn setExternal = nullptr;
  ExternalSlotCountFn externalSlotCount = nullptr;
  SetExternalOffsetsFn setExternalOffsets = nullptr;
  EventsFn events = nullptr;
  SetPoisonFn setPoison = nullptr;
  // Optional (docs/runtime-abi.md §2): when present, init() and run() check their argument counts.
  CountFn argCount = nullptr;
  CountFn initSymbolCount = nullptr;
  // Optional: how many argv entries __tlab_init reads (0 or absent: init takes the symbols only).
  CountFn initArgCount = nullptr;
};

struct LoadedLibrary {
  std::string path;
  // Never dlclose()d: see docs/native.md ("Why no dlclose").
  void *dlHandle = nullptr;
  Trampolines fn;
  int abiVersion = 0;
  tlab_event_buffer *events = nullptr;
  // A GPU program library (it exports __tlab_gpu_timed_program and the rest of docs/gpu.md's runner ABI).
  bool gpu = false;
  GpuTrampolines gpuFn;
  // SDFG name found from the exported `__dace_init_<name>`; empty when it cannot be determined.
  std::string programName;
};

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws LoadError naming the library and what is wrong (dlerror text, missing symbols, ABI mismatch).
LoadedLibrary LoadProgramLibrary(const std::string &path);

}  // namespace tlab
