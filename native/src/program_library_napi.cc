// ProgramLibrary (program_library_napi.h): load(), init/exit, the EXTERNAL workspaces, poison, and the call
// loops run() and timeCalls(). Argument mistakes throw TypeError with the usage string; native failures
// (dlopen, NULL init handle, non-zero exit code, exceptions out of the program) throw Error naming the library
// and the DaCe function involved.
#include "program_library_napi.h"

#include <limits>
#include <memory>
#include <utility>

#include "call_stats_napi.h"
#include "device_buffer.h"
#include "napi_args.h"
#include "progress_file.h"

namespace tlab {
namespace {

constexpr const char *kLoadUsage = "load(path: string): ProgramLibrary";
constexpr const char *kInitUsage = "init(symbols: BigInt64Array, args?: Array<ArrayBufferView | DeviceBuffer>): number";
constexpr const char *kExternalSizeUsage = "externalSize(storage: string, symbols: BigInt64Array): bigint";
constexpr const char *kSetExternalUsage =
    "setExternal(storage: string, workspace: ArrayBufferView | DeviceBuffer, symbols: BigInt64Array): void";
constexpr const char *kSetExternalOffsetsUsage =
    "setExternalOffsets(storage: string, workspace: ArrayBufferView | DeviceBuffer, offsets: BigUint64Array): void";
constexpr const char *kSetPoisonUsage = "setPoison(on: boolean, pattern: number): void";
constexpr const char *kRunUsage = "run(args: Array<ArrayBufferView | DeviceBuffer>, calls: number): CallStats";
constexpr const char *kTimeCallsUsage =
    "timeCalls(args: Array<ArrayBufferView | DeviceBuffer>, warmup: number, settle: number, calls: number, progressFile: string | null): "
    "TimedCalls";
constexpr const char *kLastEventsUsage = "lastEvents(): AllocEvent[]";
constexpr const char *kExitUsage = "exit(): number";

// Result typed arrays are allocated up front; 2^24 calls is already ~800 MB of statistics.
constexpr double kMaxCalls = 16777216;

// A workspace for setExternal()/setExternalOffsets(). In a GPU library, GPU storage (GPU_Global, …) lives in
// device memory (a DeviceBuffer) and every other storage in host memory (an ArrayBufferView); mixing them up
// would hand a kernel a host pointer, or host code a device pointer: refused here instead of crashing later. A CPU
// library only ever gets host memory.
ByteView ReadWorkspace(const Napi::Value &value, const std::string &storage, const char *usage, bool gpuLibrary) {
  const bool deviceStorage = gpuLibrary && storage.compare(0, 4, "GPU_") == 0;
  if (tlab::DeviceBuffer *device = tlab::DeviceBuffer::From(value)) {
    if (!deviceStorage) {
      ThrowUsage(value.Env(), usage, "workspace: storage '" + storage + "' is host memory" +
                                         (gpuLibrary ? "" : " (a CPU program library)") + "; pass an ArrayBufferView, not a DeviceBuffer");
    }
    if (device->freed()) ThrowUsage(value.Env(), usage, "workspace: the DeviceBuffer was freed");
    return ByteView{static_cast<uint8_t *>(device->pointer()), static_cast<size_t>(device->bytes())};
  }
  if (deviceStorage) ThrowUsage(value.Env(), usage, "workspace: storage '" + storage + "' is device memory; pass a DeviceBuffer (deviceAlloc), got " + Describe(value));
  ByteView view{};
  std::string why;
  if (!ReadView(value, &view, &why)) ThrowUsage(value.Env(), usage, "workspace: " + why);
  return view;
}

// Only load() may construct a ProgramLibrary; it parks the loaded library here for the constructor.
thread_local tlab::LoadedLibrary *pendingLibrary = nullptr;  // per thread: worker_threads load too

Napi::Value Load(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 1, kLoadUsage);
  if (!info[0].IsString()) ThrowUsage(env, kLoadUsage, "path must be a string, got " + Describe(info[0]));
  const std::string path = info[0].As<Napi::String>().Utf8Value();
  if (path.empty() || path.find('\0') != std::string::npos) {
    ThrowUsage(env, kLoadUsage, "path must be a non-empty file path without NUL characters");
  }
  tlab::LoadedLibrary library;
  try {
    library = tlab::LoadProgramLibrary(path);
  } catch (const tlab::LoadError &error) {
    throw Napi::Error::New(env, error.what());
  }
  pendingLibrary = &library;
  try {
    Napi::Object object = env.GetInstanceData<tlab::AddonData>()->programLibrary.New({Napi::External<tlab::LoadedLibrary>::New(env, &library)});
    pendingLibrary = nullptr;
    return object;
  } catch (...) {
    pendingLibrary = nullptr;
    throw;
  }
}

}  // namespace

