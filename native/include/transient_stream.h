/*
 * Transient Lab stream runtime: DaCe's stream transients (`dace::Stream<T>`, dace/runtime/include/dace/stream.h)
 * as generated CPU code uses them. Included after transient_runtime.h by programs that have streams only
 * (docs/codegen.md, "Streams and consume scopes").
 *
 * A stream (or stream array: one queue per element of its shape) is one handle on the C++ stack. Its memory at
 * its site is one tlab_alloc'ed block holding every queue's header and a first block of `capacity` elements per
 * queue (DaCe's buffer_size, or TLAB_STREAM_DEFAULT_CAPACITY when the file says 0), so the analysis can count it
 * as one allocation per execution of its site. A queue is unbounded, as DaCe's CPU queue is, and, like that
 * queue (moodycamel's, which allocates fixed-size blocks and reuses drained ones), it is a chain of blocks: the
 * blocks of a queue form a cycle, and a push that fills its block moves on to the next block of the cycle when
 * pops have drained it, else inserts a new block there (tlab_alloc, so every byte a stream owns is recorded like
 * any transient's). A queue's memory is thus its peak live size rounded up to blocks, not all it was ever
 * pushed, no element is ever copied to make room, and a queue drained as fast as it is filled allocates nothing.
 * Growth depends on the data: the analysis does not predict it, the measured allocation counts show it.
 *
 * Why blocks of 1 KiB (TLAB_STREAM_BLOCK_BYTES): the earlier queue, one ring doubled as it filled, reached
 * several MiB, which glibc maps and unmaps at every call (about 5000 page faults a call in the constructs
 * bench's streams row). Blocks below glibc's mmap threshold are not enough: when a call's blocks are freed they
 * merge with the heap's top, and glibc trims a top above 128 KiB back to the kernel (64 KiB blocks: the same
 * ~3900 faults a call). Freed chunks of up to 1032 bytes go to glibc's per-thread cache first, which holds them
 * as in use; close frees the newest blocks first, so the one next to the top stays there, the rest merge below
 * it, and the heap keeps it all for the next call (0 faults a call, as std::deque's 512-byte nodes get).
 * Blocks are allocated at malloc's own alignment (16): a larger one goes through memalign, which glibc 2.36
 * never serves from that cache. The price is many allocations: ~8000 per million queued doubles.
 *
 * Order is FIFO. Pushes from parallel code take the handle's spin lock (`_locked`); a pop from an empty queue
 * would wait forever in DaCe (nothing else can push): here it stops the program with a message instead. Push and
 * pop are a compare and a pointer increment; moving to another block is the rare slow path. Bulk copies (DaCe's
 * push(ptr, n) and pop(ptr, n)) move whole runs, one per block they touch.
 */
#ifndef TRANSIENT_STREAM_H
#define TRANSIENT_STREAM_H

#include <algorithm>

#include "transient_runtime.h"

#define TLAB_STREAM_DEFAULT_CAPACITY 64
/* The bytes of a block a queue adds, its tail included (tests set it small to cross blocks with few elements). */
#ifndef TLAB_STREAM_BLOCK_BYTES
#define TLAB_STREAM_BLOCK_BYTES 1024
#endif
#define TLAB_STREAM_BLOCK_ALIGN 16

/* Where the block after a block lies: a block's link follows its elements (the first block's is in the queue's
 * header). The blocks of a queue form a cycle; `end` tells blocks apart. */
struct tlab_stream_link {
  void *begin;
  void *end;
};
/* What follows an added block's elements: its link, and the block the stream added before it (close frees the
 * blocks newest first through it). */
struct tlab_stream_block_tail {
  tlab_stream_link next;
  void *older;
};

template <typename T>
struct tlab_queue {
  T *head;     /* the next element to pop */
  T *head_end; /* the end of the head's block */
  T *tail;     /* where the next push goes */
  T *tail_end; /* the end of the tail's block */
  tlab_stream_link first; /* the block after the first block (the first block itself until a second exists) */
};
/* The analysis counts a header as 48 bytes (analysis/stream-footprint.ts): keep them in step. */
static_assert(sizeof(tlab_queue<double>) == 48, "tlab_queue header must be 48 bytes");

template <typename T>
struct tlab_stream {
  tlab_queue<T> *queues = nullptr;
  uint64_t count = 0;
  uint64_t initial = 0;
  size_t bytes = 0;
  void *newest = nullptr; /* the last block a queue added: a chain through tlab_stream_block_tail::older */
  int32_t index = -1;
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
};

