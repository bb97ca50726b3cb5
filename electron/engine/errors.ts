/**
 * One error type for everything the engine reports to a person. Hosts (CLI, Electron, server) map `kind` to
 * exit codes or UI messages; nothing else should be thrown across the engine boundary on bad input.
 */
export type ErrorKind =
  /** Wrong command-line or API usage (exit 2). */
  | 'usage'
  /** Unreadable or malformed input file (exit 3). */
  | 'input'
  /** Valid SDFG outside what the generator supports (exit 4). */
  | 'unsupported'
  /** The C++ compiler failed (exit 5). */
  | 'build'
  /** Generated code crashed, timed out, or modes diverged (exit 6). */
  | 'run';

export class TlabError extends Error {
  readonly kind: ErrorKind;
  readonly file: string | null;
  readonly jsonPath: string | null;
  /** Extra lines shown under the message (compiler output, the generated line, a hint). */
  readonly details: string[];

  constructor(
    kind: ErrorKind,
    message: string,
    opts: { file?: string | null; jsonPath?: string | null; details?: string[]; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TlabError';
    this.kind = kind;
    this.file = opts.file ?? null;
    this.jsonPath = opts.jsonPath ?? null;
    this.details = opts.details ?? [];
  }

  /** `file: at $.path: message` — the one-line form hosts print. */
  describe(): string {
    const where = [this.file, this.jsonPath ? `at ${this.jsonPath}` : null].filter(Boolean).join(': ');
    const head = where ? `${where}: ${this.message}` : this.message;
    return this.details.length ? `${head}\n${this.details.map((d) => `  ${d}`).join('\n')}` : head;
  }
}

export const EXIT_CODES: Record<ErrorKind, number> = {
  usage: 2,
  input: 3,
  unsupported: 4,
  build: 5,
  run: 6,
};
