/**
 * Symbol values derived from the program's own reads (docs/profile.md, "Symbols of Fortran programs").
 *
 * Under --default-symbol every free symbol gets one value, but a program may read a fixed range of an array
 * sized by a symbol: get_albedos reads rows 1 … 140 of a transient whose extent is a Fortran size symbol
 * (`__f2dace_SA_…`), because the caller's array really has 140 g-points. At 32 that read leaves the
 * allocation, and verification reports the other memory it finds as an uninitialised read of the program.
 * The index-range analysis knows the value each such symbol needs (analysis/index-ranges.ts, followed to a
 * fixed point by profile/index-inputs.ts); for a symbol that only --default-symbol gave, profile takes that
 * value and says so. A value the user gave is never changed: the advice line names the fix instead.
 */
import type { OnProfileProgress, ProfileOptions } from './options.js';
import { planIndexInputs } from './index-inputs.js';
import { planProfile, type ProfilePlan } from './plan.js';

type PlanOptions = Parameters<typeof planProfile>[1];

/** planProfile, re-planned once with the values the program's reads need for symbols the user did not give. */
export async function planWithDerivedSymbols(
  filePath: string,
  options: PlanOptions & Pick<ProfileOptions, 'inputs'>,
  onProgress: OnProfileProgress,
): Promise<ProfilePlan> {
  const plan = await planProfile(filePath, options, onProgress);
  if (options.defaultSymbol === null) return plan;
  const defaulted = new Set([...plan.analysis.symbols].filter(([, v]) => v.source === 'default').map(([k]) => k));
  const { advice } = planIndexInputs(plan.file, plan.args, plan.symbols, options.inputs);
  const derived = advice.filter((a) => a.suggested !== null && defaulted.has(a.symbol));
  if (!derived.length) return plan;
  const symbols = new Map(options.symbols);
  for (const a of derived) symbols.set(a.symbol, a.suggested!);
  const again = await planProfile(filePath, { ...options, symbols }, onProgress);
  again.analysis.warnings.unshift(
    `symbol values derived from the program's own reads (a read at a fixed index needs them to stay in bounds; --symbols overrides): ${derived
      .map((a) => `${a.symbol}=${a.suggested} (not ${a.value})`)
      .join(', ')}`,
  );
  again.derivedSymbols = Object.fromEntries(derived.map((a) => [a.symbol, a.suggested!]));
  return again;
}
