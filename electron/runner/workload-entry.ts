/**
 * Entry of the workload runner child (docs/workload.md, "Profiling"): every program of a workload loaded in one
 * process, the shared arrays one buffer each, one workspace per storage shared by every program in EXTERNAL.
 * A `verify` job runs every mode side by side against SCOPED, call by call; a `time` job runs one mode's steps in
 * the addon's native sequence loop (timeSequence), with no JavaScript between the calls.
 */
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import type { ProgramArg } from '../engine/codegen/types.js';
import { compareArray } from '../engine/profile/compare.js';
import { NONDETERMINISTIC_RTOL } from '../engine/profile/verify.js';
import type { PositionCheck } from '../engine/workload/result.js';
import type {
  WorkloadInstanceJob,
  WorkloadJob,
  WorkloadModeJob,
  WorkloadPlace,
  WorkloadTiming,
  WorkloadVerifyResult,
} from '../engine/workload/runner-host.js';
import { RUNNER_PARENT_ENV, type InputsFile } from './messages.js';
import { loadNativeAddon, type NativeAddon } from './native.js';
import { parentTransport } from './parent-port.js';
import { alignedBytes, retain } from './runner-helpers.js';
import { WORKLOAD_PROTOCOL_VERSION, type HostToWorkloadRunner, type WorkloadRunnerToHost } from './workload-messages.js';

type ProgramLibrary = ReturnType<NativeAddon['load']>;
type Library = ProgramLibrary | ReturnType<NativeAddon['loadDace']>;

/** Our generated libraries have Transient Lab's runtime (poison, events); a DaCe-built one has neither. */
const ours = (lib: Library): lib is ProgramLibrary => 'setPoison' in lib;

/** The External storages an instance's library takes a workspace for. */
const storagesOf = (inst: WorkloadInstanceJob): string[] => inst.dace?.storages ?? inst.externals.map((e) => e.storage);

/** Guard bytes after each shared workspace: a program that writes past the end of the workspace hits them. */
const WORKSPACE_GUARD = 4096;

const port = parentTransport<HostToWorkloadRunner, WorkloadRunnerToHost>();
const at = (place: WorkloadPlace) => port.send({ type: 'at', place });

const argBytes = (a: ProgramArg): number => (a.kind === 'array' ? Number(a.totalElements) : 1) * a.elementBytes;

interface Workspace {
  storage: string;
  size: number;
  /** size + WORKSPACE_GUARD bytes; the tail is the guard. */
  buffer: Uint8Array;
}

/** One mode, loaded: a library per instance, the shared arrays, the shared workspaces, each call's arguments. */
class LoadedMode {
  readonly libs: Library[] = [];
  readonly arrays = new Map<string, Uint8Array>();
  readonly workspaces: Workspace[] = [];
  readonly argvs: ArrayBufferView[][] = [];
  readonly initBytes: Record<string, number> = {};
  readonly instanceWorkspace: Record<string, Record<string, number>> = {};
  /** Why the allocations of DaCe-built programs are not measured here ('' when they are, or there are none). */
  unmeasured = '';

