#include "device_buffer.h"

#include <algorithm>

#include "napi_args.h"

namespace tlab {
namespace {

constexpr const char *kUploadUsage = "upload(source: ArrayBufferView, offset?: number): void";
constexpr const char *kDownloadUsage = "download(target: ArrayBufferView, offset?: number): void";
constexpr const char *kFillUsage = "fill(byte: number): void";
constexpr const char *kFreeUsage = "free(): void";
constexpr const char *kSliceUsage = "slice(offset: number, bytes: number): DeviceBuffer";
// Offsets are JS numbers: exact up to 2^53.
constexpr double kMaxOffset = 9007199254740991.0;

struct Pending {
  void *pointer;
  uint64_t bytes;
  const LoadedLibrary *library;
  // Set for a slice: the allocation it is cut from.
  const DeviceBuffer *parent = nullptr;
};
// Only Allocate() may construct a DeviceBuffer; it parks the allocation here for the constructor.
thread_local Pending *pending = nullptr;

}  // namespace

Napi::Function DeviceBuffer::Define(Napi::Env env) {
  return DefineClass(env, "DeviceBuffer",
                     {
                         InstanceMethod<&DeviceBuffer::Upload>("upload"),
                         InstanceMethod<&DeviceBuffer::Download>("download"),
                         InstanceMethod<&DeviceBuffer::Fill>("fill"),
                         InstanceMethod<&DeviceBuffer::Free>("free"),
                         InstanceMethod<&DeviceBuffer::Slice>("slice"),
                         InstanceAccessor<&DeviceBuffer::ByteLength>("byteLength"),
                     });
}

Napi::Object DeviceBuffer::Allocate(Napi::Env env, const LoadedLibrary &library, uint64_t bytes) {
  void *pointer = library.gpuFn.malloc(bytes);
  if (pointer == nullptr) {
    // __tlab_gpu_malloc returns NULL on failure; the runtime keeps the error for the next last-error read.
    const int error = library.gpuFn.lastError();
    throw Napi::Error::New(env, "__tlab_gpu_malloc(" + std::to_string(bytes) + ") returned NULL" +
                                    (error != 0 ? " (" + library.gpuFn.Describe(error) + ")" : "") + " (library " +
                                    library.path + ")");
  }
  Pending parked{pointer, bytes, &library};
  pending = &parked;
  try {
    Napi::Object object = env.GetInstanceData<AddonData>()->deviceBuffer.New({Napi::External<Pending>::New(env, &parked)});
    pending = nullptr;
    return object;
  } catch (...) {
    pending = nullptr;
    library.gpuFn.free(pointer);
    throw;
  }
}

DeviceBuffer *DeviceBuffer::From(const Napi::Value &value) {
  if (!value.IsObject()) return nullptr;
  Napi::Env env = value.Env();
  const Napi::Object object = value.As<Napi::Object>();
  if (!object.InstanceOf(env.GetInstanceData<AddonData>()->deviceBuffer.Value())) return nullptr;
  return DeviceBuffer::Unwrap(object);
}

DeviceBuffer::DeviceBuffer(const Napi::CallbackInfo &info) : Napi::ObjectWrap<DeviceBuffer>(info) {
  if (info.Length() != 1 || !info[0].IsExternal() || pending == nullptr ||
      info[0].As<Napi::External<Pending>>().Data() != pending) {
    throw Napi::TypeError::New(info.Env(), "DeviceBuffer cannot be constructed directly; use ProgramLibrary.deviceAlloc(bytes)");
  }
  pointer_ = pending->pointer;
  bytes_ = pending->bytes;
  if (pending->parent != nullptr) {
    fn_ = pending->parent->fn_;
    libraryPath_ = pending->parent->libraryPath_;
    freed_ = pending->parent->freed_;
    slice_ = true;
  } else {
    fn_ = pending->library->gpuFn;
    libraryPath_ = pending->library->path;
  }
}

// [offset, offset + bytes) of this buffer as a DeviceBuffer of its own (guarded argument arenas: each argument
// a slice between guard bytes). It shares the allocation: freeing the allocation frees every slice with it.
Napi::Value DeviceBuffer::Slice(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 2, kSliceUsage);
  const auto offset = static_cast<uint64_t>(ReadInteger(info[0], kSliceUsage, "offset", 0, kMaxOffset));
  const auto bytes = static_cast<uint64_t>(ReadInteger(info[1], kSliceUsage, "bytes", 0, kMaxOffset));
  RequireLive(env, "slice()");
  if (offset > bytes_ || bytes > bytes_ - offset) {
    ThrowUsage(env, kSliceUsage, std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + " do not fit the " +
                                     std::to_string(bytes_) + "-byte device buffer");
  }
  Pending parked{static_cast<char *>(pointer_) + offset, bytes, nullptr, this};
  pending = &parked;
  try {
    Napi::Object object = env.GetInstanceData<AddonData>()->deviceBuffer.New({Napi::External<Pending>::New(env, &parked)});
    pending = nullptr;
    return object;
  } catch (...) {
    pending = nullptr;
    throw;
  }
}

