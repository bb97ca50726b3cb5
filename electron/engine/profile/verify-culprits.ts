/**
 * The transients that the program itself shows are read before they are written, for verification's message
 * when outputs depend on the poison (profile/verify.ts). Every transient that received poison is a candidate,
 * but two kinds are certain from the SDFG alone, and they lead the list so that the user sees them instead of
 * the alphabetical head of dozens of others (velocity_no_nproma poisons 43):
 * - transients no memlet ever writes (model/queries.ts `neverWrittenTransients`: stage8's `54:zqe_2`);
 * - transients only ever accumulated into (model/accumulate-first.ts: velocity_no_nproma's `0:vcflmax`, whose
 *   Reduce has no identity, so DaCe's pure expansion reads the old value; stage8's `53:zcdmax`, whose only write
 *   is an if/else turned into a blend of the branch values and the old value).
 */

export interface Culprits {
  /** The certain culprits among `poisoned`, never-written first. */
  certain: string[];
  /** Why they are certain, for the message (null when there are none). */
  text: string | null;
}

export function certainCulprits(
  poisoned: readonly string[],
  neverWritten: ReadonlySet<string>,
  accumulatedOnly: readonly string[],
): Culprits {
  const never = poisoned.filter((t) => neverWritten.has(t));
  const accumulated = new Set(accumulatedOnly);
  const accumulating = poisoned.filter((t) => accumulated.has(t) && !neverWritten.has(t));
  const parts: string[] = [];
  if (never.length) parts.push(`nothing in the program ever writes ${never.join(', ')}`);
  if (accumulating.length)
    parts.push(
      `it accumulates into ${accumulating.join(', ')} (a WCR, a Reduce without identity or a blend x = f·new + (1 − f)·x reads the old value) and nothing writes ` +
        `${accumulating.length === 1 ? 'it' : 'them'} first`,
    );
  return { certain: [...never, ...accumulating], text: parts.length ? parts.join('; ') : null };
}
