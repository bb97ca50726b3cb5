/**
 * The runner host's supervision, written once for every way of starting the runner child (a Node fork in the
 * CLI and browser mode, an Electron utilityProcess in the desktop app): one fresh child per job, a readiness
 * message, progress, cancel, timeout, and every bad ending turned into a TlabError('run') naming the mode and
 * the step the child announced last. Inputs and progress go through the job's files (job-files.ts), never
 * through messages: the child's JavaScript is blocked while the timed calls run.
 */
import { tmpdir } from 'node:os';
import { TlabError } from '../engine/errors.js';
import { fsCause } from '../engine/io/fs-errors.js';
import {
  RunCancelled,
  type Calibration,
  type Phase,
  type RunJob,
  type RunnerHost,
  type RunOptions,
  type VariantResult,
} from '../engine/profile/runner-host.js';
import type { ChildEnd, SupervisedChild } from './child.js';
import { JobFiles } from './job-files.js';
import { RUNNER_PROTOCOL_VERSION, type HostToRunner, type RunnerToHost } from './messages.js';
import { crashHint } from './overrun.js';

const PHASE_WORDS: Record<Phase, string> = {
  load: 'loading the library',
  init: 'init (__dace_init)',
  workspace: 'workspace setup',
  'verify-1': 'verification call 1',
  'verify-2': 'verification call 2',
  arguments: 'copying the inputs to the device',
  'first-call': 'the first call',
  warmup: 'warmup calls',
  calls: 'timed calls',
  exit: 'exit (__dace_exit)',
};

const TAIL_BYTES = 4096;
/** A runner that has not said `ready` by then will not: its start failed (a missing module, a bad build). */
const READY_TIMEOUT_MS = 30_000;
/** How often the host looks at the progress page during the first, warm-up and timed calls. */
const PROGRESS_POLL_MS = 100;

export type RunnerChild = SupervisedChild<HostToRunner, RunnerToHost>;

export abstract class SupervisedRunnerHost implements RunnerHost {
  private child: RunnerChild | null = null;
  private cancelCurrent: ((why: string) => void) | null = null;
  private nextJobId = 1;

  /** Starts a fresh runner child, or throws a TlabError('run') saying why it cannot (e.g. not built). */
  protected abstract spawn(): RunnerChild;

  /** Kills the running job's child, if any; its promise rejects with RunCancelled. */
  cancel(): void {
    this.cancelCurrent?.('by request');
  }

  run(job: RunJob, opts: RunOptions = {}): Promise<VariantResult[]> {
    return this.runWithCalibration(job, opts).then((r) => r.variants);
  }

  /** The addon's own costs (event recording, bare call), measured in a runner child. */
  async calibrate(iterations: number, opts: RunOptions = {}): Promise<Calibration> {
    const job: RunJob = {
      variants: [],
      inputs: {},
      calls: 0,
      warmup: 0,
      settle: 0,
      poison: [0, 0],
      guardByte: 0,
      guardBytes: 64,
      calibrate: iterations,
    };
    const { calibration } = await this.runWithCalibration(job, opts);
    if (!calibration) throw new TlabError('run', 'the runner did not report a calibration');
    return calibration;
  }

