// N-API side of the workload's step loop (sequence_loop.h): timeSequence() and measureSequenceOverheadNs().
// A ProgramLibrary is reached through SequenceTargetOf, which program_library_napi.cc (where the class lives) defines.
#include "sequence_napi.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "napi_args.h"
#include "sequence_loop.h"

namespace tlab {
namespace {

constexpr const char *kTimeSequenceUsage =
    "timeSequence(calls: Array<{ library: ProgramLibrary; args: ArrayBufferView[] }>, warmupSteps: number, steps: number, "
    "progressFile: string | null): SequenceTiming";
constexpr const char *kSequenceOverheadUsage = "measureSequenceOverheadNs(positions: number, steps: number): number";
// Rows of the call columns are allocated up front (steps × positions).
constexpr double kMaxRows = 16777216;

Napi::Value TimeSequence(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ExpectArgumentCount(info, 4, kTimeSequenceUsage);
  if (!info[0].IsArray()) ThrowUsage(env, kTimeSequenceUsage, "calls must be an array, got " + Describe(info[0]));
  const auto list = info[0].As<Napi::Array>();
  if (list.Length() == 0) ThrowUsage(env, kTimeSequenceUsage, "calls is empty");
  const auto warmup = static_cast<uint64_t>(ReadInteger(info[1], kTimeSequenceUsage, "warmupSteps", 0, kMaxRows));
  const auto steps = static_cast<uint64_t>(ReadInteger(info[2], kTimeSequenceUsage, "steps", 1, kMaxRows));
  const Napi::Value progressPath = info[3];
  if (!progressPath.IsNull() && !progressPath.IsString()) {
    ThrowUsage(env, kTimeSequenceUsage, "progressFile must be a path or null, got " + Describe(progressPath));
  }
  const uint64_t positions = list.Length();
  if (static_cast<double>((warmup + steps) * positions) > kMaxRows) {
    ThrowUsage(env, kTimeSequenceUsage, "(warmupSteps + steps) × calls must be at most 16777216");
  }
  std::vector<SequenceCall> calls(positions);
  std::vector<std::string> names(positions);
  for (uint32_t p = 0; p < positions; ++p) {
    const std::string at = "calls[" + std::to_string(p) + "]";
    const Napi::Value entry = list.Get(p);
    if (!entry.IsObject()) ThrowUsage(env, kTimeSequenceUsage, at + " must be an object, got " + Describe(entry));
    const auto object = entry.As<Napi::Object>();
    SequenceTarget target;
    std::string why;
    if (!SequenceTargetOf(object.Get("library"), &target, &why)) ThrowUsage(env, kTimeSequenceUsage, at + ".library: " + why);
    const Napi::Value args = object.Get("args");
    if (!args.IsArray()) ThrowUsage(env, kTimeSequenceUsage, at + ".args must be an array, got " + Describe(args));
    const auto array = args.As<Napi::Array>();
    if (target.argCount != 0 && array.Length() != target.argCount) {
      ThrowUsage(env, kTimeSequenceUsage, at + ".args has " + std::to_string(array.Length()) + " entries but the program takes " +
                                              std::to_string(target.argCount) + " argument(s)");
    }
    calls[p] = SequenceCall{target.program, target.handle, target.events, std::vector<void *>(array.Length() == 0 ? 1 : array.Length(), nullptr),
                            target.bound, target.context};
    for (uint32_t i = 0; i < array.Length(); ++i) {
      ByteView view{};
      if (!ReadView(array.Get(i), &view, &why)) ThrowUsage(env, kTimeSequenceUsage, at + ".args[" + std::to_string(i) + "]: " + why);
      calls[p].argv[i] = view.data;
    }
    names[p] = target.name;
  }
  std::unique_ptr<ProgressFile> progress;
  if (progressPath.IsString()) {
    try {
      progress = std::make_unique<ProgressFile>(progressPath.As<Napi::String>().Utf8Value());
    } catch (const std::runtime_error &error) {
      throw Napi::Error::New(env, error.what());
    }
  }
  const uint64_t stepRows = warmup + steps;
  const uint64_t rows = stepRows * positions;
  auto stepNs = Napi::Float64Array::New(env, stepRows);
  auto stepFaults = Napi::Float64Array::New(env, stepRows);
  auto callNs = Napi::Float64Array::New(env, rows);
  auto allocs = Napi::Uint32Array::New(env, rows);
  auto frees = Napi::Uint32Array::New(env, rows);
  auto allocFreeNs = Napi::Float64Array::New(env, rows);
  auto allocBytes = Napi::Float64Array::New(env, rows);
  SequenceSink sink{stepNs.Data(), stepFaults.Data(), callNs.Data(), allocs.Data(), frees.Data(), allocFreeNs.Data(), allocBytes.Data()};
  double wall = 0;
  const auto where = [&](uint64_t step, uint32_t position) {
    return "__program_" + names[position] + " at position " + std::to_string(position) + " of step " + std::to_string(step + 1) +
           (step < warmup ? " (warm-up)" : "");
  };
  try {
    wall = RunSequence(calls, warmup, steps, &sink, progress.get());
  } catch (const SequenceCallThrew &thrown) {
    throw Napi::Error::New(env, where(thrown.step, thrown.position) + " threw a C++ exception: " + thrown.what);
  } catch (const SequenceBadEvent &bad) {
    throw Napi::Error::New(env, where(bad.step, bad.position) + " recorded an event of unknown kind " + std::to_string(bad.kind) +
                                    " (corrupted event buffer?)");
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("warmupSteps", static_cast<double>(warmup));
  result.Set("steps", static_cast<double>(steps));
  result.Set("positions", static_cast<double>(positions));
  result.Set("stepNs", stepNs);
  result.Set("stepFaults", stepFaults);
  result.Set("callNs", callNs);
  result.Set("allocs", allocs);
  result.Set("frees", frees);
  result.Set("allocFreeNs", allocFreeNs);
  result.Set("allocBytes", allocBytes);
  result.Set("loopWallNs", wall);
  result.Set("overflowed", Napi::Boolean::New(env, sink.overflowed));
  return result;
}

Napi::Value MeasureSequenceOverhead(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 2, kSequenceOverheadUsage);
  const auto positions = static_cast<uint32_t>(ReadInteger(info[0], kSequenceOverheadUsage, "positions", 1, 4096));
  const auto steps = static_cast<uint64_t>(ReadInteger(info[1], kSequenceOverheadUsage, "steps", 1, 1e6));
  if (static_cast<double>(positions) * static_cast<double>(steps) > kMaxRows) {
    ThrowUsage(info.Env(), kSequenceOverheadUsage, "positions × steps must be at most 16777216");
  }
  return Napi::Number::New(info.Env(), MeasureSequenceOverheadNs(positions, steps));
}

}  // namespace

void RegisterSequence(Napi::Env env, Napi::Object exports) {
  exports.Set("timeSequence", Napi::Function::New<TimeSequence>(env, "timeSequence"));
  exports.Set("measureSequenceOverheadNs", Napi::Function::New<MeasureSequenceOverhead>(env, "measureSequenceOverheadNs"));
}

}  // namespace tlab
