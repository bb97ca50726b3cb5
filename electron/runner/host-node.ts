/**
 * The Node implementation of the engine's RunnerHost (engine/profile/runner-host.ts), used by the CLI, the
 * browser-mode server, the bench and the tests.
 *
 * Runs RunJobs in a forked Node child (dist/electron/runner/runner-entry.js): one fresh child per job, so a
 * crash, a leak or a hung native call in one job never affects the next, and dlopen state never carries
 * over. The host turns every way a child can end badly into a TlabError('run') naming the mode and step.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { packageRoot } from '../engine/paths.js';
import { RunCancelled, type Calibration, type Phase, type RunJob, type RunnerHost, type RunOptions, type VariantResult } from '../engine/profile/runner-host.js';
import { RUNNER_PROTOCOL_VERSION, type HostToRunner, type RunnerToHost } from './messages.js';

export { RunCancelled } from '../engine/profile/runner-host.js';
export type { RunnerHost, RunnerProgress, RunOptions } from '../engine/profile/runner-host.js';

const PHASE_WORDS: Record<Phase, string> = {
  load: 'loading the library',
  init: 'init (__dace_init)',
  workspace: 'workspace setup',
  'verify-1': 'verification call 1',
  'verify-2': 'verification call 2',
  'first-call': 'the first timed call',
  warmup: 'warmup calls',
  calls: 'timed calls',
  exit: 'exit (__dace_exit)',
};

export function defaultRunnerEntry(): string {
  return join(packageRoot(), 'dist', 'electron', 'runner', 'runner-entry.js');
}

const TAIL_BYTES = 4096;

export class NodeRunnerHost implements RunnerHost {
  private child: ChildProcess | null = null;
  private cancelCurrent: ((why: string) => void) | null = null;
  private nextJobId = 1;

  constructor(private readonly entry: string = defaultRunnerEntry()) {}

  /** Kills the running job's child, if any; its promise rejects with RunCancelled. */
  cancel(): void {
    this.cancelCurrent?.('by request');
  }

  run(job: RunJob, opts: RunOptions = {}): Promise<VariantResult[]> {
    return this.runWithCalibration(job, opts).then((r) => r.variants);
  }

  /** The addon's own costs (event recording, bare call), measured in a runner child. */
  async calibrate(iterations: number, opts: RunOptions = {}): Promise<Calibration> {
    const job: RunJob = { variants: [], inputs: {}, calls: 0, warmup: 0, chunk: 1, poison: [0, 0], guardByte: 0, guardBytes: 64, calibrate: iterations };
    const { calibration } = await this.runWithCalibration(job, opts);
    if (!calibration) throw new TlabError('run', 'the runner did not report a calibration');
    return calibration;
  }

  runWithCalibration(job: RunJob, opts: RunOptions = {}): Promise<{ variants: VariantResult[]; calibration: Calibration | null }> {
    if (this.child) return Promise.reject(new TlabError('usage', 'this runner host is already running a job'));
    if (!existsSync(this.entry)) {
      return Promise.reject(new TlabError('run', `the runner is not built: ${this.entry} is missing (run npm run build:ts)`));
    }
    if (opts.signal?.aborted) return Promise.reject(new RunCancelled('before start'));
    const jobId = this.nextJobId++;
    return new Promise((resolve, reject) => {
      const child = fork(this.entry, [], {
        serialization: 'advanced',
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        // The host may run under a test runner or loader: the child is plain JS and needs none of it.
        execArgv: [],
      });
      this.child = child;
      const results: VariantResult[] = [];
      let calibration: Calibration | null = null;
      let variant: string | null = null;
      let phase: Phase | null = null;
      let settled = false;
      let outputTail = '';
      const keepTail = (chunk: Buffer) => {
        outputTail = (outputTail + chunk.toString('utf8')).slice(-TAIL_BYTES);
      };
      child.stdout?.on('data', keepTail);
      child.stderr?.on('data', keepTail);

      const where = () => (variant ? `mode ${variant}${phase ? ` during ${PHASE_WORDS[phase]}` : ''}` : 'before any mode started');
      const tailDetails = () => {
        const lines = outputTail.split('\n').filter((l) => l.trim());
        return lines.length ? ['last output of the runner:', ...lines.slice(-10).map((l) => `  ${l}`)] : [];
      };
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.cancelCurrent = null;
        this.child = null;
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        if (err) reject(err);
        else resolve({ variants: results, calibration });
      };
      const onAbort = () => finish(new RunCancelled(where()));
      this.cancelCurrent = (why) => finish(new RunCancelled(`${why}: ${where()}`));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = opts.timeoutMs
        ? setTimeout(() => {
            finish(new TlabError('run', `timed out after ${(opts.timeoutMs! / 1000).toFixed(1)} s in ${where()}; the runner was killed`, { details: tailDetails() }));
          }, opts.timeoutMs)
        : undefined;

      child.on('message', (raw) => {
        const msg = raw as RunnerToHost;
        if (msg.type === 'ready') {
          if (msg.protocol !== RUNNER_PROTOCOL_VERSION) {
            finish(new TlabError('run', `runner speaks protocol ${msg.protocol}, host ${RUNNER_PROTOCOL_VERSION}: rebuild with npm run build:ts`));
            return;
          }
          const request: HostToRunner = { type: 'job', protocol: RUNNER_PROTOCOL_VERSION, jobId, job };
          child.send(request);
          return;
        }
        if (msg.jobId !== jobId) return;
        switch (msg.type) {
          case 'phase':
            variant = msg.variant;
            phase = msg.phase;
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
            if (msg.phase) phase = msg.phase;
            finish(new TlabError('run', `${where()} failed: ${msg.message}`, { details: [...msg.details, ...tailDetails()] }));
            break;
        }
      });
      child.on('error', (err) => finish(new TlabError('run', `runner process error in ${where()}: ${err.message}`, { cause: err })));
      child.on('exit', (code, signal) => {
        if (settled) return;
        // Let buffered output arrive so the crash report shows what the program printed (e.g. glibc's
        // "free(): invalid pointer") before the abort.
        setImmediate(() => {
          if (signal === 'SIGINT' || signal === 'SIGTERM') {
            // Ctrl-C reaches the whole process group: the child may die of it before the host's own handler
            // has cancelled the job. That is a cancellation, not a crash of the program.
            finish(new RunCancelled(`(${signal}): ${where()}`));
          } else if (signal) {
            const during = phase ? ` during ${PHASE_WORDS[phase]}` : '';
            const what = variant ? `mode ${variant} crashed with ${signal}${during}` : `the runner crashed with ${signal} before any mode started`;
            finish(new TlabError('run', what, { details: tailDetails() }));
          } else {
            finish(new TlabError('run', `the runner exited with code ${code} in ${where()} before finishing`, { details: tailDetails() }));
          }
        });
      });
    });
  }
}
