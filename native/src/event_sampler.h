// Keeps the allocation events of timed calls so that one of them, the call nearest the median, can be shown
// afterwards (the profile result's `sampledCall`, drawn as a Gantt chart). Plain C++, no N-API.
//
// The events live in a private anonymous mapping, reserved and touched before the timed calls: copying a
// call's events then never page-faults (which would be counted against the next call) and never calls malloc
// (the program's allocator state must evolve exactly as in a plain C process; see docs/native.md).
#pragma once

#include <cstddef>
#include <cstdint>

#define TLAB_RUNTIME_TYPES_ONLY
#include "transient_runtime.h"

namespace tlab {

// One kept event, relative to its call's start.
struct SampledEvent {
  uint64_t startNs;
  uint64_t durationNs;
  uint64_t bytes;
  int32_t transient;
  int32_t kind;  // tlab_event_kind
};
static_assert(sizeof(SampledEvent) == 32, "SampledEvent is 32 bytes");

struct Sample {
  uint32_t call;  // index among the timed calls
  double totalNs;
  bool overflowed;
  const SampledEvent *events;
  uint64_t count;
};

class EventSampler {
 public:
  EventSampler() = default;
  // Same as EventSampler s; s.Reserve(calls, eventsPerCall).
  EventSampler(uint32_t calls, uint64_t eventsPerCall);
  // Room for `calls` calls of up to `eventsPerCall` events each, capped at kBudgetBytes of events and at the
  // first kMaxSlots calls (bounded memory at any number of calls). Calls whose events no longer fit, or beyond
  // kMaxSlots, are not kept (they can still be timed; they just cannot be the sample). Uses mmap only: a sampler
  // constructed before the program's first call can reserve later without calling malloc.
  void Reserve(uint32_t calls, uint64_t eventsPerCall);
  ~EventSampler();
  EventSampler(const EventSampler &) = delete;
  EventSampler &operator=(const EventSampler &) = delete;

  // Copies call `call`'s events (read after the call returned) if they fit. Allocation-free.
  void Keep(uint32_t call, uint64_t callStartNs, const tlab_event_buffer *events);

  // The kept call whose time is nearest the median of ALL of `totalNs[0..calls)` (ties: the earlier call). False
  // when no call was kept. Called after the calls: its scratch copy of the times is mapped here, not reserved.
  bool Pick(const double *totalNs, uint32_t calls, Sample *out);

  static constexpr uint64_t kBudgetBytes = 64ull << 20;
  // 2^21 calls: 24 MiB of slots. With events, the budget keeps fewer calls than this anyway (8 events a call:
  // 262,144); without, any of the first 2^21 calls is as good a sample as a later one.
  static constexpr uint32_t kMaxSlots = 1u << 21;

 private:
  struct Slot {
    uint32_t first;  // index of the first event in events_ (capacity_ ≤ kBudgetBytes / 32 = 2^21)
    uint32_t count;  // ≤ the event buffer's capacity
    uint32_t flags;  // kKept | kOverflowed
  };
  static_assert(sizeof(Slot) == 12, "Slot is 12 bytes");
  static constexpr uint32_t kKept = 1, kOverflowed = 2;
  void *mapping_ = nullptr;
  size_t mappingBytes_ = 0;
  uint32_t slotCount_ = 0;
  Slot *slots_ = nullptr;
  SampledEvent *events_ = nullptr;
  uint64_t capacity_ = 0;
  uint64_t used_ = 0;
};

}  // namespace tlab
