/** Engine errors across the main ↔ engine-host boundary: a TlabError keeps its kind, file, JSON path and details. */
import { TlabError } from '../engine/errors.js';
import { RunCancelled } from '../engine/profile/runner-host.js';
import type { SerializedError } from './engine-protocol.js';

export function serializeError(err: unknown): SerializedError {
  if (err instanceof TlabError) {
    return { name: err.name, kind: err.kind, message: err.message, file: err.file, jsonPath: err.jsonPath, details: [...err.details] };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { name: 'TlabError', kind: 'run', message: `the runner host failed: ${message}`, file: null, jsonPath: null, details: [] };
}

export function reviveError(e: SerializedError): TlabError {
  if (e.name === 'RunCancelled') {
    const err = new RunCancelled('');
    err.message = e.message;
    return err;
  }
  return new TlabError(e.kind, e.message, { file: e.file, jsonPath: e.jsonPath, details: e.details });
}
