/*
 * Transient Lab runtime: allocation instrumentation shared by every generated program library and by the
 * native addon (native/src). Plain C++17, no Node, no N-API. See docs/runtime-abi.md and docs/native.md.
 *
 * A generated translation unit includes this header exactly once. That TU then owns the library's event
 * buffer and exports `__tlab_events`, `__tlab_set_poison` and `__tlab_abi_version`; including it in a second TU
 * of the same library fails at link time (duplicate definitions), which is the intended loud failure.
 *
 * The addon includes it with TLAB_RUNTIME_TYPES_ONLY defined: it needs the types and the recording routine
 * (to measure the per-event cost on the very same code), but must not define a buffer or exports of its own.
 */
#ifndef TRANSIENT_RUNTIME_H
#define TRANSIENT_RUNTIME_H

/* 2: __tlab_init takes the argument vector too (`void *(const int64_t *syms, void *const *argv)`), because a
 * program whose init code reads its arguments gets them in __dace_init_<n> (docs/runtime-abi.md). */
#define TRANSIENT_RUNTIME_VERSION 2

#ifndef __cplusplus
#error "transient_runtime.h needs C++17 (it allocates like DaCe, with aligned operator new[])"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#ifdef _OPENMP
#include <omp.h>
#endif

/* DaCe allocates CPU_Heap arrays with `new (std::align_val_t(64)) T[n]`. */
#define TLAB_DEFAULT_ALIGN 64

/* Events per call before the buffer overflows. A library may be built with a larger value: the addon reads
 * the capacity from the buffer, never from this macro. */
#ifndef TLAB_EVENT_CAPACITY
#define TLAB_EVENT_CAPACITY 65536
#endif

#if defined(__GNUC__)
#define TLAB_EXPORT __attribute__((visibility("default")))
#define TLAB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TLAB_EXPORT
#define TLAB_ALWAYS_INLINE inline
#endif

enum tlab_event_kind : int32_t {
  TLAB_EVENT_ALLOC = 0,
  TLAB_EVENT_FREE = 1,
  /* Reserved for the GPU path (cudaMallocAsync / cudaFreeAsync through a dlopen'ed cudart, timed with host
   * timestamps for the enqueue and CUDA events for the device side). Not produced by ABI version 1. */
  TLAB_EVENT_DEVICE_ALLOC = 2,
  TLAB_EVENT_DEVICE_FREE = 3,
};

/* One instrumented allocation or free. Times are CLOCK_MONOTONIC ns (what std::chrono::steady_clock reads on
 * Linux), so the addon can put them relative to the call start it took with the same clock. */
struct tlab_event {
  uint64_t t0_ns;
  uint64_t t1_ns;
  uint64_t bytes;
  int32_t transient; /* index into GeneratedProgram.transientIds */
  int32_t kind;      /* tlab_event_kind */
};
static_assert(sizeof(tlab_event) == 32, "tlab_event is part of the ABI: 32 bytes");

struct tlab_event_buffer {
  /* Checked by the addon: a library built against another header version is refused. */
  uint32_t version;
  uint32_t capacity;
  /* Slots handed out since the last reset; may exceed capacity (those events are dropped). */
  std::atomic<uint64_t> count;
  std::atomic<uint32_t> overflowed;
  /* Poisoning is configured before a call and only read during it, so plain fields suffice. */
  int32_t poison_on;
  int32_t poison_pattern;
  uint32_t reserved0;
  /* Set by the addon right before each call (CLOCK_MONOTONIC ns). */
  uint64_t call_start_ns;
  /* `capacity` slots. A pointer rather than a trailing array so a library built with another capacity
   * stays well-defined for the reader. */
  tlab_event *events;
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "the event count must be a lock-free atomic");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "the overflow flag must be a lock-free atomic");

static TLAB_ALWAYS_INLINE uint64_t tlab_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

/* The hot path: one atomic fetch_add for the slot, plain stores into it. Allocations inside OpenMP parallel
 * regions each get their own slot; the addon reads the buffer only after the program call has returned (the
 * OpenMP join orders those stores before the read). */
static TLAB_ALWAYS_INLINE void tlab_record(tlab_event_buffer *buffer, uint64_t t0_ns, uint64_t t1_ns, uint64_t bytes,
                                           int32_t transient_index, int32_t kind) {
  const uint64_t slot = buffer->count.fetch_add(1, std::memory_order_relaxed);
  if (slot >= buffer->capacity) {
    buffer->overflowed.store(1, std::memory_order_relaxed);
    return;
  }
  tlab_event &event = buffer->events[slot];
  event.t0_ns = t0_ns;
  event.t1_ns = t1_ns;
  event.bytes = bytes;
  event.transient = transient_index;
  event.kind = kind;
}

