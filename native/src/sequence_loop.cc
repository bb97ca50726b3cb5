#include "sequence_loop.h"

#include <sys/resource.h>

#include <algorithm>
#include <exception>
#include <memory>

namespace tlab {
namespace {

uint64_t MinorFaults() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_minflt);
}

__attribute__((noinline)) void EmptyProgram(void *, void *const *) { asm volatile("" ::: "memory"); }

}  // namespace

double RunSequence(const std::vector<SequenceCall> &calls, uint64_t warmup, uint64_t steps, SequenceSink *sink,
                   ProgressFile *progress) {
  const uint64_t positions = calls.size();
  const uint64_t total = (warmup + steps) * positions;
  uint64_t timedStart = 0;
  // getrusage walks every thread (~0.5 us): once per step, not per call, keeps the per-call cost at the clock.
  uint64_t faultsBefore = MinorFaults();
  for (uint64_t step = 0; step < warmup + steps; ++step) {
    if (step == warmup) timedStart = tlab_now_ns();
    const uint64_t stepStart = tlab_now_ns();
    for (uint64_t p = 0; p < positions; ++p) {
      const SequenceCall &call = calls[p];
      const uint64_t row = step * positions + p;
      if (progress != nullptr) progress->Set(ProgressPhase::Calls, row, total);
      const uint64_t start = tlab_now_ns();
      tlab_reset(call.events, start);
      try {
        if (call.bound != nullptr) call.bound(call.context, call.handle, call.argv.data());
        else call.program(call.handle, call.argv.data());
      } catch (const std::exception &error) {
        throw SequenceCallThrew{step, static_cast<uint32_t>(p), error.what()};
      } catch (...) {
        throw SequenceCallThrew{step, static_cast<uint32_t>(p), "a non-standard C++ exception"};
      }
      const uint64_t end = tlab_now_ns();
      const tlab_event_buffer *events = call.events;
      const uint64_t recorded = events->count.load(std::memory_order_acquire);
      const uint64_t kept = std::min<uint64_t>(recorded, events->capacity);
      uint64_t spent = 0, bytes = 0;
      uint32_t allocs = 0, frees = 0;
      for (uint64_t i = 0; i < kept; ++i) {
        const tlab_event &event = events->events[i];
        spent += event.t1_ns - event.t0_ns;
        if (event.kind == TLAB_EVENT_ALLOC || event.kind == TLAB_EVENT_DEVICE_ALLOC) {
          bytes += event.bytes;
          ++allocs;
        } else if (event.kind == TLAB_EVENT_FREE || event.kind == TLAB_EVENT_DEVICE_FREE) {
          ++frees;
        } else {
          throw SequenceBadEvent{step, static_cast<uint32_t>(p), event.kind};
        }
      }
      if (events->overflowed.load(std::memory_order_relaxed) != 0 || recorded > events->capacity) sink->overflowed = true;
      sink->callNs[row] = static_cast<double>(end - start);
      sink->allocs[row] = allocs;
      sink->frees[row] = frees;
      sink->allocFreeNs[row] = static_cast<double>(spent);
      sink->allocBytes[row] = static_cast<double>(bytes);
    }
    sink->stepNs[step] = static_cast<double>(tlab_now_ns() - stepStart);
    const uint64_t faultsAfter = MinorFaults();
    sink->stepFaults[step] = static_cast<double>(faultsAfter - faultsBefore);
    faultsBefore = faultsAfter;
  }
  if (progress != nullptr) progress->Set(ProgressPhase::Done, total, total);
  return steps == 0 ? 0 : static_cast<double>(tlab_now_ns() - timedStart);
}

double MeasureSequenceOverheadNs(uint32_t positions, uint64_t steps) {
  // One event buffer per position, as every library has its own.
  std::vector<std::unique_ptr<tlab_event[]>> storage;
  std::vector<std::unique_ptr<tlab_event_buffer>> buffers;
  std::vector<SequenceCall> calls(positions);
  ProgramFn volatile program = &EmptyProgram;
  for (uint32_t p = 0; p < positions; ++p) {
    storage.emplace_back(new tlab_event[1]);
    buffers.emplace_back(new tlab_event_buffer{TRANSIENT_RUNTIME_VERSION, 1, {0}, {0}, 0, 0, 0, 0, storage.back().get()});
    calls[p] = SequenceCall{program, nullptr, buffers.back().get(), {nullptr}};
  }
  const uint64_t rows = steps * positions;
  std::vector<double> stepNs(steps), stepFaults(steps), callNs(rows), allocFreeNs(rows), allocBytes(rows);
  std::vector<uint32_t> allocs(rows), frees(rows);
  SequenceSink sink{stepNs.data(), stepFaults.data(), callNs.data(), allocs.data(), frees.data(), allocFreeNs.data(),
                    allocBytes.data()};
  const double wall = RunSequence(calls, 0, steps, &sink, nullptr);
  return wall / static_cast<double>(rows);
}

}  // namespace tlab
