// The N-API side of ffi_program.h: `loadDace(path, spec)` → DaceLibrary, a DaCe-built library called through
// libffi with the signatures of its own build (docs/dace-folders.md). Its call loops are the same RunCalls /
// TimeCalls as ProgramLibrary's. The library records no allocation events (it has no Transient Lab runtime): after
// `interpose(true)` the loops sum the allocation hooks' events instead (docs/interpose.md), each FFI call inside a
// hook window; without it the event buffer the loop resets stays empty, every per-call allocation column is 0,
// and the stats say `allocationsMeasured: false` — which the profile reports as "not measured", never as 0.
#include <napi.h>

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "call_loop.h"
#include "call_stats_napi.h"
#include "device_buffer.h"
#include "event_sampler.h"
#include "ffi_program.h"
#include "interpose_napi.h"
#include "napi_args.h"
#include "sequence_napi.h"

namespace tlab {
namespace {

constexpr const char *kLoadDaceUsage =
    "loadDace(path: string, spec: { name: string; init: string[]; program: string[]; storages: string[] }): DaceLibrary";
constexpr const char *kInitUsage = "init(symbols: BigInt64Array): number";
constexpr const char *kSizeUsage = "externalSize(storage: string, symbols: BigInt64Array): bigint";
constexpr const char *kSetUsage = "setExternal(storage: string, workspace: ArrayBufferView, symbols: BigInt64Array): void";
constexpr const char *kRunUsage = "run(args: ArrayBufferView[], calls: number): CallStats";
constexpr const char *kTimeUsage =
    "timeCalls(args: ArrayBufferView[], warmup: number, settle: number, calls: number, progressFile: string | null): TimedCalls";
constexpr const char *kExitUsage = "exit(): number";
constexpr double kMaxCalls = 16777216;

// The FFI call inside a hook window (interpose.h): the call loop resets and sums interpose::Events() around it.
void WindowedBound(void *context, void *handle, void *const *argv) {
  struct Window {
    Window() { interpose::Open(); }
    ~Window() { interpose::Close(); }  // also when the program throws
  } window;
  DaceProgram::CallBound(context, handle, argv);
}

thread_local std::unique_ptr<DaceProgram> *pending = nullptr;

std::vector<std::string> ReadStrings(const Napi::Object &spec, const char *key) {
  const Napi::Value value = spec.Get(key);
  if (!value.IsArray()) ThrowUsage(spec.Env(), kLoadDaceUsage, std::string("spec.") + key + " must be an array of strings, got " + Describe(value));
  const auto array = value.As<Napi::Array>();
  std::vector<std::string> out;
  for (uint32_t i = 0; i < array.Length(); ++i) {
    const Napi::Value item = array.Get(i);
    if (!item.IsString()) ThrowUsage(spec.Env(), kLoadDaceUsage, std::string("spec.") + key + "[" + std::to_string(i) + "] must be a string, got " + Describe(item));
    out.push_back(item.As<Napi::String>().Utf8Value());
  }
  return out;
}

std::vector<FfiType> ReadTypes(const Napi::Object &spec, const char *key) {
  std::vector<FfiType> out;
  const std::vector<std::string> names = ReadStrings(spec, key);
  for (size_t i = 0; i < names.size(); ++i) {
    FfiType type;
    if (!ParseFfiType(names[i], &type)) {
      ThrowUsage(spec.Env(), kLoadDaceUsage, std::string("spec.") + key + "[" + std::to_string(i) + "]: unknown C type '" + names[i] +
                                                 "' (pointer, bool, int8…int64, uint8…uint64, float16, float32, float64)");
    }
    out.push_back(type);
  }
  return out;
}

class DaceLibrary : public Napi::ObjectWrap<DaceLibrary> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "DaceLibrary",
                       {InstanceMethod<&DaceLibrary::Init>("init"), InstanceMethod<&DaceLibrary::ExternalSize>("externalSize"),
                        InstanceMethod<&DaceLibrary::SetExternal>("setExternal"), InstanceMethod<&DaceLibrary::Run>("run"),
                        InstanceMethod<&DaceLibrary::TimeCalls>("timeCalls"), InstanceMethod<&DaceLibrary::Exit>("exit"),
                        InstanceMethod<&DaceLibrary::Interpose>("interpose"), InstanceMethod<&DaceLibrary::LastEvents>("lastEvents")});
  }

  explicit DaceLibrary(const Napi::CallbackInfo &info) : Napi::ObjectWrap<DaceLibrary>(info), events_(1) {
    Napi::Env env = info.Env();
    if (info.Length() != 1 || !info[0].IsExternal() || pending == nullptr) {
      throw Napi::TypeError::New(env, "DaceLibrary cannot be constructed directly; use loadDace(path, spec)");
    }
    program_ = std::move(*pending);
    buffer_.version = TRANSIENT_RUNTIME_VERSION;
    buffer_.capacity = 1;
    buffer_.events = events_.data();
    Napi::Array exports = Napi::Array::New(env, program_->exports().size());
    for (size_t i = 0; i < program_->exports().size(); ++i) exports.Set(static_cast<uint32_t>(i), program_->exports()[i]);
    info.This().As<Napi::Object>().DefineProperties({
        Napi::PropertyDescriptor::Value("path", Napi::String::New(env, program_->path()), napi_enumerable),
        Napi::PropertyDescriptor::Value("programName", Napi::String::New(env, program_->spec().name), napi_enumerable),
        Napi::PropertyDescriptor::Value("exports", exports, napi_enumerable),
    });
  }

 // For the workload's step loop (sequence_napi.cc): the FFI callee, windowed when interposed, and the event
  // buffer it sums (the hooks' or the empty one), as Run() calls it.
  bool SequenceTarget(tlab::SequenceTarget *out, std::string *why) {
    if (handle_ == nullptr) return (*why = "the DaCe library is not initialised (call init() first)", false);
    *out = tlab::SequenceTarget{};
    out->handle = handle_;
    out->events = StatsEvents();
    out->bound = interposed_ ? &WindowedBound : &DaceProgram::CallBound;
    out->context = program_.get();
    out->argCount = static_cast<uint32_t>(program_->spec().program.size());
    out->name = program_->spec().name;
    return true;
  }

 private:
  [[noreturn]] void Fail(Napi::Env env, const std::string &message) const {
    throw Napi::Error::New(env, message + " (library " + program_->path() + ")");
  }
  std::string Fn(const char *prefix) const { return prefix + program_->spec().name; }

  void RequireInitialised(Napi::Env env, const char *method) const {
    if (handle_ == nullptr) Fail(env, std::string(method) + (exited_ ? " called after exit()" : " called before init()"));
  }

  const int64_t *Symbols(const Napi::Value &value, const char *usage) const {
    size_t count = 0;
    const int64_t *symbols = ReadTypedArray<int64_t>(value, napi_bigint64_array, "BigInt64Array", usage, "symbols", &count);
    const std::string why = program_->CheckSymbols(symbols, count);
    if (!why.empty()) ThrowUsage(value.Env(), usage, why);
    return symbols;
  }

  size_t StorageIndex(Napi::Env env, const std::string &storage) const {
    const auto &storages = program_->spec().storages;
    for (size_t i = 0; i < storages.size(); ++i) {
      if (storages[i] == storage) return i;
    }
    Fail(env, "the program has no External storage '" + storage + "' (its build defines __dace_get_external_memory_size_ for " +
                  std::to_string(storages.size()) + " storage(s))");
  }

  Napi::Value Init(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 1, kInitUsage);
    const int64_t *symbols = Symbols(info[0], kInitUsage);
    if (handle_ != nullptr) Fail(env, "init() called twice; call exit() before initialising again");
    const uint64_t start = tlab_now_ns();
    void *handle = nullptr;
    try {
      // Interposed: init inside a hook window too, so lastEvents() then holds init's allocations (a workload's
      // PERSISTENT footprint); each program call opens its own window, which starts empty.
      if (interposed_) interpose::Open();
      handle = program_->Init(symbols);
      if (interposed_) interpose::Close();
    } catch (const std::exception &error) {
      if (interposed_) interpose::Close();
      Fail(env, Fn("__dace_init_") + " threw a C++ exception: " + error.what());
    }
    const uint64_t end = tlab_now_ns();
    if (handle == nullptr) Fail(env, Fn("__dace_init_") + " returned NULL (init symbols " + SymbolList(symbols, program_->spec().init.size()) + ")");
    handle_ = handle;
    exited_ = false;
    return Napi::Number::New(env, static_cast<double>(end - start));
  }

  Napi::Value ExternalSize(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 2, kSizeUsage);
    const std::string storage = ReadStorage(info[0], kSizeUsage);
    const int64_t *symbols = Symbols(info[1], kSizeUsage);
    RequireInitialised(env, "externalSize()");
    return Napi::BigInt::New(env, program_->ExternalSize(StorageIndex(env, storage), handle_, symbols));
  }

  Napi::Value SetExternal(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 3, kSetUsage);
    const std::string storage = ReadStorage(info[0], kSetUsage);
    ByteView workspace{};
    std::string why;
    if (!ReadView(info[1], &workspace, &why)) ThrowUsage(env, kSetUsage, "workspace: " + why);
    const int64_t *symbols = Symbols(info[2], kSetUsage);
    RequireInitialised(env, "setExternal()");
    const size_t index = StorageIndex(env, storage);
    // DaCe never checks the workspace size; a short one would be silent heap corruption.
    const uint64_t needed = program_->ExternalSize(index, handle_, symbols);
    if (workspace.length < needed) {
      Fail(env, "workspace for storage '" + storage + "' is too small: " + std::to_string(workspace.length) +
                    " bytes given, " + "__dace_get_external_memory_size_" + storage + " says " + std::to_string(needed));
    }
    program_->SetExternal(index, handle_, reinterpret_cast<char *>(workspace.data), symbols);
    workspaces_[storage] = Napi::Persistent(info[1].As<Napi::Object>());
    return env.Undefined();
  }

  // One pointer per argument; a scalar's view must hold exactly its C type.
  std::vector<void *> ReadArgv(const Napi::Value &value, const char *usage) const {
    Napi::Env env = value.Env();
    if (!value.IsArray()) ThrowUsage(env, usage, "args must be an array of ArrayBufferViews, got " + Describe(value));
    const auto args = value.As<Napi::Array>();
    const auto &types = program_->spec().program;
    if (args.Length() != types.size()) {
      ThrowUsage(env, usage, "args has " + std::to_string(args.Length()) + " entries but " + Fn("__program_") + " takes " +
                                 std::to_string(types.size()) + " argument(s) after the state");
    }
    std::vector<void *> argv(types.empty() ? 1 : types.size(), nullptr);
    for (uint32_t i = 0; i < args.Length(); ++i) {
      ByteView view{};
      std::string why;
      if (!ReadView(args.Get(i), &view, &why)) ThrowUsage(env, usage, "args[" + std::to_string(i) + "]: " + why);
      if (types[i] != FfiType::Pointer && view.length != FfiTypeBytes(types[i])) {
        ThrowUsage(env, usage, "args[" + std::to_string(i) + "] is a scalar of " + std::to_string(FfiTypeBytes(types[i])) +
                                   " bytes in the library's signature, got a view of " + std::to_string(view.length) + " bytes");
      }
      argv[i] = view.data;
    }
    return argv;
  }

  Callee MakeCallee() {
    return Callee{nullptr, nullptr, nullptr, interposed_ ? &WindowedBound : &DaceProgram::CallBound, program_.get()};
  }
  // The buffer the call loops reset and sum: the hooks' while interposed, else one that stays empty.
  tlab_event_buffer *StatsEvents() { return interposed_ ? interpose::Events() : &buffer_; }

  // As ProgramLibrary.interpose: the first `true` patches the library's GOT (docs/interpose.md); the slots stay
  // patched, `false` only switches the allocation columns back to "not measured".
  Napi::Value Interpose(const Napi::CallbackInfo &info) {
    ExpectArgumentCount(info, 1, kInterposeUsage);
    if (!info[0].IsBoolean()) ThrowUsage(info.Env(), kInterposeUsage, "on must be a boolean, got " + Describe(info[0]));
    interposed_ = info[0].As<Napi::Boolean>().Value();
    try {
      return InterposeReportObject(info.Env(), interposed_ ? interpose::PatchLibrary(program_->dlHandle()) : interpose::PatchReport{});
    } catch (const std::runtime_error &error) {
      interposed_ = false;
      Fail(info.Env(), std::string("cannot interpose the allocation calls: ") + error.what());
    }
  }

  // The hooks' events of the last init or program call while interposed (the window's), else none.
  Napi::Value LastEvents(const Napi::CallbackInfo &info) {
    ExpectArgumentCount(info, 0, "lastEvents(): AllocEvent[]");
    if (!interposed_) return Napi::Array::New(info.Env(), 0);
    return EventsArray(info.Env(), interpose::Events(), program_->path());
  }

  [[noreturn]] void FailEvent(Napi::Env env, const UnknownEventKind &bad) const {
    Fail(env, "interposed event " + std::to_string(bad.eventIndex) + " of call " + std::to_string(bad.callIndex + 1) +
                  " has unknown kind " + std::to_string(bad.kind) + " (corrupted event buffer?)");
  }

  [[noreturn]] void FailThrew(Napi::Env env, const ProgramThrew &thrown, const std::string &which) const {
    Fail(env, Fn("__program_") + " threw a C++ exception in " + which + ": " + thrown.what);
  }

  Napi::Value Run(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 2, kRunUsage);
    std::vector<void *> argv = ReadArgv(info[0], kRunUsage);
    const auto calls = static_cast<uint32_t>(ReadInteger(info[1], kRunUsage, "calls", 1, kMaxCalls));
    RequireInitialised(env, "run()");
    StatsArrays arrays(env, calls, false);
    CallStatsSink sink = arrays.Sink();
    try {
      RunCalls(MakeCallee(), handle_, argv.data(), StatsEvents(), calls, &sink);
    } catch (const ProgramThrew &thrown) {
      FailThrew(env, thrown, "call " + std::to_string(thrown.callIndex + 1) + " of " + std::to_string(calls));
    } catch (const UnknownEventKind &bad) {
      FailEvent(env, bad);
    }
    return arrays.ToObject(env, sink, env.Null(), interposed_);
  }

  Napi::Value TimeCalls(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 5, kTimeUsage);
    std::vector<void *> argv = ReadArgv(info[0], kTimeUsage);
    const auto warmup = static_cast<uint32_t>(ReadInteger(info[1], kTimeUsage, "warmup", 0, kMaxCalls));
    const auto settle = static_cast<uint32_t>(ReadInteger(info[2], kTimeUsage, "settle", 0, kMaxCalls));
    const auto calls = static_cast<uint32_t>(ReadInteger(info[3], kTimeUsage, "calls", 1, kMaxCalls));
    if (!info[4].IsNull() && !info[4].IsString()) ThrowUsage(env, kTimeUsage, "progressFile must be a path or null, got " + Describe(info[4]));
    RequireInitialised(env, "timeCalls()");
    std::unique_ptr<ProgressFile> progress;
    if (info[4].IsString()) {
      try {
        progress = std::make_unique<ProgressFile>(info[4].As<Napi::String>().Utf8Value());
      } catch (const std::runtime_error &error) {
        Fail(env, error.what());
      }
    }
    StatsArrays arrays(env, calls, false);
    CallStatsSink sink = arrays.Sink();
    EventSampler sampler;
    tlab::TimedCalls timed;
    try {
      timed = tlab::TimeCalls(MakeCallee(), handle_, argv.data(), StatsEvents(), warmup, settle, calls, &sink, progress.get(), &sampler);
    } catch (const ProgramThrew &thrown) {
      FailThrew(env, thrown, thrown.loop + " " + std::to_string(thrown.callIndex + 1));
    } catch (const UnknownEventKind &bad) {
      FailEvent(env, bad);
    } catch (const std::bad_alloc &) {
      Fail(env, "cannot reserve memory for the timed calls (" + std::to_string(calls) + " calls)");
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("firstCallNs", timed.firstCallNs);
    result.Set("loopWallNs", timed.loopWallNs);
    result.Set("warmupCalls", timed.warmupCalls);
    // Without interposition there are no events: nothing to sample.
    const bool sampled = interposed_ && timed.sampled;
    result.Set("stats", arrays.ToObject(env, sink, sampled ? SampleObject(env, timed.sample, program_->path()) : env.Null(), interposed_));
    return result;
  }

  Napi::Value Exit(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    ExpectArgumentCount(info, 0, kExitUsage);
    RequireInitialised(env, "exit()");
    void *handle = handle_;
    handle_ = nullptr;  // DaCe's exit deletes the state whatever it returns
    exited_ = true;
    const uint64_t start = tlab_now_ns();
    int rc = 0;
    try {
      rc = program_->Exit(handle);
    } catch (const std::exception &error) {
      workspaces_.clear();
      Fail(env, Fn("__dace_exit_") + " threw a C++ exception: " + error.what());
    }
    const uint64_t end = tlab_now_ns();
    workspaces_.clear();
    if (rc != 0) {
      Napi::Error error = Napi::Error::New(env, Fn("__dace_exit_") + " returned error code " + std::to_string(rc) + " (library " + program_->path() + ")");
      error.Set("exitCode", Napi::Number::New(env, rc));
      throw error;
    }
    return Napi::Number::New(env, static_cast<double>(end - start));
  }

  std::unique_ptr<DaceProgram> program_;
  // The loop resets and reads an event buffer; a DaCe library writes none, so one slot is enough.
  std::vector<tlab_event> events_;
  tlab_event_buffer buffer_{};
  void *handle_ = nullptr;
  bool exited_ = false;
  bool interposed_ = false;
  std::map<std::string, Napi::ObjectReference> workspaces_;
};

