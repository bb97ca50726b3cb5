/**
 * The runner's GPU path (docs/gpu.md, "The runner on a GPU"): one variant of a GPU program library, with the
 * same steps and the same result as the CPU path in runner-entry.ts, in device memory.
 *
 * - Array arguments live on the device (the GPU ABI, whatever storage they declare): slices of one device
 *   allocation from the library's `__tlab_gpu_malloc`, laid out like the CPU path's argument arena (a guard of
 *   pattern bytes before and after each array), filled before every verification call and before the timed
 *   calls with the job's input bytes (the CPU path's deterministic data or the --input arrays) and fresh guards
 *   through `__tlab_gpu_memcpy`; the guards come back to the host and are checked after each verification call
 *   and after the timed calls. Scalars and symbols are passed as on the CPU.
 * - EXTERNAL's GPU workspace is device memory too, installed through DaCe's
 *   `__dace_set_external_memory_GPU_Global` (`setExternal`); for verification, the guarded layout of the CPU path
 *   (guard bytes around every slot, slots poisoned) is built on the host, copied to the device, installed with
 *   explicit slot offsets, and copied back after the call to check the guards.
 * - Calls go through `__tlab_gpu_timed_program` in the addon's native loop: host time until return, host time
 *   until the device was done, CUDA-event device time; a call's CUDA error stops the run with the error's text.
 * - The default pool's high-water marks are reset right before the timed calls and read after them.
 * - Outputs are copied back to the host after each verification call, so verification and checksums are the
 *   CPU path's.
 */
import type { DeviceBuffer } from '../../native/index.js';
import type { ProgramArg } from '../engine/codegen/types.js';
import { clearProgressPage } from './progress-file.js';
import type { GuardViolation, Phase, RunJob, VariantGpuTiming, VariantJob, VariantResult } from './messages.js';
import { emptyTiming, processGpuTiming, processTiming } from '../engine/profile/samples.js';
import {
  arenaLayout,
  argView,
  checkGuards,
  alignedBytes,
  DEVICE_EXTERNAL_ALIGN,
  EXTERNAL_ALIGN,
  fillArena,
  guardedWorkspace,
  keepCalls,
  requireIntactArguments,
  retain,
  sampledCall,
  workspaceSizes,
  type ArgumentArena,
  type GuardedWorkspace,
} from './runner-helpers.js';
import type { loadNativeAddon } from './native.js';

type Library = ReturnType<ReturnType<typeof loadNativeAddon>['load']>;

/** What the job runner lends a variant: phase announcements and the progress page. */
export interface VariantContext {
  enter(phase: Phase): void;
  progressFile: string | null;
  timedDone(done: number, total: number): void;
}

/** Storage that lives in device memory (the addon applies the same rule to workspaces). */
const isDeviceStorage = (storage: string): boolean => storage.startsWith('GPU_');

/** In a GPU program an array argument is a device pointer, whatever storage it declares (docs/gpu.md, "Memory":
 * kernels use argument pointers directly, as DaCe's do), unless no kernel touches it and its storage is host
 * storage (`hostMemory`); scalars and symbols are host values. */
const onDevice = (arg: ProgramArg): boolean => arg.kind === 'array' && arg.hostMemory !== true;

interface Arguments {
  /** The argument vector: device buffers for device arrays, host views for the rest. */
  views: Array<ArrayBufferView | DeviceBuffer>;
  /** Every call starts from a fresh copy of the inputs, as on the CPU. */
  refill(): void;
  /** Every array argument's bytes after a call (device arrays copied back). */
  snapshot(): Record<string, Uint8Array>;
  /** Stops the variant when a guard around a device argument changed (the guards copied back first). */
  checkGuards(): void;
}

/** Frees every device buffer of a variant at its end, whatever happened. */
class DeviceMemory {
  private readonly buffers: DeviceBuffer[] = [];
  constructor(
    private readonly lib: Library,
    private readonly label: string,
  ) {}

