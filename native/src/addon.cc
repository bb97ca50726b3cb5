// The N-API binding of transient_native.node: exactly the surface of native/index.d.ts. This file is the
// module: its registration and the module functions that belong to no class (the cost measurements, and
// dieWithParent for runners). The classes and the other module functions register from their own files:
// ProgramLibrary (program_library_napi.cc), DeviceBuffer, the CUDA device list, interposition, workload
// sequences and DaCe-built libraries.
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif
#include <napi.h>

#include "call_loop.h"
#include "cuda_devices.h"
#include "dace_library_napi.h"
#include "device_buffer.h"
#include "interpose_napi.h"
#include "napi_args.h"
#include "program_library_napi.h"
#include "sequence_napi.h"

namespace {

constexpr const char *kEventCostUsage = "measureEventCostNs(iterations: number): number";
constexpr const char *kCallOverheadUsage = "measureCallOverheadNs(iterations: number): number";
constexpr double kMaxMeasureIterations = 1e9;

using tlab::ExpectArgumentCount;
using tlab::ReadInteger;

Napi::Value MeasureEventCost(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 1, kEventCostUsage);
  const double iterations = ReadInteger(info[0], kEventCostUsage, "iterations", 1, kMaxMeasureIterations);
  return Napi::Number::New(info.Env(), tlab::MeasureEventCostNs(static_cast<uint64_t>(iterations)));
}

Napi::Value MeasureCallOverhead(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 1, kCallOverheadUsage);
  const double iterations = ReadInteger(info[0], kCallOverheadUsage, "iterations", 1, kMaxMeasureIterations);
  return Napi::Number::New(info.Env(), tlab::MeasureCallOverheadNs(static_cast<uint64_t>(iterations)));
}

constexpr const char *kDieWithParentUsage = "dieWithParent(parentPid: number): boolean";

// A runner must not outlive the process that supervises it: `kill -9` of `serve`, or the OOM killer, gives the
// parent no chance to end its children, and a runner left behind keeps a core busy timing a program nobody waits
// for. The kernel delivers SIGKILL to this process when its parent dies; if the parent is already gone (it died
// before this call), the runner ends at once.
Napi::Value DieWithParent(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 1, kDieWithParentUsage);
  const double parentPid = ReadInteger(info[0], kDieWithParentUsage, "parentPid", 1, 4194304);
#ifdef __linux__
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return Napi::Boolean::New(info.Env(), false);
  if (getppid() != static_cast<pid_t>(parentPid)) raise(SIGKILL);
  return Napi::Boolean::New(info.Env(), true);
#else
  (void)parentPid;
  return Napi::Boolean::New(info.Env(), false);
#endif
}

constexpr const char *kAlignmentPadUsage = "alignmentPad(view: ArrayBufferView, align: number): number";

// JavaScript cannot see where a typed array's bytes lie, and Node takes a large zero-filled buffer from calloc,
// which glibc returns 16 bytes past a 64-byte boundary. A workspace there would put every slot's vectors across
// cache lines, where a C caller's aligned_alloc(64) (and SCOPED's tlab_alloc) would not: EXTERNAL would be timed
// slower for the runner's sake. The runner over-allocates and starts its buffers this many bytes in.
Napi::Value AlignmentPad(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 2, kAlignmentPadUsage);
  tlab::ByteView view{};
  std::string why;
  if (!tlab::ReadView(info[0], &view, &why)) tlab::ThrowUsage(info.Env(), kAlignmentPadUsage, "view: " + why);
  const double align = ReadInteger(info[1], kAlignmentPadUsage, "align", 1, 4096);
  const auto a = static_cast<uintptr_t>(align);
  if ((a & (a - 1)) != 0) tlab::ThrowUsage(info.Env(), kAlignmentPadUsage, "align must be a power of two, got " + std::to_string(a));
  const auto address = reinterpret_cast<uintptr_t>(view.data);
  return Napi::Number::New(info.Env(), static_cast<double>((a - address % a) % a));
}

Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  auto *data = new tlab::AddonData();
  data->deviceBuffer = Napi::Persistent(tlab::DeviceBuffer::Define(env));
  env.SetInstanceData<tlab::AddonData>(data);
  tlab::RegisterProgramLibrary(env, exports);
  exports.Set("measureEventCostNs", Napi::Function::New<MeasureEventCost>(env, "measureEventCostNs"));
  exports.Set("measureCallOverheadNs", Napi::Function::New<MeasureCallOverhead>(env, "measureCallOverheadNs"));
  exports.Set("dieWithParent", Napi::Function::New<DieWithParent>(env, "dieWithParent"));
  exports.Set("alignmentPad", Napi::Function::New<AlignmentPad>(env, "alignmentPad"));
  exports.Set("runtimeAbiVersion", Napi::Number::New(env, TRANSIENT_RUNTIME_VERSION));
  tlab::RegisterCudaDevices(env, exports);
  tlab::RegisterInterpose(env, exports);
  tlab::RegisterSequence(env, exports);
  tlab::RegisterDaceLibrary(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(transient_native, InitModule)
