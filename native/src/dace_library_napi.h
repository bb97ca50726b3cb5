// loadDace() and the DaceLibrary class (dace_library_napi.cc): DaCe-built libraries called through libffi.
#pragma once

#include <napi.h>

namespace tlab {

// Adds `loadDace(path, spec)` and `ffiAvailable` to the addon's exports.
void RegisterDaceLibrary(Napi::Env env, Napi::Object exports);

}  // namespace tlab
