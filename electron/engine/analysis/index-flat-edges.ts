/**
 * A scanned run of valid argument values that reaches the edge of the scan window (analysis/index-ranges.ts
 * `solve`), kept where the index is flat out there.
 *
 * ICON's get_indices_c clamps a start index read from data before it starts a loop:
 * `i_startidx = max(1, start_index(rl_start))`, then `DO jc = i_startidx, i_endidx`. Every value at or below 1
 * gives the same loop, so the valid values run past the window's lower edge and their true extent is unknown.
 * Giving up there left `start_index` random, and a program whose writing loop and reading loop start from two
 * different elements of it (velocity_no_nproma: `cfl_clipping` written from `start_index(4)`, read from
 * `start_index(5)`) read what the writing loop skipped: ICON's grids keep those elements ordered, random data
 * does not. The part of the run where the index stays at its value at the window's edge adds no index the rest
 * does not reach, so the run keeps its last flat value and drops the others. Every value kept was scanned and is
 * valid, and the lowest kept value still starts the loop where every lower one would.
 */

/**
 * The run `[lo, hi]` without the flat ends that reach the window `[from, to]` (each end keeps one value); null
 * when an end at the window is not flat (the index keeps moving beyond it) or the index is flat over the whole
 * run (it does not depend on the value there).
 */
export function trimFlatEdges(
  run: readonly [bigint, bigint],
  from: bigint,
  to: bigint,
  at: (v: bigint) => bigint | null,
): [bigint, bigint] | null {
  let [lo, hi] = run;
  if (lo === from) {
    const edge = at(lo);
    let v = lo;
    while (v < hi && at(v + 1n) === edge) v++;
    // Not flat at the edge (the index keeps moving past the window), or flat throughout: nothing known.
    if (v === lo || v === hi) return null;
    lo = v;
  }
  if (hi === to) {
    const edge = at(hi);
    let v = hi;
    while (v > lo && at(v - 1n) === edge) v--;
    if (v === hi || v === lo) return null;
    hi = v;
  }
  return [lo, hi];
}
