/**
 * Allocation figures measured by interposition (docs/interpose.md): what a variant's runner reports about the
 * hooks, and the one check that turns "nothing was intercepted" into a finding instead of "0 allocations".
 * Pure: the runner (and the DaCe build-folder path) fill in the facts, the engine words the outcome.
 */

/** What interposition saw for one variant (one runner process, or several pooled). */
export interface InterpositionFacts {
  /** Imported allocation functions whose GOT slots were hooked (the addon's InterposeReport.patched). */
  patched: string[];
  /** Imported allocation functions left alone, with the reason. */
  skipped: string[];
  /** Allocations and frees intercepted inside the program call windows of the timed calls. */
  interceptedCalls: number;
  /** Intercepted calls outside any program call window (init, exit) in the whole process. */
  outsideWindowCalls: number;
  /** Allocations the program is known to make per call — from our runtime header's events for generated code,
   * from the SDFG for a DaCe build — or null when nothing says. */
  expectedAllocationsPerCall: number | null;
  /** Calls in which both the hooks and the library's runtime header timed the allocations (the verification
   * calls of generated code), with each side's allocation + free time summed over them: the header's timestamps
   * bracket the hook, so the two differ by the hooks' own cost. Absent when no such call was made. */
  sameCall?: { calls: number; headerNs: number; hookNs: number };
}

/**
 * The sentence to show when the hooks saw nothing although the program allocates: the library is statically
 * linked to its allocator or reaches it some other way than through its GOT, so its allocation figures are
 * unknown — never reported as 0. Null when interposition saw calls, or nothing says the program allocates.
 */
export function interpositionFinding(label: string, facts: InterpositionFacts): string | null {
  const expected = facts.expectedAllocationsPerCall;
  if (facts.interceptedCalls > 0 || expected === null || expected <= 0) return null;
  const imports = facts.patched.length
    ? `it imports ${facts.patched.join(', ')}, but never called them during a program call`
    : 'it imports none of the interposed allocation functions';
  return (
    `${label}: interposition intercepted no allocation call although the program allocates (${expected} per call): ` +
    `the library is statically linked to its allocator or bypasses interposition (${imports}). ` +
    `Its allocation counts, bytes and times are unknown, not 0.`
  );
}

/** The result's note and warnings for a run whose allocation figures came from interposition (none otherwise). */
export function interpositionReport(variants: ReadonlyArray<{ label: string; interposition?: InterpositionFacts }>): {
  notes: string[];
  warnings: string[];
} {
  const interposed = variants.filter((v) => v.interposition);
  if (!interposed.length) return { notes: [], warnings: [] };
  const skipped = interposed.flatMap((v) => v.interposition!.skipped.map((s) => `${v.label}: ${s}`));
  return {
    notes: [
      'Allocation counts, bytes and times were measured by interposition (--interpose): hooks on the GOT slots through which ' +
        "each library calls the allocator, timed inside its program calls, instead of the runtime header's own records.",
    ],
    warnings: [
      ...interposed.map((v) => interpositionFinding(v.label, v.interposition!)).filter((w): w is string => w !== null),
      ...(skipped.length ? [`interposition left some imported allocation functions alone: ${skipped.join('; ')}`] : []),
    ],
  };
}
