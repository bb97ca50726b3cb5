/**
 * Entry of the runner child process: the only place generated code runs. A crash here (SIGSEGV in a
 * generated program, an abort in the allocator) takes down this process only; the host turns the exit
 * signal into a TlabError naming the mode and the step announced last.
 *
 * Hosted by Node's child_process.fork (messages via process.send) or by Electron's utilityProcess (messages
 * via process.parentPort): only the transport differs.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { ProgramArg } from '../engine/codegen/types.js';
import type { SampledCall } from '../engine/profile/result.js';
import { guardedLayout, type GuardedRegion } from './guarded-layout.js';
import { loadNativeAddon } from './native.js';
import { parentTransport, type ParentTransport } from './parent-port.js';
import { clearProgressPage } from './progress-file.js';
import {
  RUNNER_PROTOCOL_VERSION,
  type GuardViolation,
  type HostToRunner,
  type InputsFile,
  type Phase,
  type RunJob,
  type RunnerToHost,
  type VariantJob,
  type VariantResult,
  type VariantTiming,
} from './messages.js';

type Addon = ReturnType<typeof loadNativeAddon>;
type Library = ReturnType<Addon['load']>;
type Stats = ReturnType<Library['run']>;

type Transport = ParentTransport<HostToRunner, RunnerToHost>;

/**
 * Every large buffer this child creates stays reachable until the process exits (each job gets a fresh child).
 * glibc raises its mmap threshold, and with it the trim threshold, to the size of the largest malloc'd block
 * freed so far; if the garbage collector freed an input copy or a verification workspace, the program would
 * then run against allocator settings that a plain C process calling it never has (fewer page faults per
 * call, different times). Holding them costs memory, not correctness.
 */
const retained: unknown[] = [];

function retain<T>(value: T): T {
  retained.push(value);
  return value;
}

const EXTERNAL_ALIGN = 64;

/** A typed array of the argument's exact C type for scalars and symbols (the addon reads the value through
 * its data pointer); arrays pass their bytes directly. */
