// The hooks, their clock and event buffer, and the call windows (docs/interpose.md). got_patch.cc puts the hooks
// into a library's GOT.
#include "interpose.h"

#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <new>

#include "interpose_detail.h"

namespace tlab {
namespace interpose {
namespace {

// The hooked functions. The order is the index an event's `transient` field encodes (-(1 + index)) and the order
// of FunctionNames(): append only.
enum Fn : int32_t {
  kMalloc,
  kCalloc,
  kFree,
  kPosixMemalign,
  kAlignedAlloc,
  kMemalign,
  kNew,              // operator new(size_t)
  kNewArray,         // operator new[](size_t)
  kNewAligned,       // operator new(size_t, align_val_t)
  kNewArrayAligned,  // operator new[](size_t, align_val_t): what DaCe and tlab_alloc call
  kDelete,
  kDeleteArray,
  kDeleteSized,
  kDeleteArraySized,
  kDeleteAligned,
  kDeleteArrayAligned,  // what tlab_free calls
  kDeleteSizedAligned,
  kDeleteArraySizedAligned,
  kCudaMalloc,
  kCudaFree,
  kCudaMallocAsync,
  kCudaFreeAsync,
  kCudaMallocFromPoolAsync,
  kCudaMallocHost,
  kCudaFreeHost,
  kCount,
  kNoop = kCount,  // MeasureHookCostNs only; never patched
};

const char *const kNames[kCount] = {
    "malloc",
    "calloc",
    "free",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
    "_Znwm",
    "_Znam",
    "_ZnwmSt11align_val_t",
    "_ZnamSt11align_val_t",
    "_ZdlPv",
    "_ZdaPv",
    "_ZdlPvm",
    "_ZdaPvm",
    "_ZdlPvSt11align_val_t",
    "_ZdaPvSt11align_val_t",
    "_ZdlPvmSt11align_val_t",
    "_ZdaPvmSt11align_val_t",
    "cudaMalloc",
    "cudaFree",
    "cudaMallocAsync",
    "cudaFreeAsync",
    "cudaMallocFromPoolAsync",
    "cudaMallocHost",
    "cudaFreeHost",
};

// The function each library's slot pointed to before it was patched (one per symbol for the whole process).
std::atomic<void *> g_real[kCount + 1];
std::atomic<bool> g_open{false};
std::atomic<uint64_t> g_outside{0};

constexpr uint32_t kCapacity = TLAB_EVENT_CAPACITY;
tlab_event g_storage[kCapacity];
tlab_event_buffer g_events = {TRANSIENT_RUNTIME_VERSION, kCapacity, {0}, {0}, 0, 0, 0, 0, g_storage};

// The hooks' clock. Two clock_gettime calls (~24 ns each on an idle VM) were the whole of a hook's cost; on x86-64
// with a TSC the kernel itself trusts (constant, nonstop, and the current clocksource), the hooks read the TSC
// instead (~8 ns) and convert to CLOCK_MONOTONIC ns against a pair of readings taken when the window opened, with a
// frequency calibrated once against CLOCK_MONOTONIC. Events thus stay on the clock of the call loop's timestamps.
struct HookClock {
  bool tsc = false;
  // ns per tick, 32.32 fixed point.
  uint64_t mult = 0;
  uint64_t baseTicks = 0;
  uint64_t baseNs = 0;
};
HookClock g_clock;

#if defined(__x86_64__)
inline uint64_t Ticks() { return __rdtsc(); }

bool KernelTrustsTsc() {
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  if (!(source >> name) || name != "tsc") return false;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, 5, "flags") == 0) {
      return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
    }
  }
  return false;
}

// One (ns, ticks) pair from the tightest of a few clock_gettime brackets around a TSC read: a preempted reading
// is thrown away, so the pair is good to well under a microsecond even on a busy machine.
void Pair(uint64_t *ns, uint64_t *ticks) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    const uint64_t a = tlab_now_ns();
    const uint64_t t = Ticks();
    const uint64_t b = tlab_now_ns();
    if (b - a < best) {
      best = b - a;
      *ns = a + (b - a) / 2;
      *ticks = t;
    }
  }
}

void CalibrateClock() {
  if (g_clock.mult != 0 || !KernelTrustsTsc()) return;
  uint64_t ns0, t0, ns1, t1;
  Pair(&ns0, &t0);
  const timespec wait{0, 20 * 1000 * 1000};
  nanosleep(&wait, nullptr);
  Pair(&ns1, &t1);
  if (t1 <= t0 || ns1 <= ns0) return;
  g_clock.mult = static_cast<uint64_t>((static_cast<unsigned __int128>(ns1 - ns0) << 32) / (t1 - t0));
  g_clock.tsc = g_clock.mult != 0;
}
#else
inline uint64_t Ticks() { return 0; }
void CalibrateClock() {}
#endif

