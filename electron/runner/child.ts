/**
 * One supervised child process, whatever started it: Node's `child_process.fork` (CLI, browser mode, tests) or
 * Electron's `utilityProcess.fork` (the desktop app, where the RunAsNode fuse is off and `fork` does not
 * work). The runner host and the desktop app's engine host speak to their children through this shape only,
 * so the supervision logic (ready message, timeouts, crash reports) is written once.
 *
 * This file never imports `electron`: the utilityProcess side is described by the structural
 * `UtilityProcessLike`, which Electron's `UtilityProcess` satisfies (checked by the shell's type-check).
 */
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

/** How a child ended: `signal` names the signal that killed it (or a reason such as `out of memory`). */
export interface ChildEnd {
  code: number | null;
  signal: string | null;
}

export interface SupervisedChild<In, Out> {
  readonly pid: number | undefined;
  send(message: In): void;
  onMessage(listener: (message: Out) => void): void;
  /** Called once, when the process has ended (after its output streams, as far as the host can tell). */
  onExit(listener: (end: ChildEnd) => void): void;
  /** The process could not be started or talked to. */
  onError(listener: (err: Error) => void): void;
  /** stdout and stderr when piped (for the last lines of a crash report). */
  readonly output: ReadonlyArray<NodeJS.ReadableStream | null>;
  /** Whether the process is still running. */
  alive(): boolean;
  kill(): void;
}

/** A forked Node child (`fork(entry, [], { serialization: 'advanced', stdio: [..., 'ipc'] })`). */
export function fromNodeChild<In, Out>(child: ChildProcess): SupervisedChild<In, Out> {
  return {
    get pid() {
      return child.pid;
    },
    send: (message) => {
      child.send(message as object);
    },
    onMessage: (listener) => {
      child.on('message', (m) => listener(m as Out));
    },
    onExit: (listener) => {
      child.on('exit', (code, signal) => listener({ code, signal }));
    },
    onError: (listener) => {
      child.on('error', listener);
    },
    output: [child.stdout, child.stderr],
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}

/** What the runner and engine hosts use of Electron's `UtilityProcess` (electron.d.ts, class UtilityProcess). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (type: string, location: string, report: string) => void): unknown;
}

/** `utilityProcess.fork` as the hosts call it (a subset of Electron's ForkOptions). */
export type UtilityFork = (
  modulePath: string,
  args: string[],
  options: {
    serviceName: string;
    stdio: 'pipe' | 'ignore' | 'inherit';
    execArgv?: string[];
    env?: Record<string, string | undefined>;
    /** macOS: the runner dlopen()s libraries the compiler just built, which are not signed. */
    allowLoadingUnsignedLibraries?: boolean;
  },
) => UtilityProcessLike;

/**
 * Why a utility process went away, from the app's `child-process-gone` event (Electron reports only an exit
 * code on the process itself; for a crash that code is the signal number).
 */
export interface ChildGone {
  reason: string;
  exitCode: number;
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

/** Turns Electron's exit code (+ the gone reason when known) into a ChildEnd. */
function utilityEnd(code: number, gone: ChildGone | null): ChildEnd {
  if (gone?.reason === 'oom') return { code: null, signal: 'out of memory' };
  if (gone && (gone.reason === 'crashed' || gone.reason === 'killed')) {
    return { code: null, signal: SIGNAL_NAMES.get(gone.exitCode) ?? `signal ${gone.exitCode}` };
  }
  return { code, signal: null };
}

/**
 * Wraps a utility process. `gone(wait)` resolves with the process's `child-process-gone` details once they are
 * known (the shell records them by service name), or null when none arrive within the wait.
 */
export function fromUtilityProcess<In, Out>(child: UtilityProcessLike, gone: () => Promise<ChildGone | null>): SupervisedChild<In, Out> {
  let running = true;
  const exitListeners: Array<(end: ChildEnd) => void> = [];
  child.on('exit', (code: number) => {
    running = false;
    void gone().then((details) => {
      const end = utilityEnd(code, details);
      for (const l of exitListeners) l(end);
    });
  });
  return {
    get pid() {
      return child.pid;
    },
    // A message to a child that has exited is dropped: its exit is what the supervisor reports.
    send: (message) => {
      if (running) child.postMessage(message);
    },
    onMessage: (listener) => {
      child.on('message', (m: unknown) => listener(m as Out));
    },
    onExit: (listener) => {
      exitListeners.push(listener);
    },
    onError: (listener) => {
      child.on('error', (type: string, location: string) => listener(new Error(`${type} at ${location}`)));
    },
    output: [child.stdout, child.stderr],
    alive: () => running,
    kill: () => {
      if (running) child.kill();
    },
  };
}