  constructor(
    addon: NativeAddon,
    readonly job: WorkloadModeJob,
    w: WorkloadJob,
    poison: number | null,
  ) {
    for (const [name, bytes] of Object.entries(w.arrays)) {
      const buf = alignedBytes(bytes);
      const src = w.inputs[name];
      if (src) buf.set(src);
      this.arrays.set(name, buf);
    }
    for (const inst of job.instances) {
      at({ label: job.label, phase: 'load', program: inst.id });
      const lib = inst.dace ? this.loadDace(addon, inst) : addon.load(inst.libPath);
      if (ours(lib)) {
        if (lib.gpu) throw new Error(`${inst.id}: ${inst.libPath} is a GPU program library; workloads run CPU programs only`);
        // Poison before init: PERSISTENT's buffers start as garbage too.
        lib.setPoison(poison !== null, poison ?? 0);
      }
      at({ label: job.label, phase: 'init', program: inst.id });
      lib.init(BigInt64Array.from(inst.initSymbols));
      // A DaCe library's events are the hooks' (its init runs inside a hook window once interposed).
      this.initBytes[inst.id] = lib
        .lastEvents()
        .filter((e) => e.kind === 'alloc')
        .reduce((s, e) => s + e.bytes, 0);
      this.libs.push(lib);
      this.argvs.push(inst.args.map((a) => this.view(inst, a)));
    }
    // One workspace per storage, sized to the largest need of any instance, handed to every program.
    const storages = [...new Set(job.instances.flatMap(storagesOf))];
    for (const storage of storages) {
      at({ label: job.label, phase: 'workspace' });
      let size = 0;
      job.instances.forEach((inst, k) => {
        if (!storagesOf(inst).includes(storage)) return;
        const own = Number(this.libs[k]!.externalSize(storage, BigInt64Array.from(inst.initSymbols)));
        (this.instanceWorkspace[inst.id] ??= {})[storage] = own;
        size = Math.max(size, own);
      });
      const buffer = alignedBytes(size + WORKSPACE_GUARD);
      buffer.fill(w.guardByte, size);
      const ws = { storage, size, buffer };
      this.workspaces.push(ws);
      this.install(ws, (k) => k);
    }
  }

  /**
   * A DaCe-built library, interposed right after load and before init as `profile FOLDER` does (dace-variant.ts):
   * its program calls then run inside hook windows. Where its GOT cannot be patched, the mode's allocation columns
   * are not measured, and say so.
   */
  private loadDace(addon: NativeAddon, inst: WorkloadInstanceJob): Library {
    const lib = addon.loadDace(inst.libPath, inst.dace!);
    try {
      lib.interpose(true);
    } catch (err) {
      this.unmeasured ||= `${inst.id}: interposition could not be applied: ${err instanceof Error ? err.message : String(err)}`;
    }
    return lib;
  }

  /** Hands workspace `ws` to every instance's library, in the layout of instance `layoutOf(k)`'s symbols. */
  install(ws: Workspace, layoutOf: (k: number) => number): void {
    this.job.instances.forEach((inst, k) => {
      if (!storagesOf(inst).includes(ws.storage)) return;
      const symbols = BigInt64Array.from(this.job.instances[layoutOf(k)]!.initSymbols);
      this.libs[k]!.setExternal(ws.storage, ws.buffer.subarray(0, Math.max(ws.size, 1)), symbols);
    });
  }

  private view(inst: WorkloadInstanceJob, a: ProgramArg): ArrayBufferView {
    if (a.kind === 'symbol') {
      const v = inst.symbolArgs[a.name];
      if (!v) throw new Error(`${inst.id}: no value for symbol argument ${a.name}`);
      return retain(Uint8Array.from(v));
    }
    const name = inst.binding[a.name]!;
    const buf = this.arrays.get(name);
    if (!buf) throw new Error(`${inst.id}: argument ${a.name} is bound to '${name}', which has no buffer`);
    return buf.subarray(0, argBytes(a));
  }

  /** The bytes of argument `a` of instance `k` (a view into its shared array). */
  bytesOf(k: number, a: ProgramArg): Uint8Array {
    return this.arrays.get(this.job.instances[k]!.binding[a.name]!)!.subarray(0, argBytes(a));
  }

  guardWritten(ws: Workspace, guardByte: number): boolean {
    for (let i = ws.size; i < ws.buffer.length; i++) if (ws.buffer[i] !== guardByte) return true;
    return false;
  }
}

const isExternal = (m: LoadedMode): boolean => m.workspaces.length > 0;

function writtenArrays(inst: WorkloadInstanceJob): ProgramArg[] {
  return inst.args.filter((a) => a.kind === 'array' && a.written);
}

