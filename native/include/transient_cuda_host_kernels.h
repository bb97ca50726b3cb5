/*
 * Kernels and atomics of the host CUDA runtime (transient_cuda_host_runtime.h includes this, after the
 * streams): blocks in parallel over OpenMP threads, the threads of a block one after another, or as fibers
 * when the body synchronises (__syncthreads, __syncwarp); atomics that hold across the OS threads.
 */
#ifndef TRANSIENT_CUDA_HOST_KERNELS_H
#define TRANSIENT_CUDA_HOST_KERNELS_H

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

#endif /* TRANSIENT_CUDA_HOST_KERNELS_H */
