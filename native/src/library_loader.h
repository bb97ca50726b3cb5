// dlopen()s a generated program library and resolves the uniform `__tlab_*` trampolines (docs/runtime-abi.md).
// Plain C++: no N-API here, so failures are reported as LoadError and turned into JS errors by the binding.
#pragma once

#define TLAB_RUNTIME_TYPES_ONLY
#include "transient_runtime.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tlab {

using AbiVersionFn = int (*)();
using InitFn = void *(*)(const int64_t *symbols);
using ProgramFn = void (*)(void *handle, void *const *argv);
using ExitFn = int (*)(void *handle);
using ExternalSizeFn = uint64_t (*)(void *handle, const char *storage, const int64_t *symbols);
using SetExternalFn = int (*)(void *handle, const char *storage, char *base, const int64_t *symbols);
using ExternalSlotCountFn = uint32_t (*)(const char *storage);
using SetExternalOffsetsFn = int (*)(void *handle, const char *storage, char *base, const uint64_t *offsets,
                                     uint32_t count);
using EventsFn = tlab_event_buffer *(*)();
using SetPoisonFn = void (*)(int on, int pattern);
using CountFn = uint32_t (*)();

struct Trampolines {
  AbiVersionFn abiVersion = nullptr;
  InitFn init = nullptr;
  ProgramFn program = nullptr;
  ExitFn exit = nullptr;
  ExternalSizeFn externalSize = nullptr;
  SetExternalFn setExternal = nullptr;
  ExternalSlotCountFn externalSlotCount = nullptr;
  SetExternalOffsetsFn setExternalOffsets = nullptr;
  EventsFn events = nullptr;
  SetPoisonFn setPoison = nullptr;
  // Optional (docs/runtime-abi.md §2): when present, init() and run() check their argument counts.
  CountFn argCount = nullptr;
  CountFn initSymbolCount = nullptr;
};

struct LoadedLibrary {
  std::string path;
  // Never dlclose()d: see docs/native.md ("Why no dlclose").
  void *dlHandle = nullptr;
  Trampolines fn;
  int abiVersion = 0;
  tlab_event_buffer *events = nullptr;
  // SDFG name found from the exported `__dace_init_<name>`; empty when it cannot be determined.
  std::string programName;
};

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws LoadError naming the library and what is wrong (dlerror text, missing symbols, ABI mismatch).
LoadedLibrary LoadProgramLibrary(const std::string &path);

}  // namespace tlab
