/**
 * Messages between the desktop app's main process and its engine host (entry.ts, an Electron utilityProcess).
 *
 * The engine host holds the service (parsing, analysis, view models, profile jobs, compiling) so that a 166 MB
 * file parsed for one window never freezes the main process, which keeps every window's input, menus and IPC
 * responsive. Main relays each window's validated calls here and the answers back; the engine host relays the
 * runner jobs of its profiles to main, which alone can start utility processes (the runner).
 *
 * Everything travels as structured clones (Electron's MessagePort / Node's "advanced" serialisation): bigints
 * and typed arrays cross as they are.
 */
import type { DeviceReport } from '../engine/profile/device.js';
import type { RunJob, RunnerProgress, VariantResult } from '../engine/profile/runner-host.js';
import type { EventName, HostLimits, Reply } from '../ipc/contract.js';

export const ENGINE_PROTOCOL_VERSION = 1;

/** How the engine host builds its service. */
export interface EngineConfig {
  host: 'electron' | 'browser';
  /** `approved`: only paths main approved (dialogs, drops, the command line); `roots`: browser mode's folders. */
  files: { kind: 'approved' } | { kind: 'roots'; roots: string[] };
  openAtStart: string[];
  limits: HostLimits;
  /** ServiceOptions.previewMinJsonBytes (absent: the engine's default). */
  previewMinJsonBytes?: number;
  /** Remote machines a profile may run on over ssh (the app's `--remote=HOST`); absent or empty: none. ssh
   * reads its own configuration (~/.ssh/config) for ports and keys; `sshOptions` and `remoteCommand` are as
   * `profile --ssh-option/--remote-command` (tests set them). */
  remote?: { hosts: string[]; sshOptions?: string[]; remoteCommand?: string };
}

/** An engine TlabError (or RunCancelled) as it crosses a process boundary. */
export interface SerializedError {
  name: string;
  kind: 'usage' | 'input' | 'unsupported' | 'build' | 'run';
  message: string;
  file: string | null;
  jsonPath: string | null;
  details: string[];
}

/** main → engine host. Every `id`-carrying request is answered by one `reply` with that id. */
export type MainToEngine =
  | { type: 'init'; id: number; protocol: number; config: EngineConfig }
  | { type: 'open-session'; id: number; session: number }
  | { type: 'close-session'; id: number; session: number }
  | { type: 'call'; id: number; session: number; method: string; req: unknown }
  /** A path the user chose (open dialog, drop, command line) or a save target; answered with the real path. */
  | { type: 'approve'; id: number; path: string; write: boolean }
  /** Cancels every job and releases every document; the engine host may then be killed. */
  | { type: 'dispose'; id: number }
  | { type: 'run-progress'; run: number; progress: RunnerProgress }
  | { type: 'run-done'; run: number; variants: VariantResult[] }
  | { type: 'run-failed'; run: number; error: SerializedError }
  | { type: 'devices-done'; probe: number; report: DeviceReport }
  | { type: 'devices-failed'; probe: number; error: SerializedError };

/** engine host → main. */
export type EngineToMain =
  | { type: 'ready'; protocol: number; pid: number }
  | { type: 'reply'; id: number; reply: Reply<unknown> }
  | { type: 'event'; session: number; event: EventName; payload: unknown }
  /** Run one runner job in a fresh runner process (main owns utilityProcess.fork). */
  | { type: 'run'; run: number; job: RunJob; timeoutMs: number }
  | { type: 'run-cancel'; run: number }
  /** List this machine's CUDA devices: main runs the probe in a utilityProcess (the contract's `devices`). */
  | { type: 'probe-devices'; probe: number }
  /** A line for main's log (an internal error with its stack). */
  | { type: 'log'; line: string };