Napi::Function ProgramLibrary::Define(Napi::Env env) {
  return DefineClass(env, "ProgramLibrary",
                     {
                         InstanceMethod<&ProgramLibrary::Init>("init"),
                         InstanceMethod<&ProgramLibrary::ExternalSize>("externalSize"),
                         InstanceMethod<&ProgramLibrary::SetExternal>("setExternal"),
                         InstanceMethod<&ProgramLibrary::SetExternalOffsets>("setExternalOffsets"),
                         InstanceMethod<&ProgramLibrary::SetPoison>("setPoison"),
                         InstanceMethod<&ProgramLibrary::Run>("run"),
                         InstanceMethod<&ProgramLibrary::TimeCalls>("timeCalls"),
                         InstanceMethod<&ProgramLibrary::LastEvents>("lastEvents"),
                         InstanceMethod<&ProgramLibrary::Exit>("exit"),
                         InstanceMethod<&ProgramLibrary::DeviceAlloc>("deviceAlloc"),
                         InstanceMethod<&ProgramLibrary::PoolAttributes>("poolAttributes"),
                         InstanceMethod<&ProgramLibrary::GpuLastError>("gpuLastError"),
                         InstanceMethod<&ProgramLibrary::Interpose>("interpose"),
                         InstanceMethod<&ProgramLibrary::InterposedEvents>("interposedEvents"),
                     });
}

// For the workload's step loop (sequence_napi.cc): what a call into this library needs.
bool ProgramLibrary::SequenceTarget(tlab::SequenceTarget *out, std::string *why) const {
  if (library_.gpu) return (*why = "a GPU program library: workload sequences run CPU programs only", false);
  if (state_ != State::Initialised) return (*why = "the library is not initialised (call init() first)", false);
  *out = tlab::SequenceTarget{library_.fn.program, handle_, library_.events,
                              library_.fn.argCount != nullptr ? library_.fn.argCount() : 0u,
                              library_.programName.empty() ? "<program>" : library_.programName};
  return true;
}

ProgramLibrary::ProgramLibrary(const Napi::CallbackInfo &info) : Napi::ObjectWrap<ProgramLibrary>(info) {
  Napi::Env env = info.Env();
  if (info.Length() != 1 || !info[0].IsExternal() || pendingLibrary == nullptr ||
      info[0].As<Napi::External<tlab::LoadedLibrary>>().Data() != pendingLibrary) {
    throw Napi::TypeError::New(env, "ProgramLibrary cannot be constructed directly; use load(path)");
  }
  library_ = std::move(*pendingLibrary);
  Napi::Object self = info.This().As<Napi::Object>();
  self.DefineProperties({
      Napi::PropertyDescriptor::Value("path", Napi::String::New(env, library_.path), napi_enumerable),
      Napi::PropertyDescriptor::Value("abiVersion", Napi::Number::New(env, library_.abiVersion), napi_enumerable),
      Napi::PropertyDescriptor::Value("initArgCount", Napi::Number::New(env, InitArgCount()), napi_enumerable),
      Napi::PropertyDescriptor::Value("programName",
                                      library_.programName.empty()
                                          ? env.Null()
                                          : Napi::Value(Napi::String::New(env, library_.programName)),
                                      napi_enumerable),
      Napi::PropertyDescriptor::Value("gpu", GpuInfo(env), napi_enumerable),
  });
}

std::string ProgramLibrary::DaceFunction(const char *prefix) const {
  return std::string(prefix) + (library_.programName.empty() ? "<program>" : library_.programName);
}

void ProgramLibrary::Fail(Napi::Env env, const std::string &message) const {
  throw Napi::Error::New(env, message + " (library " + library_.path + ")");
}