  runWithCalibration(job: RunJob, opts: RunOptions = {}): Promise<{ variants: VariantResult[]; calibration: Calibration | null }> {
    if (this.child) return Promise.reject(new TlabError('usage', 'this runner host is already running a job'));
    if (opts.signal?.aborted) return Promise.reject(new RunCancelled('before start'));
    let files: JobFiles;
    try {
      files = new JobFiles(job);
    } catch (cause) {
      return Promise.reject(new TlabError('run', `cannot write the runner's job files in ${tmpdir()}: ${fsCause(cause)}`, { cause }));
    }
    let child: RunnerChild;
    try {
      child = this.spawn();
    } catch (err) {
      files.dispose();
      return Promise.reject(
        err instanceof TlabError
          ? err
          : new TlabError('run', `cannot start the runner: ${(err as Error).message ?? String(err)}`, { cause: err }),
      );
    }
    const jobId = this.nextJobId++;
    this.child = child;
    return new Promise((resolve, reject) => {
      // The child's JavaScript is blocked while the timed calls run; they report through the progress page.
      const progress = files.progress;
      const results: VariantResult[] = [];
      let calibration: Calibration | null = null;
      let variant: string | null = null;
      let phase: Phase | null = null;
      let ready = false;
      let settled = false;
      let outputTail = '';
      const keepTail = (chunk: Buffer | string) => {
        outputTail = (outputTail + chunk.toString()).slice(-TAIL_BYTES);
      };
      for (const stream of child.output) stream?.on('data', keepTail);

      const where = () => (variant ? `mode ${variant}${phase ? ` during ${PHASE_WORDS[phase]}` : ''}` : 'before any mode started');
      const tailDetails = () => {
        const lines = outputTail.split('\n').filter((l) => l.trim());
        return lines.length ? ['last output of the runner:', ...lines.slice(-10).map((l) => `  ${l}`)] : [];
      };
      const pollProgress = () => {
        const reading = progress.poll();
        if (!reading || !variant || !(phase === 'first-call' || phase === 'warmup' || phase === 'calls')) return;
        phase = reading.phase;
        opts.onProgress?.({
          variant,
          phase: reading.phase,
          ...(reading.phase === 'calls' ? { done: reading.done, total: reading.total } : {}),
        });
      };
      const poller = setInterval(pollProgress, PROGRESS_POLL_MS);
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(readyTimer);
        clearInterval(poller);
        files.dispose();
        opts.signal?.removeEventListener('abort', onAbort);
        this.cancelCurrent = null;
        this.child = null;
        if (child.alive()) child.kill();
        if (err) reject(err);
        else resolve({ variants: results, calibration });
      };
      const onAbort = () => finish(new RunCancelled(where()));
      this.cancelCurrent = (why) => finish(new RunCancelled(`${why}: ${where()}`));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = opts.timeoutMs
        ? setTimeout(() => {
            pollProgress();
            finish(
              new TlabError('run', `timed out after ${(opts.timeoutMs! / 1000).toFixed(1)} s in ${where()}; the runner was killed`, {
                details: tailDetails(),
              }),
            );
          }, opts.timeoutMs)
        : undefined;
      const readyTimer = setTimeout(() => {
        if (!ready)
          finish(new TlabError('run', `the runner process did not start within ${READY_TIMEOUT_MS / 1000} s`, { details: tailDetails() }));
      }, READY_TIMEOUT_MS);

      child.onMessage((msg) => {
        if (settled) return;
        if (msg.type === 'ready') {
          ready = true;
          clearTimeout(readyTimer);
          if (msg.protocol !== RUNNER_PROTOCOL_VERSION) {
            finish(
              new TlabError(
                'run',
                `runner speaks protocol ${msg.protocol}, host ${RUNNER_PROTOCOL_VERSION}: rebuild with npm run build:ts`,
              ),
            );
            return;
          }
          child.send(files.message(jobId));
          return;
        }
        if (msg.jobId !== jobId) return;
        switch (msg.type) {
          case 'phase':
            variant = msg.variant;
            phase = msg.phase;
            progress.phaseAnnounced();
            opts.onProgress?.({ variant: msg.variant, phase: msg.phase });
            break;
          case 'progress':
            opts.onProgress?.({ variant: msg.variant, phase: 'calls', done: msg.done, total: msg.total });
            break;
          case 'calibration':
            calibration = msg.calibration;
            break;
          case 'variant-done':
            results.push(msg.result);
            break;
          case 'done':
            finish(null);
            break;
          case 'failed':
            if (msg.variant) variant = msg.variant;
            pollProgress();
            // The child still says 'first-call' for the whole native timing loop; the page knows better.
            if (msg.phase && !(msg.phase === 'first-call' && (phase === 'warmup' || phase === 'calls'))) phase = msg.phase;
            finish(new TlabError('run', `${where()} failed: ${msg.message}`, { details: [...msg.details, ...tailDetails()] }));
            break;
        }
      });
      child.onError((err) => finish(new TlabError('run', `runner process error in ${where()}: ${err.message}`, { cause: err })));
      child.onExit((end: ChildEnd) => {
        if (settled) return;
        // The page may say that a warm-up or timed call was running when the child died.
        pollProgress();
        // Let buffered output arrive so the crash report shows what the program printed (e.g. glibc's
        // "free(): invalid pointer") before the abort.
        setImmediate(() => {
          const { code, signal } = end;
          if (signal === 'SIGINT' || signal === 'SIGTERM') {
            // Ctrl-C reaches the whole process group: the child may die of it before the host's own handler
            // has cancelled the job. That is a cancellation, not a crash of the program.
            finish(new RunCancelled(`(${signal}): ${where()}`));
          } else if (signal) {
            const during = phase ? ` during ${PHASE_WORDS[phase]}` : '';
            const what = variant
              ? `mode ${variant} crashed with ${signal}${during}`
              : `the runner crashed with ${signal} before any mode started`;
            // glibc's words alone ("free(): invalid size") do not say what to change.
            const hint = variant
              ? crashHint(
                  signal,
                  phase,
                  outputTail,
                  job.variants.find((v) => v.label === variant),
                )
              : null;
            finish(new TlabError('run', hint ? `${what}: ${hint}` : what, { details: tailDetails() }));
          } else {
            finish(new TlabError('run', `the runner exited with code ${code} in ${where()} before finishing`, { details: tailDetails() }));
          }
        });
      });
    });
  }
}
