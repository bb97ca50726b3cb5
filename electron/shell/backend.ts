/**
 * What the main process's contract handlers talk to: a session per window, and the approval of paths the user
 * chose. In the app this is the engine host (engine-client.ts, a utilityProcess); the shared contract suite
 * also runs the very same handlers over an in-process TransientLabService, which has this shape already.
 */
import type { EventSink, TransientLabApi } from '../ipc/contract.js';

export interface BackendSession extends TransientLabApi {
  /** Cancels the session's jobs and releases its documents. */
  dispose(): Promise<void>;
}

export interface SessionBackend {
  openSession(sink: EventSink): BackendSession;
}

/** The file policy's side for the shell: a path from a dialog, a drop or the command line becomes readable. */
export interface PathApprover {
  /** Resolves links now and returns the real path the renderer may then open; rejects if it does not exist. */
  approve(path: string): Promise<string>;
  /** A save target the user chose; returns the absolute path the renderer may then write. */
  approveWrite(path: string): Promise<string>;
}
