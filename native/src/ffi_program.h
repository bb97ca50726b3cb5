// Calling a DaCe-built library by its own C signatures (docs/dace-folders.md): no __tlab_* trampolines exist
// there, so every DaCe function is called through libffi with the exact parameter types that the build's
// include/<n>.h and src/cpu/<n>.cpp declare. Plain C++ (no N-API). Without libffi at build time
// (TLAB_HAVE_FFI undefined) everything here compiles and Load() refuses with "install libffi-dev".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "library_loader.h"

namespace tlab {

// The C types a DaCe signature uses, by what the ABI sees. float16 is dace::float16 (a 2-byte struct passed
// in an integer register, as uint16_t); every pointer (arrays, structures, GPU scalars) is Pointer.
enum class FfiType : uint8_t { Pointer, Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64 };

// "pointer", "bool", "int8", …, "float64", "float16" → FfiType; false for any other name.
bool ParseFfiType(const std::string &name, FfiType *out);
size_t FfiTypeBytes(FfiType type);
bool FfiAvailable();

// What to call: the SDFG name, the parameter types after the state pointer (init: the init symbols; program:
// its arguments in DaCe order) and the External storages whose size/set pair the library must export.
struct DaceSpec {
  std::string name;
  std::vector<FfiType> init;
  std::vector<FfiType> program;
  std::vector<std::string> storages;
};

class DaceProgram {
 public:
  // dlopen()s `path` (RTLD_NOW | RTLD_LOCAL, never closed) and prepares one call interface per function.
  // Throws LoadError: dlopen's text, the DaCe functions that are missing, External functions the library
  // exports that the spec does not name, or no libffi.
  static std::unique_ptr<DaceProgram> Load(const std::string &path, const DaceSpec &spec);
  ~DaceProgram();

  const std::string &path() const { return path_; }
  const DaceSpec &spec() const { return spec_; }
  // Every `__dace_*` / `__program_*` name in the library's dynamic string table (for messages and checks).
  const std::vector<std::string> &exports() const { return exports_; }
  // dlopen's handle (interpose::PatchLibrary patches the library's GOT through it, docs/interpose.md).
  void *dlHandle() const { return dlHandle_; }

  // Init symbols arrive as int64 and are narrowed to each parameter's type; a value that does not fit is an
  // error (returned as text, empty when fine), never a silently wrapped size.
  std::string CheckSymbols(const int64_t *symbols, size_t count) const;
  void *Init(const int64_t *symbols);
  int Exit(void *handle);
  uint64_t ExternalSize(size_t storage, void *handle, const int64_t *symbols);
  void SetExternal(size_t storage, void *handle, char *base, const int64_t *symbols);

  // `__program_<n>(handle, args…)`: argv[i] is the data pointer of array argument i, or a pointer to the value
  // of a scalar/symbol in its exact C type (the __tlab_program convention, docs/runtime-abi.md). No malloc.
  void Call(void *handle, void *const *argv);
  // The call loop's bound callee (call_loop.h `Callee::bound`): `context` is the DaceProgram.
  static void CallBound(void *context, void *handle, void *const *argv);

  struct Function;

 private:
  DaceProgram() = default;
  void *CallInitLike(Function &fn, void *handle, char *base, const int64_t *symbols, void *result);

  std::string path_;
  DaceSpec spec_;
  void *dlHandle_ = nullptr;
  std::vector<std::string> exports_;
  std::unique_ptr<Function> init_, program_, exit_;
  std::vector<std::unique_ptr<Function>> size_, set_;
  // Reused by every Call(): the state pointer, one slot per pointer argument, the value pointers.
  std::vector<void *> slots_;
  std::vector<void *> values_;
};

}  // namespace tlab
