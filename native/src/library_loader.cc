#include "library_loader.h"

#include <dlfcn.h>
#include <link.h>

#include <vector>

namespace tlab {
namespace {

template <typename Fn>
void Resolve(void *dlHandle, const char *name, Fn *slot, std::vector<std::string> *missing) {
  dlerror();
  void *address = dlsym(dlHandle, name);
  if (address == nullptr) {
    missing->push_back(name);
    return;
  }
  *slot = reinterpret_cast<Fn>(address);
}

// The addon cannot know the SDFG name, but the library exports `__dace_init_<name>`: scan the dynamic string
// table for it so that errors can name the real DaCe function (`__dace_init_t returned NULL`).
std::string FindProgramName(void *dlHandle) {
  struct link_map *map = nullptr;
  if (dlinfo(dlHandle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_ld == nullptr) return "";
  ElfW(Addr) stringTable = 0;
  size_t stringTableSize = 0;
  for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; ++entry) {
    if (entry->d_tag == DT_STRTAB) stringTable = entry->d_un.d_ptr;
    if (entry->d_tag == DT_STRSZ) stringTableSize = entry->d_un.d_val;
  }
  if (stringTable == 0 || stringTableSize == 0) return "";
  // glibc relocates DT_STRTAB in place where .dynamic is writable (x86-64, aarch64); elsewhere it stays an
  // offset from the load address.
  if (stringTable < map->l_addr) stringTable += map->l_addr;
  const char *strings = reinterpret_cast<const char *>(stringTable);

  static const std::string prefix = "__dace_init_";
  std::string found;
  for (size_t at = 0; at < stringTableSize;) {
    const std::string entry(strings + at);
    at += entry.size() + 1;
    if (entry.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string name = entry.substr(prefix.size());
    // GPU builds also export __dace_init_cuda / __dace_init_hip for the device context.
    if (name.empty() || name == "cuda" || name == "hip") continue;
    if (dlsym(dlHandle, entry.c_str()) == nullptr) continue;
    if (dlsym(dlHandle, ("__program_" + name).c_str()) == nullptr) continue;
    if (!found.empty() && found != name) return "";  // ambiguous: better no name than a wrong one
    found = name;
  }
  return found;
}

}  // namespace

LoadedLibrary LoadProgramLibrary(const std::string &path) {
  dlerror();
  // RTLD_LOCAL: two program libraries define the same DaCe symbol names; they must not interpose on each
  // other. RTLD_NOW: an unresolved symbol fails here, not in the middle of a timed call.
  void *dlHandle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dlHandle == nullptr) {
    const char *why = dlerror();
    throw LoadError("cannot load program library " + path + ": " + (why ? why : "dlopen failed without dlerror text"));
  }

  LoadedLibrary library;
  library.path = path;
  library.dlHandle = dlHandle;
  std::vector<std::string> missing;
  Resolve(dlHandle, "__tlab_abi_version", &library.fn.abiVersion, &missing);
  Resolve(dlHandle, "__tlab_init", &library.fn.init, &missing);
  Resolve(dlHandle, "__tlab_program", &library.fn.program, &missing);
  Resolve(dlHandle, "__tlab_exit", &library.fn.exit, &missing);
  Resolve(dlHandle, "__tlab_external_size", &library.fn.externalSize, &missing);
  Resolve(dlHandle, "__tlab_set_external", &library.fn.setExternal, &missing);
  Resolve(dlHandle, "__tlab_external_slot_count", &library.fn.externalSlotCount, &missing);
  Resolve(dlHandle, "__tlab_set_external_offsets", &library.fn.setExternalOffsets, &missing);
  Resolve(dlHandle, "__tlab_events", &library.fn.events, &missing);
  Resolve(dlHandle, "__tlab_set_poison", &library.fn.setPoison, &missing);
  library.fn.argCount = reinterpret_cast<CountFn>(dlsym(dlHandle, "__tlab_arg_count"));
  library.fn.initSymbolCount = reinterpret_cast<CountFn>(dlsym(dlHandle, "__tlab_init_symbol_count"));
  library.fn.initArgCount = reinterpret_cast<CountFn>(dlsym(dlHandle, "__tlab_init_arg_count"));
  if (!missing.empty()) {
    std::string list;
    for (const std::string &name : missing) list += (list.empty() ? "" : ", ") + name;
    throw LoadError("program library " + path + " does not export " + list +
                    " (every generated library must export all __tlab_* trampolines of docs/runtime-abi.md and "
                    "include transient_runtime.h)");
  }

