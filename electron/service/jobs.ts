/**
 * Profile jobs of one service: at most `maxConcurrent` at a time (timings of two runs on one machine disturb
 * each other), each cancellable by its owner, each with a whole-run time limit that covers the builds too.
 * Cancelling aborts the job's signal: the profiler stops between steps and the runner host kills its child at
 * once, so no runner process outlives a cancelled, timed-out or abandoned job.
 */
import { TlabError } from '../engine/errors.js';
import { ContractFailure } from '../ipc/errors.js';

interface Job {
  owner: string;
  id: string;
  controller: AbortController;
  done: Promise<unknown>;
}

export class JobRegistry {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly maxConcurrent: number) {}

  private static key(owner: string, id: string): string {
    return `${owner}\u0000${id}`;
  }

  /**
   * Runs `work` as job `id` of `owner`. `timeoutMs` > 0 aborts it after that long; the rejection then says
   * it timed out. A cancelled job rejects with the work's own error (RunCancelled → `cancelled`).
   */
  async run<T>(owner: string, id: string, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const key = JobRegistry.key(owner, id);
    if (this.jobs.has(key)) throw new ContractFailure('usage', `a job named '${id}' is already running: give each run its own job id`);
    if (this.jobs.size >= this.maxConcurrent) {
      const running = [...this.jobs.values()].map((j) => j.id).join(', ');
      throw new ContractFailure(
        'refused',
        `another profile is running (${running}): one runs at a time, so that their timings do not disturb each other. Wait for it, or cancel it.`,
      );
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const done = work(controller.signal);
    this.jobs.set(key, { owner, id, controller, done: done.catch(() => undefined) });
    try {
      return await done;
    } catch (err) {
      if (timedOut) {
        throw new TlabError('run', `timed out after ${(timeoutMs / 1000).toFixed(0)} s (the limit of this run); the runner was stopped`, {
          cause: err,
        });
      }
      throw err;
    } finally {
      clearTimeout(timer);
      this.jobs.delete(key);
    }
  }

  /** Cancels `owner`'s job `id`; an unknown or finished job is not an error (cancel races completion). */
  cancel(owner: string, id: string): void {
    this.jobs.get(JobRegistry.key(owner, id))?.controller.abort();
  }

  /** Cancels every job of `owner`, or every job; resolves when they have all ended. */
  async cancelAll(owner?: string): Promise<void> {
    const mine = [...this.jobs.values()].filter((j) => owner === undefined || j.owner === owner);
    for (const j of mine) j.controller.abort();
    await Promise.all(mine.map((j) => j.done));
  }

  get running(): number {
    return this.jobs.size;
  }
}