  alloc(bytes: number, what: string): DeviceBuffer {
    try {
      const b = this.lib.deviceAlloc(bytes);
      this.buffers.push(b);
      return b;
    } catch (err) {
      throw new Error(`${this.label}: cannot allocate ${bytes} bytes of device memory for ${what}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /** After a failure the device may be unusable (a sticky CUDA error): then freeing is best effort. */
  freeAll(strict: boolean): void {
    for (const b of this.buffers.splice(0)) {
      try {
        b.free();
      } catch (err) {
        if (strict) throw new Error(`${this.label}: ${(err as Error).message}`, { cause: err });
      }
    }
  }
}

/** The device arguments: one device arena (the CPU path's layout, 256-byte aligned like cudaMalloc's blocks)
 * and its host image, from which every refill uploads inputs and fresh guards together. */
function deviceArguments(v: VariantJob, inputs: Record<string, Uint8Array>, memory: DeviceMemory, guardByte: number): Arguments {
  const views: Array<ArrayBufferView | DeviceBuffer> = [];
  const host = new Map<string, { src: Uint8Array; bytes: Uint8Array }>();
  const device = new Map<string, { src: Uint8Array; buffer: DeviceBuffer }>();
  const arena: ArgumentArena = {
    buffer: new Uint8Array(0),
    layout: arenaLayout({ ...v, args: v.args.filter(onDevice) }, inputs, DEVICE_EXTERNAL_ALIGN),
  };
  arena.buffer = retain(new Uint8Array(arena.layout.size));
  fillArena(arena, inputs, guardByte);
  const deviceArena = arena.layout.size > 0 ? memory.alloc(arena.layout.size, 'the argument arrays and their guards') : null;
  const placed = new Map(arena.layout.arrays.map((p) => [p.name, p]));
  for (const arg of v.args) {
    const src = inputs[arg.name];
    if (!src) throw new Error(`no input bytes for argument ${arg.name}`);
    const p = placed.get(arg.name);
    if (p && deviceArena) {
      const buffer = deviceArena.slice(p.start, p.bytes);
      device.set(arg.name, { src, buffer });
      views.push(buffer);
    } else {
      const bytes = retain(new Uint8Array(src));
      if (arg.kind === 'array') host.set(arg.name, { src, bytes });
      views.push(retain(argView(arg, bytes)));
    }
  }
  return {
    views,
    refill() {
      for (const { src, bytes } of host.values()) bytes.set(src);
      if (!deviceArena) return;
      try {
        deviceArena.upload(arena.buffer);
      } catch (err) {
        throw new Error(`${v.label}: copying the arguments (${[...device.keys()].join(', ')}) to the device: ${(err as Error).message}`, {
          cause: err,
        });
      }
    },
    checkGuards() {
      if (!deviceArena) return;
      try {
        for (const p of arena.layout.arrays) {
          for (const [from, to] of [p.before, p.after]) deviceArena.download(arena.buffer.subarray(from, to), from);
        }
      } catch (err) {
        throw new Error(`${v.label}: copying the argument guards back from the device: ${(err as Error).message}`, { cause: err });
      }
      requireIntactArguments(arena, guardByte, v);
    },
    snapshot() {
      const out: Record<string, Uint8Array> = {};
      for (const arg of v.args) {
        if (arg.kind !== 'array') continue;
        const d = device.get(arg.name);
        if (d) {
          const bytes = retain(new Uint8Array(d.buffer.byteLength));
          try {
            d.buffer.download(bytes);
          } catch (err) {
            throw new Error(`${v.label}: copying argument ${arg.name} back from the device: ${(err as Error).message}`, { cause: err });
          }
          out[arg.name] = bytes;
        } else {
          out[arg.name] = retain(new Uint8Array(host.get(arg.name)!.bytes));
        }
      }
      return out;
    },
  };
}

/** A pending CUDA error after a step that does not return one (init, exit) is the step's failure. */
function checkCuda(lib: Library, label: string, step: string): void {
  const error = lib.gpuLastError();
  if (error) throw new Error(`${label}: CUDA error after ${step}: ${error.message}`);
}

export function runGpuVariant(lib: Library, v: VariantJob, job: RunJob, ctx: VariantContext): VariantResult {
  const gpu = lib.gpu;
  if (!gpu) {
    throw new Error(
      `${v.label}: ${lib.path} is not a GPU program library (it does not export __tlab_gpu_timed_program, docs/gpu.md), but the job says the program is a GPU program`,
    );
  }
  const memory = new DeviceMemory(lib, v.label);
  let ok = false;
  try {
    const result = runVariant(lib, gpu, v, job, ctx, memory);
    ok = true;
    return result;
  } finally {
    memory.freeAll(ok);
  }
}

function runVariant(
  lib: Library,
  gpu: NonNullable<Library['gpu']>,
  v: VariantJob,
  job: RunJob,
  ctx: VariantContext,
  memory: DeviceMemory,
): VariantResult {
  const symbols = BigInt64Array.from(v.initSymbols);
  const verify = !job.skipVerification;
  // Poison before init so PERSISTENT device buffers (allocated in init) start as garbage too.
  lib.setPoison(verify, job.poison[0]);
  const args = deviceArguments(v, job.inputs, memory, job.guardByte);
  ctx.enter('init');
  // A program whose init code reads its arguments gets them in init (docs/runtime-abi.md), filled as for a call.
  if (lib.initArgCount > 0) args.refill();
  const initNs = lib.initArgCount > 0 ? lib.init(symbols, args.views) : lib.init(symbols);
  checkCuda(lib, v.label, '__dace_init');

  ctx.enter('workspace');
  const workspaceBytes = workspaceSizes(lib, v, symbols);

  let outputs: Record<string, Uint8Array> | null = null;
  let outputsSecond: Record<string, Uint8Array> | null = null;
  const poisoned = new Set<string>();
  const guardViolations: GuardViolation[] = [];
  if (verify) {
    for (let k = 0; k < 2; k++) {
      const pattern = job.poison[k as 0 | 1];
      lib.setPoison(true, pattern);
      // The guarded workspaces and the inputs go to the device.
      ctx.enter('arguments');
      const workspaces: Array<{ ws: GuardedWorkspace; device: DeviceBuffer | null }> = v.externals.map((ext) => {
        const device = isDeviceStorage(ext.storage);
        const { ws, offsets } = guardedWorkspace(ext, job, pattern, device ? DEVICE_EXTERNAL_ALIGN : EXTERNAL_ALIGN);
        for (const slot of ext.slots) poisoned.add(slot.id);
        if (!device) {
          lib.setExternalOffsets(ext.storage, ws.buffer, offsets);
          return { ws, device: null };
        }
        const buffer = memory.alloc(ws.buffer.length, `the guarded ${ext.storage} workspace`);
        buffer.upload(ws.buffer);
        lib.setExternalOffsets(ext.storage, buffer, offsets);
        return { ws, device: buffer };
      });
      args.refill();
      ctx.enter(k === 0 ? 'verify-1' : 'verify-2');
      lib.run(args.views, 1);
      args.checkGuards();
      for (const ev of lib.lastEvents()) {
        if (ev.kind === 'alloc') poisoned.add(v.transientIds[ev.transient] ?? `#${ev.transient}`);
      }
      const snapshot = args.snapshot();
      for (const { ws, device } of workspaces) {
        device?.download(ws.buffer);
        for (const g of checkGuards(ws, job.guardByte)) {
          if (!guardViolations.some((x) => x.storage === g.storage && x.slot === g.slot && x.where === g.where)) guardViolations.push(g);
        }
      }
      if (k === 0) outputs = snapshot;
      else outputsSecond = snapshot;
    }
    lib.setPoison(false, 0);
  }

