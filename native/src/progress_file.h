// Progress of the timed calls, published through a small shared file that the runner's host polls.
//
// While the timed calls run, the runner's JavaScript thread must stay idle: anything it does allocates from the
// same glibc main arena the program allocates from, and changes what the program's allocations cost (see
// docs/native.md, "One uninterrupted loop"). So progress cannot go through the runner's IPC channel; the call
// loop stores it into this page instead (a plain store per call: no syscall, no malloc), and the host reads it.
//
// Layout (little-endian, the first 24 bytes of the file; electron/runner/progress-file.ts reads the same):
//   u32 magic 0x47504c54 ("TLPG")  u32 phase (0 none, 1 first call, 2 warm-up, 3 timed calls, 4 done)
//   u64 calls done in that phase   u64 calls in that phase
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace tlab {

enum class ProgressPhase : uint32_t { None = 0, FirstCall = 1, Warmup = 2, Calls = 3, Done = 4 };

class ProgressFile {
 public:
  static constexpr uint32_t kMagic = 0x47504c54;
  static constexpr size_t kBytes = 24;

  // Maps `path`, which must exist and hold at least kBytes (the host creates it). Throws std::runtime_error
  // naming the path and errno text.
  explicit ProgressFile(const std::string &path);
  ~ProgressFile();
  ProgressFile(const ProgressFile &) = delete;
  ProgressFile &operator=(const ProgressFile &) = delete;

  void Set(ProgressPhase phase, uint64_t done, uint64_t total);

 private:
  struct Page {
    std::atomic<uint32_t> magic;
    std::atomic<uint32_t> phase;
    std::atomic<uint64_t> done;
    std::atomic<uint64_t> total;
  };
  static_assert(sizeof(Page) == kBytes, "progress page layout");
  Page *page_ = nullptr;
  size_t mappedBytes_ = 0;
};

}  // namespace tlab
