// The bare C driver of the `runner-vs-bare` bench section: the smallest program that times a generated
// library the way DaCe's own users call it. It dlopen()s the library, calls the same `__tlab_*` exports the
// runner's addon calls (docs/runtime-abi.md), and times each `__tlab_program` call with CLOCK_MONOTONIC and
// its minor page faults with getrusage(RUSAGE_SELF), exactly as native/src/call_loop.cc does, but in a plain
// process: no Node, no V8, default glibc malloc settings. Built by the bench with the compiler and flags the
// addon uses.
//
// Usage: bare-driver SPEC OUT
// SPEC, one directive per line (written by bench/runner-vs-bare.ts):
//   lib PATH             the program library
//   init V…              init symbol values (int64, `__tlab_init` order)
//   arg BYTES FILE       one argument in `__tlab_program` order: BYTES bytes read from FILE
//   external STORAGE     a storage whose workspace this driver allocates (EXTERNAL)
//   warmup W / settle S / calls N   untimed calls, up to S more until three calls in a row fault at most 8
//                        pages (the runner's rule, native/src/call_loop.cc), then timed calls
// OUT receives one line per timed call, `totalNs minorFaults`, then `warmup CALLS` (the untimed calls made).
#define TLAB_RUNTIME_TYPES_ONLY
#include "transient_runtime.h"

#include <dlfcn.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using InitFn = void *(*)(const int64_t *, void *const *);
using ProgramFn = void (*)(void *, void *const *);
using ExitFn = int (*)(void *);
using ExternalSizeFn = uint64_t (*)(void *, const char *, const int64_t *);
using SetExternalFn = int (*)(void *, const char *, char *, const int64_t *);
using EventsFn = tlab_event_buffer *(*)();

[[noreturn]] void Die(const std::string &message) {
  std::fprintf(stderr, "bare-driver: %s\n", message.c_str());
  std::exit(2);
}

template <typename Fn>
Fn Symbol(void *lib, const char *name) {
  void *address = dlsym(lib, name);
  if (address == nullptr) Die(std::string("missing export ") + name);
  return reinterpret_cast<Fn>(address);
}

uint64_t MinorFaults() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_minflt);
}

// 64-byte aligned, at least 8 bytes (scalars are read through a pointer of their C type).
char *AlignedCopy(const std::string &file, size_t bytes) {
  const size_t rounded = ((bytes < 8 ? 8 : bytes) + 63) / 64 * 64;
  char *buffer = static_cast<char *>(std::aligned_alloc(64, rounded));
  if (buffer == nullptr) Die("out of memory for an argument of " + std::to_string(bytes) + " bytes");
  std::memset(buffer, 0, rounded);
  std::ifstream in(file, std::ios::binary);
  if (!in.read(buffer, static_cast<std::streamsize>(bytes))) Die("cannot read " + std::to_string(bytes) + " bytes from " + file);
  return buffer;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) Die("usage: bare-driver SPEC OUT");
  std::ifstream spec(argv[1]);
  if (!spec) Die(std::string("cannot read ") + argv[1]);
  std::string libPath;
  std::vector<int64_t> initSymbols;
  std::vector<void *> args;
  std::vector<std::string> externals;
  long warmup = 0, settle = 0, calls = 0;
  for (std::string line; std::getline(spec, line);) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "lib") {
      words >> libPath;
    } else if (key == "init") {
      for (int64_t v; words >> v;) initSymbols.push_back(v);
    } else if (key == "arg") {
      size_t bytes = 0;
      std::string file;
      words >> bytes >> file;
      args.push_back(AlignedCopy(file, bytes));
    } else if (key == "external") {
      std::string storage;
      words >> storage;
      externals.push_back(storage);
    } else if (key == "warmup") {
      words >> warmup;
    } else if (key == "settle") {
      words >> settle;
    } else if (key == "calls") {
      words >> calls;
    } else if (!key.empty()) {
      Die("unknown directive " + key);
    }
  }
  if (libPath.empty() || calls < 1) Die("the spec needs lib and calls");

  void *lib = dlopen(libPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) Die(std::string("dlopen: ") + dlerror());
  const auto init = Symbol<InitFn>(lib, "__tlab_init");
  const auto program = Symbol<ProgramFn>(lib, "__tlab_program");
  const auto exitFn = Symbol<ExitFn>(lib, "__tlab_exit");
  const auto externalSize = Symbol<ExternalSizeFn>(lib, "__tlab_external_size");
  const auto setExternal = Symbol<SetExternalFn>(lib, "__tlab_set_external");
  tlab_event_buffer *events = Symbol<EventsFn>(lib, "__tlab_events")();

  // The arguments go to init too: a program whose init code reads them takes them there (docs/runtime-abi.md).
  if (args.empty()) args.push_back(nullptr);
  void *handle = init(initSymbols.data(), args.data());
  if (handle == nullptr) Die("__tlab_init returned NULL");
  std::vector<char *> workspaces;
  for (const std::string &storage : externals) {
    const uint64_t bytes = externalSize(handle, storage.c_str(), initSymbols.data());
    char *workspace = static_cast<char *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64));
    if (workspace == nullptr || setExternal(handle, storage.c_str(), workspace, initSymbols.data()) != 0) {
      Die("cannot set the " + storage + " workspace");
    }
    workspaces.push_back(workspace);
  }

  // The first call and the warm-up are untimed, as in the runner, and so is settling (same rule, same bounds).
  if (warmup == 0) settle = 0;
  std::vector<uint64_t> warmFaults;
  warmFaults.reserve(static_cast<size_t>(warmup + settle));
  tlab_reset(events, tlab_now_ns());
  program(handle, args.data());
  const auto settled = [&] {
    const size_t n = warmFaults.size();
    if (n < 3) return false;
    for (size_t i = n - 3; i < n; ++i) {
      if (warmFaults[i] > 8) return false;
    }
    return true;
  };
  for (long i = 0; i < warmup + settle && (i < warmup || !settled()); ++i) {
    const uint64_t before = MinorFaults();
    tlab_reset(events, tlab_now_ns());
    program(handle, args.data());
    warmFaults.push_back(MinorFaults() - before);
  }
  std::vector<uint64_t> totalNs(static_cast<size_t>(calls)), faults(static_cast<size_t>(calls));
  uint64_t faultsBefore = MinorFaults();
  for (long i = 0; i < calls; ++i) {
    const uint64_t start = tlab_now_ns();
    tlab_reset(events, start);
    program(handle, args.data());
    const uint64_t end = tlab_now_ns();
    const uint64_t faultsAfter = MinorFaults();
    totalNs[static_cast<size_t>(i)] = end - start;
    faults[static_cast<size_t>(i)] = faultsAfter - faultsBefore;
    faultsBefore = faultsAfter;
  }
  if (exitFn(handle) != 0) Die("__tlab_exit returned an error");

  FILE *out = std::fopen(argv[2], "w");
  if (out == nullptr) Die(std::string("cannot write ") + argv[2]);
  for (long i = 0; i < calls; ++i) std::fprintf(out, "%llu %llu\n", static_cast<unsigned long long>(totalNs[i]), static_cast<unsigned long long>(faults[i]));
  std::fprintf(out, "warmup %zu\n", warmFaults.size());
  std::fclose(out);
  return 0;
}