void ProgramLibrary::RequireInitialised(Napi::Env env, const char *method) const {
  if (state_ == State::Loaded) Fail(env, std::string(method) + " called before init()");
  if (state_ == State::Exited) Fail(env, std::string(method) + " called after exit(); call init() again first");
}

Napi::Value ProgramLibrary::Init(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || info.Length() > 2) {
    ThrowUsage(env, kInitUsage, "expected 1 or 2 arguments, got " + std::to_string(info.Length()));
  }
  size_t count = 0;
  const int64_t *symbols = ReadTypedArray<int64_t>(info[0], napi_bigint64_array, "BigInt64Array", kInitUsage,
                                                   "symbols", &count);
  // The init of a program whose init code reads its arguments takes them (docs/runtime-abi.md): the same
  // vector as run()'s, checked the same way. Otherwise they are optional and __tlab_init ignores them.
  const bool hasArgs = info.Length() == 2 && !info[1].IsUndefined();
  std::vector<void *> argv = hasArgs ? ReadArgv(info[1], kInitUsage) : std::vector<void *>{};
  if (!hasArgs && InitArgCount() != 0) {
    ThrowUsage(env, kInitUsage,
               "the library's __tlab_init reads " + std::to_string(InitArgCount()) +
                   " argument(s) (its init code reads the program's arguments): pass them as init(symbols, args)");
  }
  if (state_ == State::Initialised) Fail(env, "init() called twice; call exit() before initialising again");
  if (library_.fn.initSymbolCount != nullptr && count != library_.fn.initSymbolCount()) {
    ThrowUsage(env, kInitUsage,
               "symbols has " + std::to_string(count) + " value(s) but the library's __tlab_init takes " +
                   std::to_string(library_.fn.initSymbolCount()));
  }

  // Persistent transients are allocated here: reset so that lastEvents() shows them.
  const uint64_t start = tlab_now_ns();
  tlab_reset(library_.events, start);
  void *handle = nullptr;
  try {
    handle = library_.fn.init(symbols, argv.empty() ? nullptr : argv.data());
  } catch (const std::exception &error) {
    Fail(env, DaceFunction("__dace_init_") + " threw a C++ exception: " + error.what());
  }
  const uint64_t end = tlab_now_ns();
  if (handle == nullptr) {
    Fail(env, DaceFunction("__dace_init_") + " returned NULL (called through __tlab_init with init symbols " +
                  SymbolList(symbols, count) + ")" + PendingCudaError());
  }
  handle_ = handle;
  state_ = State::Initialised;
  return Napi::Number::New(env, static_cast<double>(end - start));
}

Napi::Value ProgramLibrary::ExternalSize(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 2, kExternalSizeUsage);
  const std::string storage = ReadStorage(info[0], kExternalSizeUsage);
  size_t count = 0;
  const int64_t *symbols = ReadTypedArray<int64_t>(info[1], napi_bigint64_array, "BigInt64Array",
                                                   kExternalSizeUsage, "symbols", &count);
  RequireInitialised(env, "externalSize()");
  return Napi::BigInt::New(env, RequiredExternalSize(env, storage, symbols));
}

uint64_t ProgramLibrary::RequiredExternalSize(Napi::Env env, const std::string &storage, const int64_t *symbols) const {
  const uint64_t bytes = library_.fn.externalSize(handle_, storage.c_str(), symbols);
  if (bytes == std::numeric_limits<uint64_t>::max()) {
    Fail(env, "the program has no External transients in storage '" + storage +
                  "' (__tlab_external_size returned UINT64_MAX)");
  }
  return bytes;
}

Napi::Value ProgramLibrary::SetExternal(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 3, kSetExternalUsage);
  const std::string storage = ReadStorage(info[0], kSetExternalUsage);
  const ByteView workspace = ReadWorkspace(info[1], storage, kSetExternalUsage, library_.gpu);
  size_t count = 0;
  const int64_t *symbols = ReadTypedArray<int64_t>(info[2], napi_bigint64_array, "BigInt64Array",
                                                   kSetExternalUsage, "symbols", &count);
  RequireInitialised(env, "setExternal()");
  // DaCe never checks the workspace size; a short one would be silent heap corruption.
  const uint64_t needed = RequiredExternalSize(env, storage, symbols);
  if (workspace.length < needed) {
    Fail(env, "workspace for storage '" + storage + "' is too small: " + std::to_string(workspace.length) +
                  " bytes given, the program needs " + std::to_string(needed));
  }
  const int rc = library_.fn.setExternal(handle_, storage.c_str(), reinterpret_cast<char *>(workspace.data), symbols);
  if (rc != 0) {
    Fail(env, "__tlab_set_external returned " + std::to_string(rc) + " for storage '" + storage + "'" +
                  (rc == -1 ? " (unknown storage)" : ""));
  }
  KeepAlive(storage, info[1]);
  return env.Undefined();
}

