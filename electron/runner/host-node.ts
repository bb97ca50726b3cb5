/**
 * The Node implementation of the engine's RunnerHost (engine/profile/runner-host.ts), used by the CLI, the
 * browser-mode server, the bench and the tests.
 *
 * Runs RunJobs in a forked Node child (dist/electron/runner/runner-entry.js): one fresh child per job, so a
 * crash, a leak or a hung native call in one job never affects the next, and dlopen state never carries
 * over. The supervision itself (supervised-host.ts) is shared with the desktop app's utilityProcess host.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { packageRoot } from '../engine/paths.js';
import { fromNodeChild } from './child.js';
import { RUNNER_PARENT_ENV, type HostToRunner, type RunnerToHost } from './messages.js';
import { SupervisedRunnerHost, type RunnerChild } from './supervised-host.js';

export { RunCancelled } from '../engine/profile/runner-host.js';
export type { RunnerProgress } from '../engine/profile/runner-host.js';

export function defaultRunnerEntry(): string {
  return join(packageRoot(), 'dist', 'electron', 'runner', 'runner-entry.js');
}

export class NodeRunnerHost extends SupervisedRunnerHost {
  constructor(private readonly entry: string = defaultRunnerEntry()) {
    super();
  }

  protected spawn(): RunnerChild {
    if (!existsSync(this.entry)) throw new TlabError('run', `the runner is not built: ${this.entry} is missing (run npm run build:ts)`);
    const child = fork(this.entry, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // The host may run under a test runner or loader: the child is plain JS and needs none of it.
      execArgv: [],
      // The child ends with this process, however it ends (runner-entry.ts dieWithParent).
      env: { ...process.env, [RUNNER_PARENT_ENV]: String(process.pid) },
    });
    return fromNodeChild<HostToRunner, RunnerToHost>(child);
  }
}
