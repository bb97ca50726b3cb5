/**
 * Runs workload jobs (engine/workload/runner-host.ts) in a fresh, supervised Node child each
 * (workload-entry.ts): a ready message, the inputs through a file, a timeout, cancellation, and every bad ending
 * turned into a TlabError('run') that names the mode, the program and its position in the sequence. During the
 * timed steps the child's JavaScript is blocked; the progress page says which call runs.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { packageRoot } from '../engine/paths.js';
import { RunCancelled } from '../engine/profile/runner-host.js';
import type {
  WorkloadJob,
  WorkloadPlace,
  WorkloadRunnerHost,
  WorkloadTiming,
  WorkloadVerifyResult,
} from '../engine/workload/runner-host.js';
import { writeInputs } from './job-files.js';
import { RUNNER_PARENT_ENV } from './messages.js';
import { ProgressFile } from './progress-file.js';
import { WORKLOAD_PROTOCOL_VERSION, type WorkloadRunnerToHost } from './workload-messages.js';

const READY_TIMEOUT_MS = 30_000;
const TAIL_BYTES = 4096;

function workloadRunnerEntry(): string {
  return join(packageRoot(), 'dist', 'electron', 'runner', 'workload-entry.js');
}

const PHASE_WORDS: Record<WorkloadPlace['phase'], string> = {
  load: 'loading the library',
  init: 'init (__dace_init)',
  workspace: 'workspace setup',
  verify: 'verification',
  'overrun-check': 'the check of workspaces configured at the first call',
  steps: 'the timed steps',
  exit: 'exit (__dace_exit)',
};

/** "mode EXTERNAL (packed), program vadv at position 2 of step 3, during verification". */
function describePlace(p: WorkloadPlace | null): string {
  if (!p) return 'before any mode started';
  const program = p.program ? `, program ${p.program}` : '';
  const position = p.position !== undefined ? ` at position ${p.position}${p.step !== undefined ? ` of step ${p.step + 1}` : ''}` : '';
  return `mode ${p.label}${program}${position}, during ${PHASE_WORDS[p.phase]}`;
}

export class NodeWorkloadHost implements WorkloadRunnerHost {
  constructor(private readonly entry: string = workloadRunnerEntry()) {}

  verify(job: WorkloadJob, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<WorkloadVerifyResult> {
    return this.run(job, opts).then((r) => {
      if (r.type !== 'verified') throw new TlabError('run', 'the workload runner answered a verification job with timings');
      return r.result;
    });
  }

  time(job: WorkloadJob, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<WorkloadTiming> {
    return this.run(job, opts).then((r) => {
      if (r.type !== 'timed') throw new TlabError('run', 'the workload runner answered a timing job with a verification');
      return r.result;
    });
  }

  private run(
    job: WorkloadJob,
    opts: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<Extract<WorkloadRunnerToHost, { type: 'verified' | 'timed' }>> {
    if (!existsSync(this.entry))
      return Promise.reject(new TlabError('run', `the runner is not built: ${this.entry} is missing (run npm run build:ts)`));
    if (opts.signal?.aborted) return Promise.reject(new RunCancelled('before start'));
    const dir = mkdtempSync(join(tmpdir(), 'tlab-workload-'));
    const progress = new ProgressFile();
    const inputsFile = writeInputs(join(dir, 'inputs.bin'), job.inputs);
    const child = fork(this.entry, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
      env: { ...process.env, [RUNNER_PARENT_ENV]: String(process.pid) },
    });
    return new Promise((resolve, reject) => {
      let place: WorkloadPlace | null = null;
      let settled = false;
      let tail = '';
      const keep = (chunk: Buffer) => {
        tail = (tail + chunk.toString()).slice(-TAIL_BYTES);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const details = () => {
        const lines = tail.split('\n').filter((l) => l.trim());
        return lines.length ? ['last output of the runner:', ...lines.slice(-10).map((l) => `  ${l}`)] : [];
      };
      // During the timed steps the page names the call that runs: step × positions + position.
      const where = (): string => {
        if (place?.phase === 'steps') {
          const page = progress.read();
          if (page && page.phase === 'calls' && page.total > 0) {
            const positions = job.sequence.length;
            const position = page.done % positions;
            const step = Math.floor(page.done / positions);
            const warm = step < job.warmupSteps;
            return describePlace({
              ...place,
              program: job.sequence[position]!.program,
              position,
              step: warm ? step : step - job.warmupSteps,
            }).replace('the timed steps', warm ? 'the warm-up steps' : 'the timed steps');
          }
        }
        return describePlace(place);
      };
      const finish = (err: Error | null, value?: Extract<WorkloadRunnerToHost, { type: 'verified' | 'timed' }>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(readyTimer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        progress.dispose();
        rmSync(dir, { recursive: true, force: true });
        if (err) reject(err);
        else resolve(value!);
      };
      const onAbort = () => finish(new RunCancelled(where()));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = opts.timeoutMs
        ? setTimeout(
            () =>
              finish(
                new TlabError('run', `timed out after ${(opts.timeoutMs! / 1000).toFixed(1)} s in ${where()}; the runner was killed`, {
                  details: details(),
                }),
              ),
            opts.timeoutMs,
          )
        : undefined;
      const readyTimer = setTimeout(
        () => finish(new TlabError('run', `the workload runner did not start within ${READY_TIMEOUT_MS / 1000} s`, { details: details() })),
        READY_TIMEOUT_MS,
      );
      child.on('message', (raw) => {
        const msg = raw as WorkloadRunnerToHost;
        switch (msg.type) {
          case 'ready':
            clearTimeout(readyTimer);
            if (msg.protocol !== WORKLOAD_PROTOCOL_VERSION) {
              finish(
                new TlabError(
                  'run',
                  `workload runner speaks protocol ${msg.protocol}, host ${WORKLOAD_PROTOCOL_VERSION}: rebuild with npm run build:ts`,
                ),
              );
              return;
            }
            child.send({
              type: 'job',
              protocol: WORKLOAD_PROTOCOL_VERSION,
              job: { ...job, inputs: {} },
              inputsFile,
              progressFile: progress.path,
            });
            break;
          case 'at':
            place = msg.place;
            break;
          case 'failed':
            finish(new TlabError('run', `${where()} failed: ${msg.message}`, { details: details() }));
            break;
          default:
            finish(null, msg);
        }
      });
      child.on('error', (err) => finish(new TlabError('run', `workload runner error in ${where()}: ${err.message}`, { cause: err })));
      child.on('exit', (code, signal) => {
        if (settled) return;
        setImmediate(() => {
          if (signal === 'SIGINT' || signal === 'SIGTERM') finish(new RunCancelled(`(${signal}): ${where()}`));
          else if (signal)
            finish(
              new TlabError(
                'run',
                // "mode X, program P at position p of step s crashed with SIGSEGV during the timed steps"
                where().replace(', during', ` crashed with ${signal} during`),
                { details: details() },
              ),
            );
          else
            finish(
              new TlabError('run', `the workload runner exited with code ${code} in ${where()} before finishing`, { details: details() }),
            );
        });
      });
    });
  }
}
