// The workload's step loop (docs/workload.md): several program libraries called in order, once per position of
// the sequence, step after step, in one native loop with no JavaScript in between (the reason timeCalls exists,
// docs/native.md). Plain C++: the N-API side is sequence_napi.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "library_loader.h"
#include "progress_file.h"

namespace tlab {

// One position of the sequence: an initialised library's program, its handle, its event buffer and the argument
// vector of that call (pointers into the workload's shared arrays).
struct SequenceCall {
  ProgramFn program = nullptr;
  void *handle = nullptr;
  tlab_event_buffer *events = nullptr;
  std::vector<void *> argv;
  // Set for a DaceLibrary instead of `program` (sequence_napi.h SequenceTarget).
  void (*bound)(void *context, void *handle, void *const *argv) = nullptr;
  void *context = nullptr;
};

// Per-call and per-step columns, owned by the caller (typed-array memory in the binding). Call columns are
// step-major: the call at position p of step s is [s * positions + p].
struct SequenceSink {
  double *stepNs;
  double *stepFaults;
  double *callNs;
  uint32_t *allocs;
  uint32_t *frees;
  double *allocFreeNs;
  double *allocBytes;
  bool overflowed = false;
};

// Thrown when a program throws a C++ exception out of `__tlab_program`.
struct SequenceCallThrew {
  uint64_t step;
  uint32_t position;
  std::string what;
};

// A program wrote an event kind this addon does not know.
struct SequenceBadEvent {
  uint64_t step;
  uint32_t position;
  int32_t kind;
};

// Runs `warmup` untimed then `steps` timed steps of `calls` into `sink` (the warm-up steps are measured into
// the sink too, at the rows before the timed ones: the sink holds warmup + steps rows). Before each call the
// progress page (when given) says which call runs (done = step * positions + position of all), so a crash can be
// named by program and position. Returns the wall time of the timed steps.
double RunSequence(const std::vector<SequenceCall> &calls, uint64_t warmup, uint64_t steps, SequenceSink *sink,
                   ProgressFile *progress);

// Per-call ns that RunSequence adds around `positions` empty programs called `steps` times: the loop's own cost
// over a bare C loop calling the same functions (which costs a call instruction each).
double MeasureSequenceOverheadNs(uint32_t positions, uint64_t steps);

}  // namespace tlab
