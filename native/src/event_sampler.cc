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
  calls_ = calls;
  used_ = 0;
  const uint64_t wanted = static_cast<uint64_t>(calls) * std::max<uint64_t>(eventsPerCall, 1);
  capacity_ = std::min<uint64_t>(wanted, kBudgetBytes / sizeof(SampledEvent));
  const size_t slotBytes = sizeof(Slot) * calls;
  const size_t scratchBytes = sizeof(double) * calls;
  mappingBytes_ = PageRound(slotBytes + scratchBytes + sizeof(SampledEvent) * capacity_);
  void *mapping = mmap(nullptr, mappingBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  mapping_ = mapping;
  char *base = static_cast<char *>(mapping);
  // MAP_POPULATE may be refused silently under memory pressure: touch every page so none faults later.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t at = 0; at < mappingBytes_; at += page) static_cast<volatile char *>(base)[at] = 0;
  slots_ = reinterpret_cast<Slot *>(base);
  scratch_ = reinterpret_cast<double *>(base + slotBytes);
  events_ = reinterpret_cast<SampledEvent *>(base + slotBytes + scratchBytes);
}

EventSampler::~EventSampler() {
  if (mapping_ != nullptr) munmap(mapping_, mappingBytes_);
}

void EventSampler::Keep(uint32_t call, uint64_t callStartNs, const tlab_event_buffer *events) {
  if (call >= calls_) return;
  Slot &slot = slots_[call];
  const uint64_t recorded = events->count.load(std::memory_order_acquire);
  const uint64_t kept = std::min<uint64_t>(recorded, events->capacity);
  slot.overflowed = (events->overflowed.load(std::memory_order_relaxed) != 0 || recorded > events->capacity) ? 1 : 0;
  if (used_ + kept > capacity_) {
    slot.kept = 0;
    return;
  }
  slot.first = used_;
  slot.count = kept;
  slot.kept = 1;
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
  calls = std::min(calls, calls_);
  if (calls == 0) return false;
  std::copy(totalNs, totalNs + calls, scratch_);
  std::sort(scratch_, scratch_ + calls);
  // The median as the result's summary computes it (linear interpolation between the closest ranks).
  const double position = (calls - 1) * 0.5;
  const uint32_t lo = static_cast<uint32_t>(std::floor(position));
  const uint32_t hi = static_cast<uint32_t>(std::ceil(position));
  const double median = scratch_[lo] + (scratch_[hi] - scratch_[lo]) * (position - lo);
  bool found = false;
  double best = 0;
  for (uint32_t call = 0; call < calls; ++call) {
    if (!slots_[call].kept) continue;
    const double distance = std::fabs(totalNs[call] - median);
    if (!found || distance < best) {
      found = true;
      best = distance;
      *out = Sample{call, totalNs[call], slots_[call].overflowed != 0, events_ + slots_[call].first, slots_[call].count};
    }
  }
  return found;
}

}  // namespace tlab
