// Allocation timing for code we did not generate (docs/interpose.md): the GOT slots through which ONE loaded
// library calls malloc, free, the C++ operator new/delete family and the CUDA allocation API are rewritten to
// hooks that time the real call and record an event in this file's own buffer (the tlab_event_buffer of the
// runtime header, so the call loop sums it exactly as it sums a generated library's events). Plain C++, no N-API.
//
// Only calls made while a window is open are recorded: Begin()/End() around one call of the library (its
// __program_* call, or an FFI call of a DaCe build). Calls outside a window are forwarded untimed and only
// counted (OutsideCalls). Only the patched library's own calls are seen: what libstdc++, libgomp or the CUDA
// runtime allocate on its behalf goes through their own GOTs (docs/interpose.md, "What is counted").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#define TLAB_RUNTIME_TYPES_ONLY
#include "transient_runtime.h"

namespace tlab {
namespace interpose {

// What PatchLibrary did to one library.
struct PatchReport {
  // Symbols whose GOT slot(s) now point to a hook ("malloc", "_ZnamSt11align_val_t", "cudaMalloc", …), sorted.
  std::vector<std::string> patched;
  // GOT slots rewritten (JUMP_SLOT and GLOB_DAT relocations: -fno-plt code and address-taken calls use the latter).
  uint32_t slots = 0;
  // Symbols imported but left alone, with the reason ("malloc: resolves to 0x… in libjemalloc.so, not the
  // function the other patched libraries use").
  std::vector<std::string> skipped;
};

// Rewrites the library's GOT slots (dlHandle from dlopen). Idempotent: slots already hooked are left alone.
// Throws std::runtime_error on an unsupported architecture or a library without dynamic relocations.
PatchReport PatchLibrary(void *dlHandle);

// Totals of one window (or of any event buffer): the same sums the call loop makes.
struct WindowTotals {
  uint32_t allocs = 0;
  uint32_t frees = 0;
  uint64_t allocBytes = 0;
  uint64_t allocNs = 0;
  uint64_t freeNs = 0;
  // Device allocations and frees (cudaMalloc*, cudaFree*) among the above.
  uint32_t deviceAllocs = 0;
  uint32_t deviceFrees = 0;
  // More events than the buffer holds: the sums cover its first `capacity` events.
  bool overflowed = false;
};
WindowTotals Sum(const tlab_event_buffer *events);

// The hooks' event buffer (65536 events). An event's `transient` field is -(1 + the hooked function's index in
// FunctionNames()): never a transient index, so no event is taken for one.
tlab_event_buffer *Events();

// Opens a window: resets Events() (call_start_ns = now) and starts recording. Not reentrant; one window at a time,
// opened and closed by one thread (the library's own threads record into it while it is open).
void Begin();
// Closes the window and returns its totals.
WindowTotals End();
// Open/close without the reset and the sums (the call loop resets and sums the buffer itself).
void Open();
void Close();

// Intercepted calls made while no window was open (a library's init, exit, or its threads between calls).
uint64_t OutsideCalls();

// Every hooked symbol, in index order.
const std::vector<std::string> &FunctionNames();

// The call loop's callee, wrapped in a window: set the real functions, then pass WindowedProgram (or
// WindowedGpuTimedProgram) as the Callee's function. `headerEvents` (may be null) is the library's own runtime-header
// buffer, reset before each call so that it still holds that call's events afterwards. One runner thread only.
void SetWindowedCallee(void (*program)(void *, void *const *),
                       int (*gpuTimed)(void *, void *const *, uint64_t *, float *), tlab_event_buffer *headerEvents);
void WindowedProgram(void *handle, void *const *argv);
int WindowedGpuTimedProgram(void *handle, void *const *argv, uint64_t *hostNs, float *deviceMs);

// Per intercepted call: ns the hook adds around a real function that does nothing (a call through a patched-like
// function pointer, two timestamps, the record), measured on the hooks' own code in an open window.
double MeasureHookCostNs(uint64_t iterations);

}  // namespace interpose
}  // namespace tlab
