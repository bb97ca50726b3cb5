/**
 * Hartigan's dip test of unimodality (J. A. Hartigan and P. M. Hartigan, "The Dip Test of Unimodality", Ann.
 * Statist. 13(1), 1985; computed as in P. M. Hartigan, Applied Statistics algorithm AS 217, 1985). The dip is
 * the largest distance between a sample's empirical distribution function and the closest unimodal
 * distribution function; a sample of one hump has a dip near 1/(2n), two well-separated humps of equal weight
 * one near 1/4.
 *
 * The p-value comes from the quantiles of √n·dip for samples of the uniform distribution, the unimodal
 * distribution with the largest dips (Hartigan's choice of null), simulated once by bench/dip-null.ts and kept
 * in DIP_NULL below: a sample that dips more than 99 % of uniform samples of its size is called multimodal at
 * p < 0.01. Pure and allocation-light: the renderer runs it on every result it shows.
 */

/**
 * Quantiles of √n·dip of n uniform samples: `DIP_NULL_P[j]` is the probability below the value in column j.
 * 20,000 samples per n from a seeded generator (bench/dip-null.ts prints this table; run it to regenerate).
 */
export const DIP_NULL_P = [0.5, 0.9, 0.95, 0.99, 0.999] as const;
export const DIP_NULL: ReadonlyArray<readonly [n: number, q: readonly number[]]> = [
  [10, [0.309, 0.4135, 0.442, 0.5046, 0.5686]],
  [15, [0.3236, 0.4238, 0.4587, 0.527, 0.6044]],
  [20, [0.327, 0.434, 0.4688, 0.5378, 0.6172]],
  [30, [0.3369, 0.4453, 0.4793, 0.5481, 0.6434]],
  [50, [0.3457, 0.4571, 0.4971, 0.5695, 0.6477]],
  [100, [0.3556, 0.4705, 0.5128, 0.5957, 0.6864]],
  [200, [0.3621, 0.4814, 0.5224, 0.6031, 0.7127]],
  [500, [0.3671, 0.4888, 0.5303, 0.6136, 0.7123]],
  [1000, [0.3712, 0.4933, 0.5349, 0.6196, 0.7205]],
  [2000, [0.3747, 0.4963, 0.5377, 0.6202, 0.7204]],
];

/** The most values the test looks at: larger samples are thinned to this many (see `thinSorted`). */
export const DIP_MAX_N = 2000;
/** The fewest values the test is run on: the null table starts there. */
const DIP_MIN_N = 10;

/**
 * The dip of an ascending sample (Hartigan's statistic, in [1/(2n), 1/4]; 0 for fewer than four values or a
 * constant sample). Works on the greatest convex minorant and least concave majorant of the empirical
 * distribution, narrowing the modal interval until it stops changing: O(n) after sorting.
 */
export function dipStatistic(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n < 4 || sorted[n - 1] === sorted[0]) return 0;
  // 1-based copies keep the index arithmetic of the paper (a point i of the distribution is (x_i, i)).
  const x = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) x[i + 1] = sorted[i]!;
  const minorant = convexChain(x, n);
  const majorant = concaveChain(x, n);
  const gcm = new Int32Array(n + 1);
  const lcm = new Int32Array(n + 1);
  let low = 1;
  let high = n;
  let dip = 1; // in units of 1/n, doubled: halved and divided by n at the end
  for (;;) {
    // Vertices of the minorant from high down to low, and of the majorant from low up to high.
    let gCount = 1;
    gcm[1] = high;
    while (gcm[gCount]! > low) {
      gcm[gCount + 1] = minorant[gcm[gCount]!]!;
      gCount++;
    }
    let lCount = 1;
    lcm[1] = low;
    while (lcm[lCount]! < high) {
      lcm[lCount + 1] = majorant[lcm[lCount]!]!;
      lCount++;
    }
    const widest = widestGap(x, gcm, gCount, lcm, lCount);
    if (widest.d < dip) break;
    const dipLow = minorantDip(x, gcm, widest.ig, gCount);
    const dipHigh = majorantDip(x, lcm, widest.ih, lCount);
    dip = Math.max(dip, dipLow, dipHigh);
    const nextLow = gcm[widest.ig]!;
    const nextHigh = lcm[widest.ih]!;
    if (nextLow === low && nextHigh === high) break; // no progress: the interval is final
    low = nextLow;
    high = nextHigh;
  }
  return dip / (2 * n);
}

