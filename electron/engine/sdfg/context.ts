/** Shared state of one normalisation run: where errors point, which warnings were given, what was counted. */
import { TlabError } from '../errors.js';
import type { ParseWarning } from '../model/sdfg.js';

/** A file full of the same oddity should not produce a megabyte of warnings. */
const MAX_WARNINGS = 500;
/** Enough `$`-containing samples to decide the grammar; more would only cost memory. */
const MAX_GRAMMAR_SAMPLES = 16;

export class ParseContext {
  readonly warnings: ParseWarning[] = [];
  /** Symbolic strings that contain `$` (candidates for the typed grammar, sdfg-format.md §10.3). */
  readonly dollarSamples: string[] = [];
  readonly counts = { states: 0, nodes: 0, edges: 0, transients: 0 };
  /** Format markers seen while walking, for the generation guess. */
  sawListConnectors = false;
  sawControlFlowBlocks = false;
  private readonly warnedKeys = new Set<string>();
  private suppressedWarnings = 0;

  /** `deferred`: the stand-in of a skipped nested SDFG body in a preview (sdfg/preview.ts), or null. */
  constructor(
    readonly file: string,
    readonly deferred: string | null = null,
  ) {}

  fail(jsonPath: string, message: string): never {
    throw new TlabError('input', message, { file: this.file, jsonPath });
  }

  warn(jsonPath: string, message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push({ jsonPath, message });
    else this.suppressedWarnings++;
  }

  /** Warns once per `key` (e.g. one warning per unknown enum value, at its first occurrence). */
  warnOnce(key: string, jsonPath: string, message: string): void {
    if (this.warnedKeys.has(key)) return;
    this.warnedKeys.add(key);
    this.warn(jsonPath, message);
  }

  noteSymbolic(expr: string): void {
    if (this.dollarSamples.length < MAX_GRAMMAR_SAMPLES && expr.includes('$')) this.dollarSamples.push(expr);
  }

  finishWarnings(): ParseWarning[] {
    if (this.suppressedWarnings > 0) {
      this.warnings.push({ jsonPath: '$', message: `${this.suppressedWarnings} more warnings were not recorded` });
      this.suppressedWarnings = 0;
    }
    return this.warnings;
  }
}
