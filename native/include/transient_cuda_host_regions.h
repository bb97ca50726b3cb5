/*
 * Device memory of the host CUDA runtime (transient_cuda_host_runtime.h includes this, after the types and
 * errors it declares): every allocation a region of its own mapping between PROT_NONE guard pages, the regions
 * opened for a kernel, a copy or a memset and closed again, and the SIGSEGV/SIGBUS handler that names the array
 * a fault touched.
 */
#ifndef TRANSIENT_CUDA_HOST_REGIONS_H
#define TRANSIENT_CUDA_HOST_REGIONS_H

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

#endif /* TRANSIENT_CUDA_HOST_REGIONS_H */
