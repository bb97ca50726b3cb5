/**
 * The CUDA backend: what a GPU program adds to the host emitter (core.ts `DeviceBackend`). The host code stays
 * the CPU emitter's; this module owns device memory (allocators per mode), kernels (kernel.ts), host-level copies
 * that touch device memory (copy.ts), device setup in init/exit and the GPU exports (docs/gpu.md).
 *
 * Memory modes, as DaCe builds them with gt4py's settings (reference dace-memory-abi.md §2.3, §5.8):
 * - SCOPED: `cudaMalloc`/`cudaFree` at the allocation site, every call;
 * - PERSISTENT: `cudaMalloc` in `__dace_init_<n>`, `cudaFree` in `__dace_exit_<n>`;
 * - POOL: every transient GPU_Global Array (any lifetime) uses `cudaMallocAsync`/`cudaFreeAsync` on the stream
 *   DaCe uses with `max_concurrent_streams=-1` (the legacy default stream, `nullptr`); init sets the default
 *   pool's release threshold exactly when such an allocation exists;
 * - EXTERNAL: eligible transients live in the caller's device workspace (abi.ts writes the get/set pair).
 */
import type { MapEntryNode, MemletEdge, Sdfg } from '../../model/sdfg.js';
import type { AllocationCode, StorageAllocator } from '../allocator.js';
import type { DeviceBackend, EmitCore, Env, FnCtx } from '../core.js';
import { containingScope, stateGraph, type StateGraph } from '../graph.js';
import { CUDA_STREAM, isDeviceStorage, UINT64_MAX, type KernelContext } from './common.js';
import { emitHostDeviceCopy } from './copy.js';
import { emitKernelMap } from './kernel.js';

export interface CudaBackendOptions {
  /** POOL: pooled allocations; other modes: synchronous cudaMalloc. */
  pool: boolean;
  /** The default pool's release threshold set in init when a pooled allocation exists. */
  releaseThreshold: bigint;
  /** Storage of a container as the program uses it (Default resolved as the analysis does for transients). */
  storageOf(s: Sdfg, name: string): string;
  /** Descriptor type of transient `index` (GeneratedProgram.transientIds order); only Arrays are pooled. */
  isArray(index: number): boolean;
  /** Whether the program pools at least one allocation (computed from the memory plan before emission). */
  pooled: boolean;
  /** Transient names by index (GeneratedProgram.transientIds order): the host runtime's fault messages. */
  transientNames: readonly string[];
}

const shifted = (ptr: string, startOffset: number, sign: '+' | '-') => (startOffset ? `${ptr} ${sign} ${startOffset}` : ptr);

/** CPU_Pinned: page-locked host memory (cuda.py's cudaMallocHost/cudaFreeHost); zeroed on the host. */
const PINNED: StorageAllocator = {
  allocate: (a) => [
    `${a.ptr} = ${shifted(`static_cast<${a.ctype} *>(tlab_cuda_malloc_host(${a.bytes}, ${a.index}))`, a.startOffset, '+')};`,
  ],
  free: (a) => [`tlab_cuda_free_host(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${a.index});`],
  zero: (a) => [`std::memset(${shifted(a.ptr, a.startOffset, '-')}, 0, ${a.bytes});`],
};

/** `__tlab_gpu_transient_name(i)`: what the host runtime's fault messages call device allocation `i`. */
function transientNamesExport(names: readonly string[]): string[] {
  const list = names.map((n) => JSON.stringify(n)).join(', ');
  return [
    'extern "C" const char *__tlab_gpu_transient_name(uint32_t __i) {',
    `  static const char *const __names[] = {${list ? `${list}, ` : ''}nullptr};`,
    `  return __i < ${names.length}u ? __names[__i] : nullptr;`,
    '}',
  ];
}

export class CudaBackend implements DeviceBackend, KernelContext {
  readonly exitCode = '__tlab_exit_code';
  kernels = 0;
  private readonly deviceFunctions = new Map<Sdfg, boolean>();
  /** Program arguments some kernel dereferences: device memory; the other arrays may stay host memory. */
  readonly kernelArguments = new Set<string>();

  constructor(readonly opts: CudaBackendOptions) {}

  storageOf(s: Sdfg, name: string): string {
    return this.opts.storageOf(s, name);
  }

  noteKernelArgument(root: string): void {
    this.kernelArguments.add(root);
  }

  nextKernel(): number {
    return this.kernels++;
  }

  allocator(storage: string): StorageAllocator | null {
    if (storage === 'CPU_Pinned') return PINNED;
    if (!isDeviceStorage(storage)) return null;
    const pooled = (a: AllocationCode) => this.opts.pool && this.opts.isArray(a.index);
    return {
      allocate: (a) => [
        pooled(a)
          ? `${a.ptr} = ${shifted(`static_cast<${a.ctype} *>(tlab_cuda_malloc_async(${a.bytes}, ${CUDA_STREAM}, ${a.index}))`, a.startOffset, '+')};`
          : `${a.ptr} = ${shifted(`static_cast<${a.ctype} *>(tlab_cuda_malloc(${a.bytes}, ${a.index}))`, a.startOffset, '+')};`,
      ],
      free: (a) => [
        pooled(a)
          ? `tlab_cuda_free_async(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${CUDA_STREAM}, ${a.index});`
          : `tlab_cuda_free(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${a.index});`,
      ],
      zero: (a) => [`tlab_cuda_zero(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${CUDA_STREAM});`],
    };
  }

