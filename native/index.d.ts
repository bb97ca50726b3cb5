/**
 * The native addon `transient_native.node` (Node-API 8, built by node-gyp from native/binding.gyp).
 * Loaded ONLY inside the runner child process (electron/runner), never in a UI or main process.
 *
 * It loads a generated program library (a shared object compiled from engine/codegen output together with
 * native/include/transient_runtime.h) and drives it through the uniform `__tlab_*` trampolines that every
 * generated library exports next to DaCe's own `__dace_init_<n>` / `__program_<n>` / `__dace_exit_<n>` ABI.
 * Every function checks its arguments and throws a TypeError/Error with a usage string; native failures
 * (dlopen/dlsym errors, a NULL handle from init, a non-zero exit code) become JS exceptions.
 */

/** Value pointers for the trampolines: one entry per argument, in DaCe argument order.
 * Arrays: the data buffer itself. Scalars and symbols: a 1-element typed array holding the value in its
 * exact C type (Int32Array for int, Float64Array for double, BigInt64Array for int64_t, …).
 * GPU programs: array arguments are DeviceBuffers (device pointers); scalars and symbols stay host values. */
export type ArgVector = ReadonlyArray<ArrayBufferView | DeviceBuffer>;

export interface CallStats {
  /** Wall time of each call, measured on the C++ side around `__tlab_program` (steady_clock). */
  totalNs: Float64Array;
  /** Time spent inside instrumented allocations / frees during each call. */
  allocNs: Float64Array;
  freeNs: Float64Array;
  allocs: Uint32Array;
  frees: Uint32Array;
  /** Bytes allocated during each call. */
  allocBytes: Float64Array;
  /** Minor page faults during each call (getrusage RUSAGE_SELF delta). */
  minorFaults: Float64Array;
  /** Events recorded in the buffer's capacity was exceeded (events dropped). The per-call sums then cover only
   * the kept events (the first `capacity`, 65536 by default, of that call). */
  overflowed: boolean;
  /** The allocation events of the call nearest the median of these calls (null when none could be kept). */
  sample: SampledCall | null;
  /** GPU programs only (absent otherwise), from `__tlab_gpu_timed_program`: CUDA-event time of each call on
   * the stream, host time until `__tlab_program` returned, host time until the device was done. `totalNs` is
   * then the addon's clock around the hook (the device synchronised before it stops, the hook's two CUDA
   * events included). */
  deviceNs?: Float64Array;
  hostReturnNs?: Float64Array;
  hostSyncNs?: Float64Array;
}

export interface TimedCalls {
  firstCallNs: number;
  /** Wall time of the timed loop (all `calls`): minus Σ stats.totalNs, the loop's own per-call cost. */
  loopWallNs: number;
  /** Untimed calls made between the first and the timed calls: `warmup`, plus the `settle` calls it took. */
  warmupCalls: number;
  stats: CallStats;
}

/** One call's allocation events, kept by the addon while it timed the calls. */
export interface SampledCall {
  /** Index of the call among the timed calls of this `run`. */
  call: number;
  totalNs: number;
  /** The event buffer overflowed in this call: `events` are its first `capacity` events. */
  overflowed: boolean;
  /** t0/t1 relative to the start of that call. */
  events: AllocEvent[];
}

export interface AllocEvent {
  /** ns since the call started. */
  t0: number;
  t1: number;
  bytes: number;
  /** Index into the program's transient table (`GeneratedProgram.transientIds`). */
  transient: number;
  kind: 'alloc' | 'free';
  /** Device memory (event kinds 2/3: cudaMalloc(Async) / cudaFree(Async), host time around the API call). */
  device?: true;
  /** Interposed events only (`transient` is then negative, never a transient index): the hooked function,
   * one of `interposedFunctions` ("malloc", "_ZnamSt11align_val_t", "cudaMallocAsync", …). */
  function?: string;
}

