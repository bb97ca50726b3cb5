// Device discovery without linking CUDA: the CUDA runtime (libcudart) and, for names and memory, the driver
// (libcuda.so.1) are dlopen()ed when asked, never at load time, so the addon and every CPU run work on machines
// without CUDA. docs/gpu-host.md describes the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlab {

struct CudaDevice {
  int index = 0;
  std::string name;
  uint64_t totalMemoryBytes = 0;
  int ccMajor = 0;
  int ccMinor = 0;
  int multiprocessors = 0;
  /// cudaDevAttrMemoryPoolsSupported: the stream-ordered allocator (POOL mode) works on this device.
  bool memoryPools = false;
};

struct CudaReport {
  /// The runtime library that was loaded (its path as dlopen was given it), or empty.
  std::string runtimeLibrary;
  /// cudaRuntimeGetVersion / cudaDriverGetVersion (1000·major + 10·minor); 0 when unknown or absent.
  int runtimeVersion = 0;
  int driverVersion = 0;
  std::vector<CudaDevice> devices;
  /// Why there is no usable device (empty when at least one is listed): one sentence for people.
  std::string reason;
  /// Each library tried and what happened, for the details of an error.
  std::vector<std::string> attempts;
};

/// Loads the first runtime of `candidates` that dlopen accepts and lists the devices. Never throws for a
/// missing CUDA: that is a report with no devices and a reason.
CudaReport ProbeCuda(const std::vector<std::string> &candidates);

/// The default runtime candidates: $TLAB_CUDART first when set, then the sonames of CUDA 13, 12 and 11, then
/// the usual install folder.
std::vector<std::string> DefaultCudaRuntimeCandidates();

}  // namespace tlab

#ifdef NAPI_VERSION
#include <napi.h>
namespace tlab {
/// Adds `cudaDevices` to the addon's exports (cuda_devices_napi.cc).
void RegisterCudaDevices(Napi::Env env, Napi::Object exports);
}  // namespace tlab
#endif