  emitMap(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): boolean {
    return emitKernelMap(this, core, ctx, env, g, entry);
  }

  emitCopy(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, srcName: string, dstName: string): boolean {
    if (core.deviceDepth > 0) return false;
    const src = this.opts.storageOf(ctx.sdfg, srcName);
    const dst = this.opts.storageOf(ctx.sdfg, dstName);
    if (!isDeviceStorage(src) && !isDeviceStorage(dst)) return false;
    emitHostDeviceCopy(core, ctx, env, e, srcName, dstName);
    // A copy from or to page-locked memory is truly asynchronous (pageable memory is staged before the call
    // returns): the host code after it may read the destination or write the source only once it is done.
    if (src === 'CPU_Pinned' || dst === 'CPU_Pinned') core.out.line(`TLAB_CUDA(cudaStreamSynchronize(${CUDA_STREAM}));`);
    return true;
  }

  includes(): string[] {
    return ['#include "transient_cuda_runtime.h"'];
  }

  helpers(text: string): string {
    // Every helper is a `static inline` template; device code calls them too.
    const out = text.replace(/static inline /g, 'static inline __host__ __device__ ');
    if (out === text) throw new Error('internal: the symbolic helpers have no `static inline` functions to mark for device code');
    return out;
  }

  initLines(): string[] {
    const lines = ['if (tlab_cuda_init() != 0) { delete __state; return nullptr; }'];
    if (this.opts.pooled) {
      const t = this.opts.releaseThreshold === UINT64_MAX ? 'UINT64_MAX' : `uint64_t(${this.opts.releaseThreshold}ULL)`;
      lines.push(`tlab_cuda_set_release_threshold(${t});  // a pooled transient exists (DaCe: __dace_init_cuda)`);
    }
    return lines;
  }

  exitLines(): string[] {
    return [
      'int __tlab_exit_code = static_cast<int>(cudaDeviceSynchronize());',
      'if (tlab_cuda_first_error != cudaSuccess) __tlab_exit_code = static_cast<int>(tlab_cuda_first_error);',
    ];
  }

  exports(): string[] {
    const t = this.opts.releaseThreshold;
    return [
      '// GPU timing hook (docs/gpu.md): host time around the call, device time from the two CUDA events init created.',
      'extern "C" int __tlab_gpu_timed_program(void *__handle, void *const *__argv, uint64_t *__host_ns, float *__device_ms) {',
      '  if (!tlab_cuda_event_start || !tlab_cuda_event_stop) return static_cast<int>(cudaErrorInvalidResourceHandle);',
      '  const uint64_t __t0 = tlab_now_ns();',
      `  cudaEventRecord(tlab_cuda_event_start, ${CUDA_STREAM});`,
      '  __tlab_program(__handle, __argv);',
      '  const uint64_t __t1 = tlab_now_ns();',
      `  cudaEventRecord(tlab_cuda_event_stop, ${CUDA_STREAM});`,
      '  cudaEventSynchronize(tlab_cuda_event_stop);',
      '  const uint64_t __t2 = tlab_now_ns();',
      '  float __ms = 0.0f;',
      '  cudaEventElapsedTime(&__ms, tlab_cuda_event_start, tlab_cuda_event_stop);',
      '  if (__host_ns) { __host_ns[0] = __t1 - __t0; __host_ns[1] = __t2 - __t0; }',
      '  if (__device_ms) *__device_ms = __ms;',
      '  return __tlab_gpu_last_error();',
      '}',
      ...transientNamesExport(this.opts.transientNames),
      `extern "C" int __tlab_gpu_pooled(void) { return ${this.opts.pooled ? 1 : 0}; }`,
      `extern "C" uint64_t __tlab_gpu_release_threshold(void) { return ${t === UINT64_MAX ? 'UINT64_MAX' : `uint64_t(${t}ULL)`}; }`,
      `extern "C" uint32_t __tlab_gpu_kernel_count(void) { return ${this.kernels}; }`,
    ];
  }

  stackQualifier(s: Sdfg, name: string): string {
    return this.opts.storageOf(s, name) === 'GPU_Shared' ? '__shared__ ' : '';
  }

  functionQualifier(_core: EmitCore, s: Sdfg): string {
    return this.isDeviceFunction(s) ? '__device__ ' : '';
  }

  /** Whether nested SDFG `s` runs inside a kernel: some enclosing scope of its node is a GPU map. */
  isDeviceFunction(s: Sdfg): boolean {
    let known = this.deviceFunctions.get(s);
    if (known !== undefined) return known;
    known = false;
    if (s.parent) {
      if (this.isDeviceFunction(s.parent.sdfg)) known = true;
      else {
        const g = stateGraph(s.parent.state);
        let scope = containingScope(g, s.parent.node);
        for (let guard = 0; scope !== null && guard < 10_000 && !known; guard++) {
          const entry = g.byId.get(scope);
          if (!entry) break;
          if (entry.kind === 'map_entry' && entry.map.schedule.startsWith('GPU_')) known = true;
          scope = containingScope(g, entry);
        }
      }
    }
    this.deviceFunctions.set(s, known);
    return known;
  }
}