/** What `ProgramLibrary.interpose(true)` did to the library's GOT (docs/interpose.md). */
export interface InterposeReport {
  /** Imported allocation functions whose GOT slots now point to the addon's timing hooks, sorted. */
  patched: string[];
  /** GOT slots rewritten by this call (0 when they already were). */
  slots: number;
  /** Imported allocation functions left alone, each with the reason. */
  skipped: string[];
}

/** Device memory allocated through a GPU library's `__tlab_gpu_malloc` (docs/native.md, "GPU programs"). The
 * pointer never reaches JS; pass the object in run()/timeCalls() argument vectors and to setExternal(). It is
 * never freed by the garbage collector (cudaFree synchronises the device): call free(). */
export interface DeviceBuffer {
  readonly byteLength: number;
  /** Host → device: `source`'s bytes into [offset, offset + source.byteLength). */
  upload(source: ArrayBufferView, offset?: number): void;
  /** Device → host: [offset, offset + target.byteLength) into `target`. */
  download(target: ArrayBufferView, offset?: number): void;
  /** Every byte set to `byte` (`__tlab_gpu_memset`). */
  fill(byte: number): void;
  /** [offset, offset + bytes) as a DeviceBuffer of its own that shares this allocation (the runner's guarded
   * argument arena: one allocation, each argument a slice between guard bytes). Freeing the allocation frees
   * its slices; free() on a slice is an Error. */
  slice(offset: number, bytes: number): DeviceBuffer;
  free(): void;
}

/** What a GPU library was generated with (its `__tlab_gpu_*` constants). */
export interface GpuLibraryInfo {
  /** Init sets the default pool's release threshold (a pooled transient exists). */
  pooled: boolean;
  releaseThreshold: bigint;
  kernels: number;
  cudaRuntimeVersion: number;
}

/** The default memory pool of device 0 (`cudaMemPoolGetAttribute`), bytes. */
export interface PoolAttributes {
  reservedCurrentBytes: number;
  reservedHighBytes: number;
  usedCurrentBytes: number;
  usedHighBytes: number;
}

