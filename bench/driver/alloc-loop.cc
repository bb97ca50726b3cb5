// A program library for the `interpose` bench section (bench/interpose.ts): every call makes ALLOC_LOOP_PAIRS
// small allocations and frees through the runtime header (tlab_alloc / tlab_free, i.e. aligned operator new[] and
// delete[], as generated code does), so the header and the interposition hooks both see every one and the
// hooks' own cost shows against a cheap allocator. Follows docs/runtime-abi.md; no arguments, no init symbols.
#include "transient_runtime.h"

#include <cstdint>

#ifndef ALLOC_LOOP_PAIRS
#define ALLOC_LOOP_PAIRS 8192
#endif

namespace {
int state;
void *volatile sink;
}  // namespace

extern "C" {
void *__tlab_init(const int64_t *) { return &state; }
int __tlab_exit(void *) { return 0; }
void __tlab_program(void *, void *const *) {
  for (int i = 0; i < ALLOC_LOOP_PAIRS; ++i) {
    void *p = tlab_alloc(64, 64, 0);
    sink = p;
    tlab_free(p, 64, 64, 0);
  }
}
uint64_t __tlab_external_size(void *, const char *, const int64_t *) { return UINT64_MAX; }
int __tlab_set_external(void *, const char *, char *, const int64_t *) { return -1; }
uint32_t __tlab_external_slot_count(const char *) { return 0; }
int __tlab_set_external_offsets(void *, const char *, char *, const uint64_t *, uint32_t) { return -1; }
uint32_t __tlab_arg_count(void) { return 0; }
uint32_t __tlab_init_symbol_count(void) { return 0; }
}