Napi::Value LoadDace(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 2, kLoadDaceUsage);
  if (!info[0].IsString()) ThrowUsage(env, kLoadDaceUsage, "path must be a string, got " + Describe(info[0]));
  if (!info[1].IsObject() || info[1].IsArray()) ThrowUsage(env, kLoadDaceUsage, "spec must be an object, got " + Describe(info[1]));
  const std::string path = info[0].As<Napi::String>().Utf8Value();
  if (path.empty() || path.find('\0') != std::string::npos) ThrowUsage(env, kLoadDaceUsage, "path must be a non-empty file path without NUL characters");
  const Napi::Object spec = info[1].As<Napi::Object>();
  DaceSpec parsed;
  const Napi::Value name = spec.Get("name");
  if (!name.IsString() || name.As<Napi::String>().Utf8Value().empty()) ThrowUsage(env, kLoadDaceUsage, "spec.name must be the SDFG name, got " + Describe(name));
  parsed.name = name.As<Napi::String>().Utf8Value();
  parsed.init = ReadTypes(spec, "init");
  parsed.program = ReadTypes(spec, "program");
  parsed.storages = ReadStrings(spec, "storages");
  for (FfiType t : parsed.init) {
    if (t == FfiType::Pointer || t == FfiType::Float32 || t == FfiType::Float64) {
      ThrowUsage(env, kLoadDaceUsage, "spec.init: init parameters are integer symbols, not pointers or floating-point values");
    }
  }
  std::unique_ptr<DaceProgram> program;
  try {
    program = DaceProgram::Load(path, parsed);
  } catch (const LoadError &error) {
    throw Napi::Error::New(env, error.what());
  }
  auto *constructor = static_cast<Napi::FunctionReference *>(info.Data());
  pending = &program;
  try {
    Napi::Object object = constructor->New({Napi::External<DaceProgram>::New(env, program.get())});
    pending = nullptr;
    return object;
  } catch (...) {
    pending = nullptr;
    throw;
  }
}

}  // namespace

bool DaceSequenceTargetOf(const Napi::Value &value, SequenceTarget *out, std::string *why, bool *ok) {
  Napi::Env env = value.Env();
  const Napi::FunctionReference &ctor = env.GetInstanceData<AddonData>()->daceLibrary;
  if (ctor.IsEmpty() || !value.IsObject() || !value.As<Napi::Object>().InstanceOf(ctor.Value())) return false;
  *ok = DaceLibrary::Unwrap(value.As<Napi::Object>())->SequenceTarget(out, why);
  return true;
}

void RegisterDaceLibrary(Napi::Env env, Napi::Object exports) {
  // Lives as long as the addon: the constructor behind every loadDace() result.
  auto *constructor = new Napi::FunctionReference(Napi::Persistent(DaceLibrary::Define(env)));
  env.GetInstanceData<AddonData>()->daceLibrary = Napi::Persistent(constructor->Value());
  exports.Set("loadDace", Napi::Function::New(env, LoadDace, "loadDace", constructor));
  exports.Set("ffiAvailable", Napi::Boolean::New(env, FfiAvailable()));
}

}  // namespace tlab