Napi::Value ProgramLibrary::SetExternalOffsets(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 3, kSetExternalOffsetsUsage);
  const std::string storage = ReadStorage(info[0], kSetExternalOffsetsUsage);
  const ByteView workspace = ReadWorkspace(info[1], storage, kSetExternalOffsetsUsage, library_.gpu);
  size_t count = 0;
  const uint64_t *offsets = ReadTypedArray<uint64_t>(info[2], napi_biguint64_array, "BigUint64Array",
                                                     kSetExternalOffsetsUsage, "offsets", &count);
  RequireInitialised(env, "setExternalOffsets()");
  const uint32_t slots = library_.fn.externalSlotCount(storage.c_str());
  if (slots == 0) Fail(env, "the program has no External slots in storage '" + storage + "'");
  if (count != slots) {
    Fail(env, "offsets has " + std::to_string(count) + " entries but storage '" + storage + "' has " +
                  std::to_string(slots) + " External slots");
  }
  for (size_t i = 0; i < count; ++i) {
    if (offsets[i] > workspace.length) {
      Fail(env, "offsets[" + std::to_string(i) + "] = " + std::to_string(offsets[i]) + " lies outside the " +
                    std::to_string(workspace.length) + "-byte workspace");
    }
  }
  const int rc = library_.fn.setExternalOffsets(handle_, storage.c_str(), reinterpret_cast<char *>(workspace.data),
                                                offsets, static_cast<uint32_t>(count));
  if (rc != 0) {
    Fail(env, "__tlab_set_external_offsets returned " + std::to_string(rc) + " for storage '" + storage + "'" +
                  (rc == -1 ? " (unknown storage)" : rc == -2 ? " (wrong number of offsets)" : ""));
  }
  KeepAlive(storage, info[1]);
  return env.Undefined();
}

// The library keeps raw pointers into the workspace until exit(): the JS buffer must outlive them.
void ProgramLibrary::KeepAlive(const std::string &storage, const Napi::Value &workspace) {
  workspaces_[storage] = Napi::Persistent(workspace.As<Napi::Object>());
}

Napi::Value ProgramLibrary::SetPoison(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 2, kSetPoisonUsage);
  if (!info[0].IsBoolean()) ThrowUsage(env, kSetPoisonUsage, "on must be a boolean, got " + Describe(info[0]));
  const double pattern = ReadInteger(info[1], kSetPoisonUsage, "pattern (a byte)", 0, 255);
  library_.fn.setPoison(info[0].As<Napi::Boolean>().Value() ? 1 : 0, static_cast<int>(pattern));
  return env.Undefined();
}

// The argument vector of run()/timeCalls(): one data pointer per ArrayBufferView, checked against the
// library's argument count.
std::vector<void *> ProgramLibrary::ReadArgv(const Napi::Value &value, const char *usage) const {
  Napi::Env env = value.Env();
  if (!value.IsArray()) ThrowUsage(env, usage, "args must be an array of ArrayBufferViews, got " + Describe(value));
  const auto args = value.As<Napi::Array>();
  std::vector<void *> argv(args.Length() == 0 ? 1 : args.Length(), nullptr);
  for (uint32_t i = 0; i < args.Length(); ++i) {
    const Napi::Value arg = args.Get(i);
    // GPU programs take device pointers for their array arguments (docs/gpu.md).
    if (tlab::DeviceBuffer *device = tlab::DeviceBuffer::From(arg)) {
      if (device->freed()) ThrowUsage(env, usage, "args[" + std::to_string(i) + "]: the DeviceBuffer was freed");
      argv[i] = device->pointer();
      continue;
    }
    ByteView view{};
    std::string why;
    if (!ReadView(arg, &view, &why)) ThrowUsage(env, usage, "args[" + std::to_string(i) + "]: " + why);
    argv[i] = view.data;
  }
  if (library_.fn.argCount != nullptr && args.Length() != library_.fn.argCount()) {
    ThrowUsage(env, usage,
               "args has " + std::to_string(args.Length()) + " entries but the program takes " +
                   std::to_string(library_.fn.argCount()) + " argument(s)");
  }
  return argv;
}

