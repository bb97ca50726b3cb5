/*
 * Transient Lab host CUDA runtime (`--gpu host`, docs/gpu-host.md): the subset of the CUDA runtime API and of
 * CUDA C++ that generated GPU programs use, implemented on the CPU so the very same translation unit compiles
 * with g++ (`-x c++ -DTLAB_CUDA_HOST -fopenmp`) and runs on a machine without a GPU. transient_cuda_runtime.h
 * includes it in place of <cuda_runtime.h>; everything above that (instrumented allocators, copies, exports) is
 * shared with the device build.
 *
 * - Kernels (`tlab_launch`): blocks in parallel over OpenMP threads, the threads of a block one after another on
 *   the block's OS thread. `tlab_launch_blocks` (kernels whose body synchronises: thread-block and warp maps)
 *   runs every thread of the block as a fiber (ucontext) so `__syncthreads()` and `__syncwarp()` are real
 *   barriers: a thread that reaches one waits until every live thread of its block (of its warp) has.
 *   `__shared__` is one instance per OS thread, i.e. per running block.
 * - Device memory is not host memory: every allocation is its own mapping with PROT_NONE guard pages, the data
 *   placed against the guard page after it (256-B aligned, the slack before that page filled with a canary).
 *   Outside kernel launches, copies and memsets every device region is PROT_NONE, so host code touching device
 *   memory faults; a SIGSEGV handler names the array (`__tlab_gpu_transient_name`) and what happened before the
 *   process dies (the supervised runner reports the line). Blocks freed to the pool stay PROT_NONE in kernels.
 * - The default pool: cudaMallocAsync/cudaFreeAsync with per-stream reuse of freed blocks, the release
 *   threshold (blocks above it are released at synchronisation), cudaMemPoolTrimTo and the four
 *   reserved/used current/high attributes.
 * - Streams and events: everything runs synchronously in issue order (a kernel is done when its launch
 *   returns); an event records the host clock.
 */
#ifndef TRANSIENT_CUDA_HOST_RUNTIME_H
#define TRANSIENT_CUDA_HOST_RUNTIME_H

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static thread_local

/* ---- types ---- */
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5,
  cudaMemPoolAttrReservedMemHigh = 6,
  cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8,
};
struct tlab_host_stream {
  int id;
};
typedef tlab_host_stream *cudaStream_t;
struct tlab_host_event {
  uint64_t ns;
  bool recorded;
};
typedef tlab_host_event *cudaEvent_t;
struct tlab_host_pool;
typedef tlab_host_pool *cudaMemPool_t;

/* ---- errors ---- */
static cudaError_t tlab_host_last_error = cudaSuccess;

static inline cudaError_t tlab_host_fail(cudaError_t err) {
  if (err != cudaSuccess) __atomic_store_n(&tlab_host_last_error, err, __ATOMIC_RELAXED);
  return err;
}

static inline cudaError_t cudaGetLastError(void) {
  const cudaError_t e = __atomic_exchange_n(&tlab_host_last_error, cudaSuccess, __ATOMIC_RELAXED);
  return e;
}
static inline cudaError_t cudaPeekAtLastError(void) { return tlab_host_last_error; }

static inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}

/* Names of the generated program's transients (emitted by the CUDA backend). */
extern "C" const char *__tlab_gpu_transient_name(uint32_t index);

/* ---- device memory regions ---- */
enum tlab_region_kind : uint8_t { TLAB_REGION_FREE = 0, TLAB_REGION_DEVICE = 1, TLAB_REGION_POOL = 2, TLAB_REGION_ARGUMENTS = 3 };

struct tlab_region {
  char *map;        /* the whole mapping: guard page, data pages, guard page */
  size_t map_bytes;
  char *user;       /* what the program got */
  size_t bytes;     /* what it asked for */
  size_t capacity;  /* data pages (pool blocks are reused for requests up to this) */
  int32_t index;    /* transient index, -1 for argument memory */
  uint8_t kind;
  uint8_t in_use;   /* pool blocks: 0 while cached in the pool */
  cudaStream_t stream; /* pool blocks: the stream of the last free */
  uint8_t synced;   /* pool blocks: a synchronisation happened since the free (reusable on any stream) */
};

