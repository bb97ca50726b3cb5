// interpose::PatchLibrary: rewrites the GOT slots of one loaded library for the hooked allocation functions
// (docs/interpose.md, "How"). The hooks themselves and their bookkeeping are in interpose.cc.
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "interpose.h"
#include "interpose_detail.h"

namespace tlab {
namespace interpose {
namespace {

using detail::Hook;
using detail::Lookup;
using detail::Real;

#if defined(__x86_64__)
constexpr uint32_t kJumpSlot = R_X86_64_JUMP_SLOT, kGlobDat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT, kGlobDat = R_AARCH64_GLOB_DAT;
#else
#define TLAB_INTERPOSE_UNSUPPORTED 1
#endif

// The library's PT_GNU_RELRO range (absolute addresses): the loader made it read-only after relocation (full
// RELRO with RTLD_NOW puts the whole GOT there), so a slot in it is written with a brief mprotect.
struct Relro {
  uintptr_t start = 0, end = 0;
  uintptr_t base = 0;
};

int FindRelro(struct dl_phdr_info *info, size_t, void *data) {
  Relro *relro = static_cast<Relro *>(data);
  if (info->dlpi_addr != relro->base) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro->start = info->dlpi_addr + ph.p_vaddr;
      relro->end = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    }
  }
  return 1;
}

void WriteSlot(void **slot, void *value, const Relro &relro) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t at = reinterpret_cast<uintptr_t>(slot) & ~(page - 1);
  // The loader protects [start, end) rounded down to pages; the page holding `end` stays writable.
  const bool readOnly = at >= (relro.start & ~(page - 1)) && at < (relro.end & ~(page - 1));
  if (readOnly && mprotect(reinterpret_cast<void *>(at), page, PROT_READ | PROT_WRITE) != 0) {
    throw std::runtime_error(std::string("cannot make a GOT page writable: ") + std::strerror(errno));
  }
  __atomic_store_n(slot, value, __ATOMIC_RELEASE);
  if (readOnly) mprotect(reinterpret_cast<void *>(at), page, PROT_READ);
}

}  // namespace

PatchReport PatchLibrary(void *dlHandle) {
#ifdef TLAB_INTERPOSE_UNSUPPORTED
  (void)dlHandle;
  throw std::runtime_error("allocation interposition supports x86-64 and aarch64 Linux only");
#else
  struct link_map *map = nullptr;
  if (dlinfo(dlHandle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_ld == nullptr) {
    throw std::runtime_error("the library has no dynamic section (dlinfo failed)");
  }
  const uintptr_t base = map->l_addr;
  uintptr_t symtab = 0, strtab = 0, rela = 0, jmprel = 0;
  size_t relaSize = 0, jmprelSize = 0;
  int64_t pltRel = DT_RELA;
  for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
      case DT_STRTAB: strtab = d->d_un.d_ptr; break;
      case DT_RELA: rela = d->d_un.d_ptr; break;
      case DT_RELASZ: relaSize = d->d_un.d_val; break;
      case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
      case DT_PLTRELSZ: jmprelSize = d->d_un.d_val; break;
      case DT_PLTREL: pltRel = static_cast<int64_t>(d->d_un.d_val); break;
      default: break;
    }
  }
  // glibc relocates these in place where .dynamic is writable (x86-64, aarch64); elsewhere they stay offsets.
  const auto absolute = [base](uintptr_t p) { return p != 0 && p < base ? p + base : p; };
  symtab = absolute(symtab);
  strtab = absolute(strtab);
  rela = absolute(rela);
  jmprel = absolute(jmprel);
  if (symtab == 0 || strtab == 0) throw std::runtime_error("the library has no dynamic symbol table");
  if (pltRel != DT_RELA) throw std::runtime_error("the library's PLT relocations are not RELA (unsupported)");

  detail::Calibrate();
  Relro relro;
  relro.base = base;
  dl_iterate_phdr(FindRelro, &relro);

  const auto *symbols = reinterpret_cast<const ElfW(Sym) *>(symtab);
  const char *strings = reinterpret_cast<const char *>(strtab);
  PatchReport report;
  const auto walk = [&](uintptr_t table, size_t bytes) {
    const auto *entries = reinterpret_cast<const ElfW(Rela) *>(table);
    for (size_t i = 0; table != 0 && i < bytes / sizeof(ElfW(Rela)); ++i) {
      const uint32_t type = static_cast<uint32_t>(ELF64_R_TYPE(entries[i].r_info));
      if (type != kJumpSlot && type != kGlobDat) continue;
      const uint32_t symbol = static_cast<uint32_t>(ELF64_R_SYM(entries[i].r_info));
      if (symbol == 0) continue;
      const char *name = strings + symbols[symbol].st_name;
      const int fn = Lookup(name);
      if (fn < 0) continue;
      void **slot = reinterpret_cast<void **>(base + entries[i].r_offset);
      void *target = *slot;
      if (target == Hook(fn)) {
        report.patched.push_back(name);
        continue;
      }
      // Lazily bound slots point into the library's own PLT; resolve as the loader would instead.
      Dl_info where{};
      if (target == nullptr || (dladdr(target, &where) != 0 && reinterpret_cast<uintptr_t>(where.dli_fbase) == base &&
                                symbols[symbol].st_shndx == SHN_UNDEF)) {
        target = dlsym(dlHandle, name);
      }
      if (target == nullptr) {
        report.skipped.push_back(std::string(name) + ": not resolved");
        continue;
      }
      void *expected = nullptr;
      if (!Real(fn).compare_exchange_strong(expected, target) && expected != target) {
        Dl_info other{};
        const char *file = dladdr(target, &other) != 0 && other.dli_fname != nullptr ? other.dli_fname : "?";
        report.skipped.push_back(std::string(name) + ": resolves to a function in " + file +
                                 ", not the one the libraries patched before use");
        continue;
      }
      WriteSlot(slot, Hook(fn), relro);
      report.patched.push_back(name);
      ++report.slots;
    }
  };
  walk(jmprel, jmprelSize);
  walk(rela, relaSize);
  std::sort(report.patched.begin(), report.patched.end());
  report.patched.erase(std::unique(report.patched.begin(), report.patched.end()), report.patched.end());
  return report;
#endif
}

}  // namespace interpose
}  // namespace tlab