void ProgramLibrary::FailCall(Napi::Env env, const tlab::ProgramThrew &thrown, const std::string &which) const {
  Fail(env, DaceFunction("__program_") + " threw a C++ exception in " + which + ": " + thrown.what);
}

void ProgramLibrary::FailDevice(Napi::Env env, const tlab::DeviceError &failed, const std::string &which) const {
  Fail(env, "CUDA error in " + which + " of " + DaceFunction("__program_") + ": " + library_.gpuFn.Describe(failed.code));
}

void ProgramLibrary::FailEvent(Napi::Env env, const tlab::UnknownEventKind &bad, const std::string &which) const {
  Fail(env, "event " + std::to_string(bad.eventIndex) + " of " + which + " has unknown kind " +
                std::to_string(bad.kind) + " (corrupted event buffer?)");
}

Napi::Value ProgramLibrary::Run(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 2, kRunUsage);
  std::vector<void *> argv = ReadArgv(info[0], kRunUsage);
  const auto calls = static_cast<uint32_t>(ReadInteger(info[1], kRunUsage, "calls", 1, kMaxCalls));
  RequireInitialised(env, "run()");

  tlab::StatsArrays arrays(env, calls, library_.gpu);
  tlab::CallStatsSink sink = arrays.Sink();
  // Sized from the previous call (init, a verification call or the last batch): programs make the same
  // allocations on every call, and a call that makes more is simply not kept.
  const uint64_t previousEvents =
      std::min<uint64_t>(StatsEvents()->count.load(std::memory_order_relaxed), StatsEvents()->capacity);
  std::unique_ptr<tlab::EventSampler> sampler;
  try {
    sampler = std::make_unique<tlab::EventSampler>(calls, previousEvents + previousEvents / 4 + 16);
  } catch (const std::bad_alloc &) {
    Fail(env, "cannot reserve memory for the sampled call's events (" + std::to_string(calls) + " calls)");
  }
  try {
    tlab::RunCalls(MakeCallee(), handle_, argv.data(), StatsEvents(), calls, &sink, tlab::CallHooks{sampler.get()});
  } catch (const tlab::ProgramThrew &thrown) {
    FailCall(env, thrown, "call " + std::to_string(thrown.callIndex + 1) + " of " + std::to_string(calls));
  } catch (const tlab::DeviceError &failed) {
    FailDevice(env, failed, "call " + std::to_string(failed.callIndex + 1) + " of " + std::to_string(calls));
  } catch (const tlab::UnknownEventKind &bad) {
    FailEvent(env, bad, "call " + std::to_string(bad.callIndex + 1));
  }
  tlab::Sample sample{};
  const bool sampled = sampler->Pick(arrays.TotalNs(), calls, &sample);
  return arrays.ToObject(env, sink, sampled ? tlab::SampleObject(env, sample, library_.path) : env.Null());
}