function verify(addon: NativeAddon, w: WorkloadJob): WorkloadVerifyResult {
  const modes = w.modes.map((m) => new LoadedMode(addon, m, w, w.poison[0]));
  const [ref, ...others] = modes as [LoadedMode, ...LoadedMode[]];
  const result: WorkloadVerifyResult = {
    checks: Object.fromEntries(others.map((m) => [m.job.label, [] as PositionCheck[]])),
    workspace: {},
    initBytes: {},
    callPeakBytes: {},
    instanceWorkspace: {},
    allocationsUnmeasured: {},
    guardHits: [],
    overruns: [],
    outputs: null,
  };
  for (const m of modes) {
    result.initBytes[m.job.label] = m.initBytes;
    result.callPeakBytes[m.job.label] = 0;
    if (isExternal(m)) {
      result.workspace[m.job.label] = Object.fromEntries(m.workspaces.map((ws) => [ws.storage, ws.size]));
      result.instanceWorkspace[m.job.label] = m.instanceWorkspace;
    }
    if (m.unmeasured) result.allocationsUnmeasured[m.job.label] = m.unmeasured;
  }
  for (let step = 0; step < w.steps; step++) {
    for (const [position, call] of w.sequence.entries()) {
      const k = call.instance;
      const stale = new Map<LoadedMode, boolean>();
      for (const m of modes) {
        at({ label: m.job.label, phase: 'verify', program: call.program, position, step });
        if (isExternal(m)) stale.set(m, runExternalPoisoned(m, k, w, { position, step, program: call.program }, result));
        else {
          const lib = m.libs[k]!;
          lib.run(m.argvs[k]!, 1);
          let live = 0;
          for (const e of lib.lastEvents()) {
            live += e.kind === 'alloc' ? e.bytes : -e.bytes;
            result.callPeakBytes[m.job.label] = Math.max(result.callPeakBytes[m.job.label]!, live);
          }
        }
      }
      for (const m of others) {
        const inst = m.job.instances[k]!;
        const rtol = inst.nondeterministicFloat ? NONDETERMINISTIC_RTOL : null;
        const mismatches: PositionCheck['mismatches'] = [];
        for (const a of writtenArrays(inst)) {
          const d = compareArray(a, ref.bytesOf(k, a), m.bytesOf(k, a), rtol);
          if (d)
            mismatches.push({
              array: inst.binding[a.name]!,
              argument: a.name,
              firstIndex: d.flatIndex,
              expected: d.values[0],
              actual: d.values[1],
            });
        }
        const check: PositionCheck = { step, position, program: call.program, ok: mismatches.length === 0, mismatches };
        if (stale.has(m)) check.staleWorkspace = stale.get(m)!;
        if (check.staleWorkspace) check.ok = false;
        result.checks[m.job.label]!.push(check);
      }
    }
  }
  if (w.keepOutputs) {
    result.outputs = Object.fromEntries(
      modes.map((m) => [m.job.label, Object.fromEntries([...m.arrays].map(([n, b]) => [n, Uint8Array.from(b)]))]),
    );
  }
  if (w.overrunCheck) {
    // Not for DaCe-built libraries: their set function refuses a workspace smaller than their size function says.
    for (const m of modes) if (isExternal(m) && !m.job.instances.some((i) => i.dace)) overrunCheck(m, w, result);
  }
  return result;
}

/**
 * One EXTERNAL call with the workspace poisoned before it (with the first pattern, as every other mode's
 * transients are), then again from the same arguments with the second pattern: when the outputs differ, the
 * program read workspace bytes it did not write in this call, i.e. bytes another program left behind in a real
 * run. Returns whether it did; the arrays keep the first run's results.
 */
