/**
 * What other processes did to a run's cores, in words. Pure (the renderer's headline says it too), so the
 * sampling itself stays in machine.ts.
 */

/** Above this share of all cores kept busy by other processes, timings are not to be quoted. */
const BUSY_THRESHOLD = 0.2;

/** The sentence for a run whose cores other processes kept busy; null when they left them (mostly) free. */
export function busySentence(busyFraction: number | null | undefined, cores: number): string | null {
  if (busyFraction === null || busyFraction === undefined || !(busyFraction > BUSY_THRESHOLD)) return null;
  return `other processes kept ${(busyFraction * 100).toFixed(0)}% of the ${cores} cores busy just before timing: times can be inflated and noisy (OpenMP regions suffer most); rerun on a quiet machine for numbers to quote`;
}