export interface ProgramLibrary {
  readonly path: string;
  /** Transient Lab runtime ABI version the library was built with (TRANSIENT_RUNTIME_VERSION). */
  readonly abiVersion: number;
  /** SDFG name `n`, found from the library's exported `__dace_init_<n>`; null when it cannot be determined.
   * Used in error messages (`__dace_init_<n> returned NULL`). (Added by the native layer.) */
  readonly programName: string | null;
  /** Non-null for a GPU program library (it exports `__tlab_gpu_timed_program` and the rest of the runner ABI
   * of docs/gpu.md, all checked by load()). Its calls then go through that hook: run() and timeCalls() throw
   * `CUDA error in call k of n of __program_<n>: cudaError E: <text>` when a call returns a CUDA error. */
  readonly gpu: GpuLibraryInfo | null;
  /** How many `args` init() needs (`__tlab_init_arg_count`): 0 when `__dace_init_<n>` takes the symbols only (mainline
   * DaCe), else the program's whole argument count (its init code reads arguments: DaCe's Fortran-frontend ABI,
   * docs/runtime-abi.md). (Added by the native layer.) */
  readonly initArgCount: number;
  /** Calls `__tlab_init(const int64_t *symbols, void *const *argv)` (→ `__dace_init_<n>`). Returns the init time
   * in ns. Throws if init returns NULL. `symbols` are the init symbols in DaCe order; `args` the vector run()
   * takes, required when `initArgCount` is non-zero and optional (ignored) otherwise. */
  init(symbols: BigInt64Array, args?: ArgVector): number;
  /** `__dace_get_external_memory_size_<storage>` through `__tlab_external_size`. */
  externalSize(storage: string, symbols: BigInt64Array): bigint;
  /** `__dace_set_external_memory_<storage>` through `__tlab_set_external` (the library's own layout). */
  setExternal(storage: string, workspace: ArrayBufferView | DeviceBuffer, symbols: BigInt64Array): void;
  /** Installs explicit slot offsets instead of the library's layout (guarded verification layouts).
   * `offsets[i]` is the byte offset of external slot i of that storage, in the library's slot order. */
  setExternalOffsets(storage: string, workspace: ArrayBufferView | DeviceBuffer, offsets: BigUint64Array): void;
  /** When on, every instrumented allocation is filled with `pattern` bytes (poison for verification). */
  setPoison(on: boolean, pattern: number): void;
  /** Runs `__tlab_program` `calls` times with the same arguments, timing each call. */
  run(args: ArgVector, calls: number): CallStats;
  /** What the profiler times, in ONE native loop with no JavaScript in between: the first call (timed alone),
   * `warmup` untimed calls, then up to `settle` more untimed calls until three calls in a row faulted at most 8
   * pages (glibc has settled on where the program's blocks go; `warmup` 0 adds none), then `calls` timed calls. JavaScript is blocked until it returns: anything the JS
   * thread did between calls would allocate from the glibc arena the program allocates from and change what
   * its allocations cost. Progress goes to `progressFile` instead (docs/native.md: 24 bytes the host polls;
   * it must exist and be at least that long), or nowhere when null. The sample is the timed call nearest the
   * median of all timed calls (its events kept within 64 MiB). */
  timeCalls(args: ArgVector, warmup: number, settle: number, calls: number, progressFile: string | null): TimedCalls;
  /** Allocation events of the most recent call (for timelines). init() and exit() count as calls here: right
   * after init() this shows the PERSISTENT allocations, right after exit() their frees. */
  lastEvents(): AllocEvent[];
  /** Calls `__tlab_exit` (→ `__dace_exit_<n>`). Returns ns; throws on a non-zero exit code (the Error carries it
   * as `exitCode`). The handle is gone either way; init() may be called again (e.g. for new symbol values). */
  exit(): number;
  /** GPU libraries: `bytes` of device memory through `__tlab_gpu_malloc` (argument memory, never an event). */
  deviceAlloc(bytes: number): DeviceBuffer;
  /** GPU libraries: the default pool's attributes; `reset` clears both high-water marks afterwards. timeCalls()
   * also clears them right before its timed calls, so read them after it for the timed calls alone. */
  poolAttributes(reset: boolean): PoolAttributes;
  /** GPU libraries: read-and-clear of the library's first CUDA error, or null. */
  gpuLastError(): { code: number; message: string } | null;
  /** Allocation timing by interposition (docs/interpose.md), for libraries whose code does not report its own
   * allocations. `true`: rewrites the GOT slots through which this library calls malloc, free, posix_memalign,
   * aligned_alloc, calloc, memalign, operator new/new[]/delete/delete[] (aligned and sized too) and cudaMalloc,
   * cudaFree, cudaMallocAsync, cudaFreeAsync, cudaMallocFromPoolAsync, cudaMallocHost, cudaFreeHost (once; later
   * calls patch nothing new), and from then on run() and timeCalls() fill allocs, frees, allocBytes, allocNs and
   * freeNs, and the sample, from the hooks' events of each `__program_*` call instead of the runtime header's.
   * Only calls made by this library during a program call are counted (not init or exit, not what libstdc++ or
   * the CUDA runtime allocate on its behalf). lastEvents() still shows the header's events of the last call.
   * `false`: the header's figures again (the slots stay patched; outside a window a hook only forwards) and an
   * empty report. An unsupported architecture or a library without dynamic relocations is an Error. */
  interpose(on: boolean): InterposeReport;
  /** The hooks' events of the last interposed program call (`function` names the hooked function). */
  interposedEvents(): AllocEvent[];
}

/** Every function the interposition hooks, in the order a negative `transient` encodes (-(1 + index)). */
export const interposedFunctions: string[];
/** Intercepted calls made outside any program call window since the addon was loaded (init, exit, …). */
export function interposedCallsOutsideWindows(): number;
/** Per intercepted call, the ns a hook adds around a function that does nothing (two timestamps and a record). */
export function measureInterposeCostNs(iterations: number): number;