function runExternalPoisoned(
  m: LoadedMode,
  k: number,
  w: WorkloadJob,
  where: { position: number; step: number; program: string },
  result: WorkloadVerifyResult,
): boolean {
  const inst = m.job.instances[k]!;
  const arrays = inst.args.filter((a) => a.kind === 'array');
  const before = arrays.map((a) => Uint8Array.from(m.bytesOf(k, a)));
  const outputs: Uint8Array[][] = [];
  for (const pattern of w.poison) {
    arrays.forEach((a, i) => m.bytesOf(k, a).set(before[i]!));
    for (const ws of m.workspaces) ws.buffer.fill(pattern, 0, ws.size);
    const lib = m.libs[k]!;
    if (ours(lib)) lib.setPoison(true, pattern);
    lib.run(m.argvs[k]!, 1);
    for (const ws of m.workspaces) {
      if (m.guardWritten(ws, w.guardByte)) {
        result.guardHits.push({ label: m.job.label, storage: ws.storage, ...where });
        ws.buffer.fill(w.guardByte, ws.size);
      }
    }
    outputs.push(arrays.map((a) => Uint8Array.from(m.bytesOf(k, a))));
  }
  const lib = m.libs[k]!;
  if (ours(lib)) lib.setPoison(true, w.poison[0]);
  arrays.forEach((a, i) => m.bytesOf(k, a).set(outputs[0]![i]!));
  return arrays.some((a, i) => a.written && !Buffer.from(outputs[0]![i]!).equals(outputs[1]![i]!));
}

/**
 * EXTERNAL as gt4py runs it: each program's workspace configured once, at its first call, and reused when a
 * later entry of the sequence calls the same program with other symbol values. The library of the program's
 * first call runs every call of that program; a workspace sized for the first calls gets guard bytes after it,
 * large enough to take the biggest overrun the sizes predict.
 */
function overrunCheck(m: LoadedMode, w: WorkloadJob, result: WorkloadVerifyResult): void {
  const firstOf = new Map<string, number>();
  for (const c of w.sequence) if (!firstOf.has(c.program)) firstOf.set(c.program, c.instance);
  const insts = m.job.instances;
  const need = (k: number, storage: string): number => Number(insts[k]!.externals.find((e) => e.storage === storage)?.bytes ?? 0n);
  for (const ws of m.workspaces) {
    const configured = Math.max(0, ...[...firstOf.values()].map((k) => need(k, ws.storage)));
    const largest = Math.max(0, ...w.sequence.map((c) => need(c.instance, ws.storage)));
    const guard = Math.max(WORKSPACE_GUARD, largest - configured + WORKSPACE_GUARD);
    const buffer = alignedBytes(configured + guard);
    buffer.fill(w.guardByte, configured);
    const gt4py: Workspace = { storage: ws.storage, size: configured, buffer };
    // Only the first-call instances are configured (and called) here.
    insts.forEach((inst, k) => {
      if ([...firstOf.values()].includes(k) && inst.externals.some((e) => e.storage === ws.storage))
        m.libs[k]!.setExternal(ws.storage, buffer.subarray(0, Math.max(configured, 1)), BigInt64Array.from(inst.initSymbols));
    });
    for (const [position, c] of w.sequence.entries()) {
      const first = firstOf.get(c.program)!;
      at({ label: m.job.label, phase: 'overrun-check', program: c.program, position, step: 0 });
      const firstLib = m.libs[first]!;
      if (ours(firstLib)) firstLib.setPoison(false, 0);
      // The first call's library, with this call's arguments (its symbol values).
      m.libs[first]!.run(m.argvs[c.instance]!, 1);
      const hit = m.guardWritten(gt4py, w.guardByte);
      if (hit) buffer.fill(w.guardByte, configured);
      const needed = need(c.instance, ws.storage);
      const own = need(first, ws.storage);
      if (needed > own || hit)
        result.overruns.push({
          variant: m.job.label,
          program: c.program,
          position,
          storage: ws.storage,
          neededBytes: needed,
          configuredBytes: own,
          guardWritten: hit,
        });
    }
  }
}

