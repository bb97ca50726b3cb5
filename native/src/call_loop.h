// The timed call loop behind ProgramLibrary.run, and the two self-measurements. Plain C++ (no N-API): the
// loop must not touch JS between calls so that the per-call overhead stays far below the programs' cost.
#pragma once

#include <cstdint>
#include <string>

#include "event_sampler.h"
#include "library_loader.h"

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
};

// Thrown when the program throws a C++ exception out of `__tlab_program` (e.g. std::bad_alloc).
struct ProgramThrew {
  uint32_t callIndex;
  std::string what;
};

// A program call wrote an event kind this addon does not know: the buffer was corrupted or the ABI drifted.
struct UnknownEventKind {
  uint32_t callIndex;
  uint64_t eventIndex;
  int32_t kind;
};

// Runs `program(handle, argv)` `calls` times: minflt before, reset events, clock, call, clock, minflt after,
// then sums the call's events into sink slot i and, with a sampler, keeps a copy of them.
void RunCalls(ProgramFn program, void *handle, void *const *argv, tlab_event_buffer *events, uint32_t calls,
              CallStatsSink *sink, EventSampler *sampler = nullptr);

// Wall-clock ns of one instrumentation event: two timestamps plus tlab_record, on the header's own code.
double MeasureEventCostNs(uint64_t iterations);

// Per-call ns of RunCalls around an empty program: what `run` costs on top of the program itself.
double MeasureCallOverheadNs(uint64_t iterations);

}  // namespace tlab
