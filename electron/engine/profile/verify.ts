/**
 * Verification of a profile run's outputs: uninitialised reads (the two poisoned calls of each mode disagree),
 * workspace overflows (guard bytes changed) and cross-mode agreement (bitwise, or within a relative
 * tolerance where the program's own float order is nondeterministic).
 */
import type { GeneratedProgram, ProgramArg } from '../codegen/types.js';
import type { VariantResult } from './runner-host.js';
import { certainCulprits } from './verify-culprits.js';
import { compareArray } from './compare.js';
import type { ProfileResult, VerificationDetail } from './result.js';

/** Poison of the two verification calls: all-ones is a NaN in every float type and -1 in every int type;
 * 0xA5 repeated is an ordinary-looking (wrong) number, so a leak of either shows as a difference. */
export const POISON: [number, number] = [0xff, 0xa5];
export const GUARD_BYTE = 0x5a;
export const GUARD_BYTES = 64;
/** Relative tolerance across modes when the program's own float order is nondeterministic. */
export const NONDETERMINISTIC_RTOL = 1e-5;

/** What verification needs to know about each variant. */
export interface VerifiedVariant {
  label: string;
  /** `stackTransients` absent means none (programs written by hand for tests). */
  program: Pick<GeneratedProgram, 'nondeterministicFloat'> & Partial<Pick<GeneratedProgram, 'stackTransients'>>;
  /** The optimisation flags it was compiled with (BuildResult.cxxflags); absent for programs built by hand. */
  build?: { cxxflags: readonly string[] };
}

/**
 * Flags that let the compiler round float arithmetic differently in each mode's code (DaCe's defaults include
 * -freciprocal-math): each mode's translation unit is a different program to the optimiser, so the same
 * expression may be contracted or reassociated differently, and outputs may differ in the last bits.
 */
const FLOAT_REORDER_FLAGS =
  /^(-ffast-math|-freciprocal-math|-fassociative-math|-funsafe-math-optimizations|-Ofast|--use_fast_math|-Xcompiler=-ffast-math)$/;

/** The flags of `variants` that allow float reordering, once each. */
function floatReorderFlags(variants: readonly VerifiedVariant[]): string[] {
  return [...new Set(variants.flatMap((v) => (v.build?.cxxflags ?? []).filter((f) => FLOAT_REORDER_FLAGS.test(f))))];
}

/**
 * `neverWritten`: transients no memlet of the program ever writes (model/queries.ts); `accumulatedOnly`: those
 * only ever accumulated into (model/accumulate-first.ts). When outputs depend on the poison they are the
 * certain culprits (verify-culprits.ts), so they lead the candidates instead of hiding among every transient
 * that merely received poison.
 */
