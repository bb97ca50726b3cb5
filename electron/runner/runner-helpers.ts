/**
 * What the runner child does with a variant's memory and numbers, on the CPU path (runner-entry.ts) and the GPU
 * path (gpu-variant.ts) alike: the guarded argument arena, guarded verification workspaces, the sampled call.
 * Runner code: it runs in the runner child only.
 */
import { constants as bufferConstants } from 'node:buffer';
import type { ProgramArg } from '../engine/codegen/types.js';
import type { SampledCall } from '../engine/profile/result.js';
import { argumentLayout, guardedLayout, type ArgumentLayout, type GuardedRegion } from './guarded-layout.js';
import { loadNativeAddon } from './native.js';
import type { GuardViolation, RunJob, VariantJob } from './messages.js';
import { MAX_KEPT_CALLS } from '../engine/profile/samples.js';
import { argumentOverrunMessage, type ArgumentOverrun } from './overrun.js';

export type { ArgumentOverrun } from './overrun.js';

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

/**
 * A zero-filled, retained host buffer of `bytes` bytes whose first byte lies on an `align`-byte boundary, as the
 * buffers a C caller hands a library (aligned_alloc(64): the bench's bare driver, DaCe's users) and SCOPED's own
 * tlab_alloc blocks do. A plain Uint8Array of a few MB starts 16 bytes past a 64-byte boundary (Node's calloc),
 * which put every EXTERNAL slot's vectors across cache lines: hdiff's EXTERNAL timed 1.24× POOL's for that alone.
 */
export function alignedBytes(bytes: number, align = EXTERNAL_ALIGN): Uint8Array {
  const raw = retain(new Uint8Array(bytes + align - 1));
  const pad = loadNativeAddon().alignmentPad(raw, align);
  return raw.subarray(pad, pad + bytes);
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
    case 'float64':
      return new Float64Array(copy.buffer, 0, 1);
    case 'float32':
      return new Float32Array(copy.buffer, 0, 1);
    case 'int64':
      return new BigInt64Array(copy.buffer, 0, 1);
    case 'uint64':
      return new BigUint64Array(copy.buffer, 0, 1);
    case 'int32':
      return new Int32Array(copy.buffer, 0, 1);
    case 'uint32':
      return new Uint32Array(copy.buffer, 0, 1);
    case 'int16':
      return new Int16Array(copy.buffer, 0, 1);
    case 'uint16':
      return new Uint16Array(copy.buffer, 0, 1);
    case 'int8':
      return new Int8Array(copy.buffer, 0, 1);
    default:
      return new Uint8Array(copy.buffer, 0, bytes.length);
  }
}

/** Where a variant's array arguments go in its argument arena (guarded-layout.ts), by their input sizes. */
export function arenaLayout(variant: VariantJob, inputs: Record<string, Uint8Array>, align: number): ArgumentLayout {
  return argumentLayout(
    variant.args
      .filter((a) => a.kind === 'array')
      .map((a) => {
        const src = inputs[a.name];
        if (!src) throw new Error(`no input bytes for argument ${a.name}`);
        return { name: a.name, bytes: src.length };
      }),
    align,
    // One typed array holds the whole arena (its host image, for a device arena).
    bufferConstants.MAX_LENGTH,
  );
}

/** An arena's bytes (host memory, or the host image of a device arena) and where its arrays and guards are. */
export interface ArgumentArena {
  buffer: Uint8Array;
  layout: ArgumentLayout;
}

/** The arena's image: guard pattern everywhere, each array's input bytes in its place. */
export function fillArena(arena: ArgumentArena, inputs: Record<string, Uint8Array>, guardByte: number): void {
  arena.buffer.fill(guardByte);
  for (const p of arena.layout.arrays) arena.buffer.set(inputs[p.name]!, p.start);
}

/**
 * Fresh argument buffers from the job's inputs (the program may write any of them): every array in a new
 * guarded arena of this child's own (never freed, see `retain`), scalars and symbols in values of their C type.
 */
export function freshArgs(
  variant: VariantJob,
  inputs: Record<string, Uint8Array>,
  guardByte: number,
): { views: ArrayBufferView[]; arrays: Map<string, Uint8Array>; arena: ArgumentArena } {
  const layout = arenaLayout(variant, inputs, EXTERNAL_ALIGN);
  const arena = { buffer: alignedBytes(layout.size), layout };
  fillArena(arena, inputs, guardByte);
  const placed = new Map(layout.arrays.map((p) => [p.name, p]));
  const views: ArrayBufferView[] = [];
  const arrays = new Map<string, Uint8Array>();
  for (const arg of variant.args) {
    const p = placed.get(arg.name);
    if (p) {
      const bytes = arena.buffer.subarray(p.start, p.start + p.bytes);
      arrays.set(arg.name, bytes);
      views.push(bytes);
      continue;
    }
    const src = inputs[arg.name];
    if (!src) throw new Error(`no input bytes for argument ${arg.name}`);
    views.push(retain(argView(arg, retain(new Uint8Array(src)))));
  }
  return { views, arrays, arena };
}