/** TRANSIENT_RUNTIME_VERSION this addon accepts (libraries with another `__tlab_abi_version()` are refused).
 * (Added by the native layer.) */
export const runtimeAbiVersion: number;
/**
 * Linux: the kernel kills this process (SIGKILL) when its parent dies, and kills it now if its parent is no
 * longer `parentPid`. Returns false where that cannot be arranged (another OS, or prctl refused).
 */
export function dieWithParent(parentPid: number): boolean;

/** Bytes from the start of `view` to its first byte whose address is a multiple of `align` (a power of two,
 * at most 4096): where an aligned buffer carved from an over-allocated one starts. */
export function alignmentPad(view: ArrayBufferView, align: number): number;

/** dlopen()s `path` (RTLD_NOW | RTLD_LOCAL). Use a unique path per build: dlopen caches by path. */
export function load(path: string): ProgramLibrary;

/** Cost of one instrumentation event (two timestamps + record), measured natively, in ns. */
export function measureEventCostNs(iterations: number): number;

/** Bare cost of calling an empty C function through the same path `run` uses, per call, in ns. */
export function measureCallOverheadNs(iterations: number): number;

/** One CUDA device as the runtime and driver describe it. */
export interface CudaDevice {
  index: number;
  name: string;
  totalMemoryBytes: number;
  /** `major.minor`, e.g. `9.0`. */
  computeCapability: string;
  multiprocessors: number;
  /** The device supports the stream-ordered allocator (cudaMallocAsync, POOL mode). */
  memoryPools: boolean;
}

export interface CudaReport {
  /** The libcudart that was loaded (as given to dlopen), or null when none could be. */
  runtimeLibrary: string | null;
  /** 1000·major + 10·minor (13000 = CUDA 13.0); 0 when unknown. */
  runtimeVersion: number;
  /** The CUDA version the installed driver supports; 0 when there is no driver. */
  driverVersion: number;
  devices: CudaDevice[];
  /** Why no device is listed (one sentence); null when at least one is. */
  reason: string | null;
  /** Every library tried and the outcome (dlopen errors), for error details. */
  attempts: string[];
}

/**
 * Lists CUDA devices. The CUDA runtime is dlopen()ed here, at call time (never linked: the addon loads and every
 * CPU run works without CUDA); names and memory come from the driver (libcuda.so.1). A missing runtime, driver
 * or device is a report with no devices and a `reason`, never an exception. `runtimeCandidates` replaces the
 * default search ($TLAB_CUDART, libcudart.so, .so.13, .so.12, .so.11.0, /usr/local/cuda/lib64/libcudart.so).
 * (Added by the GPU host layer.)
 */
export function cudaDevices(runtimeCandidates?: string[]): CudaReport;

/** One position of a workload's sequence for timeSequence(): an initialised CPU library and its argument vector
 * (views into the workload's shared arrays). The same library may appear at several positions. A DaceLibrary is
 * called through libffi as its run() calls it: inside a hook window after `interpose(true)`, its allocation
 * columns then the hooks'; without interposition they stay 0 (not measured). */
export interface SequenceCall {
  library: ProgramLibrary | DaceLibrary;
  args: ArrayBufferView[];
}

/** What timeSequence() measured. Rows cover the warm-up steps first, then the timed ones; call columns are
 * step-major (the call at position p of step s is row s × positions + p). */
export interface SequenceTiming {
  warmupSteps: number;
  steps: number;
  positions: number;
  /** Wall time of each step (every call of the sequence once, with the loop's own cost). */
  stepNs: Float64Array;
  /** Minor page faults during each step (getrusage, once per step). */
  stepFaults: Float64Array;
  /** Each call: steady clock around `__tlab_program`, its instrumented allocations and frees (count, time
   * inside them together, bytes allocated). */
  callNs: Float64Array;
  allocs: Uint32Array;
  frees: Uint32Array;
  allocFreeNs: Float64Array;
  allocBytes: Float64Array;
  /** Wall time of the timed steps together. */
  loopWallNs: number;
  /** Some call's event buffer overflowed: its counts cover the kept events only. */
  overflowed: boolean;
}