// The first call, the warm-up and the timed calls in one native loop (tlab::TimeCalls). JavaScript is
// blocked for the whole of it by design; progress goes to `progressFile` for the host to poll.
Napi::Value ProgramLibrary::TimeCalls(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 5, kTimeCallsUsage);
  std::vector<void *> argv = ReadArgv(info[0], kTimeCallsUsage);
  const auto warmup = static_cast<uint32_t>(ReadInteger(info[1], kTimeCallsUsage, "warmup", 0, kMaxCalls));
  const auto settle = static_cast<uint32_t>(ReadInteger(info[2], kTimeCallsUsage, "settle", 0, kMaxCalls));
  const auto calls = static_cast<uint32_t>(ReadInteger(info[3], kTimeCallsUsage, "calls", 1, kMaxCalls));
  const Napi::Value progressPath = info[4];
  if (!progressPath.IsNull() && !progressPath.IsString()) {
    ThrowUsage(env, kTimeCallsUsage, "progressFile must be a path or null, got " + Describe(progressPath));
  }
  RequireInitialised(env, "timeCalls()");
  std::unique_ptr<tlab::ProgressFile> progress;
  if (progressPath.IsString()) {
    try {
      progress = std::make_unique<tlab::ProgressFile>(progressPath.As<Napi::String>().Utf8Value());
    } catch (const std::runtime_error &error) {
      Fail(env, error.what());
    }
  }

  tlab::StatsArrays arrays(env, calls, library_.gpu);
  tlab::CallStatsSink sink = arrays.Sink();
  tlab::EventSampler sampler;
  tlab::TimedCalls timed;
  try {
    timed = tlab::TimeCalls(MakeCallee(), handle_, argv.data(), StatsEvents(), warmup, settle, calls,
                            &sink, progress.get(), &sampler);
  } catch (const tlab::ProgramThrew &thrown) {
    FailCall(env, thrown, thrown.loop == "first call" ? "the first call" : thrown.loop + " " + std::to_string(thrown.callIndex + 1) + " of " + std::to_string(thrown.loop == "timed call" ? calls : warmup + settle));
  } catch (const tlab::DeviceError &failed) {
    FailDevice(env, failed, failed.loop == "first call" ? "the first call" : failed.loop + " " + std::to_string(failed.callIndex + 1) + " of " + std::to_string(failed.loop == "timed call" ? calls : warmup + settle));
  } catch (const tlab::UnknownEventKind &bad) {
    FailEvent(env, bad, bad.loop + " " + std::to_string(bad.callIndex + 1));
  } catch (const std::bad_alloc &) {
    Fail(env, "cannot reserve memory for the sampled call's events (" + std::to_string(calls) + " calls)");
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("firstCallNs", timed.firstCallNs);
  result.Set("loopWallNs", timed.loopWallNs);
  result.Set("warmupCalls", timed.warmupCalls);
  result.Set("stats", arrays.ToObject(env, sink, timed.sampled ? tlab::SampleObject(env, timed.sample, library_.path) : env.Null()));
  return result;
}

Napi::Value ProgramLibrary::LastEvents(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 0, kLastEventsUsage);
  return tlab::EventsArray(env, library_.events, library_.path);
}

Napi::Value ProgramLibrary::Exit(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 0, kExitUsage);
  if (state_ == State::Loaded) Fail(env, "exit() called before init()");
  if (state_ == State::Exited) Fail(env, "exit() called twice");

  const uint64_t start = tlab_now_ns();
  tlab_reset(library_.events, start);
  int rc = 0;
  void *handle = handle_;
  // Whatever the outcome, the handle is gone: DaCe's exit deletes the state even when it reports an error.
  handle_ = nullptr;
  state_ = State::Exited;
  try {
    rc = library_.fn.exit(handle);
  } catch (const std::exception &error) {
    workspaces_.clear();
    Fail(env, DaceFunction("__dace_exit_") + " threw a C++ exception: " + error.what());
  }
  const uint64_t end = tlab_now_ns();
  workspaces_.clear();
  if (rc != 0) {
    Napi::Error error = Napi::Error::New(env, DaceFunction("__dace_exit_") + " returned error code " +
                                                  std::to_string(rc) +
                                                  (library_.gpu ? " (CUDA: " + library_.gpuFn.Describe(rc) + ")" : "") +
                                                  " (library " + library_.path + ")");
    error.Set("exitCode", Napi::Number::New(env, rc));
    throw error;
  }
  return Napi::Number::New(env, static_cast<double>(end - start));
}

bool SequenceTargetOf(const Napi::Value &value, tlab::SequenceTarget *out, std::string *why) {
  Napi::Env env = value.Env();
  bool ok = false;
  if (tlab::DaceSequenceTargetOf(value, out, why, &ok)) return ok;
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(env.GetInstanceData<tlab::AddonData>()->programLibrary.Value())) {
    *why = "expected a ProgramLibrary (from load()) or a DaceLibrary (from loadDace()), got " + tlab::Describe(value);
    return false;
  }
  return ProgramLibrary::Unwrap(value.As<Napi::Object>())->SequenceTarget(out, why);
}

void RegisterProgramLibrary(Napi::Env env, Napi::Object exports) {
  env.GetInstanceData<AddonData>()->programLibrary = Napi::Persistent(ProgramLibrary::Define(env));
  exports.Set("load", Napi::Function::New<Load>(env, "load"));
}

}  // namespace tlab