/* Elements of a block a queue adds, and where its tail sits after them. */
template <typename T>
static constexpr size_t tlab_stream_block_elements() {
  return TLAB_STREAM_BLOCK_BYTES > sizeof(tlab_stream_block_tail) + sizeof(T)
             ? (TLAB_STREAM_BLOCK_BYTES - sizeof(tlab_stream_block_tail)) / sizeof(T)
             : 1;
}
template <typename T>
static constexpr size_t tlab_stream_tail_offset() {
  return (tlab_stream_block_elements<T>() * sizeof(T) + alignof(tlab_stream_block_tail) - 1) /
         alignof(tlab_stream_block_tail) * alignof(tlab_stream_block_tail);
}
template <typename T>
static constexpr size_t tlab_stream_block_bytes() {
  return tlab_stream_tail_offset<T>() + sizeof(tlab_stream_block_tail);
}
template <typename T>
static inline tlab_stream_block_tail *tlab_stream_tail_of(void *block) {
  return reinterpret_cast<tlab_stream_block_tail *>(static_cast<char *>(block) + tlab_stream_tail_offset<T>());
}

/* Allocates the block (headers, then the first blocks) at the stream's allocation site. */
template <typename T>
static inline void tlab_stream_open(tlab_stream<T> &s, uint64_t count, int64_t capacity, int32_t index) {
  // Headers are 48 bytes: the first blocks after them keep any scalar element's alignment.
  static_assert(alignof(T) <= 16, "stream elements are scalars");
  const uint64_t cap = capacity > 0 ? uint64_t(capacity) : TLAB_STREAM_DEFAULT_CAPACITY;
  s.count = count;
  s.initial = cap;
  s.index = index;
  s.bytes = size_t(count) * (sizeof(tlab_queue<T>) + size_t(cap) * sizeof(T));
  s.queues = static_cast<tlab_queue<T> *>(tlab_alloc(s.bytes, TLAB_DEFAULT_ALIGN, index));
  T *blocks = reinterpret_cast<T *>(s.queues + count);
  for (uint64_t i = 0; i < count; ++i) {
    T *begin = blocks + i * cap;
    s.queues[i] = tlab_queue<T>{begin, begin + cap, begin, begin + cap, {begin, begin + cap}};
  }
}

/* The link after the block that ends at `end`. */
template <typename T>
static inline tlab_stream_link &tlab_stream_link_after(tlab_stream<T> &s, int64_t i, T *end) {
  tlab_queue<T> &q = s.queues[i];
  T *first_end = reinterpret_cast<T *>(s.queues + s.count) + (uint64_t(i) + 1) * s.initial;
  if (end == first_end) return q.first;
  return tlab_stream_tail_of<T>(end - tlab_stream_block_elements<T>())->next;
}

/* The tail's block is full: the tail moves on to the next block of the cycle if the pops have drained it (or the
 * queue is empty, the head then moving with it), else to a new block inserted after the tail's. */
template <typename T>
static void tlab_stream_next_block(tlab_stream<T> &s, int64_t i) {
  tlab_queue<T> &q = s.queues[i];
  tlab_stream_link &after = tlab_stream_link_after(s, i, q.tail_end);
  if (q.head == q.tail) {
    q.head = q.tail = static_cast<T *>(after.begin);
    q.head_end = q.tail_end = static_cast<T *>(after.end);
    return;
  }
  if (after.end != q.head_end) {
    q.tail = static_cast<T *>(after.begin);
    q.tail_end = static_cast<T *>(after.end);
    return;
  }
  T *block = static_cast<T *>(tlab_alloc(tlab_stream_block_bytes<T>(), TLAB_STREAM_BLOCK_ALIGN, s.index));
  T *end = block + tlab_stream_block_elements<T>();
  *tlab_stream_tail_of<T>(block) = tlab_stream_block_tail{after, s.newest};
  s.newest = block;
  after = tlab_stream_link{block, end};
  q.tail = block;
  q.tail_end = end;
}

template <typename T>
static TLAB_ALWAYS_INLINE void tlab_stream_push(tlab_stream<T> &s, int64_t i, const T &value) {
  tlab_queue<T> &q = s.queues[i];
  if (q.tail == q.tail_end) tlab_stream_next_block(s, i);
  *q.tail++ = value;
}