function argView(arg: ProgramArg, bytes: Uint8Array): ArrayBufferView {
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
function freshArgs(variant: VariantJob, inputs: Record<string, Uint8Array>): { views: ArrayBufferView[]; arrays: Map<string, Uint8Array> } {
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

interface GuardedWorkspace {
  storage: string;
  buffer: Uint8Array;
  /** Slot ids and [start, end) of every region (slots that share bytes in the library's layout). */
  regions: GuardedRegion[];
}

/**
 * Regions separated (and surrounded) by ≥ guardBytes of guard pattern, slot memory filled with poison. Slots
 * that share bytes in the library's own layout share them here too (guarded-layout.ts).
 */
function guardedWorkspace(storage: VariantJob['externals'][number], job: RunJob, poison: number): { ws: GuardedWorkspace; offsets: BigUint64Array } {
  const layout = guardedLayout(storage.slots, job.guardBytes, EXTERNAL_ALIGN);
  const buffer = retain(new Uint8Array(layout.size)).fill(job.guardByte);
  for (const r of layout.regions) buffer.fill(poison, r.start, r.end);
  return { ws: { storage: storage.storage, buffer, regions: layout.regions }, offsets: BigUint64Array.from(layout.offsets.map(BigInt)) };
}

function checkGuards(ws: GuardedWorkspace, guardByte: number): GuardViolation[] {
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

function emptyTiming(): VariantTiming {
  return { totalNs: [], allocNs: [], freeNs: [], allocs: [], frees: [], allocBytes: [], minorFaults: [], overflowed: false, batchWallNs: 0, warmupCalls: [] };
}

function appendStats(t: VariantTiming, s: Stats): void {
  t.totalNs.push(...s.totalNs);
  t.allocNs.push(...s.allocNs);
  t.freeNs.push(...s.freeNs);
  t.allocs.push(...s.allocs);
  t.frees.push(...s.frees);
  t.allocBytes.push(...s.allocBytes);
  t.minorFaults.push(...s.minorFaults);
  t.overflowed ||= s.overflowed;
}

class JobRunner {
  private variant: string | null = null;
  private phase: Phase | null = null;

  constructor(
    private readonly addon: Addon,
    private readonly port: Transport,
    private readonly jobId: number,
    private readonly progressFile: string | null,
  ) {}

  private enter(variant: string, phase: Phase): void {
    this.variant = variant;
    this.phase = phase;
    this.port.send({ type: 'phase', jobId: this.jobId, variant, phase });
  }

  run(job: RunJob): void {
    try {
      if (job.calibrate) {
        this.port.send({
          type: 'calibration',
          jobId: this.jobId,
          calibration: { eventCostNs: this.addon.measureEventCostNs(job.calibrate), callOverheadNs: this.addon.measureCallOverheadNs(job.calibrate) },
        });
      }
      for (const v of job.variants) {
        const result = this.runVariant(v, job);
        this.port.send({ type: 'variant-done', jobId: this.jobId, result });
      }
      this.port.send({ type: 'done', jobId: this.jobId });
    } catch (err) {
      const e = err as Error;
      this.port.send({
        type: 'failed',
        jobId: this.jobId,
        variant: this.variant,
        phase: this.phase,
        message: e?.message ?? String(err),
        details: [],
      });
    }
  }

  private runVariant(v: VariantJob, job: RunJob): VariantResult {
    this.enter(v.label, 'load');
    const lib = this.addon.load(v.libPath);
    const symbols = BigInt64Array.from(v.initSymbols);
    const verify = !job.skipVerification;
    // Poison before init so PERSISTENT buffers (allocated in init) start as garbage too.
    lib.setPoison(verify, job.poison[0]);
    this.enter(v.label, 'init');
    const initNs = lib.init(symbols);

    this.enter(v.label, 'workspace');
    const workspaceBytes: Record<string, bigint> = {};
    for (const ext of v.externals) {
      const size = lib.externalSize(ext.storage, symbols);
      if (size !== ext.bytes) {
        throw new Error(`${v.label}: __dace_get_external_memory_size_${ext.storage} returned ${size} bytes, the generator planned ${ext.bytes}`);
      }
      workspaceBytes[ext.storage] = size;
    }

    let outputs: Record<string, Uint8Array> | null = null;
    let outputsSecond: Record<string, Uint8Array> | null = null;
    const poisoned = new Set<string>();
    const guardViolations: GuardViolation[] = [];
    if (verify) {
      for (let k = 0; k < 2; k++) {
        const pattern = job.poison[k as 0 | 1];
        lib.setPoison(true, pattern);
        const workspaces = v.externals.map((ext) => {
          const { ws, offsets } = guardedWorkspace(ext, job, pattern);
          lib.setExternalOffsets(ext.storage, ws.buffer, offsets);
          for (const slot of ext.slots) poisoned.add(slot.id);
          return ws;
        });
        const { views, arrays } = freshArgs(v, job.inputs);
        this.enter(v.label, k === 0 ? 'verify-1' : 'verify-2');
        lib.run(views, 1);
        for (const ev of lib.lastEvents()) {
          if (ev.kind === 'alloc') poisoned.add(v.transientIds[ev.transient] ?? `#${ev.transient}`);
        }
        for (const ws of workspaces) {
          for (const g of checkGuards(ws, job.guardByte)) {
            // Both verification calls usually overflow the same way: one report per slot and side.
            if (!guardViolations.some((x) => x.storage === g.storage && x.slot === g.slot && x.where === g.where)) guardViolations.push(g);
          }
        }
        const snapshot = Object.fromEntries(arrays);
        if (k === 0) outputs = snapshot;
        else outputsSecond = snapshot;
      }
      lib.setPoison(false, 0);
    }

    // The library's own layout (dace or packed) for timing, in a fresh workspace (it must outlive every call
    // into the library; retained, like every large buffer here).
    for (const ext of v.externals) {
      const buffer = retain(new Uint8Array(Number(workspaceBytes[ext.storage]!)));
      lib.setExternal(ext.storage, buffer, symbols);
    }
    // First call, warm-up and timed calls in one native loop, as a plain C program would call the library:
    // no JavaScript runs between the calls (the host follows the warm-up and the timed calls on the progress
    // page instead of messages). A verification-only job (calls 0) stops before.
    const timing = emptyTiming();
    let timed: ReturnType<Library['timeCalls']> | null = null;
    if (job.calls > 0) {
      const { views } = freshArgs(v, job.inputs);
      // Before the announcement: the host then never takes the previous variant's final state for this one's.
      if (this.progressFile) clearProgressPage(this.progressFile);
      this.enter(v.label, 'first-call');
      timed = lib.timeCalls(views, job.warmup, job.settle, job.calls, this.progressFile);
      appendStats(timing, timed.stats);
      timing.batchWallNs = timed.loopWallNs;
      timing.warmupCalls = [timed.warmupCalls];
      this.port.send({ type: 'progress', jobId: this.jobId, variant: v.label, done: job.calls, total: job.calls });
    }
    this.enter(v.label, 'exit');
    const exitNs = lib.exit();
    const firstCallNs = timed?.firstCallNs ?? NaN;
    return {
      label: v.label,
      initNs,
      exitNs,
      firstCallNs,
      workspaceBytes,
      outputs,
      outputsSecond,
      poisonedTransients: [...poisoned].sort(),
      guardViolations,
      timing,
      sampledCall: timed?.stats.sample ? sampledCall(timed.stats.sample, v.transientIds) : null,
    };
  }
}

/** The addon's sampled call in the result's form. */
function sampledCall(sample: NonNullable<Stats['sample']>, transientIds: string[]): SampledCall {
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
    })),
  };
}

