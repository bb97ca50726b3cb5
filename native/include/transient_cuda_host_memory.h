/*
 * The memory API of the host CUDA runtime (transient_cuda_host_runtime.h includes this, after the regions):
 * the default stream-ordered pool (cudaMallocAsync, cudaFreeAsync, the release threshold, trimming and the
 * pool attributes), cudaMalloc/cudaFree and pinned host memory, and copies and memsets, whose device ranges
 * must lie in one live allocation.
 */
#ifndef TRANSIENT_CUDA_HOST_MEMORY_H
#define TRANSIENT_CUDA_HOST_MEMORY_H

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

#endif /* TRANSIENT_CUDA_HOST_MEMORY_H */
