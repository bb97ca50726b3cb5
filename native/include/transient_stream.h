/*
 * Transient Lab stream runtime: DaCe's stream transients (`dace::Stream<T>`, dace/runtime/include/dace/stream.h)
 * as generated CPU code uses them. Included after transient_runtime.h by programs that have streams only
 * (docs/codegen.md, "Streams and consume scopes").
 *
 * A stream (or stream array: one queue per element of its shape) is one handle on the C++ stack. Its memory is
 * one tlab_alloc'ed block holding every queue's header and an initial ring of `capacity` elements per queue
 * (DaCe's buffer_size, or TLAB_STREAM_DEFAULT_CAPACITY when the file says 0), so the analysis can count it as
 * one allocation per execution of its site. A queue is unbounded, as DaCe's CPU queue is: a full ring grows to
 * twice its size through tlab_alloc (and the outgrown ring, if it was not the initial one, through tlab_free),
 * so every byte a stream owns is recorded like any transient's. Growth depends on the data: the analysis does
 * not predict it, the measured allocation counts show it.
 *
 * Order is FIFO. Pushes from parallel code take the handle's spin lock (`_locked`); a pop from an empty queue
 * would wait forever in DaCe (nothing else can push): here it stops the program with a message instead. Ring
 * positions wrap by a compare, not a division (a 64-bit `%` per push and per pop was most of a queue's cost);
 * contiguous bulk copies move whole runs (DaCe's push(ptr, n) and pop(ptr, n)) and grow the ring once.
 */
#ifndef TRANSIENT_STREAM_H
#define TRANSIENT_STREAM_H

#include <algorithm>

#include "transient_runtime.h"

#define TLAB_STREAM_DEFAULT_CAPACITY 64

template <typename T>
struct tlab_queue {
  T *ring;
  uint64_t capacity;
  uint64_t head;
  uint64_t size;
};
/* The analysis counts a header as 32 bytes (analysis/stream-footprint.ts): keep them in step. */
static_assert(sizeof(tlab_queue<double>) == 32, "tlab_queue header must be 32 bytes");

template <typename T>
struct tlab_stream {
  tlab_queue<T> *queues = nullptr;
  uint64_t count = 0;
  uint64_t initial = 0;
  size_t bytes = 0;
  int32_t index = -1;
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
};

/* Allocates the block (headers, then the initial rings) at the stream's allocation site. */
template <typename T>
static inline void tlab_stream_open(tlab_stream<T> &s, uint64_t count, int64_t capacity, int32_t index) {
  const uint64_t cap = capacity > 0 ? uint64_t(capacity) : TLAB_STREAM_DEFAULT_CAPACITY;
  s.count = count;
  s.initial = cap;
  s.index = index;
  s.bytes = size_t(count) * (sizeof(tlab_queue<T>) + size_t(cap) * sizeof(T));
  s.queues = static_cast<tlab_queue<T> *>(tlab_alloc(s.bytes, TLAB_DEFAULT_ALIGN, index));
  T *rings = reinterpret_cast<T *>(s.queues + count);
  for (uint64_t i = 0; i < count; ++i) s.queues[i] = tlab_queue<T>{rings + i * cap, cap, 0, 0};
}

template <typename T>
static inline bool tlab_stream_owns_ring(const tlab_stream<T> &s, uint64_t i) {
  return s.queues[i].ring != reinterpret_cast<T *>(s.queues + s.count) + i * s.initial;
}

/* The ring index `k` places after the head (k < 2 * capacity): a compare, not a 64-bit division per element. */
template <typename T>
static TLAB_ALWAYS_INLINE uint64_t tlab_queue_slot(const tlab_queue<T> &q, uint64_t k) {
  const uint64_t at = q.head + k;
  return at >= q.capacity ? at - q.capacity : at;
}

/* Doubles queue i's ring until it holds `need` elements: the queued elements move to the new ring's start, in
 * two contiguous runs (the ring's tail part, then its wrapped head part). */
template <typename T>
static void tlab_stream_grow(tlab_stream<T> &s, int64_t i, uint64_t need) {
  tlab_queue<T> &q = s.queues[i];
  uint64_t grown = q.capacity;
  while (grown < need) grown *= 2;
  T *ring = static_cast<T *>(tlab_alloc(size_t(grown) * sizeof(T), TLAB_DEFAULT_ALIGN, s.index));
  const uint64_t first = std::min(q.size, q.capacity - q.head);
  std::copy(q.ring + q.head, q.ring + q.head + first, ring);
  std::copy(q.ring, q.ring + (q.size - first), ring + first);
  if (tlab_stream_owns_ring(s, uint64_t(i))) tlab_free(q.ring, size_t(q.capacity) * sizeof(T), TLAB_DEFAULT_ALIGN, s.index);
  q.ring = ring;
  q.capacity = grown;
  q.head = 0;
}

