// The workload's step loop as N-API (sequence_napi.cc) and the one thing it needs from the
// ProgramLibrary class (program_library_napi.h): the program, handle and event buffer of an initialised library.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>

#include "library_loader.h"

namespace tlab {

struct SequenceTarget {
  ProgramFn program = nullptr;
  void *handle = nullptr;
  tlab_event_buffer *events = nullptr;
  // The library's __tlab_arg_count when it has one, else 0 (not checked).
  uint32_t argCount = 0;
  // SDFG name `n` of `__program_<n>` ("<program>" when unknown), for messages.
  std::string name;
  // A DaceLibrary (no trampolines): `bound(context, handle, argv)` calls it through libffi, inside a hook window
  // when interposed; `program` is then null (call_loop.h `Callee::bound`).
  void (*bound)(void *context, void *handle, void *const *argv) = nullptr;
  void *context = nullptr;
};

// Defined in program_library_napi.cc: fills `out` when `value` is an initialised CPU ProgramLibrary or DaceLibrary, else says why not.
bool SequenceTargetOf(const Napi::Value &value, SequenceTarget *out, std::string *why);
// Defined in dace_library_napi.cc: returns false when `value` is no DaceLibrary; else fills `out` (or says why not
// in `why`, leaving `*ok` false).
bool DaceSequenceTargetOf(const Napi::Value &value, SequenceTarget *out, std::string *why, bool *ok);

void RegisterSequence(Napi::Env env, Napi::Object exports);

}  // namespace tlab
