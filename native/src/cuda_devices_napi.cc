// `cudaDevices(runtimeCandidates?)`: the JS face of cuda_devices.h (native/index.d.ts, CudaReport).
#include <napi.h>

#include "cuda_devices.h"

namespace tlab {
namespace {

constexpr const char *kUsage = "cudaDevices(runtimeCandidates?: string[])";

Napi::Value CudaDevices(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<std::string> candidates;
  if (info.Length() > 1) throw Napi::TypeError::New(env, std::string(kUsage) + ": expected at most 1 argument");
  if (info.Length() == 1 && !info[0].IsUndefined()) {
    if (!info[0].IsArray()) throw Napi::TypeError::New(env, std::string(kUsage) + ": runtimeCandidates must be an array of strings");
    Napi::Array a = info[0].As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) {
      Napi::Value v = a.Get(i);
      if (!v.IsString()) throw Napi::TypeError::New(env, std::string(kUsage) + ": runtimeCandidates[" + std::to_string(i) + "] is not a string");
      candidates.push_back(v.As<Napi::String>().Utf8Value());
    }
  } else {
    candidates = DefaultCudaRuntimeCandidates();
  }
  const CudaReport r = ProbeCuda(candidates);
  Napi::Object out = Napi::Object::New(env);
  out.Set("runtimeLibrary", r.runtimeLibrary.empty() ? env.Null() : Napi::String::New(env, r.runtimeLibrary));
  out.Set("runtimeVersion", Napi::Number::New(env, r.runtimeVersion));
  out.Set("driverVersion", Napi::Number::New(env, r.driverVersion));
  Napi::Array devices = Napi::Array::New(env, r.devices.size());
  for (size_t i = 0; i < r.devices.size(); ++i) {
    const CudaDevice &d = r.devices[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("index", Napi::Number::New(env, d.index));
    o.Set("name", Napi::String::New(env, d.name));
    o.Set("totalMemoryBytes", Napi::Number::New(env, static_cast<double>(d.totalMemoryBytes)));
    o.Set("computeCapability", Napi::String::New(env, std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)));
    o.Set("multiprocessors", Napi::Number::New(env, d.multiprocessors));
    o.Set("memoryPools", Napi::Boolean::New(env, d.memoryPools));
    devices.Set(static_cast<uint32_t>(i), o);
  }
  out.Set("devices", devices);
  out.Set("reason", r.reason.empty() ? env.Null() : Napi::String::New(env, r.reason));
  Napi::Array attempts = Napi::Array::New(env, r.attempts.size());
  for (size_t i = 0; i < r.attempts.size(); ++i) attempts.Set(static_cast<uint32_t>(i), Napi::String::New(env, r.attempts[i]));
  out.Set("attempts", attempts);
  return out;
}

}  // namespace

void RegisterCudaDevices(Napi::Env env, Napi::Object exports) {
  exports.Set("cudaDevices", Napi::Function::New<CudaDevices>(env, "cudaDevices"));
}

}  // namespace tlab