/* DaCe's bulk push(ptr, n): n contiguous elements, in order, one run per block they fill. */
template <typename T>
static inline void tlab_stream_push_n(tlab_stream<T> &s, int64_t i, const T *src, int64_t n) {
  tlab_queue<T> &q = s.queues[i];
  uint64_t left = n > 0 ? uint64_t(n) : 0;
  while (left > 0) {
    if (q.tail == q.tail_end) tlab_stream_next_block(s, i);
    const uint64_t run = std::min(left, uint64_t(q.tail_end - q.tail));
    q.tail = std::copy(src, src + run, q.tail);
    src += run;
    left -= run;
  }
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
static TLAB_ALWAYS_INLINE bool tlab_stream_empty(const tlab_stream<T> &s, int64_t i) {
  return s.queues[i].head == s.queues[i].tail;
}

[[noreturn]] static inline void tlab_stream_empty_pop(void) {
  std::fprintf(stderr, "transient_stream: pop from an empty stream (DaCe's pop would wait forever)\n");
  std::abort();
}

/* The head's block is drained and the queue is not empty: the head moves on to the next block. */
template <typename T>
static inline void tlab_stream_next_head(tlab_stream<T> &s, int64_t i) {
  tlab_queue<T> &q = s.queues[i];
  const tlab_stream_link &after = tlab_stream_link_after(s, i, q.head_end);
  q.head = static_cast<T *>(after.begin);
  q.head_end = static_cast<T *>(after.end);
}

template <typename T>
static TLAB_ALWAYS_INLINE T tlab_stream_pop(tlab_stream<T> &s, int64_t i) {
  tlab_queue<T> &q = s.queues[i];
  if (q.head == q.tail) tlab_stream_empty_pop();
  if (q.head == q.head_end) tlab_stream_next_head(s, i);
  return *q.head++;
}

/* A bulk pop's start: DaCe's pop(ptr, n) waits for at least one element, which here nothing could push. */
template <typename T>
static inline void tlab_stream_wait(tlab_stream<T> &s, int64_t i) {
  if (tlab_stream_empty(s, i)) tlab_stream_empty_pop();
}

/* DaCe's bulk pop(ptr, n) after tlab_stream_wait: as many of n contiguous elements as the queue holds, in order,
 * one run per block. */
template <typename T>
static inline void tlab_stream_pop_n(tlab_stream<T> &s, int64_t i, T *dst, int64_t n) {
  tlab_queue<T> &q = s.queues[i];
  uint64_t left = n > 0 ? uint64_t(n) : 0;
  while (left > 0 && q.head != q.tail) {
    if (q.head == q.head_end) tlab_stream_next_head(s, i);
    // The tail's block ends where the queue does; any other block is full to its end (a push never moves the tail
    // into the head's block while the queue holds anything, so there the tail is ahead of the head).
    const T *stop = q.head_end == q.tail_end ? q.tail : q.head_end;
    const uint64_t run = std::min(left, uint64_t(stop - q.head));
    dst = std::copy(q.head, q.head + run, dst);
    q.head += run;
    left -= run;
  }
}

/* How many of the newest blocks close frees first: glibc's per-thread cache keeps 7 chunks of a size. */
#define TLAB_STREAM_FREE_NEWEST 7

/* Frees the blocks the queues added, then the site's block; elements still queued are dropped (DaCe's queue drops
 * them too). The newest blocks go first, into glibc's per-thread cache, where the one next to the heap's top keeps
 * the rest from merging into it; the rest go oldest first, merging into one free chunk below. Freed newest first
 * they would merge into the top one by one, and in another thread's arena (blocks an OpenMP thread of a parallel
 * map added) glibc then trims a page every few frees: ~500 madvise calls a call at N = 1 M with two threads. */
template <typename T>
static inline void tlab_stream_close(tlab_stream<T> &s) {
  void *block = s.newest;
  for (int k = 0; k < TLAB_STREAM_FREE_NEWEST && block != nullptr; ++k) {
    void *older = tlab_stream_tail_of<T>(block)->older;
    tlab_free(block, tlab_stream_block_bytes<T>(), TLAB_STREAM_BLOCK_ALIGN, s.index);
    block = older;
  }
  // The chain runs newest to oldest: reversed in place, it runs oldest to newest.
  void *oldest = nullptr;
  while (block != nullptr) {
    void *older = tlab_stream_tail_of<T>(block)->older;
    tlab_stream_tail_of<T>(block)->older = oldest;
    oldest = block;
    block = older;
  }
  while (oldest != nullptr) {
    void *newer = tlab_stream_tail_of<T>(oldest)->older;
    tlab_free(oldest, tlab_stream_block_bytes<T>(), TLAB_STREAM_BLOCK_ALIGN, s.index);
    oldest = newer;
  }
  s.newest = nullptr;
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