function time(addon: NativeAddon, w: WorkloadJob, progressFile: string): WorkloadTiming {
  const m = new LoadedMode(addon, w.modes[0]!, w, null);
  const calls = w.sequence.map((c) => ({ library: m.libs[c.instance]!, args: m.argvs[c.instance]! }));
  const rssBefore = resetPeakRss();
  at({ label: m.job.label, phase: 'steps' });
  const t = addon.timeSequence(calls, w.warmupSteps, w.steps, progressFile);
  const peak = statusBytes('VmHWM');
  at({ label: m.job.label, phase: 'exit' });
  for (const lib of m.libs) lib.exit();
  const rows = w.warmupSteps * t.positions;
  return {
    label: m.job.label,
    positions: t.positions,
    steps: w.steps,
    stepNs: t.stepNs.slice(w.warmupSteps),
    stepFaults: t.stepFaults.slice(w.warmupSteps),
    callNs: t.callNs.slice(rows),
    allocs: t.allocs.slice(rows),
    frees: t.frees.slice(rows),
    allocFreeNs: t.allocFreeNs.slice(rows),
    allocBytes: t.allocBytes.slice(rows),
    loopWallNs: t.loopWallNs,
    overflowed: t.overflowed,
    rssDeltaBytes: rssBefore !== null && peak !== null ? Math.max(0, peak - rssBefore) : null,
    workspace: Object.fromEntries(m.workspaces.map((ws) => [ws.storage, ws.size])),
    ...(m.unmeasured ? { allocationsUnmeasured: m.unmeasured } : {}),
    ...(w.calibrateSteps ? { emptyOverheadNsPerCall: addon.measureSequenceOverheadNs(t.positions, w.calibrateSteps) } : {}),
  };
}

/** `VmRSS` / `VmHWM` of /proc/self/status in bytes, or null off Linux. */
function statusBytes(field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the peak resident set (clear_refs 5) and returns the resident set now: the steps' peak minus this is
 * what the mode added (POOL's footprint on CPU). */
function resetPeakRss(): number | null {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    return null;
  }
  return statusBytes('VmRSS');
}

/** Straight into buffers that are never freed (runner-helpers.ts `retain`, docs/native.md). */
function readInputs(file: InputsFile): Record<string, Uint8Array> {
  const inputs: Record<string, Uint8Array> = {};
  const fd = openSync(file.path, 'r');
  try {
    for (const e of file.entries) {
      const bytes = retain(new Uint8Array(e.bytes));
      for (let done = 0; done < e.bytes;) {
        const n = readSync(fd, bytes, done, e.bytes - done, e.offset + done);
        if (n === 0) throw new Error(`the inputs file ${file.path} ends before array ${e.name}`);
        done += n;
      }
      inputs[e.name] = bytes;
    }
  } finally {
    closeSync(fd);
  }
  return inputs;
}

// The child ends with its host, however the host ends (runner-entry.ts does the same).
const parent = Number(process.env[RUNNER_PARENT_ENV]);
if (Number.isInteger(parent) && parent > 0) {
  try {
    loadNativeAddon().dieWithParent(parent);
  } catch {
    // reported by the job itself
  }
}

port.onMessage((msg) => {
  if (msg.type !== 'job') return;
  try {
    if (msg.protocol !== WORKLOAD_PROTOCOL_VERSION)
      throw new Error(`workload runner protocol ${WORKLOAD_PROTOCOL_VERSION}, host sent ${msg.protocol}`);
    const addon = loadNativeAddon();
    const job: WorkloadJob = { ...msg.job, inputs: readInputs(msg.inputsFile) };
    if (job.kind === 'verify') port.send({ type: 'verified', result: verify(addon, job) });
    else port.send({ type: 'timed', result: time(addon, job, msg.progressFile) });
  } catch (err) {
    port.send({ type: 'failed', message: (err as Error)?.message ?? String(err) });
  }
});
port.send({ type: 'ready', protocol: WORKLOAD_PROTOCOL_VERSION });
