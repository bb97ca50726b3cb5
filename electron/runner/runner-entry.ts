/**
 * Entry of the runner child process: the only place generated code runs. A crash here (SIGSEGV in a
 * generated program, an abort in the allocator) takes down this process only; the host turns the exit
 * signal into a TlabError naming the mode and the step announced last.
 *
 * Hosted by Node's child_process.fork (messages via process.send) or by Electron's utilityProcess (messages
 * via process.parentPort): only the transport differs.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { runDaceVariant } from './dace-variant.js';
import { runGpuVariant, type VariantContext } from './gpu-variant.js';
import { startInterposition } from './interpose-run.js';
import { loadNativeAddon } from './native.js';
import { parentTransport, type ParentTransport } from './parent-port.js';
import { clearProgressPage } from './progress-file.js';
import {
  RUNNER_PARENT_ENV,
  RUNNER_PROTOCOL_VERSION,
  type GuardViolation,
  type HostToRunner,
  type InputsFile,
  type Phase,
  type RunJob,
  type RunnerToHost,
  type VariantJob,
  type VariantResult,
} from './messages.js';
import { emptyTiming, processTiming } from '../engine/profile/samples.js';
import {
  alignedBytes,
  checkGuards,
  freshArgs,
  guardedWorkspace,
  keepCalls,
  requireIntactArguments,
  retain,
  sampledCall,
  snapshotArrays,
  workspaceSizes,
} from './runner-helpers.js';

type Addon = ReturnType<typeof loadNativeAddon>;
type Library = ReturnType<Addon['load']>;

type Transport = ParentTransport<HostToRunner, RunnerToHost>;

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

  private context(v: VariantJob): VariantContext {
    return {
      enter: (phase) => this.enter(v.label, phase),
      progressFile: this.progressFile,
      timedDone: (done, total) => this.port.send({ type: 'progress', jobId: this.jobId, variant: v.label, done, total }),
    };
  }

  run(job: RunJob): void {
    try {
      if (job.calibrate) {
        this.port.send({
          type: 'calibration',
          jobId: this.jobId,
          calibration: {
            eventCostNs: this.addon.measureEventCostNs(job.calibrate),
            callOverheadNs: this.addon.measureCallOverheadNs(job.calibrate),
            ...(job.interpose ? { interposeHookNs: this.addon.measureInterposeCostNs(job.calibrate) } : {}),
          },
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
    if (v.dace) return runDaceVariant(this.addon, v, job, this.context(v));
    this.enter(v.label, 'load');
    const lib = this.addon.load(v.libPath);
    const hooks = job.interpose ? startInterposition(this.addon, lib) : null;
    if (v.gpu) {
      const ctx = this.context(v);
      const result = runGpuVariant(lib, v, job, {
        ...ctx,
        enter: (phase) => {
          if (phase === 'exit') hooks?.beforeExit();
          ctx.enter(phase);
        },
      });
      return hooks ? { ...result, interposition: hooks.facts(result.timing) } : result;
    }
    // A GPU library would get host pointers for device arguments: refuse instead of crashing in a kernel.
    if (lib.gpu) throw new Error(`${v.label}: ${v.libPath} is a GPU program library, but the job runs it as a CPU program`);
    const symbols = BigInt64Array.from(v.initSymbols);
    const verify = !job.skipVerification;
    // Poison before init so PERSISTENT buffers (allocated in init) start as garbage too.
    lib.setPoison(verify, job.poison[0]);
    this.enter(v.label, 'init');
    // A program whose init code reads its arguments gets them in init (docs/runtime-abi.md): its own fresh set,
    // like every call's (kept alive: init code may keep what it read).
    const initNs = lib.initArgCount > 0 ? lib.init(symbols, freshArgs(v, job.inputs, job.guardByte).views) : lib.init(symbols);

    this.enter(v.label, 'workspace');
    const workspaceBytes = workspaceSizes(lib, v, symbols);

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
        const { views, arrays, arena } = freshArgs(v, job.inputs, job.guardByte);
        this.enter(v.label, k === 0 ? 'verify-1' : 'verify-2');
        const stats = lib.run(views, 1);
        hooks?.sameCall(stats);
        // First: outputs and events of a call that wrote outside its arguments mean nothing.
        requireIntactArguments(arena, job.guardByte, v);
        for (const ev of lib.lastEvents()) {
          if (ev.kind === 'alloc') poisoned.add(v.transientIds[ev.transient] ?? `#${ev.transient}`);
        }
        for (const ws of workspaces) {
          for (const g of checkGuards(ws, job.guardByte)) {
            // Both verification calls usually overflow the same way: one report per slot and side.
            if (!guardViolations.some((x) => x.storage === g.storage && x.slot === g.slot && x.where === g.where)) guardViolations.push(g);
          }
        }
        const snapshot = snapshotArrays(arrays);
        if (k === 0) outputs = snapshot;
        else outputsSecond = snapshot;
      }
      lib.setPoison(false, 0);
    }

    // The library's own layout (dace or packed) for timing, in a fresh workspace (it must outlive every call
    // into the library; retained, like every large buffer here).
    for (const ext of v.externals) {
      const buffer = alignedBytes(Number(workspaceBytes[ext.storage]!));
      lib.setExternal(ext.storage, buffer, symbols);
    }
    // First call, warm-up and timed calls in one native loop, as a plain C program would call the library:
    // no JavaScript runs between the calls (the host follows the warm-up and the timed calls on the progress
    // page instead of messages). A verification-only job (calls 0) stops before.
    let timing = emptyTiming();
    let timed: ReturnType<Library['timeCalls']> | null = null;
    if (job.calls > 0) {
      const { views, arena } = freshArgs(v, job.inputs, job.guardByte);
      // Before the announcement: the host then never takes the previous variant's final state for this one's.
      if (this.progressFile) clearProgressPage(this.progressFile);
      this.enter(v.label, 'first-call');
      timed = lib.timeCalls(views, job.warmup, job.settle, job.calls, this.progressFile);
      // Once, after all the calls: a job without verification (processes > 1) still learns of an overrun.
      requireIntactArguments(arena, job.guardByte, v);
      timing = processTiming(timed.stats, keepCalls(job), timed.loopWallNs, timed.warmupCalls);
      this.port.send({ type: 'progress', jobId: this.jobId, variant: v.label, done: job.calls, total: job.calls });
    }
    hooks?.beforeExit();
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
      ...(hooks ? { interposition: hooks.facts(timing) } : {}),
    };
  }
}

/** Reads every input from the host's file straight into a buffer that is never freed (see `retained`). */
function readInputs(file: InputsFile | null): Record<string, Uint8Array> {
  const inputs: Record<string, Uint8Array> = {};
  if (!file) return inputs;
  const fd = openSync(file.path, 'r');
  try {
    for (const entry of file.entries) {
      const bytes = retain(new Uint8Array(entry.bytes));
      for (let done = 0; done < entry.bytes;) {
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

/**
 * Ends this process when its host dies, however the host dies (kill -9 and the OOM killer included): the addon asks
 * the kernel for SIGKILL on the parent's death. Without the addon (a broken build) the job reports that itself.
 */
function dieWithParent(): Addon | null {
  const parent = Number(process.env[RUNNER_PARENT_ENV]);
  if (!Number.isInteger(parent) || parent <= 0) return null;
  try {
    const addon = loadNativeAddon();
    addon.dieWithParent(parent);
    return addon;
  } catch {
    return null;
  }
}

function main(): void {
  const port: Transport = parentTransport<HostToRunner, RunnerToHost>();
  let addon: Addon | null = dieWithParent();
  const fail = (jobId: number, message: string) => port.send({ type: 'failed', jobId, variant: null, phase: null, message, details: [] });
  port.onMessage((msg) => {
    if (msg.type !== 'job') return;
    if (msg.protocol !== RUNNER_PROTOCOL_VERSION)
      return fail(msg.jobId, `runner protocol ${RUNNER_PROTOCOL_VERSION}, host sent ${msg.protocol}`);
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