  // The library's own layout for timing, in a fresh workspace per storage (device memory for GPU storage).
  for (const ext of v.externals) {
    const bytes = Number(workspaceBytes[ext.storage]!);
    lib.setExternal(
      ext.storage,
      isDeviceStorage(ext.storage) ? memory.alloc(bytes, `the ${ext.storage} workspace`) : alignedBytes(bytes),
      symbols,
    );
  }
  let timing = emptyTiming();
  let timed: ReturnType<Library['timeCalls']> | null = null;
  const none = new Float64Array(0);
  let gpuTiming: VariantGpuTiming = { deviceNs: none, kept: { deviceNs: none, hostReturnNs: none, hostSyncNs: none }, pool: null };
  if (job.calls > 0) {
    ctx.enter('arguments');
    args.refill();
    if (ctx.progressFile) clearProgressPage(ctx.progressFile);
    ctx.enter('first-call');
    timed = lib.timeCalls(args.views, job.warmup, job.settle, job.calls, ctx.progressFile);
    // Read right after the timed calls (timeCalls reset the marks right before them): nothing ran since.
    const pool = gpu.pooled ? lib.poolAttributes(false) : null;
    args.checkGuards();
    timing = processTiming(timed.stats, keepCalls(job), timed.loopWallNs, timed.warmupCalls);
    const s = timed.stats;
    if (!s.deviceNs || !s.hostReturnNs || !s.hostSyncNs)
      throw new Error(`${v.label}: the addon returned no device times for a GPU library (stale build? run npm run build:native)`);
    gpuTiming = processGpuTiming(
      { deviceNs: s.deviceNs, hostReturnNs: s.hostReturnNs, hostSyncNs: s.hostSyncNs },
      keepCalls(job),
      pool
        ? { reservedHighBytes: pool.reservedHighBytes, usedHighBytes: pool.usedHighBytes, releaseThreshold: gpu.releaseThreshold }
        : null,
    );
    ctx.timedDone(job.calls, job.calls);
  }
  ctx.enter('exit');
  const exitNs = lib.exit();
  checkCuda(lib, v.label, '__dace_exit');
  return {
    label: v.label,
    initNs,
    exitNs,
    firstCallNs: timed?.firstCallNs ?? NaN,
    workspaceBytes,
    outputs,
    outputsSecond,
    poisonedTransients: [...poisoned].sort(),
    guardViolations,
    timing,
    sampledCall: timed?.stats.sample ? sampledCall(timed.stats.sample, v.transientIds) : null,
    gpu: gpuTiming,
  };
}