/** For every point j, the previous vertex of the greatest convex minorant of points 1..j. */
function convexChain(x: Float64Array, n: number): Int32Array {
  const prev = new Int32Array(n + 1);
  prev[1] = 1;
  for (let j = 2; j <= n; j++) {
    let a = j - 1;
    while (a !== 1) {
      const b = prev[a]!;
      // Keep a when the chain turns upwards (convex) there: slope b→a below slope a→j, written without division.
      if ((x[j]! - x[a]!) * (a - b) < (x[a]! - x[b]!) * (j - a)) break;
      a = b;
    }
    prev[j] = a;
  }
  return prev;
}

/** For every point k, the next vertex of the least concave majorant of points k..n. */
function concaveChain(x: Float64Array, n: number): Int32Array {
  const next = new Int32Array(n + 1);
  next[n] = n;
  for (let k = n - 1; k >= 1; k--) {
    let a = k + 1;
    while (a !== n) {
      const b = next[a]!;
      if ((x[k]! - x[a]!) * (a - b) < (x[a]! - x[b]!) * (k - a)) break;
      a = b;
    }
    next[k] = a;
  }
  return next;
}

/** The largest vertical distance between the minorant and the majorant over [low, high], and where it is. */
function widestGap(
  x: Float64Array,
  gcm: Int32Array,
  gCount: number,
  lcm: Int32Array,
  lCount: number,
): { d: number; ig: number; ih: number } {
  let ig = gCount;
  let ih = lCount;
  if (gCount === 2 && lCount === 2) return { d: 1, ig, ih };
  let d = 0;
  let ix = gCount - 1;
  let iv = 2;
  do {
    const g = gcm[ix]!;
    const l = lcm[iv]!;
    if (g > l) {
      // The next vertex is the majorant's: distance from it down to the minorant's chord.
      const g1 = gcm[ix + 1]!;
      const dx = l - g1 + 1 - ((x[l]! - x[g1]!) * (g - g1)) / (x[g]! - x[g1]!);
      iv++;
      if (dx >= d) {
        d = dx;
        ig = ix + 1;
        ih = iv - 1;
      }
    } else {
      // The next vertex is the minorant's: distance from the majorant's chord down to it.
      const l1 = lcm[iv - 1]!;
      const dx = ((x[g]! - x[l1]!) * (l - l1)) / (x[l]! - x[l1]!) - (g - l1 - 1);
      ix--;
      if (dx >= d) {
        d = dx;
        ig = ix + 1;
        ih = iv;
      }
    }
    if (ix < 1) ix = 1;
    if (iv > lCount) iv = lCount;
  } while (gcm[ix] !== lcm[iv]);
  return { d, ig, ih };
}

/** The largest distance of the empirical distribution above the minorant's chords from vertex `from` on. */
function minorantDip(x: Float64Array, gcm: Int32Array, from: number, gCount: number): number {
  let worst = 0;
  for (let j = from; j < gCount; j++) {
    const lo = gcm[j + 1]!;
    const hi = gcm[j]!;
    let t = 1;
    if (hi - lo > 1 && x[hi] !== x[lo]) {
      const slope = (hi - lo) / (x[hi]! - x[lo]!);
      for (let r = lo; r <= hi; r++) t = Math.max(t, r - lo + 1 - (x[r]! - x[lo]!) * slope);
    }
    worst = Math.max(worst, t);
  }
  return worst;
}

/** The largest distance of the majorant's chords above the empirical distribution from vertex `from` on. */
function majorantDip(x: Float64Array, lcm: Int32Array, from: number, lCount: number): number {
  let worst = 0;
  for (let k = from; k < lCount; k++) {
    const lo = lcm[k]!;
    const hi = lcm[k + 1]!;
    let t = 1;
    if (hi - lo > 1 && x[hi] !== x[lo]) {
      const slope = (hi - lo) / (x[hi]! - x[lo]!);
      for (let r = lo; r <= hi; r++) t = Math.max(t, (x[r]! - x[lo]!) * slope - (r - lo - 1));
    }
    worst = Math.max(worst, t);
  }
  return worst;
}

