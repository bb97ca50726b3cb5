/**
 * The one place where anything thrown behind the contract becomes a `ContractError` for the renderer. The
 * engine's TlabError keeps its kind, file, JSON path and details; a validation failure names the field; every
 * other error is a bug and reaches the page as a short `internal` message, never a stack.
 */
import { ValiError, type BaseIssue } from 'valibot';
import { TlabError } from '../engine/errors.js';
import type { ContractError } from './contract.js';

/** A failure the service raises on purpose with a contract kind the engine does not have (refused, cancelled…). */
export class ContractFailure extends Error {
  readonly error: ContractError;

  constructor(
    kind: ContractError['kind'],
    message: string,
    opts: { file?: string | null; jsonPath?: string | null; details?: string[] } = {},
  ) {
    super(message);
    this.name = 'ContractFailure';
    this.error = { kind, message, file: opts.file ?? null, jsonPath: opts.jsonPath ?? null, details: opts.details ?? [] };
  }
}

const MAX_DETAILS = 200;
const MAX_LINE = 2000;
const MAX_MESSAGE = 4000;

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function clipped(e: ContractError): ContractError {
  const details = e.details.slice(0, MAX_DETAILS).map((d) => clip(d, MAX_LINE));
  if (e.details.length > MAX_DETAILS) details.push(`… and ${e.details.length - MAX_DETAILS} more lines`);
  return { ...e, message: clip(e.message, MAX_MESSAGE), details };
}

/** `$.symbols.N`, `$.modes[2]`: where in the request a validation issue is. */
export function issuePath(issue: BaseIssue<unknown>): string {
  let out = '$';
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** A request payload that failed its schema: kind `usage`, the field as JSON path. */
export function validationError(issues: readonly BaseIssue<unknown>[], what: string): ContractError {
  // A union's own message ("expected {path} or {name, bytes}") says more than the first branch's complaint.
  const first = issues[0]!;
  const path = issuePath(first);
  return clipped({
    kind: 'usage',
    message: `${what}: ${path === '$' ? '' : `${path.slice(2)}: `}${first.message}`,
    file: null,
    jsonPath: path,
    details: issues.slice(1, 10).map((i) => `${issuePath(i)}: ${i.message}`),
  });
}

/** Anything thrown behind the contract → what the renderer is told. */
export function toContractError(err: unknown): ContractError {
  if (err instanceof ContractFailure) return clipped(err.error);
  if (err instanceof TlabError) {
    // RunCancelled (electron/runner) is a TlabError('run') by name: cancellation is not a failed run.
    const kind: ContractError['kind'] = err.name === 'RunCancelled' ? 'cancelled' : err.kind;
    return clipped({ kind, message: err.message, file: err.file, jsonPath: err.jsonPath, details: [...err.details] });
  }
  if (err instanceof ValiError) return validationError(err.issues, 'invalid request');
  const text = err instanceof Error ? err.message : String(err);
  return {
    kind: 'internal',
    message: `internal error: ${clip(text.split('\n', 1)[0] ?? '', 300)}`,
    file: null,
    jsonPath: null,
    details: [],
  };
}

/** Whether a thrown value is a bug (to be logged with its stack by the host) rather than bad input. */
export function isInternal(err: unknown): boolean {
  return !(err instanceof ContractFailure || err instanceof TlabError || err instanceof ValiError);
}
