/**
 * The symbol values `profile` advises when reads at indices fixed by the symbols alone are out of bounds
 * (engine/profile/index-inputs.ts: "symbol values that keep those reads in bounds: --symbols L=1,…"), read back
 * from a failed run's error or warnings, so that a coverage row (coverage-row.ts) can retry once with them.
 */
import { TlabError } from '../../electron/engine/errors.js';
import type { ProfileResult } from '../../electron/engine/profile/result.js';

const ADVICE = /symbol values that keep those reads in bounds: --symbols (\S+)/;

/** The advised values in `lines`, or null when none advises any. */
export function advisedSymbols(lines: readonly string[]): Map<string, bigint> | null {
  for (const line of lines) {
    const m = ADVICE.exec(line);
    if (!m) continue;
    const out = new Map<string, bigint>();
    for (const pair of m[1]!.split(',')) {
      const [name, value] = pair.split('=');
      if (!name || value === undefined || !/^-?\d+$/.test(value)) return null;
      out.set(name, BigInt(value));
    }
    return out.size ? out : null;
  }
  return null;
}

/** Every line of a failed run that may carry the advice: the error's message and details, or the result's
 * warnings and verification messages. */
export function failureLines(failure: unknown): string[] {
  if (failure instanceof TlabError) return [failure.message, ...(failure.details ?? [])];
  if (failure instanceof Error) return [failure.message];
  const r = failure as ProfileResult;
  return [...(r.warnings ?? []), ...(r.verification?.details ?? []).map((d) => d.message)];
}
