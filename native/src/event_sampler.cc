#include "event_sampler.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <new>

namespace tlab {
namespace {

size_t PageRound(size_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

}  // namespace

EventSampler::EventSampler(uint32_t calls, uint64_t eventsPerCall) { Reserve(calls, eventsPerCall); }

void EventSampler::Reserve(uint32_t calls, uint64_t eventsPerCall) {
  if (mapping_ != nullptr) munmap(mapping_, mappingBytes_);
  mapping_ = nullptr;
  slotCount_ = std::min(calls, kMaxSlots);
  used_ = 0;
  const uint64_t wanted = static_cast<uint64_t>(slotCount_) * std::max<uint64_t>(eventsPerCall, 1);
  capacity_ = std::min<uint64_t>(wanted, kBudgetBytes / sizeof(SampledEvent));
  // Events first: they need 8-byte alignment, slots 4.
  const size_t eventBytes = sizeof(SampledEvent) * capacity_;
  const size_t slotBytes = sizeof(Slot) * slotCount_;
  mappingBytes_ = PageRound(eventBytes + slotBytes);
  void *mapping = mmap(nullptr, mappingBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  mapping_ = mapping;
  char *base = static_cast<char *>(mapping);
  // MAP_POPULATE may be refused silently under memory pressure: touch every page so none faults later.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t at = 0; at < mappingBytes_; at += page) static_cast<volatile char *>(base)[at] = 0;
  events_ = reinterpret_cast<SampledEvent *>(base);
  slots_ = reinterpret_cast<Slot *>(base + eventBytes);
}

EventSampler::~EventSampler() {
  if (mapping_ != nullptr) munmap(mapping_, mappingBytes_);
}

void EventSampler::Keep(uint32_t call, uint64_t callStartNs, const tlab_event_buffer *events) {
  if (call >= slotCount_) return;
  Slot &slot = slots_[call];
  const uint64_t recorded = events->count.load(std::memory_order_acquire);
  const uint64_t kept = std::min<uint64_t>(recorded, events->capacity);
  const uint32_t overflowed = (events->overflowed.load(std::memory_order_relaxed) != 0 || recorded > events->capacity) ? kOverflowed : 0;
  if (used_ + kept > capacity_) {
    slot.flags = overflowed;
    return;
  }
  slot.first = static_cast<uint32_t>(used_);
  slot.count = static_cast<uint32_t>(kept);
  slot.flags = kKept | overflowed;
  for (uint64_t i = 0; i < kept; ++i) {
    const tlab_event &event = events->events[i];
    SampledEvent &out = events_[used_ + i];
    // Signed: a corrupted timestamp must not wrap into a huge positive offset.
    const int64_t start = static_cast<int64_t>(event.t0_ns - callStartNs);
    const int64_t duration = static_cast<int64_t>(event.t1_ns - event.t0_ns);
    out.startNs = static_cast<uint64_t>(std::max<int64_t>(start, 0));
    out.durationNs = static_cast<uint64_t>(std::max<int64_t>(duration, 0));
    out.bytes = event.bytes;
    out.transient = event.transient;
    out.kind = event.kind;
  }
  used_ += kept;
}

bool EventSampler::Pick(const double *totalNs, uint32_t calls, Sample *out) {
  if (calls == 0 || mapping_ == nullptr) return false;
  // The median of every timed call, from a scratch copy mapped only now (the calls are over).
  const size_t scratchBytes = PageRound(sizeof(double) * calls);
  void *scratchMapping = mmap(nullptr, scratchBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (scratchMapping == MAP_FAILED) throw std::bad_alloc();
  double *scratch = static_cast<double *>(scratchMapping);
  std::copy(totalNs, totalNs + calls, scratch);
  // The median as the result's summary computes it (linear interpolation between the closest ranks).
  const double position = (calls - 1) * 0.5;
  const uint32_t lo = static_cast<uint32_t>(std::floor(position));
  const uint32_t hi = static_cast<uint32_t>(std::ceil(position));
  std::nth_element(scratch, scratch + lo, scratch + calls);
  const double low = scratch[lo];
  const double high = hi == lo ? low : *std::min_element(scratch + lo + 1, scratch + calls);
  munmap(scratchMapping, scratchBytes);
  const double median = low + (high - low) * (position - lo);
  bool found = false;
  double best = 0;
  const uint32_t slots = std::min(calls, slotCount_);
  for (uint32_t call = 0; call < slots; ++call) {
    const Slot &slot = slots_[call];
    if ((slot.flags & kKept) == 0) continue;
    const double distance = std::fabs(totalNs[call] - median);
    if (!found || distance < best) {
      found = true;
      best = distance;
      *out = Sample{call, totalNs[call], (slot.flags & kOverflowed) != 0, events_ + slot.first, slot.count};
    }
  }
  return found;
}

}  // namespace tlab
