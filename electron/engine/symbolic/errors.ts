import { TlabError } from '../errors.js';
import { SymbolicSyntaxError, UnboundSymbolError } from './ast.js';

/**
 * Wraps an error thrown by this module into the user-facing TlabError with the file and JSON path of the
 * string that failed, so callers do not each reinvent the message.
 */
export function symbolicError(err: unknown, file: string | null, jsonPath: string | null): TlabError {
  if (err instanceof TlabError) return err;
  // An unbound symbol is a value the user has to supply (e.g. on the command line), not a broken file.
  const kind = err instanceof UnboundSymbolError ? 'usage' : 'input';
  const what = err instanceof SymbolicSyntaxError ? 'cannot parse expression' : 'cannot evaluate expression';
  const message = err instanceof Error ? err.message : String(err);
  return new TlabError(kind, `${what}: ${message}`, { file, jsonPath, cause: err });
}
