#include "interpose_napi.h"

#include "napi_args.h"

namespace tlab {
namespace {

constexpr const char *kHookCostUsage = "measureInterposeCostNs(iterations: number): number";
constexpr const char *kOutsideUsage = "interposedCallsOutsideWindows(): number";

Napi::Array Strings(Napi::Env env, const std::vector<std::string> &values) {
  Napi::Array array = Napi::Array::New(env, values.size());
  for (size_t i = 0; i < values.size(); ++i) array.Set(static_cast<uint32_t>(i), values[i]);
  return array;
}

Napi::Value MeasureHookCost(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 1, kHookCostUsage);
  const double iterations = ReadInteger(info[0], kHookCostUsage, "iterations", 1, 1e9);
  return Napi::Number::New(info.Env(), interpose::MeasureHookCostNs(static_cast<uint64_t>(iterations)));
}

Napi::Value OutsideCalls(const Napi::CallbackInfo &info) {
  ExpectArgumentCount(info, 0, kOutsideUsage);
  return Napi::Number::New(info.Env(), static_cast<double>(interpose::OutsideCalls()));
}

}  // namespace

Napi::Object InterposeReportObject(Napi::Env env, const interpose::PatchReport &report) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("patched", Strings(env, report.patched));
  object.Set("slots", report.slots);
  object.Set("skipped", Strings(env, report.skipped));
  return object;
}

void SetInterposedFunction(Napi::Object event, int32_t transient) {
  if (transient >= 0) return;
  const std::vector<std::string> &names = interpose::FunctionNames();
  const int64_t index = -1 - static_cast<int64_t>(transient);
  event.Set("function", index < static_cast<int64_t>(names.size()) ? names[index] : std::string("?"));
}

void RegisterInterpose(Napi::Env env, Napi::Object exports) {
  exports.Set("measureInterposeCostNs", Napi::Function::New<MeasureHookCost>(env, "measureInterposeCostNs"));
  exports.Set("interposedCallsOutsideWindows", Napi::Function::New<OutsideCalls>(env, "interposedCallsOutsideWindows"));
  exports.Set("interposedFunctions", Strings(env, interpose::FunctionNames()));
}

}  // namespace tlab
