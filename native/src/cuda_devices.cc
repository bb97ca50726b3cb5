// See cuda_devices.h. Only C entry points with plain int/pointer signatures are used, whose ABI has not changed
// since CUDA 10; no CUDA header is needed to build the addon.
#include "cuda_devices.h"

#include <dlfcn.h>

#include <cstdlib>

namespace tlab {
namespace {

// cudaDeviceAttr values (driver_types.h; stable across versions).
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMemoryPoolsSupported = 115;

using IntOut = int (*)(int *);
using GetAttribute = int (*)(int *, int, int);
using ErrorString = const char *(*)(int);
// Driver API (cuda.h): CUresult cuInit(unsigned), cuDeviceGet(CUdevice*, int), cuDeviceGetName(char*, int,
// CUdevice), cuDeviceTotalMem_v2(size_t*, CUdevice). CUdevice is an int.
using CuInit = int (*)(unsigned);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);
using CuDeviceTotalMem = int (*)(size_t *, int);

template <typename F>
F Symbol(void *lib, const char *name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

std::string DlError() {
  const char *e = dlerror();
  return e ? e : "unknown dlopen error";
}

std::string VersionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

std::vector<std::string> DefaultCudaRuntimeCandidates() {
  std::vector<std::string> out;
  if (const char *env = std::getenv("TLAB_CUDART"); env && *env) out.emplace_back(env);
  for (const char *name : {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "/usr/local/cuda/lib64/libcudart.so"}) {
    out.emplace_back(name);
  }
  return out;
}

CudaReport ProbeCuda(const std::vector<std::string> &candidates) {
  CudaReport r;
  void *rt = nullptr;
  for (const std::string &c : candidates) {
    rt = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (rt) {
      r.runtimeLibrary = c;
      r.attempts.push_back(c + ": loaded");
      break;
    }
    r.attempts.push_back(c + ": " + DlError());
  }
  if (!rt) {
    r.reason = "the CUDA runtime (libcudart) is not installed or not on the library path";
    return r;
  }
  auto runtimeVersion = Symbol<IntOut>(rt, "cudaRuntimeGetVersion");
  auto driverVersion = Symbol<IntOut>(rt, "cudaDriverGetVersion");
  auto deviceCount = Symbol<IntOut>(rt, "cudaGetDeviceCount");
  auto attribute = Symbol<GetAttribute>(rt, "cudaDeviceGetAttribute");
  auto errorString = Symbol<ErrorString>(rt, "cudaGetErrorString");
  if (!runtimeVersion || !driverVersion || !deviceCount || !attribute) {
    r.reason = r.runtimeLibrary + " does not export the CUDA runtime API (cudaGetDeviceCount missing)";
    return r;
  }
  runtimeVersion(&r.runtimeVersion);
  driverVersion(&r.driverVersion);
  int count = 0;
  const int err = deviceCount(&count);
  if (err != 0) {
    const std::string what = errorString ? errorString(err) : "error " + std::to_string(err);
    r.reason = r.driverVersion == 0 ? "no NVIDIA driver is installed (cudaGetDeviceCount: " + what + ")"
                                    : "cudaGetDeviceCount failed: " + what;
    if (r.driverVersion != 0 && r.driverVersion < r.runtimeVersion) {
      r.reason += " (driver supports CUDA " + VersionText(r.driverVersion) + ", runtime is " + VersionText(r.runtimeVersion) + ")";
    }
    return r;
  }
  if (count == 0) {
    r.reason = "the NVIDIA driver reports no CUDA device";
    return r;
  }
  // Names and memory come from the driver library, which any machine with a device has.
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  auto cuInit = drv ? Symbol<CuInit>(drv, "cuInit") : nullptr;
  auto cuDeviceGet = drv ? Symbol<CuDeviceGet>(drv, "cuDeviceGet") : nullptr;
  auto cuName = drv ? Symbol<CuDeviceGetName>(drv, "cuDeviceGetName") : nullptr;
  auto cuMem = drv ? Symbol<CuDeviceTotalMem>(drv, "cuDeviceTotalMem_v2") : nullptr;
  const bool driverApi = cuInit && cuDeviceGet && cuName && cuMem && cuInit(0) == 0;
  if (!driverApi) r.attempts.push_back(std::string("libcuda.so.1: ") + (drv ? "cuInit failed or symbols missing" : DlError()));
  for (int i = 0; i < count; ++i) {
    CudaDevice d;
    d.index = i;
    attribute(&d.ccMajor, kAttrComputeCapabilityMajor, i);
    attribute(&d.ccMinor, kAttrComputeCapabilityMinor, i);
    attribute(&d.multiprocessors, kAttrMultiprocessorCount, i);
    int pools = 0;
    if (attribute(&pools, kAttrMemoryPoolsSupported, i) == 0) d.memoryPools = pools != 0;
    int handle = 0;
    if (driverApi && cuDeviceGet(&handle, i) == 0) {
      char name[256] = {0};
      if (cuName(name, sizeof name - 1, handle) == 0) d.name = name;
      size_t bytes = 0;
      if (cuMem(&bytes, handle) == 0) d.totalMemoryBytes = bytes;
    }
    if (d.name.empty()) d.name = "CUDA device " + std::to_string(i);
    r.devices.push_back(d);
  }
  return r;
}

}  // namespace tlab
