/**
 * The engine host's RunnerHost: each runner job goes to the main process, which starts the runner as a
 * utilityProcess (only main can) and supervises it (crash, timeout, cancel). Progress and the outcome come
 * back as messages; a cancellation rejects at once, as NodeRunnerHost's does, and main kills the process.
 */
import {
  RunCancelled,
  type RunJob,
  type RunnerHost,
  type RunnerProgress,
  type RunOptions,
  type VariantResult,
} from '../engine/profile/runner-host.js';
import type { DeviceReport } from '../engine/profile/device.js';
import { reviveError } from '../host-kit/engine-errors.js';
import type { EngineToMain, SerializedError } from '../host-kit/engine-protocol.js';

interface PendingRun {
  resolve(v: VariantResult[]): void;
  reject(e: Error): void;
  onProgress?: (p: RunnerProgress) => void;
}

/** The relay's side of the engine host: one per process, shared by every RelayRunnerHost. */
export class RunRelay {
  private readonly runs = new Map<number, PendingRun>();
  private next = 1;

  constructor(private readonly send: (msg: EngineToMain) => void) {}

  start(job: RunJob, opts: RunOptions, onStarted: (cancel: (why: string) => void) => void): Promise<VariantResult[]> {
    if (opts.signal?.aborted) return Promise.reject(new RunCancelled('before start'));
    const run = this.next++;
    return new Promise<VariantResult[]>((resolve, reject) => {
      const cancel = (why: string) => {
        if (!this.runs.delete(run)) return;
        opts.signal?.removeEventListener('abort', onAbort);
        this.send({ type: 'run-cancel', run });
        reject(new RunCancelled(why));
      };
      const onAbort = () => cancel('');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.runs.set(run, {
        resolve: (v) => {
          opts.signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          opts.signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        onProgress: opts.onProgress,
      });
      onStarted(cancel);
      this.send({ type: 'run', run, job, timeoutMs: opts.timeoutMs ?? 0 });
    });
  }

  progress(run: number, p: RunnerProgress): void {
    this.runs.get(run)?.onProgress?.(p);
  }

  done(run: number, variants: VariantResult[]): void {
    const r = this.runs.get(run);
    this.runs.delete(run);
    r?.resolve(variants);
  }

  failed(run: number, error: SerializedError): void {
    const r = this.runs.get(run);
    this.runs.delete(run);
    r?.reject(reviveError(error));
  }
}

export class RelayRunnerHost implements RunnerHost {
  private cancelCurrent: ((why: string) => void) | null = null;

  constructor(private readonly relay: RunRelay) {}

  run(job: RunJob, opts: RunOptions = {}): Promise<VariantResult[]> {
    const p = this.relay.start(job, opts, (cancel) => (this.cancelCurrent = cancel));
    return p.finally(() => (this.cancelCurrent = null));
  }

  cancel(): void {
    this.cancelCurrent?.('by request');
  }
}

/** Main answers a probe within its own 30 s limit; this one only guards against a main that never answers. */
const PROBE_ANSWER_MS = 60_000;

/**
 * The engine host's device probe: main runs it in a utilityProcess (the packaged app's RunAsNode fuse is off, so
 * this process cannot start Node itself) and answers with the report.
 */
export class DeviceRelay {
  private readonly probes = new Map<number, { resolve(r: DeviceReport): void; reject(e: Error): void }>();
  private next = 1;

  constructor(private readonly send: (msg: EngineToMain) => void) {}

  probe(): Promise<DeviceReport> {
    const probe = this.next++;
    return new Promise<DeviceReport>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probes.delete(probe);
        reject(new Error(`the main process did not answer the CUDA device probe within ${PROBE_ANSWER_MS / 1000} s`));
      }, PROBE_ANSWER_MS);
      const settle = () => {
        clearTimeout(timer);
        this.probes.delete(probe);
      };
      this.probes.set(probe, {
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
      });
      this.send({ type: 'probe-devices', probe });
    });
  }

  done(probe: number, report: DeviceReport): void {
    this.probes.get(probe)?.resolve(report);
  }

  failed(probe: number, error: SerializedError): void {
    this.probes.get(probe)?.reject(reviveError(error));
  }
}