/* Resets the buffer before a call (single-threaded: no program code is running). */
static inline void tlab_reset(tlab_event_buffer *buffer, uint64_t call_start_ns) {
  buffer->count.store(0, std::memory_order_relaxed);
  buffer->overflowed.store(0, std::memory_order_relaxed);
  buffer->call_start_ns = call_start_ns;
}

static inline size_t tlab_checked_align(size_t align) {
  if (align == 0) return TLAB_DEFAULT_ALIGN;
  if ((align & (align - 1)) != 0) {
    /* An invalid alignment is undefined behaviour for aligned operator new: stop here, loudly. */
    std::fprintf(stderr, "transient_runtime: alignment %zu is not a power of two (generated code bug)\n", align);
    std::abort();
  }
  return align;
}

#ifndef TLAB_RUNTIME_TYPES_ONLY

/* Internal linkage: every program library has its own buffer even when two are loaded into one process. */
static tlab_event tlab_runtime_event_storage[TLAB_EVENT_CAPACITY];
static tlab_event_buffer tlab_runtime_events = {
    TRANSIENT_RUNTIME_VERSION, TLAB_EVENT_CAPACITY, {0}, {0}, 0, 0, 0, 0, tlab_runtime_event_storage};

/* Exactly what DaCe's CPU_Heap allocation does, between two timestamps. Poisoning is verification, not
 * allocation cost, so it happens after t1. `align` 0 means DaCe's default of 64. */
static inline void *tlab_alloc(size_t bytes, size_t align, int32_t transient_index) {
  const size_t alignment = tlab_checked_align(align);
  const uint64_t t0 = tlab_now_ns();
  void *block = ::operator new[](bytes, std::align_val_t(alignment));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_ALLOC);
  if (tlab_runtime_events.poison_on && bytes != 0) {
    std::memset(block, tlab_runtime_events.poison_pattern, bytes);
  }
  return block;
}

/* Gives a stack transient (Register storage, a scalar kept as a local, a small local array) the same poison as
 * heap memory from tlab_alloc, right after its (uninitialised) declaration. Without it a read of such a
 * transient before any write would see whatever the stack held, identically in both verification calls, and
 * go unnoticed. Not an allocation: nothing is recorded. When poisoning is off (every timed call) it costs one
 * load of a global and one branch that is never taken, so it may sit inside hot map bodies. */
static TLAB_ALWAYS_INLINE void tlab_poison_stack(void *block, size_t bytes) {
  if (tlab_runtime_events.poison_on && bytes != 0) {
    std::memset(block, tlab_runtime_events.poison_pattern, bytes);
  }
}

/* Whether a parallel region started here runs on this thread alone with nothing running beside it: no enclosing
 * active parallel region, and a team bound of one (the map's num_threads when it sets one, else nthreads-var;
 * a team never exceeds it). A parallel map tests it once before its loop, so that with one thread its
 * write-conflict resolutions and stream pushes skip the atomic, critical section or lock, which cost more than
 * the work (a named critical section per element was 2/3 of the constructs bench's vector program). The
 * operations and their order are the same (a team of one runs the iterations in order), so results are
 * bitwise those of the synchronised path. */
static inline bool tlab_omp_alone(int num_threads) {
#ifdef _OPENMP
  return !omp_in_parallel() && (num_threads > 0 ? num_threads : omp_get_max_threads()) == 1;
#else
  (void)num_threads;
  return true;
#endif
}

/* The matching aligned delete[] (DaCe frees with `delete[]` on the aligned array). `bytes` is only recorded. */
static inline void tlab_free(void *block, size_t bytes, size_t align, int32_t transient_index) {
  const size_t alignment = tlab_checked_align(align);
  const uint64_t t0 = tlab_now_ns();
  ::operator delete[](block, std::align_val_t(alignment));
  const uint64_t t1 = tlab_now_ns();
  tlab_record(&tlab_runtime_events, t0, t1, bytes, transient_index, TLAB_EVENT_FREE);
}

extern "C" {

TLAB_EXPORT tlab_event_buffer *__tlab_events(void) { return &tlab_runtime_events; }

TLAB_EXPORT void __tlab_set_poison(int on, int pattern) {
  tlab_runtime_events.poison_pattern = pattern & 0xff;
  tlab_runtime_events.poison_on = on ? 1 : 0;
}

TLAB_EXPORT int __tlab_abi_version(void) { return TRANSIENT_RUNTIME_VERSION; }

} /* extern "C" */

#endif /* TLAB_RUNTIME_TYPES_ONLY */

#endif /* TRANSIENT_RUNTIME_H */
