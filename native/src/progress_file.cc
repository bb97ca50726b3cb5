#include "progress_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tlab {

ProgressFile::ProgressFile(const std::string &path) {
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open the progress file " + path + ": " + std::strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0 || info.st_size < static_cast<off_t>(kBytes)) {
    close(fd);
    // Mapping past the end of a file would turn the first progress store into SIGBUS.
    throw std::runtime_error("the progress file " + path + " is shorter than " + std::to_string(kBytes) + " bytes");
  }
  mappedBytes_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (static_cast<size_t>(info.st_size) < mappedBytes_) mappedBytes_ = kBytes;
  void *mapping = mmap(nullptr, mappedBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int mapError = errno;
  close(fd);
  if (mapping == MAP_FAILED) throw std::runtime_error("cannot map the progress file " + path + ": " + std::strerror(mapError));
  page_ = static_cast<Page *>(mapping);
  page_->magic.store(kMagic, std::memory_order_relaxed);
}

ProgressFile::~ProgressFile() {
  if (page_ != nullptr) munmap(page_, mappedBytes_);
}

void ProgressFile::Set(ProgressPhase phase, uint64_t done, uint64_t total) {
  // The host may read between these stores and see a new phase with an old count: harmless for a progress
  // bar, and the phase (what a crash is attributed to) is stored first.
  page_->phase.store(static_cast<uint32_t>(phase), std::memory_order_release);
  page_->total.store(total, std::memory_order_release);
  page_->done.store(done, std::memory_order_release);
}

}  // namespace tlab
