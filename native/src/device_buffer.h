// Device memory for a GPU program's arguments and EXTERNAL workspaces (docs/native.md, "GPU programs"): a
// `DeviceBuffer` is one allocation made through the program library's own `__tlab_gpu_malloc`, filled and read
// back through its `__tlab_gpu_memcpy`/`__tlab_gpu_memset`, so the addon itself links no CUDA library. JS never
// sees the device pointer: it passes the DeviceBuffer object to run()/timeCalls()/setExternal().
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "library_loader.h"

namespace tlab {

// Per-environment data of the addon: the classes' constructors (load() and deviceAlloc() construct objects).
struct AddonData {
  Napi::FunctionReference programLibrary;
  Napi::FunctionReference deviceBuffer;
  // dace_library_napi.cc's DaceLibrary class (for SequenceTargetOf).
  Napi::FunctionReference daceLibrary;
};

class DeviceBuffer : public Napi::ObjectWrap<DeviceBuffer> {
 public:
  static Napi::Function Define(Napi::Env env);
  // Allocates `bytes` through the library's __tlab_gpu_malloc; throws Error naming the library and the CUDA
  // error when it fails.
  static Napi::Object Allocate(Napi::Env env, const LoadedLibrary &library, uint64_t bytes);
  // The DeviceBuffer `value` wraps, or nullptr when it is something else.
  static DeviceBuffer *From(const Napi::Value &value);

  explicit DeviceBuffer(const Napi::CallbackInfo &info);

  void *pointer() const { return freed() ? nullptr : pointer_; }
  uint64_t bytes() const { return bytes_; }
  // A slice is freed with the allocation it was cut from.
  bool freed() const { return *freed_; }

 private:
  Napi::Value Slice(const Napi::CallbackInfo &info);
  Napi::Value Upload(const Napi::CallbackInfo &info);
  Napi::Value Download(const Napi::CallbackInfo &info);
  Napi::Value Fill(const Napi::CallbackInfo &info);
  Napi::Value Free(const Napi::CallbackInfo &info);
  Napi::Value ByteLength(const Napi::CallbackInfo &info);
  [[noreturn]] void Fail(Napi::Env env, const std::string &message) const;
  void RequireLive(Napi::Env env, const char *method) const;

  // No finalizer frees the memory: cudaFree synchronises the device, which must never happen at a moment the
  // garbage collector picks. The runner frees every buffer explicitly; the runner child is short-lived.
  void *pointer_ = nullptr;
  uint64_t bytes_ = 0;
  // Shared by an allocation and every slice of it; only the allocation itself may be freed.
  std::shared_ptr<bool> freed_ = std::make_shared<bool>(false);
  bool slice_ = false;
  GpuTrampolines fn_;
  std::string libraryPath_;
};

}  // namespace tlab