export function verify(
  variants: VerifiedVariant[],
  results: VariantResult[],
  args: ProgramArg[],
  neverWritten: ReadonlySet<string> = new Set(),
  accumulatedOnly: readonly string[] = [],
): ProfileResult['verification'] {
  const details: VerificationDetail[] = [];
  const arrays = args.filter((a) => a.kind === 'array');
  const nondeterministic = variants.some((v) => v.program.nondeterministicFloat);
  const rtol = nondeterministic ? NONDETERMINISTIC_RTOL : null;
  // Bitwise first; where that fails and the flags allowed the compiler to round each mode differently, the
  // difference is judged within the tolerance instead, and the result says so.
  const reorder = rtol === null ? floatReorderFlags(variants) : [];
  let roundedDifferently = false;

  for (const [i, v] of variants.entries()) {
    const r = results[i]!;
    for (const g of r.guardViolations) {
      details.push({
        kind: 'guard-overflow',
        mode: v.label,
        transients: [g.slot],
        message:
          g.where === 'after'
            ? `${v.label}: transient ${g.slot} wrote past the end of its ${g.storage} workspace slot (guard byte ${g.byteOffset} after the slot changed)`
            : `${v.label}: transient ${g.slot} wrote before the start of its ${g.storage} workspace slot`,
      });
    }
    if (!r.outputs || !r.outputsSecond) continue;
    const leaking: string[] = [];
    let firstDiff: ReturnType<typeof compareArray> = null;
    for (const arg of arrays) {
      const d = compareArray(arg, r.outputs[arg.name]!, r.outputsSecond[arg.name]!, rtol);
      if (d) {
        leaking.push(arg.name);
        firstDiff ??= d;
      }
    }
    if (firstDiff) {
      // The runner only sees heap allocations and workspace slots; stack transients are poisoned in place by
      // the generated code itself, so the program says which they are.
      const poisoned = [...new Set([...r.poisonedTransients, ...(v.program.stackTransients ?? [])])].sort();
      const { certain, text } = certainCulprits(poisoned, neverWritten, accumulatedOnly);
      const candidates = [...certain, ...poisoned.filter((t) => !certain.includes(t))];
      details.push({
        kind: 'uninitialised-read',
        mode: v.label,
        array: firstDiff.array,
        index: firstDiff.index,
        values: firstDiff.values,
        transients: candidates,
        message:
          `${v.label}: output${leaking.length === 1 ? '' : 's'} ${leaking.join(', ')} changed between two verification calls that differ only in the ` +
          `poison pattern of fresh transient memory (first at ${firstDiff.array}[${firstDiff.index.join(', ')}]: ${firstDiff.values[0]} vs ${firstDiff.values[1]}): ` +
          (text !== null
            ? `the program reads a transient before writing it: ${text}` +
              (candidates.length > certain.length
                ? ` (${candidates.length - certain.length} other transient(s) also got poison; listed in the result)`
                : '')
            : candidates.length
              ? `the program reads a transient before writing it; ${candidateList(candidates)}`
              : 'no transient memory was poisoned, so the program itself is nondeterministic (e.g. a parallel reduction not marked nondeterministicFloat)'),
      });
    }
  }

  let identical = true;
  const ref = results[0];
  const refVariant = variants[0]!;
  const compared = new Set<string>();
  if (ref?.outputs) {
    for (const [i, v] of variants.entries()) {
      if (i === 0) continue;
      const r = results[i]!;
      if (!r.outputs) continue;
      compared.add(v.label);
      for (const arg of arrays) {
        const d = compareArray(arg, ref.outputs[arg.name]!, r.outputs[arg.name]!, rtol);
        if (!d) continue;
        // As with the tolerance for nondeterministic programs, "identical" means equal under the comparison
        // the result names (its `tolerance`).
        if (reorder.length > 0 && !compareArray(arg, ref.outputs[arg.name]!, r.outputs[arg.name]!, NONDETERMINISTIC_RTOL)) {
          roundedDifferently = true;
          continue;
        }
        identical = false;
        if (accumulatedOnly.length) {
          details.push(accumulationDivergence(v.label, refVariant.label, d, accumulatedOnly));
          continue;
        }
        details.push({
          kind: 'divergence',
          mode: v.label,
          reference: refVariant.label,
          array: d.array,
          index: d.index,
          values: d.values,
          message: `${v.label} differs from ${refVariant.label} in ${d.array}[${d.index.join(', ')}]: ${d.values[0]} vs ${d.values[1]} (${d.count} element${d.count === 1 ? '' : 's'} differ${rtol !== null ? `, relative tolerance ${rtol}` : ', bitwise'})`,
        });
      }
    }
  }
  if (rtol !== null) {
    details.push({
      kind: 'note',
      mode: 'all',
      message: `outputs compared within a relative tolerance of ${rtol}: the program's parallel reductions make its float order nondeterministic`,
    });
  }
  if (roundedDifferently) {
    details.push({
      kind: 'note',
      mode: 'all',
      message: `outputs differ in their last bits and agree within a relative tolerance of ${NONDETERMINISTIC_RTOL}: the compiler flags ${reorder.join(' ')} let each mode's code round float arithmetic differently (build with --cxxflags without them for bitwise agreement)`,
    });
  }
  const tolerance = rtol ?? (roundedDifferently ? NONDETERMINISTIC_RTOL : null);
  // Agreement over nothing is no agreement: say when the comparison had nothing to look at.
  const written = arrays.filter((a) => a.written);
  const outputs = written.filter((a) => !a.shape.some((d) => d === 0n)).map((a) => a.name);
  const vacuousReason = vacuity(variants, results, arrays, written, outputs, compared);
  if (vacuousReason) details.push({ kind: 'note', mode: 'all', message: `nothing was compared across modes: ${vacuousReason}` });
  const ok = !details.some((d) => d.kind !== 'note');
  const base = { identical, ok, vacuous: vacuousReason !== null, compared: vacuousReason ? [] : outputs, details };
  return tolerance !== null ? { ...base, tolerance } : base;
}

