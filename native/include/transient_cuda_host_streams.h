/*
 * The device, streams and events of the host CUDA runtime (transient_cuda_host_runtime.h includes this, after
 * the memory API): everything runs synchronously in issue order, so a synchronisation only makes the pool's
 * freed blocks reusable on every stream and trims the pool to its release threshold; an event records the host
 * clock. cudaSetDevice installs the fault handler.
 */
#ifndef TRANSIENT_CUDA_HOST_STREAMS_H
#define TRANSIENT_CUDA_HOST_STREAMS_H

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

#endif /* TRANSIENT_CUDA_HOST_STREAMS_H */