#ifndef TLAB_HOST_MAX_REGIONS
#define TLAB_HOST_MAX_REGIONS 4096
#endif
static tlab_region tlab_regions[TLAB_HOST_MAX_REGIONS];
static size_t tlab_page = 0;
/* What runs while device memory is open (for the fault message): a kernel number, or a copy. */
static const char *volatile tlab_host_activity = "host code";
static int tlab_host_open_depth = 0;
static const unsigned char TLAB_CANARY = 0xcb;
static const size_t TLAB_DEVICE_ALIGN = 256;

static inline size_t tlab_round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }
static inline size_t tlab_host_page(void) {
  if (!tlab_page) tlab_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return tlab_page;
}

static inline const char *tlab_region_name(const tlab_region &r) {
  if (r.kind == TLAB_REGION_ARGUMENTS) return "runner memory (the argument arrays or an EXTERNAL workspace)";
  const char *n = r.index >= 0 ? __tlab_gpu_transient_name(static_cast<uint32_t>(r.index)) : nullptr;
  return n ? n : "(unnamed)";
}

/* The data is placed against the trailing guard page, 256-B aligned; the slack up to the page is canary. */
static inline void tlab_region_place(tlab_region &r, size_t bytes) {
  const size_t page = tlab_host_page();
  r.bytes = bytes;
  r.user = r.map + page + r.capacity - tlab_round_up(bytes ? bytes : 1, TLAB_DEVICE_ALIGN);
}

static inline bool tlab_region_access(tlab_region &r, bool open) {
  const size_t page = tlab_host_page();
  return mprotect(r.map + page, r.capacity, open ? PROT_READ | PROT_WRITE : PROT_NONE) == 0;
}

static inline void tlab_region_fill_slack(tlab_region &r) {
  char *end = r.user + r.bytes;
  char *limit = r.map + tlab_host_page() + r.capacity;
  if (end < limit) std::memset(end, TLAB_CANARY, static_cast<size_t>(limit - end));
}

