/**
 * What the runner child does with a variant's memory and numbers, on the CPU path (runner-entry.ts) and the GPU
 * path (gpu-variant.ts) alike: argument buffers, guarded verification workspaces, per-call columns, the sampled
 * call. Runner code: it runs in the runner child only.
 */
import type { ProgramArg } from '../engine/codegen/types.js';
import type { SampledCall } from '../engine/profile/result.js';
import { guardedLayout, type GuardedRegion } from './guarded-layout.js';
import type { loadNativeAddon } from './native.js';
import type { GuardViolation, RunJob, VariantJob, VariantTiming } from './messages.js';

type Library = ReturnType<ReturnType<typeof loadNativeAddon>['load']>;
export type Stats = ReturnType<Library['run']>;

/**
 * Every large buffer this child creates stays reachable until the process exits (each job gets a fresh child).
 * glibc raises its mmap threshold, and with it the trim threshold, to the size of the largest malloc'd block
 * freed so far; if the garbage collector freed an input copy or a verification workspace, the program would
 * then run against allocator settings that a plain C process calling it never has (fewer page faults per
 * call, different times). Holding them costs memory, not correctness.
 */
const retained: unknown[] = [];

export function retain<T>(value: T): T {
  retained.push(value);
  return value;
}

/** Slot alignment of the guarded verification workspace: DaCe's 64 B on the host, 256 B in device memory
 * (the alignment the generator gives GPU workspace slots, docs/gpu.md). */
export const EXTERNAL_ALIGN = 64;
export const DEVICE_EXTERNAL_ALIGN = 256;

/** A typed array of the argument's exact C type for scalars and symbols (the addon reads the value through
 * its data pointer); arrays pass their bytes directly. */
export function argView(arg: ProgramArg, bytes: Uint8Array): ArrayBufferView {
  if (arg.kind === 'array') return bytes;
  const copy = new Uint8Array(new ArrayBuffer(Math.max(8, bytes.length)));
  copy.set(bytes);
  switch (arg.dtype) {
    case 'float64': return new Float64Array(copy.buffer, 0, 1);
    case 'float32': return new Float32Array(copy.buffer, 0, 1);
    case 'int64': return new BigInt64Array(copy.buffer, 0, 1);
    case 'uint64': return new BigUint64Array(copy.buffer, 0, 1);
    case 'int32': return new Int32Array(copy.buffer, 0, 1);
    case 'uint32': return new Uint32Array(copy.buffer, 0, 1);
    case 'int16': return new Int16Array(copy.buffer, 0, 1);
    case 'uint16': return new Uint16Array(copy.buffer, 0, 1);
    case 'int8': return new Int8Array(copy.buffer, 0, 1);
    default: return new Uint8Array(copy.buffer, 0, bytes.length);
  }
}

/** Fresh argument buffers from the job's inputs (the program may write any of them). */
export function freshArgs(variant: VariantJob, inputs: Record<string, Uint8Array>): { views: ArrayBufferView[]; arrays: Map<string, Uint8Array> } {
  const views: ArrayBufferView[] = [];
  const arrays = new Map<string, Uint8Array>();
  for (const arg of variant.args) {
    const src = inputs[arg.name];
    if (!src) throw new Error(`no input bytes for argument ${arg.name}`);
    const bytes = retain(new Uint8Array(src));
    if (arg.kind === 'array') arrays.set(arg.name, bytes);
    views.push(retain(argView(arg, bytes)));
  }
  return { views, arrays };
}

export interface GuardedWorkspace {
  storage: string;
  buffer: Uint8Array;
  /** Slot ids and [start, end) of every region (slots that share bytes in the library's layout). */
  regions: GuardedRegion[];
}

/**
 * Regions separated (and surrounded) by ≥ guardBytes of guard pattern, slot memory filled with poison. Slots
 * that share bytes in the library's own layout share them here too (guarded-layout.ts).
 */
export function guardedWorkspace(storage: VariantJob['externals'][number], job: RunJob, poison: number, align = EXTERNAL_ALIGN): { ws: GuardedWorkspace; offsets: BigUint64Array } {
  const layout = guardedLayout(storage.slots, job.guardBytes, align);
  const buffer = retain(new Uint8Array(layout.size)).fill(job.guardByte);
  for (const r of layout.regions) buffer.fill(poison, r.start, r.end);
  return { ws: { storage: storage.storage, buffer, regions: layout.regions }, offsets: BigUint64Array.from(layout.offsets.map(BigInt)) };
}

export function checkGuards(ws: GuardedWorkspace, guardByte: number): GuardViolation[] {
  const out: GuardViolation[] = [];
  const firstBad = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (ws.buffer[i] !== guardByte) return i - from;
    return -1;
  };
  const first = ws.regions[0];
  if (first) {
    const before = firstBad(0, first.start);
    if (before >= 0) out.push({ storage: ws.storage, slot: first.first, where: 'before', byteOffset: before });
  }
  ws.regions.forEach((r, i) => {
    const next = ws.regions[i + 1]?.start ?? ws.buffer.length;
    const bad = firstBad(r.end, next);
    if (bad >= 0) out.push({ storage: ws.storage, slot: r.last, where: 'after', byteOffset: bad });
  });
  return out;
}

/** Each storage's workspace size as the library computes it, checked against the generator's plan (CPU and GPU). */
export function workspaceSizes(lib: Library, v: VariantJob, symbols: BigInt64Array): Record<string, bigint> {
  const bytes: Record<string, bigint> = {};
  for (const ext of v.externals) {
    const size = lib.externalSize(ext.storage, symbols);
    if (size !== ext.bytes) {
      throw new Error(`${v.label}: __dace_get_external_memory_size_${ext.storage} returned ${size} bytes, the generator planned ${ext.bytes}`);
    }
    bytes[ext.storage] = size;
  }
  return bytes;
}

export function emptyTiming(): VariantTiming {
  return { totalNs: [], allocNs: [], freeNs: [], allocs: [], frees: [], allocBytes: [], minorFaults: [], overflowed: false, batchWallNs: 0, warmupCalls: [] };
}

export function appendStats(t: VariantTiming, s: Stats): void {
  t.totalNs.push(...s.totalNs);
  t.allocNs.push(...s.allocNs);
  t.freeNs.push(...s.freeNs);
  t.allocs.push(...s.allocs);
  t.frees.push(...s.frees);
  t.allocBytes.push(...s.allocBytes);
  t.minorFaults.push(...s.minorFaults);
  t.overflowed ||= s.overflowed;
}

/** The addon's sampled call in the result's form. */
export function sampledCall(sample: NonNullable<Stats['sample']>, transientIds: string[]): SampledCall {
  return {
    call: sample.call,
    totalNs: sample.totalNs,
    overflowed: sample.overflowed,
    events: sample.events.map((e) => ({
      transient: transientIds[e.transient] ?? `#${e.transient}`,
      kind: e.kind,
      startNs: e.t0,
      durationNs: e.t1 - e.t0,
      bytes: e.bytes,
      ...(e.device ? { device: true as const } : {}),
    })),
  };
}

