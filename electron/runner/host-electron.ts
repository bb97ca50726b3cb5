/**
 * The desktop app's RunnerHost: the runner child is an Electron utilityProcess (the RunAsNode fuse is off in
 * the packaged app, so `child_process.fork` of the Electron binary would not start Node). Same entry file,
 * same messages, same supervision as NodeRunnerHost; only the process API differs. It runs in the main
 * process, which never loads the addon itself: the utility process does.
 *
 * It does not import `electron`: the shell passes `utilityProcess.fork` and a way to learn why a child went
 * away (the app's `child-process-gone` event), so tests can drive it with a fake that forks a real Node child.
 */
import { existsSync } from 'node:fs';
import { TlabError } from '../engine/errors.js';
import { fromUtilityProcess, type ChildGone, type UtilityFork } from './child.js';
import { defaultRunnerEntry } from './host-node.js';
import { RUNNER_PARENT_ENV, type HostToRunner, type RunnerToHost } from './messages.js';
import { SupervisedRunnerHost, type RunnerChild } from './supervised-host.js';

export interface UtilityRunnerOptions {
  fork: UtilityFork;
  /** Details of a utility process that ended, by service name (null when none arrive in time). */
  goneDetails: (serviceName: string) => Promise<ChildGone | null>;
  entry?: string;
}

let serial = 0;

/** Environment of the runner: the app's, minus what would change how Node or Electron start. */
export function runnerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const key of ['ELECTRON_RUN_AS_NODE', 'NODE_OPTIONS', 'ELECTRON_NO_ASAR']) delete out[key];
  // The runner ends with the main process that starts it, however that ends (runner-entry.ts dieWithParent).
  out[RUNNER_PARENT_ENV] = String(process.pid);
  return out;
}

export class UtilityProcessRunnerHost extends SupervisedRunnerHost {
  private readonly entry: string;

  constructor(private readonly opts: UtilityRunnerOptions) {
    super();
    this.entry = opts.entry ?? defaultRunnerEntry();
  }

  protected spawn(): RunnerChild {
    if (!existsSync(this.entry)) throw new TlabError('run', `the runner is not built: ${this.entry} is missing (run npm run build:ts)`);
    // A name per process: the app's child-process-gone event is matched to this child by it.
    const serviceName = `Transient Lab runner ${process.pid}-${++serial}`;
    const child = this.opts.fork(this.entry, [], {
      serviceName,
      stdio: 'pipe',
      execArgv: [],
      env: runnerEnv(),
      allowLoadingUnsignedLibraries: true,
    });
    return fromUtilityProcess<HostToRunner, RunnerToHost>(child, () => this.opts.goneDetails(serviceName));
  }
}