static inline tlab_region *tlab_region_new(size_t bytes, int32_t index, uint8_t kind) {
  const size_t page = tlab_host_page();
  const size_t capacity = tlab_round_up(bytes ? bytes : 1, page);
  tlab_region *slot = nullptr;
  for (auto &r : tlab_regions)
    if (r.kind == TLAB_REGION_FREE) {
      slot = &r;
      break;
    }
  if (!slot) return nullptr;
  void *m = mmap(nullptr, capacity + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  tlab_region r{};
  r.map = static_cast<char *>(m);
  r.map_bytes = capacity + 2 * page;
  r.capacity = capacity;
  r.index = index;
  r.kind = kind;
  r.in_use = 1;
  tlab_region_place(r, bytes);
  tlab_region_access(r, true); /* a fresh anonymous mapping is zero-filled */
  tlab_region_fill_slack(r);
  if (tlab_host_open_depth == 0) tlab_region_access(r, false);
  *slot = r;
  return slot;
}

static inline void tlab_region_release(tlab_region *r) {
  munmap(r->map, r->map_bytes);
  *r = tlab_region{};
}

/* The live region holding [p, p + bytes), or null. */
static inline tlab_region *tlab_region_of(const void *p, size_t bytes) {
  const char *c = static_cast<const char *>(p);
  for (auto &r : tlab_regions) {
    if (r.kind == TLAB_REGION_FREE || !r.in_use) continue;
    if (c >= r.user && c + bytes <= r.user + r.bytes) return &r;
  }
  return nullptr;
}

static inline tlab_region *tlab_region_at(const void *p) {
  const char *c = static_cast<const char *>(p);
  for (auto &r : tlab_regions)
    if (r.kind != TLAB_REGION_FREE && c >= r.map && c < r.map + r.map_bytes) return &r;
  return nullptr;
}

/* Kernels, copies and memsets open device memory (every region in use) and close it afterwards. */
static inline void tlab_host_open(const char *activity) {
  if (tlab_host_open_depth++ == 0) {
    tlab_host_activity = activity;
    for (auto &r : tlab_regions)
      if (r.kind != TLAB_REGION_FREE && r.in_use) tlab_region_access(r, true);
  }
}

static inline void tlab_host_close(void) {
  if (--tlab_host_open_depth == 0) {
    for (auto &r : tlab_regions) {
      if (r.kind == TLAB_REGION_FREE || !r.in_use) continue;
      /* A write into the slack past an array's end reached no guard page: find it while it is readable. */
      const char *end = r.user + r.bytes;
      const char *limit = r.map + tlab_host_page() + r.capacity;
      for (const char *c = end; c < limit; c++) {
        if (static_cast<unsigned char>(*c) == TLAB_CANARY) continue;
        std::fprintf(stderr, "transient-lab: device memory fault: %s wrote byte %zu after the end of device array '%s' (%zu bytes)\n",
                     tlab_host_activity, static_cast<size_t>(c - end), tlab_region_name(r), r.bytes);
        tlab_host_fail(cudaErrorIllegalAddress);
        tlab_region_fill_slack(r);
        break;
      }
      tlab_region_access(r, false);
    }
    tlab_host_activity = "host code";
  }
}

/* ---- the fault handler: names the array, then lets the process die of the signal ---- */
static struct sigaction tlab_host_previous_segv, tlab_host_previous_bus;

static inline void tlab_host_write(const char *s) {
  ssize_t rc = write(2, s, std::strlen(s));
  (void)rc;
}

static void tlab_host_fault(int sig, siginfo_t *info, void *) {
  const char *addr = static_cast<const char *>(info->si_addr);
  tlab_region *r = tlab_region_at(addr);
  if (r) {
    char line[512];
    const size_t page = tlab_host_page();
    const char *data_end = r->map + page + r->capacity;
    const char *name = tlab_region_name(*r);
    if (addr >= data_end)
      std::snprintf(line, sizeof line,
                    "transient-lab: device memory fault: %s accessed byte %zu after the end of device array '%s' (%zu bytes)\n",
                    tlab_host_activity, static_cast<size_t>(addr - (r->user + r->bytes)), name, r->bytes);
    else if (addr < r->map + page)
      std::snprintf(line, sizeof line,
                    "transient-lab: device memory fault: %s accessed %zu bytes before the start of device array '%s' (%zu bytes), "
                    "or far past the end of the allocation below it\n",
                    tlab_host_activity, static_cast<size_t>(r->user - addr), name, r->bytes);
    else if (!r->in_use)
      std::snprintf(line, sizeof line,
                    "transient-lab: device memory fault: %s accessed device array '%s' after it was freed to the pool (cudaFreeAsync)\n",
                    tlab_host_activity, name);
    else
      std::snprintf(line, sizeof line,
                    "transient-lab: device memory fault: %s accessed device array '%s' at byte %lld outside a kernel or a copy "
                    "(device memory is not host memory)\n",
                    tlab_host_activity, name, static_cast<long long>(addr - r->user));
    tlab_host_write(line);
  }
  /* Die of the same signal (the previous handler, else the default action) when the access is retried. */
  const struct sigaction &prev = sig == SIGBUS ? tlab_host_previous_bus : tlab_host_previous_segv;
  sigaction(sig, &prev, nullptr);
}

static inline void tlab_host_install_fault_handler(void) {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = tlab_host_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &tlab_host_previous_segv);
  sigaction(SIGBUS, &sa, &tlab_host_previous_bus);
}

/* ---- the default pool ---- */
struct tlab_host_pool {
  uint64_t threshold = 0; /* CUDA's default: release everything unused at synchronisation */
  uint64_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
};
static tlab_host_pool tlab_default_pool;

static inline void tlab_pool_note(void) {
  tlab_host_pool &p = tlab_default_pool;
  if (p.reserved > p.reserved_high) p.reserved_high = p.reserved;
  if (p.used > p.used_high) p.used_high = p.used;
}