/**
 * A workload's steps in ONE native loop with no JavaScript in between (docs/workload.md): `warmupSteps` then
 * `steps` times, every call in order. Before each call the progress page (24 bytes, as timeCalls) holds the
 * index of the call about to run (`done` = step × positions + position), so a host can name the program and the
 * position of a crash. A C++ exception out of a program throws `__program_<n> at position p of step s threw …`.
 * (Added for issue 23.)
 */
export function timeSequence(calls: SequenceCall[], warmupSteps: number, steps: number, progressFile: string | null): SequenceTiming;

/** Per-call ns timeSequence adds around `positions` empty programs over `steps` steps: its own cost over a bare
 * C loop calling the same functions. */
export function measureSequenceOverheadNs(positions: number, steps: number): number;
/** The C types of a DaCe signature as libffi passes them (docs/dace-folders.md). `float16` is dace::float16
 * (2 bytes); every pointer parameter (arrays, structures) is `pointer`. */
export type DaceCType =
  'pointer' | 'bool' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'float16' | 'float32' | 'float64';

/** What to call in a DaCe-built library, read from its build (include/<n>.h, src/cpu/<n>.cpp). */
export interface DaceCallSpec {
  /** SDFG name `n`. */
  name: string;
  /** `__dace_init_<n>`'s parameters (the init symbols); also the symbols of the External size/set functions. */
  init: DaceCType[];
  /** `__program_<n>`'s parameters after the state pointer, in order. */
  program: DaceCType[];
  /** Storages whose `__dace_get_external_memory_size_<S>` / `__dace_set_external_memory_<S>` the build defines. */
  storages: string[];
}

/** A DaCe-built library called through libffi with its own signatures. No event buffer exists in it: until
 * `interpose(true)`, the stats' allocation columns are 0 and `allocationsMeasured` is false (allocations inside the
 * library are not recorded); after it, they are the allocation hooks' (docs/interpose.md), as for ProgramLibrary. */
export interface DaceLibrary {
  readonly path: string;
  readonly programName: string;
  /** Every `__dace_*` and `__program_*` symbol the library exports. */
  readonly exports: string[];
  /** `__dace_init_<n>(symbols narrowed to their C types)`; ns. A value that does not fit its type is a TypeError. */
  init(symbols: BigInt64Array): number;
  externalSize(storage: string, symbols: BigInt64Array): bigint;
  /** Checks the workspace against `__dace_get_external_memory_size_<S>` first (DaCe does not). */
  setExternal(storage: string, workspace: ArrayBufferView, symbols: BigInt64Array): void;
  /** As ProgramLibrary.run; a scalar's view must hold exactly its C type's bytes. */
  run(args: ReadonlyArray<ArrayBufferView>, calls: number): CallStats & { allocationsMeasured?: false };
  timeCalls(args: ReadonlyArray<ArrayBufferView>, warmup: number, settle: number, calls: number, progressFile: string | null): TimedCalls;
  exit(): number;
  /** As ProgramLibrary.interpose: the first `true` patches the library's GOT slots of the allocation functions;
   * then each program call is timed inside a hook window and the allocation columns (and the sampled call) are the
   * hooks'. Throws "cannot interpose the allocation calls: …" where the library cannot be patched. */
  interpose(on: boolean): InterposeReport;
  /** While interposed: the hooks' events of the last init() (which then runs inside a hook window too) or program
   * call; otherwise none. */
  lastEvents(): AllocEvent[];
}

/** dlopen()s a DaCe-built library (RTLD_NOW | RTLD_LOCAL) and prepares libffi calls for `spec`. Refuses a
 * library that lacks a function of the spec, or exports an External pair the spec does not name; without
 * libffi at build time, always refuses with "install libffi-dev". */
export function loadDace(path: string, spec: DaceCallSpec): DaceLibrary;

/** Whether the addon was built with libffi (loadDace works). */
export const ffiAvailable: boolean;
