/**
 * Allocation figures measured by interposition (docs/interpose.md): what a variant's runner reports about the
 * hooks, and the one check that turns "nothing was intercepted" into a finding instead of "0 allocations".
 * Pure: the runner (and the DaCe build-folder path) fill in the facts (result.ts `InterpositionFacts`), the engine
 * words the outcome.
 */

import type { InterpositionFacts } from './result.js';

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

/** The result's note and warnings for a run whose allocation figures came from interposition (none otherwise).
 * `dace`: a DaCe-built library, interposed by default (it records no allocations itself); else `--interpose`. */
export function interpositionReport(variants: ReadonlyArray<{ label: string; interposition?: InterpositionFacts; dace?: boolean }>): {
  notes: string[];
  warnings: string[];
} {
  const interposed = variants.filter((v) => v.interposition);
  if (!interposed.length) return { notes: [], warnings: [] };
  const skipped = interposed.flatMap((v) => v.interposition!.skipped.map((s) => `${v.label}: ${s}`));
  const notes: string[] = [];
  if (interposed.some((v) => !v.dace)) {
    notes.push(
      'Allocation counts, bytes and times were measured by interposition (--interpose): hooks on the GOT slots through which ' +
        "each library calls the allocator, timed inside its program calls, instead of the runtime header's own records.",
    );
  }
  if (interposed.some((v) => v.dace)) {
    notes.push(
      'Allocation counts, bytes and times of the DaCe-built libraries were measured by interposition: hooks on the GOT slots ' +
        'through which each library calls the allocator, timed inside its program calls (a DaCe build records none itself; ' +
        "what libstdc++, libgomp or the CUDA runtime allocate on the library's behalf is not counted).",
    );
  }
  return {
    notes,
    warnings: [
      ...interposed.map((v) => interpositionFinding(v.label, v.interposition!)).filter((w): w is string => w !== null),
      ...(skipped.length ? [`interposition left some imported allocation functions alone: ${skipped.join('; ')}`] : []),
    ],
  };
}