/* Releases cached blocks (largest first) until the pool holds at most `keep` bytes. */
static inline void tlab_pool_trim(uint64_t keep) {
  tlab_host_pool &p = tlab_default_pool;
  while (p.reserved > keep) {
    tlab_region *largest = nullptr;
    for (auto &r : tlab_regions)
      if (r.kind == TLAB_REGION_POOL && !r.in_use && (!largest || r.capacity > largest->capacity)) largest = &r;
    if (!largest) return;
    p.reserved -= largest->capacity;
    tlab_region_release(largest);
  }
}

/* A synchronisation point: freed blocks become reusable by any stream; memory above the threshold goes back. */
static inline void tlab_host_synchronised(void) {
  for (auto &r : tlab_regions)
    if (r.kind == TLAB_REGION_POOL && !r.in_use) r.synced = 1;
  tlab_pool_trim(tlab_default_pool.threshold);
}

static inline cudaError_t cudaMallocAsync(void **out, size_t bytes, cudaStream_t stream) {
  if (!out) return tlab_host_fail(cudaErrorInvalidValue);
  tlab_host_pool &p = tlab_default_pool;
  /* Stream-ordered reuse: a block freed on this stream (or freed before a synchronisation), smallest that fits. */
  tlab_region *best = nullptr;
  const size_t need = tlab_round_up(bytes ? bytes : 1, tlab_host_page());
  for (auto &r : tlab_regions) {
    if (r.kind != TLAB_REGION_POOL || r.in_use || r.capacity < need) continue;
    if (r.stream != stream && !r.synced) continue;
    if (!best || r.capacity < best->capacity) best = &r;
  }
  if (best) {
    best->in_use = 1;
    best->synced = 0;
    tlab_region_place(*best, bytes);
    tlab_region_access(*best, true);
    tlab_region_fill_slack(*best);
    if (!tlab_host_open_depth) tlab_region_access(*best, false);
  } else {
    best = tlab_region_new(bytes, -1, TLAB_REGION_POOL);
    if (!best) return tlab_host_fail(cudaErrorMemoryAllocation);
    p.reserved += best->capacity;
  }
  p.used += best->capacity;
  tlab_pool_note();
  *out = best->user;
  return cudaSuccess;
}

static inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
  if (!ptr) return cudaSuccess;
  tlab_region *r = tlab_region_of(ptr, 0);
  if (!r || r->kind != TLAB_REGION_POOL || r->user != ptr) return tlab_host_fail(cudaErrorInvalidValue);
  if (tlab_host_open_depth) tlab_region_access(*r, false);
  r->in_use = 0;
  r->stream = stream;
  r->synced = 0;
  tlab_default_pool.used -= r->capacity;
  return cudaSuccess;
}

static inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  if (device != 0) return tlab_host_fail(cudaErrorInvalidDevice);
  *pool = &tlab_default_pool;
  return cudaSuccess;
}

static inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  if (!pool || !value) return tlab_host_fail(cudaErrorInvalidValue);
  /* Callers pass unsigned long long (CUDA's type) or uint64_t: copy the bytes, never alias the pointer. */
  uint64_t v;
  std::memcpy(&v, value, sizeof v);
  switch (attr) {
    case cudaMemPoolAttrReleaseThreshold: pool->threshold = v; return cudaSuccess;
    /* Only 0 is accepted for the high-water marks: it resets them to the current value. */
    case cudaMemPoolAttrReservedMemHigh:
      if (v) break;
      pool->reserved_high = pool->reserved;
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
      if (v) break;
      pool->used_high = pool->used;
      return cudaSuccess;
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: return cudaSuccess;
    default: break;
  }
  return tlab_host_fail(cudaErrorInvalidValue);
}

static inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value) {
  if (!pool || !value) return tlab_host_fail(cudaErrorInvalidValue);
  uint64_t v = 0;
  switch (attr) {
    case cudaMemPoolAttrReleaseThreshold: v = pool->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent: v = pool->reserved; break;
    case cudaMemPoolAttrReservedMemHigh: v = pool->reserved_high; break;
    case cudaMemPoolAttrUsedMemCurrent: v = pool->used; break;
    case cudaMemPoolAttrUsedMemHigh: v = pool->used_high; break;
    default: return tlab_host_fail(cudaErrorInvalidValue);
  }
  std::memcpy(value, &v, sizeof v);
  return cudaSuccess;
}

static inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  if (!pool) return tlab_host_fail(cudaErrorInvalidValue);
  tlab_pool_trim(keep);
  return cudaSuccess;
}

/* ---- synchronous device memory ---- */
static inline cudaError_t tlab_host_malloc(void **out, size_t bytes, int32_t index, uint8_t kind) {
  if (!out) return tlab_host_fail(cudaErrorInvalidValue);
  tlab_region *r = tlab_region_new(bytes, index, kind);
  if (!r) return tlab_host_fail(cudaErrorMemoryAllocation);
  *out = r->user;
  return cudaSuccess;
}

static inline cudaError_t cudaMalloc(void **out, size_t bytes) { return tlab_host_malloc(out, bytes, -1, TLAB_REGION_DEVICE); }

static inline cudaError_t cudaFree(void *ptr) {
  if (!ptr) return cudaSuccess;
  tlab_region *r = tlab_region_of(ptr, 0);
  if (!r || r->kind == TLAB_REGION_POOL || r->user != ptr) return tlab_host_fail(cudaErrorInvalidValue);
  tlab_region_release(r);
  return cudaSuccess;
}

/* The transient's index, so the fault handler can name it (the instrumented allocators call this). */
static inline void tlab_host_name_allocation(void *ptr, int32_t index) {
  tlab_region *r = ptr ? tlab_region_of(ptr, 0) : nullptr;
  if (r) r->index = index;
}

static inline cudaError_t cudaMallocHost(void **out, size_t bytes) {
  *out = ::operator new(bytes ? bytes : 1, std::align_val_t(TLAB_DEVICE_ALIGN), std::nothrow);
  return *out ? cudaSuccess : tlab_host_fail(cudaErrorMemoryAllocation);
}
static inline cudaError_t cudaFreeHost(void *ptr) {
  ::operator delete(ptr, std::align_val_t(TLAB_DEVICE_ALIGN));
  return cudaSuccess;
}

/* ---- copies and memsets: device ranges must lie in one live allocation ---- */
static inline cudaError_t tlab_host_check_range(const void *p, size_t bytes, bool device) {
  if (!bytes) return cudaSuccess;
  const bool in_device = tlab_region_of(p, bytes) != nullptr;
  if (device && !in_device) {
    tlab_region *near = tlab_region_at(p);
    if (!near) near = tlab_region_of(p, 1);
    std::fprintf(stderr, "transient-lab: device memory fault: a copy of %zu bytes %s device memory%s%s%s\n", bytes,
                 near ? "runs outside" : "names host memory where it needs", near ? " of device array '" : "",
                 near ? tlab_region_name(*near) : "", near ? "'" : "");
    return tlab_host_fail(cudaErrorInvalidValue);
  }
  if (!device && in_device) return tlab_host_fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

static inline bool tlab_host_is_device(const void *p) { return tlab_region_of(p, 1) != nullptr; }

static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  if (!bytes) return cudaSuccess;
  const bool dst_dev = kind == cudaMemcpyDefault ? tlab_host_is_device(dst) : (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice);
  const bool src_dev = kind == cudaMemcpyDefault ? tlab_host_is_device(src) : (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice);
  cudaError_t e = tlab_host_check_range(dst, bytes, dst_dev);
  if (e == cudaSuccess) e = tlab_host_check_range(src, bytes, src_dev);
  if (e != cudaSuccess) return e;
  tlab_host_open("a copy");
  std::memmove(dst, src, bytes);
  tlab_host_close();
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                            cudaMemcpyKind kind, cudaStream_t = nullptr) {
  if (!width || !height) return cudaSuccess;
  if (width > dpitch || width > spitch) return tlab_host_fail(cudaErrorInvalidValue);
  const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
  const bool dst_dev = kind == cudaMemcpyDefault ? tlab_host_is_device(dst) : (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice);
  const bool src_dev = kind == cudaMemcpyDefault ? tlab_host_is_device(src) : (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice);
  cudaError_t e = tlab_host_check_range(dst, dspan, dst_dev);
  if (e == cudaSuccess) e = tlab_host_check_range(src, sspan, src_dev);
  if (e != cudaSuccess) return e;
  tlab_host_open("a copy");
  for (size_t row = 0; row < height; row++)
    std::memmove(static_cast<char *>(dst) + row * dpitch, static_cast<const char *>(src) + row * spitch, width);
  tlab_host_close();
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                       cudaMemcpyKind kind) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMemset(void *dst, int value, size_t bytes) {
  if (!bytes) return cudaSuccess;
  const cudaError_t e = tlab_host_check_range(dst, bytes, true);
  if (e != cudaSuccess) return e;
  tlab_host_open("a memset");
  std::memset(dst, value, bytes);
  tlab_host_close();
  return cudaSuccess;
}
static inline cudaError_t cudaMemsetAsync(void *dst, int value, size_t bytes, cudaStream_t = nullptr) { return cudaMemset(dst, value, bytes); }

