/**
 * Why utility processes went away. Electron's UtilityProcess reports only an exit code; the app's
 * `child-process-gone` event says whether it crashed (and with which signal), was killed or ran out of memory.
 * The runner and engine hosts name each process uniquely (serviceName) and ask here when theirs has exited.
 */
import type { ChildGone } from '../runner/child.js';
import type { ElectronSeam } from './seam.js';

/** How long an exited process waits for its gone event (they are emitted together, in either order). */
const GONE_WAIT_MS = 500;
const KEEP = 64;

export class GoneRegistry {
  private readonly seen = new Map<string, ChildGone>();
  private readonly waiters = new Map<string, (gone: ChildGone | null) => void>();

  constructor(app: ElectronSeam['app']) {
    app.on('child-process-gone', (_event, details) => {
      if (details.type !== 'Utility' || !details.serviceName) return;
      const gone: ChildGone = { reason: details.reason, exitCode: details.exitCode };
      const waiter = this.waiters.get(details.serviceName);
      if (waiter) {
        this.waiters.delete(details.serviceName);
        waiter(gone);
        return;
      }
      this.seen.set(details.serviceName, gone);
      if (this.seen.size > KEEP) this.seen.delete(this.seen.keys().next().value!);
    });
  }

  /** The gone details of `serviceName`, or null if none arrive within `ms`. */
  wait = (serviceName: string, ms: number = GONE_WAIT_MS): Promise<ChildGone | null> => {
    const known = this.seen.get(serviceName);
    if (known) {
      this.seen.delete(serviceName);
      return Promise.resolve(known);
    }
    return new Promise((resolve) => {
      this.waiters.set(serviceName, resolve);
      setTimeout(() => {
        if (this.waiters.get(serviceName) === resolve) {
          this.waiters.delete(serviceName);
          resolve(null);
        }
      }, ms);
    });
  };
}
