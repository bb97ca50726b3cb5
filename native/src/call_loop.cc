#include "call_loop.h"

#include <sys/resource.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <vector>

namespace tlab {
namespace {

uint64_t MinorFaults() {
  struct rusage usage;
  // RUSAGE_SELF, not RUSAGE_THREAD: OpenMP worker threads fault pages in too.
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_minflt);
}

// noinline and called through a pointer, exactly like a program's trampoline.
__attribute__((noinline)) void EmptyProgram(void *, void *const *) { asm volatile("" ::: "memory"); }

struct OwnedEventBuffer {
  std::vector<tlab_event> storage;
  tlab_event_buffer buffer;

  OwnedEventBuffer()
      : storage(TLAB_EVENT_CAPACITY),
        buffer{TRANSIENT_RUNTIME_VERSION, TLAB_EVENT_CAPACITY, {0}, {0}, 0, 0, 0, 0, nullptr} {
    buffer.events = storage.data();
  }
};

}  // namespace

void RunCalls(const Callee &callee, void *handle, void *const *argv, tlab_event_buffer *events, uint32_t calls,
              CallStatsSink *sink, const CallHooks &hooks) {
  // getrusage(RUSAGE_SELF) costs ~0.3-0.7 us (it walks every thread of the process), so one reading serves as
  // "after" of call i and "before" of call i+1. Nothing between them faults: the sink is touched up front and
  // the event slots were just written by the program.
  for (uint32_t call = 0; call < calls; ++call) {
    sink->totalNs[call] = sink->allocNs[call] = sink->freeNs[call] = 0;
    sink->allocs[call] = sink->frees[call] = 0;
    sink->allocBytes[call] = sink->minorFaults[call] = 0;
    if (sink->deviceNs != nullptr) sink->deviceNs[call] = sink->hostReturnNs[call] = sink->hostSyncNs[call] = 0;
  }
  if (hooks.progress != nullptr) hooks.progress->Set(hooks.phase, 0, calls);
  uint64_t faultsBefore = MinorFaults();
  for (uint32_t call = 0; call < calls; ++call) {
    uint64_t hostNs[2] = {0, 0};
    float deviceMs = 0;
    int deviceError = 0;
    const uint64_t start = tlab_now_ns();
    tlab_reset(events, start);
    try {
      // A GPU call ends once the device is done (the hook synchronises on a CUDA event), so `end - start` is
      // host time with the device synchronised; it includes the hook's two CUDA events (create, record, destroy).
      if (callee.gpuTimed != nullptr) deviceError = callee.gpuTimed(handle, argv, hostNs, &deviceMs);
      else if (callee.bound != nullptr) callee.bound(callee.context, handle, argv);
      else callee.program(handle, argv);
    } catch (const std::exception &error) {
      throw ProgramThrew{call, error.what(), ""};
    } catch (...) {
      throw ProgramThrew{call, "a non-standard C++ exception", ""};
    }
    const uint64_t end = tlab_now_ns();
    if (deviceError != 0) throw DeviceError{call, deviceError, ""};
    const uint64_t faultsAfter = MinorFaults();

    const uint64_t recorded = events->count.load(std::memory_order_acquire);
    const uint64_t kept = std::min<uint64_t>(recorded, events->capacity);
    uint64_t allocNs = 0, freeNs = 0, allocBytes = 0;
    uint32_t allocs = 0, frees = 0;
    for (uint64_t i = 0; i < kept; ++i) {
      const tlab_event &event = events->events[i];
      const uint64_t spent = event.t1_ns - event.t0_ns;
      // Device allocations count as allocations: their host time around cudaMalloc(Async)/cudaFree(Async) is
      // what the caller's thread pays.
      if (event.kind == TLAB_EVENT_ALLOC || event.kind == TLAB_EVENT_DEVICE_ALLOC) {
        allocNs += spent;
        allocBytes += event.bytes;
        ++allocs;
      } else if (event.kind == TLAB_EVENT_FREE || event.kind == TLAB_EVENT_DEVICE_FREE) {
        freeNs += spent;
        ++frees;
      } else {
        throw UnknownEventKind{call, i, event.kind, ""};
      }
    }
    sink->totalNs[call] = static_cast<double>(end - start);
    sink->allocNs[call] = static_cast<double>(allocNs);
    sink->freeNs[call] = static_cast<double>(freeNs);
    sink->allocs[call] = allocs;
    sink->frees[call] = frees;
    sink->allocBytes[call] = static_cast<double>(allocBytes);
    sink->minorFaults[call] = static_cast<double>(faultsAfter - faultsBefore);
    if (sink->deviceNs != nullptr) {
      sink->deviceNs[call] = static_cast<double>(deviceMs) * 1e6;
      sink->hostReturnNs[call] = static_cast<double>(hostNs[0]);
      sink->hostSyncNs[call] = static_cast<double>(hostNs[1]);
    }
    faultsBefore = faultsAfter;
    if (events->overflowed.load(std::memory_order_relaxed) != 0 || recorded > events->capacity) {
      sink->overflowed = true;
    }
    // After the fault reading: the sampler's memory is touched in advance, so copying faults nothing that
    // the next call would be charged for.
    if (hooks.sampler != nullptr) hooks.sampler->Keep(call, start, events);
    if (hooks.progress != nullptr) hooks.progress->Set(hooks.phase, call + 1, calls);
  }
}