void DeviceBuffer::Fail(Napi::Env env, const std::string &message) const {
  throw Napi::Error::New(env, message + " (library " + libraryPath_ + ")");
}

void DeviceBuffer::RequireLive(Napi::Env env, const char *method) const {
  if (freed()) Fail(env, std::string("DeviceBuffer.") + method + " called after free()");
}

Napi::Value DeviceBuffer::ByteLength(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), static_cast<double>(bytes_));
}

// upload/download: the host view's bytes to/from [offset, offset + view length) of the device buffer.
Napi::Value DeviceBuffer::Upload(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || info.Length() > 2) ThrowUsage(env, kUploadUsage, "expected 1 or 2 arguments, got " + std::to_string(info.Length()));
  ByteView view{};
  std::string why;
  if (!ReadView(info[0], &view, &why)) ThrowUsage(env, kUploadUsage, "source: " + why);
  const double offset = info.Length() == 2 ? ReadInteger(info[1], kUploadUsage, "offset", 0, kMaxOffset) : 0;
  RequireLive(env, "upload()");
  if (static_cast<uint64_t>(offset) + view.length > bytes_) {
    ThrowUsage(env, kUploadUsage, std::to_string(view.length) + " bytes at offset " + std::to_string(static_cast<uint64_t>(offset)) +
                                      " do not fit the " + std::to_string(bytes_) + "-byte device buffer");
  }
  if (view.length == 0) return env.Undefined();
  const int rc = fn_.memcpy(static_cast<char *>(pointer_) + static_cast<uint64_t>(offset), view.data, view.length, kGpuHostToDevice);
  if (rc != 0) Fail(env, "copying " + std::to_string(view.length) + " bytes to the device failed: " + fn_.Describe(rc));
  return env.Undefined();
}

Napi::Value DeviceBuffer::Download(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || info.Length() > 2) ThrowUsage(env, kDownloadUsage, "expected 1 or 2 arguments, got " + std::to_string(info.Length()));
  ByteView view{};
  std::string why;
  if (!ReadView(info[0], &view, &why)) ThrowUsage(env, kDownloadUsage, "target: " + why);
  const double offset = info.Length() == 2 ? ReadInteger(info[1], kDownloadUsage, "offset", 0, kMaxOffset) : 0;
  RequireLive(env, "download()");
  if (static_cast<uint64_t>(offset) + view.length > bytes_) {
    ThrowUsage(env, kDownloadUsage, std::to_string(view.length) + " bytes at offset " + std::to_string(static_cast<uint64_t>(offset)) +
                                        " do not fit the " + std::to_string(bytes_) + "-byte device buffer");
  }
  if (view.length == 0) return env.Undefined();
  const int rc = fn_.memcpy(view.data, static_cast<char *>(pointer_) + static_cast<uint64_t>(offset), view.length, kGpuDeviceToHost);
  if (rc != 0) Fail(env, "copying " + std::to_string(view.length) + " bytes back from the device failed: " + fn_.Describe(rc));
  return env.Undefined();
}

Napi::Value DeviceBuffer::Fill(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 1, kFillUsage);
  const double byte = ReadInteger(info[0], kFillUsage, "byte", 0, 255);
  RequireLive(env, "fill()");
  if (bytes_ == 0) return env.Undefined();
  const int rc = fn_.memset(pointer_, static_cast<int>(byte), bytes_);
  if (rc != 0) Fail(env, "filling " + std::to_string(bytes_) + " device bytes failed: " + fn_.Describe(rc));
  return env.Undefined();
}

Napi::Value DeviceBuffer::Free(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 0, kFreeUsage);
  if (slice_) Fail(env, "DeviceBuffer.free() called on a slice; free the buffer it was sliced from");
  if (freed()) Fail(env, "DeviceBuffer.free() called twice");
  void *pointer = pointer_;
  *freed_ = true;
  const int rc = fn_.free(pointer);
  if (rc != 0) Fail(env, "freeing a " + std::to_string(bytes_) + "-byte device buffer failed: " + fn_.Describe(rc));
  return env.Undefined();
}

}  // namespace tlab
