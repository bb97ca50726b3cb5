/**
 * What the CLI prints, and exits with, when a command throws: a TlabError is the one line (plus its details)
 * and the exit code of its kind (README "Exit codes"); a file-system error that no boundary put in words (a full
 * disk, a file-size limit, too many open files) is the machine's state, not a bug — one line with the path and
 * the cause, exit 2; anything else is a bug of ours: `internal error` with the stack, exit 70.
 */
import { EXIT_CODES, TlabError } from '../engine/errors.js';
import { fsCause, isFsError } from '../engine/io/fs-errors.js';

const EXIT_INTERNAL = 70;

/** PDF was asked for and no Chromium was found. */
export const EXIT_NO_CHROMIUM = 7;

export function describeFailure(command: string, err: unknown): { text: string; code: number } {
  if (err instanceof TlabError) {
    // Usage messages already start with the command name (they are also used on their own by tests).
    const text = err.describe().replace(new RegExp(`^${command}: `), '');
    return { text: `transient-lab ${command}: ${text}\n`, code: EXIT_CODES[err.kind] };
  }
  if (isFsError(err)) {
    const e = err as NodeJS.ErrnoException & { dest?: string };
    const where = [e.path, e.dest].filter(Boolean).join(' -> ');
    return { text: `transient-lab ${command}: cannot ${e.syscall}${where ? ` ${where}` : ''}: ${fsCause(err)}\n`, code: EXIT_CODES.usage };
  }
  return { text: `transient-lab ${command}: internal error: ${(err as Error)?.stack ?? String(err)}\n`, code: EXIT_INTERNAL };
}