/**
 * At most `max` values of an ascending sample at evenly spaced ranks (all of it when it is small enough). The
 * thinned sample's distribution function stays within 1/max of the whole sample's, so its dip is the whole
 * sample's to within that; and since it follows the whole sample rather than varying like a fresh sample of
 * `max` values would, judging it by the null of `max` values errs on the side of calling fewer samples
 * multimodal.
 */
export function thinSorted(sorted: ArrayLike<number>, max = DIP_MAX_N): Float64Array {
  const n = sorted.length;
  if (n <= max) return Float64Array.from(sorted);
  const out = new Float64Array(max);
  for (let i = 0; i < max; i++) out[i] = sorted[Math.min(n - 1, Math.floor(((i + 0.5) * n) / max))]!;
  return out;
}

/** The null quantiles of √n·dip for n values (linear in log n between table rows; the last row beyond it). */
function nullRow(n: number): readonly number[] {
  const rows = DIP_NULL;
  if (n <= rows[0]![0]) return rows[0]![1];
  for (let i = 1; i < rows.length; i++) {
    const [n1, q1] = rows[i]!;
    if (n <= n1) {
      const [n0, q0] = rows[i - 1]!;
      const w = (Math.log(n) - Math.log(n0)) / (Math.log(n1) - Math.log(n0));
      return q0.map((v, j) => v + (q1[j]! - v) * w);
    }
  }
  return rows[rows.length - 1]![1];
}

/** The upper tail of each column of the null table: 1 − DIP_NULL_P, written out to stay exact. */
const TAILS = [0.5, 0.1, 0.05, 0.01, 0.001] as const;

/**
 * The p-value of a dip for n values, read off the null table as an upper bound: the tail of the last column
 * the dip reaches (so "p < 0.01" is never claimed for a dip below the 99 % quantile), 1 below the median, and
 * 0.001 beyond the last column (the table says no more than "p ≤ 0.001" there).
 */
export function dipPValue(dip: number, n: number): number {
  const z = Math.sqrt(n) * dip;
  const row = nullRow(n);
  let p = 1;
  for (let j = 0; j < row.length; j++) if (z >= row[j]!) p = TAILS[j]!;
  return p;
}

export interface DipTest {
  /** The dip of the values tested (the thinned log times). */
  dip: number;
  /** Values tested (after thinning). */
  n: number;
  /** Upper bound of the p-value from the null table (0.001 stands for "< 0.001"); NaN when not tested. */
  p: number;
}

/**
 * The dip test on the logarithms of positive times (noise on a busy machine multiplies a call's time, so the
 * humps of a mixed sample are humps of its log). Equal times are spread evenly across the clock's step (the
 * smallest difference between two distinct times) before the log, so a coarse clock's comb of repeated values
 * does not read as many modes. Fewer than DIP_MIN_N values are not tested (p = NaN).
 */
export function dipTestLogTimes(times: ArrayLike<number>): DipTest {
  const n = times.length;
  if (n < DIP_MIN_N) return { dip: NaN, n, p: NaN };
  const sorted = Float64Array.from(times).sort();
  const spread = spreadTies(sorted);
  const thinned = thinSorted(spread);
  const logs = thinned.map((t) => Math.log(Math.max(t, 1e-3)));
  const dip = dipStatistic(logs);
  return { dip, n: logs.length, p: dipPValue(dip, logs.length) };
}

/** Runs of equal values spread evenly over (v − step/2, v + step/2), `step` the smallest positive gap. */
function spreadTies(sorted: Float64Array): Float64Array {
  let step = Infinity;
  let ties = false;
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i]! - sorted[i - 1]!;
    if (d > 0) step = Math.min(step, d);
    else ties = true;
  }
  if (!ties || !Number.isFinite(step)) return sorted;
  const out = new Float64Array(sorted.length);
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[i]) j++;
    const k = j - i + 1;
    for (let r = 0; r < k; r++) out[i + r] = sorted[i]! + step * ((r + 0.5) / k - 0.5);
    i = j + 1;
  }
  return out;
}