OwnedStats::OwnedStats(uint32_t calls)
    : totalNs(calls), allocNs(calls), freeNs(calls), allocBytes(calls), minorFaults(calls), deviceNs(calls),
      hostReturnNs(calls), hostSyncNs(calls), allocs(calls), frees(calls) {}

CallStatsSink OwnedStats::sink(bool gpu) {
  CallStatsSink out{totalNs.data(), allocNs.data(), freeNs.data(), allocs.data(), frees.data(),
                    allocBytes.data(), minorFaults.data(), false};
  if (gpu) {
    out.deviceNs = deviceNs.data();
    out.hostReturnNs = hostReturnNs.data();
    out.hostSyncNs = hostSyncNs.data();
  }
  return out;
}

bool FaultsSettled(const double *minorFaults, uint32_t count) {
  if (count < kSettleCalls) return false;
  for (uint32_t i = count - kSettleCalls; i < count; ++i) {
    if (minorFaults[i] > kQuietFaults) return false;
  }
  return true;
}

TimedCalls TimeCalls(const Callee &callee, void *handle, void *const *argv, tlab_event_buffer *events, uint32_t warmup,
                     uint32_t settle, uint32_t calls, CallStatsSink *sink, ProgressFile *progress,
                     EventSampler *sampler) {
  TimedCalls result;
  if (warmup == 0) settle = 0;  // no warm-up asked for: none added either
  const bool gpu = callee.gpuTimed != nullptr;
  OwnedStats first(1), warm(warmup + settle);
  CallStatsSink firstSink = first.sink(gpu), warmSink = warm.sink(gpu);
  // Errors say which loop the failing call belonged to.
  const auto loop = [&](const char *name, uint32_t count, CallStatsSink *into, const CallHooks &hooks) {
    try {
      RunCalls(callee, handle, argv, events, count, into, hooks);
    } catch (ProgramThrew &thrown) {
      thrown.loop = name;
      throw;
    } catch (DeviceError &failed) {
      failed.loop = name;
      throw;
    } catch (UnknownEventKind &bad) {
      bad.loop = name;
      throw;
    }
  };
  loop("first call", 1, &firstSink, CallHooks{nullptr, progress, ProgressPhase::FirstCall});
  result.firstCallNs = first.totalNs[0];
  if (warmup > 0) loop("warm-up call", warmup, &warmSink, CallHooks{nullptr, progress, ProgressPhase::Warmup});
  uint32_t warmed = warmup;
  while (warmed < warmup + settle && !FaultsSettled(warm.minorFaults.data(), warmed)) {
    // One more call into the next slot (the fault reading of a one-call loop is its own before/after).
    CallStatsSink one{&warm.totalNs[warmed], &warm.allocNs[warmed], &warm.freeNs[warmed], &warm.allocs[warmed],
                      &warm.frees[warmed], &warm.allocBytes[warmed], &warm.minorFaults[warmed], false};
    if (gpu) {
      one.deviceNs = &warm.deviceNs[warmed];
      one.hostReturnNs = &warm.hostReturnNs[warmed];
      one.hostSyncNs = &warm.hostSyncNs[warmed];
    }
    try {
      loop("warm-up call", 1, &one, CallHooks{});
    } catch (ProgramThrew &thrown) {
      thrown.callIndex = warmed;
      throw;
    } catch (DeviceError &failed) {
      failed.callIndex = warmed;
      throw;
    } catch (UnknownEventKind &bad) {
      bad.callIndex = warmed;
      throw;
    }
    warmSink.overflowed = warmSink.overflowed || one.overflowed;
    ++warmed;
    if (progress != nullptr) progress->Set(ProgressPhase::Warmup, warmed, warmed);
  }
  result.warmupCalls = warmed;
  // Programs make the same allocations on every call: room for the most events a call made so far, plus a
  // margin; a timed call that makes more is timed as usual but cannot become the sample.
  uint64_t eventsPerCall = firstSink.overflowed || warmSink.overflowed ? events->capacity : 0;
  eventsPerCall = std::max<uint64_t>(eventsPerCall, first.allocs[0] + first.frees[0]);
  for (uint32_t i = 0; i < warmed; ++i) eventsPerCall = std::max<uint64_t>(eventsPerCall, warm.allocs[i] + warm.frees[i]);
  sampler->Reserve(calls, eventsPerCall + eventsPerCall / 8 + 4);
  // The pool's high-water marks then describe the timed calls alone (the first call and the warm-up may have
  // grown the pool further than its steady state needs). A reset failure shows when the marks are read.
  if (callee.gpuPoolAttributes != nullptr) {
    uint64_t ignored[4];
    callee.gpuPoolAttributes(ignored, 1);
  }
  const uint64_t start = tlab_now_ns();
  loop("timed call", calls, sink, CallHooks{sampler, progress, ProgressPhase::Calls});
  result.loopWallNs = static_cast<double>(tlab_now_ns() - start);
  if (progress != nullptr) progress->Set(ProgressPhase::Done, calls, calls);
  result.sampled = sampler->Pick(sink->totalNs, calls, &result.sample);
  return result;
}

