// The JavaScript side of a call loop's results, shared by ProgramLibrary (program_library_napi.cc) and DaceLibrary
// (dace_library_napi.cc): the CallStats typed arrays the loops write into, the sampled call, and an event buffer
// as AllocEvent[]. One definition, so the two libraries' results cannot drift apart in shape.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>

#include "call_loop.h"
#include "event_sampler.h"
#include "transient_runtime.h"

namespace tlab {

// The typed arrays a CallStats object returns; C++ writes into them directly. The device columns exist only for
// GPU libraries (empty otherwise).
class StatsArrays {
 public:
  StatsArrays(Napi::Env env, uint32_t calls, bool gpu);
  CallStatsSink Sink();
  // `measured` false: the allocation columns are zeros because nothing could observe the allocations (a DaCe
  // library without interposition); the object then says `allocationsMeasured: false`.
  Napi::Object ToObject(Napi::Env env, const CallStatsSink &sink, Napi::Value sample, bool measured = true) const;
  const double *TotalNs() const { return totalNs_.Data(); }

 private:
  bool gpu_;
  Napi::Float64Array totalNs_, allocNs_, freeNs_;
  Napi::Uint32Array allocs_, frees_;
  Napi::Float64Array allocBytes_, minorFaults_;
  Napi::Float64Array deviceNs_, hostReturnNs_, hostSyncNs_;
};

// The sampled call as JS: { call, totalNs, overflowed, events: AllocEvent[] } (times relative to its start).
// An event of unknown kind (a corrupted buffer) throws an Error that names `library`.
Napi::Value SampleObject(Napi::Env env, const Sample &sample, const std::string &library);

// The events of `buffer`'s last call as AllocEvent[]; interposed events (negative `transient`) also name the
// hooked function. Unknown kinds throw as above.
Napi::Array EventsArray(Napi::Env env, const tlab_event_buffer *buffer, const std::string &library);

}  // namespace tlab
