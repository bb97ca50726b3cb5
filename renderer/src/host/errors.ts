/**
 * How a failed call reaches renderer code, whatever the transport: a `HostError`, which is an Error (stack,
 * `instanceof`) carrying every ContractError field (kind, file, JSON path, details) for the error panel.
 */
import type { ContractError } from '../../../electron/ipc/contract.js';

export class HostError extends Error implements ContractError {
  readonly kind: ContractError['kind'];
  readonly file: string | null;
  readonly jsonPath: string | null;
  readonly details: string[];

  constructor(e: ContractError) {
    super(e.message);
    this.name = 'HostError';
    this.kind = e.kind;
    this.file = e.file;
    this.jsonPath = e.jsonPath;
    this.details = [...e.details];
  }

  /** The plain ContractError (for "copy details", logs, tests). */
  toJSON(): ContractError {
    return { kind: this.kind, message: this.message, file: this.file, jsonPath: this.jsonPath, details: [...this.details] };
  }
}

export function transportError(message: string, details: string[] = []): HostError {
  return new HostError({ kind: 'transport', message, file: null, jsonPath: null, details });
}

const KINDS: ReadonlySet<string> = new Set([
  'usage',
  'input',
  'unsupported',
  'build',
  'run',
  'cancelled',
  'refused',
  'transport',
  'internal',
]);

/** Whether an untrusted value (from a transport) has the ContractError shape. */
export function isContractError(x: unknown): x is ContractError {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  return (
    typeof e.kind === 'string' &&
    KINDS.has(e.kind) &&
    typeof e.message === 'string' &&
    (e.file === null || typeof e.file === 'string') &&
    (e.jsonPath === null || typeof e.jsonPath === 'string') &&
    Array.isArray(e.details) &&
    e.details.every((d) => typeof d === 'string')
  );
}
