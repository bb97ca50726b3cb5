/**
 * Prints the null table of the dip test (electron/engine/profile/dip.ts, DIP_NULL): for each sample size n, the
 * quantiles of √n·dip over REPS samples of n uniform values from a seeded generator, so the table can be
 * regenerated and checked. Not a bench section (it measures no speed): run it on its own,
 *
 *   node dist/bench/dip-null.js [REPS]        (default 20000; a few minutes on one core)
 *
 * and paste its output over DIP_NULL. tests/engine/profile/dip.test.ts re-simulates a few entries with fewer
 * samples and checks they agree within the simulation's own error.
 */
import { DIP_NULL_P } from '../electron/engine/profile/dip.js';
import { DIP_NULL_SIZES, simulateDipNull } from './lib/dip-null.js';

const isMain = process.argv[1] !== undefined && /dip-null\.js$/.test(process.argv[1]);
if (isMain) {
  const reps = Number(process.argv[2] ?? 20000);
  process.stdout.write(`// ${reps} uniform samples per n; quantiles at ${DIP_NULL_P.join(', ')}\n`);
  for (const n of DIP_NULL_SIZES) {
    const q = simulateDipNull(n, reps, 0x5eed + n);
    process.stdout.write(`  [${n}, [${q.map((v) => v.toFixed(4)).join(', ')}]],\n`);
  }
}