/** Copies of the arrays' bytes after a call: a view into the arena would carry the whole arena in a message. */
export function snapshotArrays(arrays: Map<string, Uint8Array>): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const [name, bytes] of arrays) out[name] = retain(new Uint8Array(bytes));
  return out;
}

const CHUNK = 65536;
/** Guard-pattern chunks to compare with (memcmp speed); kept for the child's life, like every buffer here. */
const patterns = new Map<number, Buffer>();
function patternChunk(byte: number, length: number): Buffer {
  let p = patterns.get(byte);
  if (!p) patterns.set(byte, (p = retain(Buffer.alloc(CHUNK, byte))));
  return p.subarray(0, length);
}

function chunkIsPattern(buf: Uint8Array, at: number, end: number, byte: number): boolean {
  return Buffer.from(buf.buffer, buf.byteOffset + at, end - at).equals(patternChunk(byte, end - at));
}

/** The first byte in [from, to) of `buf` that is not `byte`, relative to `from`; -1 when none. */
export function firstChanged(buf: Uint8Array, from: number, to: number, byte: number): number {
  for (let at = from; at < to; at += CHUNK) {
    const end = Math.min(to, at + CHUNK);
    if (chunkIsPattern(buf, at, end, byte)) continue;
    for (let i = at; i < end; i++) if (buf[i] !== byte) return i - from;
  }
  return -1;
}

/** The last byte in [from, to) of `buf` that is not `byte`, relative to `from`; -1 when none. */
export function lastChanged(buf: Uint8Array, from: number, to: number, byte: number): number {
  for (let end = to; end > from; end -= CHUNK) {
    const at = Math.max(from, end - CHUNK);
    if (chunkIsPattern(buf, at, end, byte)) continue;
    for (let i = end - 1; i >= at; i--) if (buf[i] !== byte) return i - from;
  }
  return -1;
}

/** Every argument guard that changed, in address order. `buffer`: the arena's bytes (a device arena's guards
 * copied back into its host image first). */
export function checkArgumentGuards(arena: ArgumentArena, guardByte: number): ArgumentOverrun[] {
  const out: ArgumentOverrun[] = [];
  for (const p of arena.layout.arrays) {
    const [b0, b1] = p.before;
    const first = firstChanged(arena.buffer, b0, b1, guardByte);
    if (first >= 0) out.push({ array: p.name, side: 'before', bytes: b1 - b0 - first, whole: first === 0, arrayBytes: p.bytes });
    const [a0, a1] = p.after;
    const last = lastChanged(arena.buffer, a0, a1, guardByte);
    if (last >= 0) out.push({ array: p.name, side: 'after', bytes: last + 1, whole: last + 1 === a1 - a0, arrayBytes: p.bytes });
  }
  return out;
}

/** Stops the variant when a guard of its argument arena changed. */
export function requireIntactArguments(arena: ArgumentArena, guardByte: number, v: VariantJob): void {
  const found = checkArgumentGuards(arena, guardByte);
  if (found.length) throw new Error(argumentOverrunMessage(found, v));
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
export function guardedWorkspace(
  storage: VariantJob['externals'][number],
  job: RunJob,
  poison: number,
  align = EXTERNAL_ALIGN,
): { ws: GuardedWorkspace; offsets: BigUint64Array } {
  const layout = guardedLayout(storage.slots, job.guardBytes, align);
  const buffer = retain(new Uint8Array(layout.size)).fill(job.guardByte);
  for (const r of layout.regions) buffer.fill(poison, r.start, r.end);
  return { ws: { storage: storage.storage, buffer, regions: layout.regions }, offsets: BigUint64Array.from(layout.offsets.map(BigInt)) };
}

export function checkGuards(ws: GuardedWorkspace, guardByte: number): GuardViolation[] {
  const out: GuardViolation[] = [];
  const firstBad = (from: number, to: number) => firstChanged(ws.buffer, from, to, guardByte);
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
      throw new Error(
        `${v.label}: __dace_get_external_memory_size_${ext.storage} returned ${size} bytes, the generator planned ${ext.bytes}`,
      );
    }
    bytes[ext.storage] = size;
  }
  return bytes;
}

/** Per-call rows a timing process keeps (the job's, else the result's cap). */
export function keepCalls(job: RunJob): number {
  return job.keepCalls ?? MAX_KEPT_CALLS;
}

/** The addon's sampled call in the result's form. */
export function sampledCall(sample: NonNullable<Stats['sample']>, transientIds: string[]): SampledCall {
  return {
    call: sample.call,
    totalNs: sample.totalNs,
    overflowed: sample.overflowed,
    events: sample.events.map((e) => ({
      // Interposed events name the hooked function instead of a transient (docs/interpose.md).
      transient: e.function ?? transientIds[e.transient] ?? `#${e.transient}`,
      kind: e.kind,
      startNs: e.t0,
      durationNs: e.t1 - e.t0,
      bytes: e.bytes,
      ...(e.device ? { device: true as const } : {}),
    })),
  };
}
