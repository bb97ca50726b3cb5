// The timed call loop behind ProgramLibrary.run, and the two self-measurements. Plain C++ (no N-API): the
// loop must not touch JS between calls so that the per-call overhead stays far below the programs' cost.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "event_sampler.h"
#include "library_loader.h"
#include "progress_file.h"

namespace tlab {

// Where the per-call results go: one slot per call, owned by the caller (typed-array memory in the binding).
struct CallStatsSink {
  double *totalNs;
  double *allocNs;
  double *freeNs;
  uint32_t *allocs;
  uint32_t *frees;
  double *allocBytes;
  double *minorFaults;
  bool overflowed;
  // GPU programs only (null otherwise): from __tlab_gpu_timed_program, per call. deviceNs: CUDA-event time on
  // the stream; hostReturnNs: host time until __tlab_program returned; hostSyncNs: until the device was done.
  double *deviceNs = nullptr;
  double *hostReturnNs = nullptr;
  double *hostSyncNs = nullptr;
};

// How a call is made: through `__tlab_program`, or, for a GPU program, through `__tlab_gpu_timed_program`, which
// records CUDA events around the call, synchronises on the last one and returns the call's first CUDA error.
struct Callee {
  ProgramFn program = nullptr;
  GpuTimedProgramFn gpuTimed = nullptr;
  // GPU: resets the default pool's high-water marks right before the timed calls (null: nothing to reset).
  GpuPoolAttributesFn gpuPoolAttributes = nullptr;
  // A library without trampolines (a DaCe build, ffi_program.h): `bound(context, handle, argv)` makes the call
  // through libffi. Counters of interposed allocators belong right around this call in RunCalls, like the clock.
  void (*bound)(void *context, void *handle, void *const *argv) = nullptr;
  void *context = nullptr;
};

// Thrown when the program throws a C++ exception out of `__tlab_program` (e.g. std::bad_alloc).
struct ProgramThrew {
  uint32_t callIndex;
  std::string what;
  // Which loop of TimeCalls ("the first call", "warm-up call", "timed call"); empty for RunCalls alone.
  std::string loop;
};

// A GPU program call returned a CUDA error (__tlab_gpu_timed_program's result; 0 is success).
struct DeviceError {
  uint32_t callIndex;
  int code;
  std::string loop;
};

// A program call wrote an event kind this addon does not know: the buffer was corrupted or the ABI drifted.
struct UnknownEventKind {
  uint32_t callIndex;
  uint64_t eventIndex;
  int32_t kind;
  std::string loop;
};

// Optional observers of a call loop. Both work without malloc and without page faults during the loop.
struct CallHooks {
  EventSampler *sampler = nullptr;
  ProgressFile *progress = nullptr;
  ProgressPhase phase = ProgressPhase::None;
};

// Runs `program(handle, argv)` `calls` times: minflt before, reset events, clock, call, clock, minflt after,
// then sums the call's events into sink slot i; with hooks, keeps a copy of the events and publishes progress.
void RunCalls(const Callee &callee, void *handle, void *const *argv, tlab_event_buffer *events, uint32_t calls,
              CallStatsSink *sink, const CallHooks &hooks = CallHooks{});

// Per-call statistics owned by C++ (first call and warm-up), allocated before any call is made.
struct OwnedStats {
  explicit OwnedStats(uint32_t calls);
  // With `gpu`, the sink's GPU columns point into this object's own arrays too.
  CallStatsSink sink(bool gpu = false);
  std::vector<double> totalNs, allocNs, freeNs, allocBytes, minorFaults, deviceNs, hostReturnNs, hostSyncNs;
  std::vector<uint32_t> allocs, frees;
};

struct TimedCalls {
  double firstCallNs = 0;
  // Untimed calls made between the first call and the timed calls: `warmup`, plus up to `settle` more.
  uint32_t warmupCalls = 0;
  // Wall time of the timed loop around all `calls` calls: minus their sum, the loop's own cost.
  double loopWallNs = 0;
  bool sampled = false;
  Sample sample{};
};

// What the profiler times, in one uninterrupted native loop on the calling thread: the first call, `warmup`
// untimed calls, then `calls` timed calls into `sink`, whose events `sampler` keeps (reserved, by mmap, from
// the most events the first and warm-up calls made). Nothing else runs in between — no JavaScript, and no
// malloc of the loop's own once the first call has started (docs/native.md) — so the program's allocations
// meet the allocator state its own earlier calls left, as in a plain C program.
//
// glibc needs a few calls to settle on where a program's blocks go (from a hole, from the top, trimmed or kept,
// mmap'd or not), and how many depends on the heap's history, which a Node process and a C process do not
// share. So the warm-up goes on, by at most `settle` calls, until kSettleCalls calls in a row faulted at most
// kQuietFaults pages (FaultsSettled). A steady fault count is no sign of a steady state: on hdiff both fault
// the same 2,641 pages on each of the first ten calls, then none. A program that faults on every call for good
// (a SCOPED block trimmed back to the kernel each time) spends the whole budget. Both then time the same steady
// state (docs/native.md).
constexpr uint32_t kSettleCalls = 3;
constexpr double kQuietFaults = 8;  // OpenMP thread stacks, the kernel's fault-around
bool FaultsSettled(const double *minorFaults, uint32_t count);
TimedCalls TimeCalls(const Callee &callee, void *handle, void *const *argv, tlab_event_buffer *events, uint32_t warmup,
                     uint32_t settle, uint32_t calls, CallStatsSink *sink, ProgressFile *progress,
                     EventSampler *sampler);

// Wall-clock ns of one instrumentation event: two timestamps plus tlab_record, on the header's own code.
double MeasureEventCostNs(uint64_t iterations);

// Per-call ns of RunCalls around an empty program: what `run` costs on top of the program itself.
double MeasureCallOverheadNs(uint64_t iterations);

}  // namespace tlab
