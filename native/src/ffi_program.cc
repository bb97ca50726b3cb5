#include "ffi_program.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <limits>
#include <set>

#if defined(TLAB_HAVE_FFI) && __has_include(<ffi.h>)
#include <ffi.h>
#define TLAB_FFI 1
#else
#define TLAB_FFI 0
#endif

namespace tlab {

namespace {

struct TypeName {
  const char *name;
  FfiType type;
  size_t bytes;
};

constexpr TypeName kTypes[] = {
    {"pointer", FfiType::Pointer, sizeof(void *)}, {"bool", FfiType::Bool, sizeof(bool)},
    {"int8", FfiType::Int8, 1},     {"uint8", FfiType::UInt8, 1},     {"int16", FfiType::Int16, 2},
    {"uint16", FfiType::UInt16, 2}, {"float16", FfiType::UInt16, 2},  {"int32", FfiType::Int32, 4},
    {"uint32", FfiType::UInt32, 4}, {"int64", FfiType::Int64, 8},     {"uint64", FfiType::UInt64, 8},
    {"float32", FfiType::Float32, 4}, {"float64", FfiType::Float64, 8},
};

// Every `__dace_*` and `__program_*` entry of the library's dynamic string table that dlsym() resolves (the
// table also names imported symbols, which dlsym on this handle would not find in the library itself).
std::vector<std::string> DaceExports(void *dlHandle) {
  std::vector<std::string> out;
  struct link_map *map = nullptr;
  if (dlinfo(dlHandle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_ld == nullptr) return out;
  ElfW(Addr) table = 0;
  size_t size = 0;
  for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; ++entry) {
    if (entry->d_tag == DT_STRTAB) table = entry->d_un.d_ptr;
    if (entry->d_tag == DT_STRSZ) size = entry->d_un.d_val;
  }
  if (table == 0 || size == 0) return out;
  if (table < map->l_addr) table += map->l_addr;  // as library_loader.cc: relocated in place or an offset
  const char *strings = reinterpret_cast<const char *>(table);
  std::set<std::string> seen;
  for (size_t at = 0; at < size;) {
    const std::string name(strings + at);
    at += name.size() + 1;
    if (name.rfind("__dace_", 0) != 0 && name.rfind("__program_", 0) != 0) continue;
    if (seen.count(name) != 0 || dlsym(dlHandle, name.c_str()) == nullptr) continue;
    seen.insert(name);
    out.push_back(name);
  }
  return out;
}

bool Fits(FfiType type, int64_t v) {
  switch (type) {
    case FfiType::Bool: return v == 0 || v == 1;
    case FfiType::Int8: return v >= INT8_MIN && v <= INT8_MAX;
    case FfiType::UInt8: return v >= 0 && v <= UINT8_MAX;
    case FfiType::Int16: return v >= INT16_MIN && v <= INT16_MAX;
    case FfiType::UInt16: return v >= 0 && v <= UINT16_MAX;
    case FfiType::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case FfiType::UInt32: return v >= 0 && v <= static_cast<int64_t>(UINT32_MAX);
    case FfiType::Int64: return true;
    case FfiType::UInt64: return v >= 0;
    default: return false;  // a symbol is an integer: pointer/float init parameters are refused
  }
}

// The value narrowed to its C type, in the first bytes of a slot.
void Store(FfiType type, int64_t v, uint64_t *slot) {
  *slot = 0;
  switch (type) {
    case FfiType::Bool: { const bool b = v != 0; std::memcpy(slot, &b, sizeof b); break; }
    case FfiType::Int8: { const int8_t x = static_cast<int8_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    case FfiType::UInt8: { const uint8_t x = static_cast<uint8_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    case FfiType::Int16: { const int16_t x = static_cast<int16_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    case FfiType::UInt16: { const uint16_t x = static_cast<uint16_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    case FfiType::Int32: { const int32_t x = static_cast<int32_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    case FfiType::UInt32: { const uint32_t x = static_cast<uint32_t>(v); std::memcpy(slot, &x, sizeof x); break; }
    default: std::memcpy(slot, &v, sizeof v); break;
  }
}

}  // namespace

bool ParseFfiType(const std::string &name, FfiType *out) {
  for (const TypeName &t : kTypes) {
    if (name == t.name) {
      *out = t.type;
      return true;
    }
  }
  return false;
}

size_t FfiTypeBytes(FfiType type) {
  for (const TypeName &t : kTypes) {
    if (t.type == type) return t.bytes;
  }
  return 0;
}

bool FfiAvailable() { return TLAB_FFI != 0; }

#if TLAB_FFI

namespace {
ffi_type *ToFfi(FfiType type) {
  switch (type) {
    case FfiType::Pointer: return &ffi_type_pointer;
    case FfiType::Bool: return &ffi_type_uint8;  // C++ bool: one byte, zero-extended like unsigned char
    case FfiType::Int8: return &ffi_type_sint8;
    case FfiType::UInt8: return &ffi_type_uint8;
    case FfiType::Int16: return &ffi_type_sint16;
    case FfiType::UInt16: return &ffi_type_uint16;
    case FfiType::Int32: return &ffi_type_sint32;
    case FfiType::UInt32: return &ffi_type_uint32;
    case FfiType::Int64: return &ffi_type_sint64;
    case FfiType::UInt64: return &ffi_type_uint64;
    case FfiType::Float32: return &ffi_type_float;
    case FfiType::Float64: return &ffi_type_double;
  }
  return &ffi_type_void;
}
}  // namespace

struct DaceProgram::Function {
  std::string name;
  void *address = nullptr;
  ffi_cif cif{};
  std::vector<ffi_type *> params;

  Function(std::string n, void *a, ffi_type *result, const std::vector<FfiType> &types, size_t leadingPointers)
      : name(std::move(n)), address(a) {
    params.assign(leadingPointers, &ffi_type_pointer);
    for (FfiType t : types) params.push_back(ToFfi(t));
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(params.size()), result,
                     params.empty() ? nullptr : params.data()) != FFI_OK) {
      throw LoadError("libffi cannot prepare a call interface for " + name);
    }
  }
  void Invoke(void **values, void *result) { ffi_call(&cif, FFI_FN(address), result, values); }
};

#else

using ffi_arg = uint64_t;
// Never instantiated: Load() refuses before any Function exists.
struct DaceProgram::Function {
  std::vector<void *> params;
  void Invoke(void **, void *) {}
};

#endif

DaceProgram::~DaceProgram() = default;

std::unique_ptr<DaceProgram> DaceProgram::Load(const std::string &path, const DaceSpec &spec) {
#if !TLAB_FFI
  (void)spec;
  throw LoadError("cannot call the DaCe-built library " + path +
                  ": this Transient Lab addon was built without libffi; install libffi-dev (Debian/Ubuntu: apt-get "
                  "install libffi-dev) and run npm run build:native");
#else
  dlerror();
  void *dlHandle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dlHandle == nullptr) {
    const char *why = dlerror();
    throw LoadError("cannot load the DaCe-built library " + path + ": " + (why ? why : "dlopen failed"));
  }
  std::unique_ptr<DaceProgram> p(new DaceProgram());
  p->path_ = path;
  p->spec_ = spec;
  p->dlHandle_ = dlHandle;
  p->exports_ = DaceExports(dlHandle);

  std::vector<std::string> missing;
  const auto find = [&](const std::string &name) {
    void *address = dlsym(dlHandle, name.c_str());
    if (address == nullptr) missing.push_back(name);
    return address;
  };
  void *init = find("__dace_init_" + spec.name);
  void *program = find("__program_" + spec.name);
  void *exit = find("__dace_exit_" + spec.name);
  std::vector<void *> sizes, sets;
  for (const std::string &s : spec.storages) {
    sizes.push_back(find("__dace_get_external_memory_size_" + s));
    sets.push_back(find("__dace_set_external_memory_" + s));
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string &m : missing) list += (list.empty() ? "" : ", ") + m;
    throw LoadError("the DaCe-built library " + path + " does not export " + list);
  }
  // An External pair the build's sources do not declare: the folder's sources and library are out of step.
  for (const std::string &e : p->exports_) {
    static const std::string prefix = "__dace_get_external_memory_size_";
    if (e.rfind(prefix, 0) != 0) continue;
    const std::string storage = e.substr(prefix.size());
    bool known = false;
    for (const std::string &s : spec.storages) known = known || s == storage;
    if (!known) {
      throw LoadError("the DaCe-built library " + path + " exports " + e +
                      ", which its sources (src/cpu, src/cuda) do not define: the library and the sources come from "
                      "different builds");
    }
  }
  p->init_ = std::make_unique<Function>("__dace_init_" + spec.name, init, &ffi_type_pointer, spec.init, 0);
  p->program_ = std::make_unique<Function>("__program_" + spec.name, program, &ffi_type_void, spec.program, 1);
  p->exit_ = std::make_unique<Function>("__dace_exit_" + spec.name, exit, &ffi_type_sint32, std::vector<FfiType>{}, 1);
  for (size_t i = 0; i < spec.storages.size(); ++i) {
    p->size_.push_back(std::make_unique<Function>("__dace_get_external_memory_size_" + spec.storages[i], sizes[i],
                                                  &ffi_type_uint64, spec.init, 1));
    p->set_.push_back(std::make_unique<Function>("__dace_set_external_memory_" + spec.storages[i], sets[i],
                                                 &ffi_type_void, spec.init, 2));
  }
  p->slots_.assign(spec.program.size() + 1, nullptr);
  p->values_.assign(spec.program.size() + 1, nullptr);
  return p;
#endif
}

std::string DaceProgram::CheckSymbols(const int64_t *symbols, size_t count) const {
  if (count != spec_.init.size()) {
    return "symbols has " + std::to_string(count) + " value(s) but __dace_init_" + spec_.name + " takes " +
           std::to_string(spec_.init.size());
  }
  for (size_t i = 0; i < count; ++i) {
    if (!Fits(spec_.init[i], symbols[i])) {
      return "init symbol " + std::to_string(i) + " = " + std::to_string(symbols[i]) +
             " does not fit its C type in the library's signature";
    }
  }
  return "";
}

void *DaceProgram::CallInitLike(Function &fn, void *handle, char *base, const int64_t *symbols, void *result) {
  const size_t lead = fn.params.size() - spec_.init.size();
  std::vector<uint64_t> storage(spec_.init.size());
  std::vector<void *> values(fn.params.size(), nullptr);
  if (lead >= 1) values[0] = &handle;
  if (lead >= 2) values[1] = &base;
  for (size_t i = 0; i < spec_.init.size(); ++i) {
    Store(spec_.init[i], symbols[i], &storage[i]);
    values[lead + i] = &storage[i];
  }
  fn.Invoke(values.data(), result);
  return result;
}

void *DaceProgram::Init(const int64_t *symbols) {
  void *handle = nullptr;
  CallInitLike(*init_, nullptr, nullptr, symbols, &handle);
  return handle;
}

int DaceProgram::Exit(void *handle) {
  ffi_arg rc = 0;
  void *values[1] = {&handle};
  exit_->Invoke(values, &rc);
  return static_cast<int>(static_cast<int32_t>(rc));
}

uint64_t DaceProgram::ExternalSize(size_t storage, void *handle, const int64_t *symbols) {
  uint64_t bytes = 0;
  CallInitLike(*size_.at(storage), handle, nullptr, symbols, &bytes);
  return bytes;
}

void DaceProgram::SetExternal(size_t storage, void *handle, char *base, const int64_t *symbols) {
  CallInitLike(*set_.at(storage), handle, base, symbols, nullptr);
}

void DaceProgram::Call(void *handle, void *const *argv) {
  slots_[0] = handle;
  values_[0] = &slots_[0];
  for (size_t i = 0; i < spec_.program.size(); ++i) {
    if (spec_.program[i] == FfiType::Pointer) {
      slots_[i + 1] = argv[i];
      values_[i + 1] = &slots_[i + 1];
    } else {
      values_[i + 1] = argv[i];
    }
  }
  program_->Invoke(values_.data(), nullptr);
}

void DaceProgram::CallBound(void *context, void *handle, void *const *argv) {
  static_cast<DaceProgram *>(context)->Call(handle, argv);
}

}  // namespace tlab