/** Reads every input from the host's file straight into a buffer that is never freed (see `retained`). */
function readInputs(file: InputsFile | null): Record<string, Uint8Array> {
  const inputs: Record<string, Uint8Array> = {};
  if (!file) return inputs;
  const fd = openSync(file.path, 'r');
  try {
    for (const entry of file.entries) {
      const bytes = retain(new Uint8Array(entry.bytes));
      for (let done = 0; done < entry.bytes; ) {
        const n = readSync(fd, bytes, done, entry.bytes - done, entry.offset + done);
        if (n === 0) throw new Error(`the inputs file ${file.path} ends before input ${entry.name} (${done} of ${entry.bytes} bytes)`);
        done += n;
      }
      inputs[entry.name] = bytes;
    }
  } finally {
    closeSync(fd);
  }
  return inputs;
}

function main(): void {
  const port: Transport = parentTransport<HostToRunner, RunnerToHost>();
  let addon: Addon | null = null;
  const fail = (jobId: number, message: string) => port.send({ type: 'failed', jobId, variant: null, phase: null, message, details: [] });
  port.onMessage((msg) => {
    if (msg.type !== 'job') return;
    if (msg.protocol !== RUNNER_PROTOCOL_VERSION) return fail(msg.jobId, `runner protocol ${RUNNER_PROTOCOL_VERSION}, host sent ${msg.protocol}`);
    let inputs: Record<string, Uint8Array>;
    try {
      inputs = readInputs(msg.inputsFile);
    } catch (err) {
      return fail(msg.jobId, `cannot read the job's inputs: ${(err as Error).message}`);
    }
    try {
      addon ??= loadNativeAddon();
    } catch (err) {
      return fail(msg.jobId, `cannot load the native addon: ${(err as Error).message}`);
    }
    new JobRunner(addon, port, msg.jobId, msg.progressFile).run({ ...msg.job, inputs: { ...msg.job.inputs, ...inputs } });
  });
  port.send({ type: 'ready', protocol: RUNNER_PROTOCOL_VERSION, pid: process.pid });
}

main();