inline uint64_t HookNow() {
  if (!g_clock.tsc) return tlab_now_ns();
  const uint64_t elapsed = Ticks() - g_clock.baseTicks;
  return g_clock.baseNs + static_cast<uint64_t>((static_cast<unsigned __int128>(elapsed) * g_clock.mult) >> 32);
}

template <typename F>
inline F Real(Fn fn) {
  return reinterpret_cast<F>(g_real[fn].load(std::memory_order_relaxed));
}

// True when no window is open: the hook then forwards untimed (one relaxed load and one increment more than the
// real call).
inline bool Outside() {
  if (g_open.load(std::memory_order_relaxed)) return false;
  g_outside.fetch_add(1, std::memory_order_relaxed);
  return true;
}

inline void Record(Fn fn, uint64_t t0, uint64_t t1, uint64_t bytes, int32_t kind) {
  tlab_record(&g_events, t0, t1, bytes, -1 - static_cast<int32_t>(fn), kind);
}

// One hook per signature shape. `bytes` of a free is what the caller passed (sized delete), else 0.
#define TLAB_TIMED(fn, type, call, bytes, kind) \
  auto real = Real<type>(fn);                   \
  if (Outside()) return call;                   \
  const uint64_t t0 = HookNow();                \
  auto result = call;                           \
  const uint64_t t1 = HookNow();                \
  Record(fn, t0, t1, bytes, kind);              \
  return result;
#define TLAB_TIMED_VOID(fn, type, call, bytes, kind) \
  auto real = Real<type>(fn);                        \
  if (Outside()) return call;                        \
  const uint64_t t0 = HookNow();                     \
  call;                                              \
  const uint64_t t1 = HookNow();                     \
  Record(fn, t0, t1, bytes, kind);

using AlignT = std::align_val_t;
using Stream = void *;