/** At most this many candidates by name in the message (the result's `transients` has all). */
const LISTED_CANDIDATES = 12;

/** Every candidate when they are few; otherwise how many, so the alphabetical head is not read as the culprits. */
function candidateList(candidates: readonly string[]): string {
  if (candidates.length <= LISTED_CANDIDATES) return `candidates: ${candidates.join(', ')}`;
  return (
    `${candidates.length} transients received poison, any of them may be the one read (the result lists all; ` +
    `the first ${LISTED_CANDIDATES} by name: ${candidates.slice(0, LISTED_CANDIDATES).join(', ')})`
  );
}

/**
 * A cross-mode difference in a program that accumulates into transients nothing initialises (model/
 * accumulate-first.ts): each mode's layout leaves different bytes under them (the packed layout, the bytes of
 * a transient that died before), so the outputs may differ with every layout correct. The two poisoned calls
 * cannot always show it: a max ignores a NaN or a large negative poison alike.
 */
function accumulationDivergence(
  mode: string,
  reference: string,
  d: NonNullable<ReturnType<typeof compareArray>>,
  accumulatedOnly: readonly string[],
): VerificationDetail {
  return {
    kind: 'uninitialised-read',
    mode,
    reference,
    array: d.array,
    index: d.index,
    values: d.values,
    transients: [...accumulatedOnly],
    message:
      `${mode} differs from ${reference} in ${d.array}[${d.index.join(', ')}]: ${d.values[0]} vs ${d.values[1]}, but the program reads ` +
      `uninitialised memory: it accumulates into ${accumulatedOnly.join(', ')} (a WCR, a Reduce without identity or a blend x = f·new + (1 − f)·x reads the old value) ` +
      `and nothing writes ${accumulatedOnly.length === 1 ? 'it' : 'them'} first, so its outputs depend on what each mode's memory held ` +
      `there; give the Reduce an identity or initialise the transient in the SDFG`,
  };
}

/** Why the cross-mode comparison checked nothing, or null when it compared some written output. */
function vacuity(
  variants: VerifiedVariant[],
  results: VariantResult[],
  arrays: ProgramArg[],
  written: ProgramArg[],
  outputs: string[],
  compared: Set<string>,
): string | null {
  if (arrays.length === 0) return 'the program has no array arguments, so no mode produces an output that could differ';
  if (written.length === 0) {
    return `the program writes none of its array arguments (${arrays.map((a) => a.name).join(', ')}), so every mode returns its inputs unchanged`;
  }
  if (outputs.length === 0) {
    return `every output (${written.map((a) => `${a.name}[${a.shape.join(', ')}]`).join(', ')}) has no elements with these symbol values`;
  }
  if (!results[0]?.outputs) return `the reference mode ${variants[0]!.label} returned no outputs (its verification calls did not run)`;
  if (variants.length === 1) return `only ${variants[0]!.label} ran (its two poisoned calls were still compared with each other)`;
  if (compared.size === 0) return 'no mode other than the reference returned outputs';
  return null;
}