double MeasureEventCostNs(uint64_t iterations) {
  auto owned = std::make_unique<OwnedEventBuffer>();
  tlab_event_buffer *buffer = &owned->buffer;
  const uint64_t capacity = buffer->capacity;
  const uint64_t start = tlab_now_ns();
  for (uint64_t i = 0; i < iterations; ++i) {
    // Stay below capacity: the dropped-event path is cheaper and would flatter the number.
    if (i % capacity == 0) buffer->count.store(0, std::memory_order_relaxed);
    const uint64_t t0 = tlab_now_ns();
    const uint64_t t1 = tlab_now_ns();
    tlab_record(buffer, t0, t1, i, 0, TLAB_EVENT_ALLOC);
  }
  const uint64_t end = tlab_now_ns();
  asm volatile("" : : "r"(owned->storage.data()) : "memory");
  return static_cast<double>(end - start) / static_cast<double>(iterations);
}

double MeasureCallOverheadNs(uint64_t iterations) {
  auto owned = std::make_unique<OwnedEventBuffer>();
  constexpr uint32_t kChunk = 1024;
  std::vector<double> totalNs(kChunk), allocNs(kChunk), freeNs(kChunk), allocBytes(kChunk), minorFaults(kChunk);
  std::vector<uint32_t> allocs(kChunk), frees(kChunk);
  CallStatsSink sink{totalNs.data(), allocNs.data(), freeNs.data(), allocs.data(), frees.data(),
                     allocBytes.data(), minorFaults.data(), false};
  ProgramFn volatile program = &EmptyProgram;
  void *const argv[1] = {nullptr};
  const uint64_t start = tlab_now_ns();
  for (uint64_t done = 0; done < iterations;) {
    const uint32_t calls = static_cast<uint32_t>(std::min<uint64_t>(kChunk, iterations - done));
    RunCalls(Callee{program, nullptr, nullptr}, nullptr, argv, &owned->buffer, calls, &sink);
    done += calls;
  }
  const uint64_t end = tlab_now_ns();
  return static_cast<double>(end - start) / static_cast<double>(iterations);
}

}  // namespace tlab