/* Room for `n` more elements in queue i before a bulk push: one grown ring instead of one per doubling. */
template <typename T>
static inline void tlab_stream_reserve(tlab_stream<T> &s, int64_t i, uint64_t n) {
  tlab_queue<T> &q = s.queues[i];
  if (q.capacity - q.size < n) tlab_stream_grow(s, i, q.size + n);
}

template <typename T>
static inline void tlab_stream_push(tlab_stream<T> &s, int64_t i, const T &value) {
  tlab_queue<T> &q = s.queues[i];
  if (q.size == q.capacity) tlab_stream_grow(s, i, q.capacity * 2);
  q.ring[tlab_queue_slot(q, q.size)] = value;
  ++q.size;
}

/* DaCe's bulk push(ptr, n): n contiguous elements, in order, in at most two runs (the ring may wrap). */
template <typename T>
static inline void tlab_stream_push_n(tlab_stream<T> &s, int64_t i, const T *src, int64_t n) {
  if (n <= 0) return;
  tlab_stream_reserve(s, i, uint64_t(n));
  tlab_queue<T> &q = s.queues[i];
  const uint64_t tail = tlab_queue_slot(q, q.size);
  const uint64_t first = std::min(uint64_t(n), q.capacity - tail);
  std::copy(src, src + first, q.ring + tail);
  std::copy(src + first, src + n, q.ring);
  q.size += uint64_t(n);
}

/* A push from code that runs on several OpenMP threads at once (a parallel map's body). */
template <typename T>
static inline void tlab_stream_push_locked(tlab_stream<T> &s, int64_t i, const T &value) {
  while (s.lock.test_and_set(std::memory_order_acquire)) {
  }
  tlab_stream_push(s, i, value);
  s.lock.clear(std::memory_order_release);
}

template <typename T>
static inline bool tlab_stream_empty(const tlab_stream<T> &s, int64_t i) {
  return s.queues[i].size == 0;
}

template <typename T>
static inline T tlab_stream_pop(tlab_stream<T> &s, int64_t i) {
  tlab_queue<T> &q = s.queues[i];
  if (q.size == 0) {
    std::fprintf(stderr, "transient_stream: pop from an empty stream (DaCe's pop would wait forever)\n");
    std::abort();
  }
  const T value = q.ring[q.head];
  q.head = q.head + 1 == q.capacity ? 0 : q.head + 1;
  --q.size;
  return value;
}

/* A bulk pop's start: DaCe's pop(ptr, n) waits for at least one element, which here nothing could push. */
template <typename T>
static inline void tlab_stream_wait(tlab_stream<T> &s, int64_t i) {
  if (s.queues[i].size == 0) {
    std::fprintf(stderr, "transient_stream: pop from an empty stream (DaCe's pop would wait forever)\n");
    std::abort();
  }
}

/* DaCe's bulk pop(ptr, n) after tlab_stream_wait: as many of n contiguous elements as the queue holds, in order. */
template <typename T>
static inline void tlab_stream_pop_n(tlab_stream<T> &s, int64_t i, T *dst, int64_t n) {
  if (n <= 0) return;
  tlab_queue<T> &q = s.queues[i];
  const uint64_t count = std::min(uint64_t(n), q.size);
  const uint64_t first = std::min(count, q.capacity - q.head);
  std::copy(q.ring + q.head, q.ring + q.head + first, dst);
  std::copy(q.ring, q.ring + (count - first), dst + first);
  q.head = tlab_queue_slot(q, count);
  q.size -= count;
}

/* Frees grown rings, then the block; elements still queued are dropped (DaCe's queue drops them too). */
template <typename T>
static inline void tlab_stream_close(tlab_stream<T> &s) {
  for (uint64_t i = 0; i < s.count; ++i)
    if (tlab_stream_owns_ring(s, i)) tlab_free(s.queues[i].ring, size_t(s.queues[i].capacity) * sizeof(T), TLAB_DEFAULT_ALIGN, s.index);
  tlab_free(s.queues, s.bytes, TLAB_DEFAULT_ALIGN, s.index);
  s.queues = nullptr;
}

/* A tasklet's output connector bound to one queue: each assignment pushes (DaCe's `sout = x` on a stream). */
template <typename T, bool LOCKED>
struct tlab_stream_writer {
  tlab_stream<T> *s;
  int64_t i;
  /* A locked writer in a parallel map that runs on one thread alone (tlab_omp_alone): pushes need no lock. */
  bool alone = false;
  template <typename V>
  tlab_stream_writer &operator=(const V &value) {
    push(value);
    return *this;
  }
  template <typename V>
  void push(const V &value) {
    if (LOCKED && !alone)
      tlab_stream_push_locked(*s, i, T(value));
    else
      tlab_stream_push(*s, i, T(value));
  }
};

#endif