/* ---- device, streams, events (all synchronous: work is done when its call returns) ---- */
static inline cudaError_t cudaGetDeviceCount(int *count) {
  *count = 1;
  return cudaSuccess;
}
static inline cudaError_t cudaSetDevice(int device) {
  tlab_host_install_fault_handler();
  return device == 0 ? cudaSuccess : tlab_host_fail(cudaErrorInvalidDevice);
}
static inline cudaError_t cudaDeviceSynchronize(void) {
  tlab_host_synchronised();
  return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t) {
  tlab_host_synchronised();
  return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = new (std::nothrow) tlab_host_event{0, false};
  return *e ? cudaSuccess : tlab_host_fail(cudaErrorMemoryAllocation);
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  if (!e) return tlab_host_fail(cudaErrorInvalidResourceHandle);
  e->ns = tlab_now_ns();
  e->recorded = true;
  return cudaSuccess;
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (!e) return tlab_host_fail(cudaErrorInvalidResourceHandle);
  tlab_host_synchronised();
  return cudaSuccess;
}
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!start || !stop || !start->recorded || !stop->recorded) return tlab_host_fail(cudaErrorInvalidResourceHandle);
  *ms = static_cast<float>(static_cast<double>(stop->ns - start->ns) / 1e6);
  return cudaSuccess;
}

/* ---- kernels ---- */
static thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;
static const int warpSize = 32;

enum tlab_fiber_state : uint8_t { TLAB_READY = 0, TLAB_AT_BLOCK = 1, TLAB_AT_WARP = 2, TLAB_DONE = 3 };

/* The block being run cooperatively on this OS thread (null: threads run one after another, no barriers). */
struct tlab_block_run {
  ucontext_t scheduler;
  std::vector<ucontext_t> contexts;
  std::vector<uint8_t> state;
  unsigned current;
  const void *body;
  void (*call)(const void *);
  bool trapped;
};
static thread_local tlab_block_run *tlab_block = nullptr;
static thread_local std::vector<char *> tlab_fiber_stacks;
static const size_t TLAB_FIBER_STACK = 256 * 1024;
/* A kernel trapped (or faulted in a barrier): the rest of the launch is skipped and the error recorded. */
static volatile int tlab_launch_failed = 0;
static thread_local jmp_buf *tlab_flat_trap = nullptr;

static inline void tlab_set_thread(unsigned t) {
  threadIdx.x = t % blockDim.x;
  threadIdx.y = (t / blockDim.x) % blockDim.y;
  threadIdx.z = t / (blockDim.x * blockDim.y);
}

static inline void tlab_yield(uint8_t why) {
  tlab_block_run *b = tlab_block;
  b->state[b->current] = why;
  swapcontext(&b->contexts[b->current], &b->scheduler);
  tlab_set_thread(b->current);
}

static inline void tlab_barrier_outside_fiber(const char *what) {
  if (blockDim.x * blockDim.y * blockDim.z == 1) return;
  std::fprintf(stderr, "transient-lab: %s in a kernel launched without block synchronisation (tlab_launch): use tlab_launch_blocks\n", what);
  std::abort();
}