  // A GPU library is recognised by its timing hook; then the whole runner ABI of docs/gpu.md must be there.
  if (dlsym(dlHandle, "__tlab_gpu_timed_program") != nullptr) {
    library.gpu = true;
    GpuTrampolines &g = library.gpuFn;
    Resolve(dlHandle, "__tlab_gpu_timed_program", &g.timedProgram, &missing);
    Resolve(dlHandle, "__tlab_gpu_last_error", &g.lastError, &missing);
    Resolve(dlHandle, "__tlab_gpu_error_string", &g.errorString, &missing);
    Resolve(dlHandle, "__tlab_gpu_synchronize", &g.synchronize, &missing);
    Resolve(dlHandle, "__tlab_gpu_malloc", &g.malloc, &missing);
    Resolve(dlHandle, "__tlab_gpu_free", &g.free, &missing);
    Resolve(dlHandle, "__tlab_gpu_memcpy", &g.memcpy, &missing);
    Resolve(dlHandle, "__tlab_gpu_memset", &g.memset, &missing);
    Resolve(dlHandle, "__tlab_gpu_pool_attributes", &g.poolAttributes, &missing);
    Resolve(dlHandle, "__tlab_gpu_pooled", &g.pooled, &missing);
    Resolve(dlHandle, "__tlab_gpu_release_threshold", &g.releaseThreshold, &missing);
    Resolve(dlHandle, "__tlab_gpu_kernel_count", &g.kernelCount, &missing);
    Resolve(dlHandle, "__tlab_cuda_runtime_version", &g.runtimeVersion, &missing);
    if (!missing.empty()) {
      std::string list;
      for (const std::string &name : missing) list += (list.empty() ? "" : ", ") + name;
      throw LoadError("program library " + path + " exports __tlab_gpu_timed_program but not " + list +
                      " (a GPU program library exports the whole runner ABI of docs/gpu.md and includes "
                      "transient_cuda_runtime.h)");
    }
    const int gpuVersion = g.runtimeVersion();
    if (gpuVersion != kGpuRuntimeVersion) {
      throw LoadError("program library " + path + " was built against Transient Lab CUDA runtime version " +
                      std::to_string(gpuVersion) + ", but this addon speaks version " +
                      std::to_string(kGpuRuntimeVersion) + "; regenerate and rebuild the library");
    }
  }

  library.abiVersion = library.fn.abiVersion();
  if (library.abiVersion != TRANSIENT_RUNTIME_VERSION) {
    throw LoadError("program library " + path + " was built for Transient Lab runtime ABI version " +
                    std::to_string(library.abiVersion) + ", but this addon speaks version " +
                    std::to_string(TRANSIENT_RUNTIME_VERSION) + "; regenerate and rebuild the library");
  }

  library.events = library.fn.events();
  if (library.events == nullptr || library.events->events == nullptr || library.events->capacity == 0) {
    throw LoadError("program library " + path + ": __tlab_events() returned no usable event buffer");
  }
  if (library.events->version != TRANSIENT_RUNTIME_VERSION) {
    throw LoadError("program library " + path + ": its event buffer has version " +
                    std::to_string(library.events->version) + ", expected " +
                    std::to_string(TRANSIENT_RUNTIME_VERSION));
  }
  library.programName = FindProgramName(dlHandle);
  return library;
}

}  // namespace tlab