void *HMalloc(size_t n) { TLAB_TIMED(kMalloc, void *(*)(size_t), real(n), n, TLAB_EVENT_ALLOC) }
void *HCalloc(size_t k, size_t n) { TLAB_TIMED(kCalloc, void *(*)(size_t, size_t), real(k, n), k * n, TLAB_EVENT_ALLOC) }
void HFree(void *p) { TLAB_TIMED_VOID(kFree, void (*)(void *), real(p), 0, TLAB_EVENT_FREE) }
int HPosixMemalign(void **out, size_t a, size_t n) {
  TLAB_TIMED(kPosixMemalign, int (*)(void **, size_t, size_t), real(out, a, n), n, TLAB_EVENT_ALLOC)
}
void *HAlignedAlloc(size_t a, size_t n) {
  TLAB_TIMED(kAlignedAlloc, void *(*)(size_t, size_t), real(a, n), n, TLAB_EVENT_ALLOC)
}
void *HMemalign(size_t a, size_t n) { TLAB_TIMED(kMemalign, void *(*)(size_t, size_t), real(a, n), n, TLAB_EVENT_ALLOC) }
void *HNew(size_t n) { TLAB_TIMED(kNew, void *(*)(size_t), real(n), n, TLAB_EVENT_ALLOC) }
void *HNewArray(size_t n) { TLAB_TIMED(kNewArray, void *(*)(size_t), real(n), n, TLAB_EVENT_ALLOC) }
void *HNewAligned(size_t n, AlignT a) {
  TLAB_TIMED(kNewAligned, void *(*)(size_t, AlignT), real(n, a), n, TLAB_EVENT_ALLOC)
}
void *HNewArrayAligned(size_t n, AlignT a) {
  TLAB_TIMED(kNewArrayAligned, void *(*)(size_t, AlignT), real(n, a), n, TLAB_EVENT_ALLOC)
}
void HDelete(void *p) { TLAB_TIMED_VOID(kDelete, void (*)(void *), real(p), 0, TLAB_EVENT_FREE) }
void HDeleteArray(void *p) { TLAB_TIMED_VOID(kDeleteArray, void (*)(void *), real(p), 0, TLAB_EVENT_FREE) }
void HDeleteSized(void *p, size_t n) {
  TLAB_TIMED_VOID(kDeleteSized, void (*)(void *, size_t), real(p, n), n, TLAB_EVENT_FREE)
}
void HDeleteArraySized(void *p, size_t n) {
  TLAB_TIMED_VOID(kDeleteArraySized, void (*)(void *, size_t), real(p, n), n, TLAB_EVENT_FREE)
}
void HDeleteAligned(void *p, AlignT a) {
  TLAB_TIMED_VOID(kDeleteAligned, void (*)(void *, AlignT), real(p, a), 0, TLAB_EVENT_FREE)
}
void HDeleteArrayAligned(void *p, AlignT a) {
  TLAB_TIMED_VOID(kDeleteArrayAligned, void (*)(void *, AlignT), real(p, a), 0, TLAB_EVENT_FREE)
}
void HDeleteSizedAligned(void *p, size_t n, AlignT a) {
  TLAB_TIMED_VOID(kDeleteSizedAligned, void (*)(void *, size_t, AlignT), real(p, n, a), n, TLAB_EVENT_FREE)
}
void HDeleteArraySizedAligned(void *p, size_t n, AlignT a) {
  TLAB_TIMED_VOID(kDeleteArraySizedAligned, void (*)(void *, size_t, AlignT), real(p, n, a), n, TLAB_EVENT_FREE)
}
// cudaError_t is an enum of int size; cudaStream_t and cudaMemPool_t are pointers.
int HCudaMalloc(void **p, size_t n) {
  TLAB_TIMED(kCudaMalloc, int (*)(void **, size_t), real(p, n), n, TLAB_EVENT_DEVICE_ALLOC)
}
int HCudaFree(void *p) { TLAB_TIMED(kCudaFree, int (*)(void *), real(p), 0, TLAB_EVENT_DEVICE_FREE) }
int HCudaMallocAsync(void **p, size_t n, Stream s) {
  TLAB_TIMED(kCudaMallocAsync, int (*)(void **, size_t, Stream), real(p, n, s), n, TLAB_EVENT_DEVICE_ALLOC)
}
int HCudaFreeAsync(void *p, Stream s) {
  TLAB_TIMED(kCudaFreeAsync, int (*)(void *, Stream), real(p, s), 0, TLAB_EVENT_DEVICE_FREE)
}
int HCudaMallocFromPoolAsync(void **p, size_t n, void *pool, Stream s) {
  TLAB_TIMED(kCudaMallocFromPoolAsync, int (*)(void **, size_t, void *, Stream), real(p, n, pool, s), n,
             TLAB_EVENT_DEVICE_ALLOC)
}
// Page-locked host memory: host events, as transient_cuda_runtime.h records them.
int HCudaMallocHost(void **p, size_t n) {
  TLAB_TIMED(kCudaMallocHost, int (*)(void **, size_t), real(p, n), n, TLAB_EVENT_ALLOC)
}
int HCudaFreeHost(void *p) { TLAB_TIMED(kCudaFreeHost, int (*)(void *), real(p), 0, TLAB_EVENT_FREE) }

__attribute__((noinline)) void *NoopReal(size_t n) {
  asm volatile("" ::: "memory");
  return reinterpret_cast<void *>(n);
}
void *HNoop(size_t n) { TLAB_TIMED(kNoop, void *(*)(size_t), real(n), n, TLAB_EVENT_ALLOC) }

#undef TLAB_TIMED
#undef TLAB_TIMED_VOID

void *const kHooks[kCount] = {
    reinterpret_cast<void *>(&HMalloc),
    reinterpret_cast<void *>(&HCalloc),
    reinterpret_cast<void *>(&HFree),
    reinterpret_cast<void *>(&HPosixMemalign),
    reinterpret_cast<void *>(&HAlignedAlloc),
    reinterpret_cast<void *>(&HMemalign),
    reinterpret_cast<void *>(&HNew),
    reinterpret_cast<void *>(&HNewArray),
    reinterpret_cast<void *>(&HNewAligned),
    reinterpret_cast<void *>(&HNewArrayAligned),
    reinterpret_cast<void *>(&HDelete),
    reinterpret_cast<void *>(&HDeleteArray),
    reinterpret_cast<void *>(&HDeleteSized),
    reinterpret_cast<void *>(&HDeleteArraySized),
    reinterpret_cast<void *>(&HDeleteAligned),
    reinterpret_cast<void *>(&HDeleteArrayAligned),
    reinterpret_cast<void *>(&HDeleteSizedAligned),
    reinterpret_cast<void *>(&HDeleteArraySizedAligned),
    reinterpret_cast<void *>(&HCudaMalloc),
    reinterpret_cast<void *>(&HCudaFree),
    reinterpret_cast<void *>(&HCudaMallocAsync),
    reinterpret_cast<void *>(&HCudaFreeAsync),
    reinterpret_cast<void *>(&HCudaMallocFromPoolAsync),
    reinterpret_cast<void *>(&HCudaMallocHost),
    reinterpret_cast<void *>(&HCudaFreeHost),
};