static inline void __syncthreads(void) {
  if (tlab_block) tlab_yield(TLAB_AT_BLOCK);
  else tlab_barrier_outside_fiber("__syncthreads()");
}
static inline void __syncwarp(unsigned = 0xffffffffu) {
  if (tlab_block) tlab_yield(TLAB_AT_WARP);
  else tlab_barrier_outside_fiber("__syncwarp()");
}
static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

[[noreturn]] static inline void __trap(void) {
  std::fprintf(stderr, "transient-lab: kernel trapped (__trap) in block %u thread %u\n", blockIdx.x, threadIdx.x);
  tlab_launch_failed = 1;
  if (tlab_block) {
    tlab_block->trapped = true;
    tlab_block->state[tlab_block->current] = TLAB_DONE;
    setcontext(&tlab_block->scheduler);
  }
  if (tlab_flat_trap) longjmp(*tlab_flat_trap, 1);
  std::abort();
}

static void tlab_fiber_entry(void) {
  tlab_block_run *b = tlab_block;
  tlab_set_thread(b->current);
  b->call(b->body);
  b->state[b->current] = TLAB_DONE;
  /* uc_link returns to the scheduler. */
}

static inline char *tlab_fiber_stack(unsigned i) {
  while (tlab_fiber_stacks.size() <= i) {
    void *m = mmap(nullptr, TLAB_FIBER_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      std::fprintf(stderr, "transient-lab: cannot map a stack for emulated GPU thread %u\n", i);
      std::abort();
    }
    mprotect(m, tlab_host_page(), PROT_NONE); /* stack overflow faults instead of corrupting */
    tlab_fiber_stacks.push_back(static_cast<char *>(m));
  }
  return tlab_fiber_stacks[i];
}

/* Runs one block with barriers: every thread a fiber, round-robin until each is done or waits at a barrier. */
static inline void tlab_run_block_cooperative(unsigned threads, const void *body, void (*call)(const void *)) {
  tlab_block_run b;
  b.contexts.resize(threads);
  b.state.assign(threads, TLAB_READY);
  b.body = body;
  b.call = call;
  b.trapped = false;
  tlab_block = &b;
  for (unsigned t = 0; t < threads; t++) {
    getcontext(&b.contexts[t]);
    b.contexts[t].uc_stack.ss_sp = tlab_fiber_stack(t);
    b.contexts[t].uc_stack.ss_size = TLAB_FIBER_STACK;
    b.contexts[t].uc_link = &b.scheduler;
    makecontext(&b.contexts[t], tlab_fiber_entry, 0);
  }
  const unsigned warps = (threads + 31) / 32;
  for (;;) {
    bool live = false;
    for (unsigned t = 0; t < threads && !b.trapped; t++) {
      if (b.state[t] != TLAB_READY) continue;
      b.current = t;
      swapcontext(&b.scheduler, &b.contexts[t]);
    }
    if (b.trapped) break;
    /* Every live thread waits: release complete warps first, then the block barrier. */
    bool released = false;
    for (unsigned w = 0; w < warps; w++) {
      bool any = false, all = true;
      for (unsigned t = w * 32; t < threads && t < w * 32 + 32; t++) {
        if (b.state[t] == TLAB_DONE) continue;
        any = true;
        if (b.state[t] != TLAB_AT_WARP) all = false;
      }
      if (any && all) {
        for (unsigned t = w * 32; t < threads && t < w * 32 + 32; t++)
          if (b.state[t] == TLAB_AT_WARP) b.state[t] = TLAB_READY;
        released = true;
      }
    }
    bool all_block = true;
    for (unsigned t = 0; t < threads; t++) {
      if (b.state[t] == TLAB_DONE) continue;
      live = true;
      if (b.state[t] != TLAB_AT_BLOCK) all_block = false;
    }
    if (!live) break;
    if (released) continue;
    if (all_block) {
      for (unsigned t = 0; t < threads; t++)
        if (b.state[t] == TLAB_AT_BLOCK) b.state[t] = TLAB_READY;
      continue;
    }
    std::fprintf(stderr,
                 "transient-lab: kernel deadlock in block %u: some threads wait at __syncthreads() and others at __syncwarp() or "
                 "have no partner (a barrier not reached by every thread)\n",
                 blockIdx.x);
    tlab_launch_failed = 1;
    break;
  }
  tlab_block = nullptr;
}

