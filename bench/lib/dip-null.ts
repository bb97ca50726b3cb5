/**
 * The dip test's null distribution as simulated (electron/engine/profile/dip.ts, DIP_NULL), and the seeded
 * generator it draws from: bench/dip-null.ts prints the table with it, and the engine's tests re-simulate a few
 * entries and draw their own noisy samples from the same generator.
 */
import { DIP_NULL_P, dipStatistic } from '../../electron/engine/profile/dip.js';

export const DIP_NULL_SIZES = [10, 15, 20, 30, 50, 100, 200, 500, 1000, 2000] as const;

/** SplitMix64 on BigInt would be slow; a 32-bit Mulberry32 is plenty for uniform draws here. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Quantiles (DIP_NULL_P) of √n·dip over `reps` uniform samples of size n. */
export function simulateDipNull(n: number, reps: number, seed: number): number[] {
  const rnd = mulberry32(seed);
  const z = new Float64Array(reps);
  const x = new Float64Array(n);
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < n; i++) x[i] = rnd();
    x.sort();
    z[r] = Math.sqrt(n) * dipStatistic(x);
  }
  z.sort();
  return DIP_NULL_P.map((p) => z[Math.min(reps - 1, Math.floor(p * reps))]!);
}