int LookupName(const char *name) {
  for (int i = 0; i < kCount; ++i) {
    if (std::strcmp(name, kNames[i]) == 0) return i;
  }
  return -1;
}

}  // namespace

namespace detail {
int Lookup(const char *name) { return LookupName(name); }
void *Hook(int fn) { return kHooks[fn]; }
std::atomic<void *> &Real(int fn) { return g_real[fn]; }
void Calibrate() { CalibrateClock(); }
}  // namespace detail

WindowTotals Sum(const tlab_event_buffer *events) {
  WindowTotals totals;
  const uint64_t recorded = events->count.load(std::memory_order_acquire);
  const uint64_t kept = std::min<uint64_t>(recorded, events->capacity);
  for (uint64_t i = 0; i < kept; ++i) {
    const tlab_event &e = events->events[i];
    const uint64_t spent = e.t1_ns - e.t0_ns;
    if (e.kind == TLAB_EVENT_ALLOC || e.kind == TLAB_EVENT_DEVICE_ALLOC) {
      ++totals.allocs;
      totals.allocBytes += e.bytes;
      totals.allocNs += spent;
      if (e.kind == TLAB_EVENT_DEVICE_ALLOC) ++totals.deviceAllocs;
    } else {
      ++totals.frees;
      totals.freeNs += spent;
      if (e.kind == TLAB_EVENT_DEVICE_FREE) ++totals.deviceFrees;
    }
  }
  totals.overflowed = recorded > events->capacity || events->overflowed.load(std::memory_order_relaxed) != 0;
  return totals;
}

tlab_event_buffer *Events() { return &g_events; }

void Open() {
  // The base pair of this window (the TSC's and CLOCK_MONOTONIC's readings may drift apart over minutes).
  if (g_clock.tsc) {
    g_clock.baseNs = tlab_now_ns();
    g_clock.baseTicks = Ticks();
  }
  g_open.store(true, std::memory_order_release);
}
void Close() { g_open.store(false, std::memory_order_release); }

void Begin() {
  tlab_reset(&g_events, tlab_now_ns());
  Open();
}

WindowTotals End() {
  Close();
  return Sum(&g_events);
}

uint64_t OutsideCalls() { return g_outside.load(std::memory_order_relaxed); }

const std::vector<std::string> &FunctionNames() {
  static const std::vector<std::string> names(kNames, kNames + kCount);
  return names;
}

namespace {
void (*g_program)(void *, void *const *) = nullptr;
int (*g_gpuTimed)(void *, void *const *, uint64_t *, float *) = nullptr;
tlab_event_buffer *g_header = nullptr;

// Closes the window however the call ends (a C++ exception out of the program included).
struct WindowGuard {
  WindowGuard() {
    if (g_header != nullptr) tlab_reset(g_header, tlab_now_ns());
    Open();
  }
  ~WindowGuard() { Close(); }
};
}  // namespace

void SetWindowedCallee(void (*program)(void *, void *const *),
                       int (*gpuTimed)(void *, void *const *, uint64_t *, float *), tlab_event_buffer *headerEvents) {
  g_program = program;
  g_gpuTimed = gpuTimed;
  g_header = headerEvents;
}

void WindowedProgram(void *handle, void *const *argv) {
  WindowGuard window;
  g_program(handle, argv);
}

int WindowedGpuTimedProgram(void *handle, void *const *argv, uint64_t *hostNs, float *deviceMs) {
  WindowGuard window;
  return g_gpuTimed(handle, argv, hostNs, deviceMs);
}

double MeasureHookCostNs(uint64_t iterations) {
  CalibrateClock();
  g_real[kNoop].store(reinterpret_cast<void *>(&NoopReal), std::memory_order_relaxed);
  // Through volatile pointers, as a library calls through its GOT slot.
  void *(*volatile hooked)(size_t) = &HNoop;
  void *(*volatile bare)(size_t) = &NoopReal;
  const auto loop = [iterations](void *(*fn)(size_t)) {
    Begin();
    const uint64_t start = tlab_now_ns();
    for (uint64_t i = 0; i < iterations; ++i) {
      // Stay below capacity: a dropped event is cheaper and would flatter the number.
      if (i % kCapacity == 0) g_events.count.store(0, std::memory_order_relaxed);
      fn(i);
    }
    const uint64_t spent = tlab_now_ns() - start;
    Close();
    return static_cast<double>(spent);
  };
  const double withHook = loop(hooked);
  const double without = loop(bare);
  tlab_reset(&g_events, tlab_now_ns());
  return std::max(0.0, (withHook - without) / static_cast<double>(iterations));
}

}  // namespace interpose
}  // namespace tlab