template <class F>
static void tlab_call_body(const void *body) {
  (*static_cast<const F *>(body))();
}

static uint32_t tlab_kernel_counter = 0;

template <class F>
static inline void tlab_host_launch(dim3 grid, dim3 block, bool cooperative, const F &body) {
  const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  const unsigned threads = block.x * block.y * block.z;
  if (blocks == 0 || threads == 0 || threads > 1024) {
    tlab_host_fail(cudaErrorInvalidValue);
    return;
  }
  char activity[64];
  std::snprintf(activity, sizeof activity, "kernel launch %u", tlab_kernel_counter++);
  tlab_host_open(activity);
  tlab_launch_failed = 0;
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (uint64_t bi = 0; bi < blocks; bi++) {
    if (tlab_launch_failed) continue;
    gridDim = grid;
    blockDim = block;
    blockIdx.x = unsigned(bi % grid.x);
    blockIdx.y = unsigned((bi / grid.x) % grid.y);
    blockIdx.z = unsigned(bi / (uint64_t(grid.x) * grid.y));
    if (cooperative) {
      tlab_run_block_cooperative(threads, &body, tlab_call_body<F>);
    } else {
      jmp_buf trap;
      if (setjmp(trap) == 0) {
        tlab_flat_trap = &trap;
        for (unsigned t = 0; t < threads; t++) {
          tlab_set_thread(t);
          body();
        }
      }
      tlab_flat_trap = nullptr;
    }
  }
  tlab_host_close();
  if (tlab_launch_failed) tlab_host_fail(cudaErrorLaunchFailure);
}

/* Kernels without intra-block synchronisation: threads of a block run one after another. */
template <class F>
static inline void tlab_launch(dim3 grid, dim3 block, size_t, cudaStream_t, F body) {
  tlab_host_launch(grid, block, false, body);
}
/* Kernels whose body synchronises (thread-block and warp maps): threads of a block are fibers. */
template <class F>
static inline void tlab_launch_blocks(dim3 grid, dim3 block, size_t, cudaStream_t, F body) {
  tlab_host_launch(grid, block, true, body);
}

/* ---- atomics (blocks run on several OS threads) ---- */
template <class T>
static inline T tlab_host_atomic_add_cas(T *address, T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomicAdd needs a 4- or 8-byte type");
  using U = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;
  U *word = reinterpret_cast<U *>(address);
  U old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    T current, next;
    std::memcpy(&current, &old, sizeof(T));
    next = static_cast<T>(current + value);
    U desired;
    std::memcpy(&desired, &next, sizeof(T));
    if (__atomic_compare_exchange_n(word, &old, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return current;
  }
}
static inline float atomicAdd(float *a, float v) { return tlab_host_atomic_add_cas(a, v); }
static inline double atomicAdd(double *a, double v) { return tlab_host_atomic_add_cas(a, v); }
static inline int atomicAdd(int *a, int v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }
static inline unsigned int atomicAdd(unsigned int *a, unsigned int v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicAdd(unsigned long long *a, unsigned long long v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }
template <class U>
static inline U tlab_host_cas(U *a, U compare, U value) {
  __atomic_compare_exchange_n(a, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
static inline int atomicCAS(int *a, int c, int v) { return tlab_host_cas(a, c, v); }
static inline unsigned int atomicCAS(unsigned int *a, unsigned int c, unsigned int v) { return tlab_host_cas(a, c, v); }
static inline unsigned long long atomicCAS(unsigned long long *a, unsigned long long c, unsigned long long v) { return tlab_host_cas(a, c, v); }
static inline int atomicExch(int *a, int v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }
static inline unsigned int atomicExch(unsigned int *a, unsigned int v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }

#include "transient_cuda_host_device.h"

#endif /* TRANSIENT_CUDA_HOST_RUNTIME_H */
