// ProgramLibrary's GPU and interposition methods (program_library_napi.h): device buffers, the default memory
// pool, the library's pending CUDA error, and routing the call loops through the interposition hooks
// (interpose_napi.cc). Apart from the lifecycle (program_library_napi.cc) because each only forwards to the
// library's __tlab_gpu_* exports or to the hooks, and a CPU library never reaches them.
#include <string>

#include "call_stats_napi.h"
#include "device_buffer.h"
#include "interpose_napi.h"
#include "napi_args.h"
#include "program_library_napi.h"

namespace tlab {
namespace {

constexpr const char *kDeviceAllocUsage = "deviceAlloc(bytes: number): DeviceBuffer";
constexpr const char *kPoolAttributesUsage = "poolAttributes(reset: boolean): PoolAttributes";
constexpr const char *kGpuLastErrorUsage = "gpuLastError(): { code: number; message: string } | null";
// One device allocation at most this large (2^53: exact as a JS number).
constexpr double kMaxDeviceBytes = 9007199254740991.0;

}  // namespace

// GPU libraries: what the program was generated with (docs/gpu.md); null for CPU libraries.
Napi::Value ProgramLibrary::GpuInfo(Napi::Env env) const {
  if (!library_.gpu) return env.Null();
  const tlab::GpuTrampolines &g = library_.gpuFn;
  Napi::Object info = Napi::Object::New(env);
  info.Set("pooled", Napi::Boolean::New(env, g.pooled() != 0));
  info.Set("releaseThreshold", Napi::BigInt::New(env, g.releaseThreshold()));
  info.Set("kernels", Napi::Number::New(env, g.kernelCount()));
  info.Set("cudaRuntimeVersion", Napi::Number::New(env, g.runtimeVersion()));
  return info;
}

void ProgramLibrary::RequireGpu(Napi::Env env, const char *method) const {
  if (!library_.gpu) Fail(env, std::string(method) + " needs a GPU program library (one that exports __tlab_gpu_timed_program)");
}

// " (CUDA: cudaError 2: out of memory)" when the library has a CUDA error pending, else "".
std::string ProgramLibrary::PendingCudaError() const {
  if (!library_.gpu) return "";
  const int error = library_.gpuFn.lastError();
  return error != 0 ? " (CUDA: " + library_.gpuFn.Describe(error) + ")" : "";
}

tlab::Callee ProgramLibrary::MakeCallee() const {
  tlab::Callee callee{library_.fn.program, library_.gpu ? library_.gpuFn.timedProgram : nullptr,
                      library_.gpu ? library_.gpuFn.poolAttributes : nullptr};
  if (interposed_) tlab::WindowCallee(&callee, library_.events);  // docs/interpose.md
  return callee;
}

Napi::Value ProgramLibrary::Interpose(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 1, tlab::kInterposeUsage);
  if (!info[0].IsBoolean()) ThrowUsage(info.Env(), tlab::kInterposeUsage, "on must be a boolean, got " + Describe(info[0]));
  interposed_ = info[0].As<Napi::Boolean>().Value();
  try {
    return tlab::InterposeReportObject(info.Env(), interposed_ ? tlab::interpose::PatchLibrary(library_.dlHandle) : tlab::interpose::PatchReport{});
  } catch (const std::runtime_error &error) {
    interposed_ = false;
    Fail(info.Env(), std::string("cannot interpose the allocation calls: ") + error.what());
  }
}

Napi::Value ProgramLibrary::InterposedEvents(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 0, "interposedEvents(): AllocEvent[]");
  return tlab::EventsArray(info.Env(), tlab::interpose::Events(), library_.path);
}

Napi::Value ProgramLibrary::DeviceAlloc(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 1, kDeviceAllocUsage);
  const double bytes = ReadInteger(info[0], kDeviceAllocUsage, "bytes", 0, kMaxDeviceBytes);
  RequireGpu(env, "deviceAlloc()");
  return tlab::DeviceBuffer::Allocate(env, library_, static_cast<uint64_t>(bytes));
}

// The default pool of device 0: reserved and used bytes, current and high-water; `reset` clears both marks
// afterwards (timeCalls() also resets them right before its timed calls).
Napi::Value ProgramLibrary::PoolAttributes(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 1, kPoolAttributesUsage);
  if (!info[0].IsBoolean()) ThrowUsage(env, kPoolAttributesUsage, "reset must be a boolean, got " + Describe(info[0]));
  RequireGpu(env, "poolAttributes()");
  uint64_t out[4] = {0, 0, 0, 0};
  if (library_.gpuFn.poolAttributes(out, info[0].As<Napi::Boolean>().Value() ? 1 : 0) != 0) {
    Fail(env, "__tlab_gpu_pool_attributes could not read the default memory pool of device 0" + PendingCudaError());
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("reservedCurrentBytes", static_cast<double>(out[0]));
  result.Set("reservedHighBytes", static_cast<double>(out[1]));
  result.Set("usedCurrentBytes", static_cast<double>(out[2]));
  result.Set("usedHighBytes", static_cast<double>(out[3]));
  return result;
}

// Read-and-clear of the library's first CUDA error (asynchronous kernel errors included).
Napi::Value ProgramLibrary::GpuLastError(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 0, kGpuLastErrorUsage);
  RequireGpu(env, "gpuLastError()");
  const int error = library_.gpuFn.lastError();
  if (error == 0) return env.Null();
  Napi::Object result = Napi::Object::New(env);
  result.Set("code", error);
  result.Set("message", library_.gpuFn.Describe(error));
  return result;
}

}  // namespace tlab
