// The N-API side of allocation interposition (docs/interpose.md): what ProgramLibrary.interpose() returns, the
// function names of interposed events, and the module functions measureInterposeCostNs,
// interposedCallsOutsideWindows and interposedFunctions. The hooks themselves are in interpose.cc (no N-API).
#pragma once

#include <napi.h>

#include "call_loop.h"
#include "interpose.h"

namespace tlab {

constexpr const char *kInterposeUsage = "interpose(on: boolean): InterposeReport";

// Routes the callee's calls through the window wrappers of interpose.cc: each call then opens the hooks' window
// around the library's own call (and resets `headerEvents`, the library's runtime-header buffer, first).
inline void WindowCallee(Callee *callee, tlab_event_buffer *headerEvents) {
  interpose::SetWindowedCallee(callee->program, callee->gpuTimed, headerEvents);
  callee->program = &interpose::WindowedProgram;
  if (callee->gpuTimed != nullptr) callee->gpuTimed = &interpose::WindowedGpuTimedProgram;
}

// { patched: string[], slots: number, skipped: string[] }
Napi::Object InterposeReportObject(Napi::Env env, const interpose::PatchReport &report);

// Sets `function` ("malloc", …) on an event object whose `transient` encodes a hooked function (negative).
void SetInterposedFunction(Napi::Object event, int32_t transient);

void RegisterInterpose(Napi::Env env, Napi::Object exports);

}  // namespace tlab
