#include "call_stats_napi.h"

#include <algorithm>

#include "interpose_napi.h"

namespace tlab {
namespace {

bool KnownKind(int32_t kind) {
  return kind == TLAB_EVENT_ALLOC || kind == TLAB_EVENT_FREE || kind == TLAB_EVENT_DEVICE_ALLOC || kind == TLAB_EVENT_DEVICE_FREE;
}

[[noreturn]] void FailKind(Napi::Env env, const char *what, uint64_t index, int32_t kind, const std::string &library) {
  throw Napi::Error::New(env, std::string(what) + " " + std::to_string(index) + " has unknown kind " + std::to_string(kind) +
                                  " (corrupted event buffer?) (library " + library + ")");
}

// kind 'alloc' | 'free'; `device: true` for device memory (cudaMalloc(Async)/cudaFree(Async), kinds 2 and 3).
Napi::Object EventObject(Napi::Env env, double t0, double t1, uint64_t bytes, int32_t transient, int32_t kind) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("t0", t0);
  object.Set("t1", t1);
  object.Set("bytes", static_cast<double>(bytes));
  object.Set("transient", transient);
  object.Set("kind", kind == TLAB_EVENT_ALLOC || kind == TLAB_EVENT_DEVICE_ALLOC ? "alloc" : "free");
  if (kind == TLAB_EVENT_DEVICE_ALLOC || kind == TLAB_EVENT_DEVICE_FREE) object.Set("device", true);
  SetInterposedFunction(object, transient);
  return object;
}

}  // namespace

StatsArrays::StatsArrays(Napi::Env env, uint32_t calls, bool gpu)
    : gpu_(gpu),
      totalNs_(Napi::Float64Array::New(env, calls)),
      allocNs_(Napi::Float64Array::New(env, calls)),
      freeNs_(Napi::Float64Array::New(env, calls)),
      allocs_(Napi::Uint32Array::New(env, calls)),
      frees_(Napi::Uint32Array::New(env, calls)),
      allocBytes_(Napi::Float64Array::New(env, calls)),
      minorFaults_(Napi::Float64Array::New(env, calls)),
      deviceNs_(Napi::Float64Array::New(env, gpu ? calls : 0)),
      hostReturnNs_(Napi::Float64Array::New(env, gpu ? calls : 0)),
      hostSyncNs_(Napi::Float64Array::New(env, gpu ? calls : 0)) {}

CallStatsSink StatsArrays::Sink() {
  CallStatsSink out{totalNs_.Data(),    allocNs_.Data(),     freeNs_.Data(), allocs_.Data(), frees_.Data(),
                    allocBytes_.Data(), minorFaults_.Data(), false};
  if (gpu_) {
    out.deviceNs = deviceNs_.Data();
    out.hostReturnNs = hostReturnNs_.Data();
    out.hostSyncNs = hostSyncNs_.Data();
  }
  return out;
}

Napi::Object StatsArrays::ToObject(Napi::Env env, const CallStatsSink &sink, Napi::Value sample, bool measured) const {
  Napi::Object stats = Napi::Object::New(env);
  stats.Set("totalNs", totalNs_);
  stats.Set("allocNs", allocNs_);
  stats.Set("freeNs", freeNs_);
  stats.Set("allocs", allocs_);
  stats.Set("frees", frees_);
  stats.Set("allocBytes", allocBytes_);
  stats.Set("minorFaults", minorFaults_);
  stats.Set("overflowed", Napi::Boolean::New(env, sink.overflowed));
  stats.Set("sample", sample);
  if (!measured) stats.Set("allocationsMeasured", false);
  if (gpu_) {
    stats.Set("deviceNs", deviceNs_);
    stats.Set("hostReturnNs", hostReturnNs_);
    stats.Set("hostSyncNs", hostSyncNs_);
  }
  return stats;
}

Napi::Value SampleObject(Napi::Env env, const Sample &sample, const std::string &library) {
  Napi::Array events = Napi::Array::New(env, sample.count);
  for (uint64_t i = 0; i < sample.count; ++i) {
    const SampledEvent &event = sample.events[i];
    if (!KnownKind(event.kind)) FailKind(env, "sampled event", i, event.kind, library);
    events.Set(static_cast<uint32_t>(i), EventObject(env, static_cast<double>(event.startNs),
                                                     static_cast<double>(event.startNs + event.durationNs), event.bytes,
                                                     event.transient, event.kind));
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("call", sample.call);
  result.Set("totalNs", sample.totalNs);
  result.Set("overflowed", Napi::Boolean::New(env, sample.overflowed));
  result.Set("events", events);
  return result;
}

Napi::Array EventsArray(Napi::Env env, const tlab_event_buffer *buffer, const std::string &library) {
  const uint64_t kept = std::min<uint64_t>(buffer->count.load(std::memory_order_acquire), buffer->capacity);
  Napi::Array events = Napi::Array::New(env, kept);
  for (uint64_t i = 0; i < kept; ++i) {
    const tlab_event &event = buffer->events[i];
    if (!KnownKind(event.kind)) FailKind(env, "event", i, event.kind, library);
    // Signed differences: an event can never precede the call start, but a corrupted one must not wrap.
    events.Set(static_cast<uint32_t>(i),
               EventObject(env, static_cast<double>(static_cast<int64_t>(event.t0_ns - buffer->call_start_ns)),
                           static_cast<double>(static_cast<int64_t>(event.t1_ns - buffer->call_start_ns)), event.bytes,
                           event.transient, event.kind));
  }
  return events;
}

}  // namespace tlab
