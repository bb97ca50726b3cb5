/**
 * Index-safe generated inputs (docs/profile.md, Inputs): the integer arguments whose values index data get
 * seeded values inside the range analysis/index-ranges.ts derives, instead of the generator's 0…7.
 *
 * An argument that only bounds loops or maps from below takes the lowest value of its range, one that only bounds
 * them from above the highest, so that a start/end pair covers the whole iteration space, as callers run it
 * (CLOUDSC's kidia = 1, kfdia = klon). Random values inside the range would leave part of each array uncomputed
 * while later loops still read it: an uninitialised read the inputs made, not the program.
 * `--input` wins: a file-given argument is never generated.
 */
import type { IndexRange, SymbolAdvice } from '../analysis/index-findings.js';
import { indexRanges } from '../analysis/index-ranges.js';
import { optionSwitches } from '../analysis/option-switches.js';
import { symbolsCopiedFromLeaves } from '../codegen/init-args.js';
import type { ProgramArg } from '../codegen/types.js';
import type { SdfgFile } from '../model/sdfg.js';
import type { IndexInput } from './result.js';

const INT_RANGE: Record<string, [bigint, bigint]> = {
  int8: [-128n, 127n],
  uint8: [0n, 255n],
  int16: [-32768n, 32767n],
  uint16: [0n, 65535n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

const isGeneratedInteger = (a: ProgramArg, files: ReadonlyMap<string, string>): boolean =>
  a.kind !== 'symbol' && a.fromSymbol === undefined && INT_RANGE[a.dtype] !== undefined && !files.has(a.name);

/** The generated range of each integer argument whose values index data. */
export function planIndexInputs(
  file: SdfgFile,
  args: readonly ProgramArg[],
  symbols: Record<string, bigint>,
  files: ReadonlyMap<string, string>,
): { inputs: IndexInput[]; warnings: string[]; advice: SymbolAdvice[] } {
  const wanted = new Map(args.filter((a) => isGeneratedInteger(a, files)).map((a) => [a.name, a]));
  const out: IndexInput[] = [];
  // A scalar that takes its size symbol's value (below) is planned at it where indices join (index-joint.ts).
  const fixed = new Map<string, [bigint, bigint]>();
  for (const arg of wanted.values()) {
    const sym = arg.kind === 'scalar' ? symbols[`sym_${arg.name}`] : undefined;
    if (sym !== undefined) fixed.set(arg.name, [sym, sym]);
  }
  // A member the init code copies into a symbol holds that symbol's value (inputs.ts passes it so).
  const members = new Map(args.flatMap((a) => (a.fromSymbol !== undefined ? [[a.name, a.fromSymbol] as const] : [])));
  const { ranges, outside, outsideCount, advice } = indexRanges(file, symbols, wanted.keys(), { fixed, memberSymbols: members });
  for (const r of ranges) {
    const arg = wanted.get(r.argument);
    if (!arg) continue;
    const [tmin, tmax] = INT_RANGE[arg.dtype]!;
    let min = r.min < tmin ? tmin : r.min;
    let max = r.max > tmax ? tmax : r.max;
    if (min > max) continue;
    const split = splitFor(r);
    if (split === 'lower') max = min;
    else if (split === 'upper') min = max;
    // Values travel as doubles in the result; ranges beyond 2^53 are not index ranges anyway.
    if (min < -(2n ** 53n) || max > 2n ** 53n) continue;
    const note = split === 'lower' ? ' (loop start: its lowest value)' : split === 'upper' ? ' (loop end: its highest value)' : '';
    out.push({ argument: r.argument, min: Number(min), max: Number(max), reason: `${r.reason}${note}` });
  }
  // DaCe's Fortran frontend gives a scalar argument X that sizes arrays a symbol `sym_X` (get_albedos: istartcol,
  // sym_istartcol): the caller passes the same value for both, so the input takes the symbol's.
  for (const arg of wanted.values()) {
    const sym = arg.kind === 'scalar' ? symbols[`sym_${arg.name}`] : undefined;
    if (sym === undefined || sym < -(2n ** 53n) || sym > 2n ** 53n) continue;
    const at = out.findIndex((i) => i.argument === arg.name);
    const fixed = { argument: arg.name, min: Number(sym), max: Number(sym), reason: `the Fortran frontend's size symbol sym_${arg.name}` };
    if (at >= 0) out[at] = fixed;
    else out.push(fixed);
  }
  out.push(...switchInputs(file, wanted, out));
  out.sort((a, b) => (a.argument < b.argument ? -1 : a.argument > b.argument ? 1 : 0));
  const followed = outsideCount ? adviceUntilInBounds(file, symbols, wanted.keys(), members, advice) : [];
  return { inputs: out, warnings: outsideWarnings(outside, outsideCount, followed), advice: followed };
}

/**
 * The advice, followed until nothing more is out of bounds: a value that fixes one read can expose the next
 * (get_albedos: once a transient's SA extent covers the 140 rows a loop reads, the transient that fills it is
 * read over those 140 columns, so its own SA symbol must grow too). Extents grow first: a lower bound advised
 * against an extent that is still too small (velocity's `OA_z_kin_hor_e_d_1`) is advice against the wrong
 * array. Each round re-derives the reads at the values so far; at most six rounds.
 */
function adviceUntilInBounds(
  file: SdfgFile,
  symbols: Record<string, bigint>,
  wanted: Iterable<string>,
  members: ReadonlyMap<string, string>,
  first: readonly SymbolAdvice[],
): SymbolAdvice[] {
  const names = [...wanted];
  let advice = first;
  const at = { ...symbols };
  const classes = copiedTogether(file, symbols);
  // An extent whose read moves with it (`B[i + 1]` for i < N, B of N) is never fixed by growing: it is dropped.
  const grown = new Set<string>();
  const moving = new Set<string>();
  for (let round = 0; round < 6; round++) {
    for (const a of advice)
      if (a.extent && grown.has(a.symbol)) {
        for (const s of classes.get(a.symbol) ?? [a.symbol]) {
          moving.add(s);
          at[s] = symbols[s]!;
        }
      }
    const open = advice.filter((a) => a.suggested !== null && !moving.has(a.symbol));
    const extents = open.filter((a) => a.extent);
    const fixes = extents.length ? extents : open;
    if (!fixes.length) break;
    for (const a of fixes) {
      at[a.symbol] = a.suggested!;
      if (a.extent) grown.add(a.symbol);
    }
    // Symbols the init code copies from one structure member hold one value: they grow together.
    for (const a of fixes) {
      const together = classes.get(a.symbol) ?? [];
      const top = together.reduce((m, s) => (at[s]! > m ? at[s]! : m), at[a.symbol]!);
      for (const s of together) at[s] = top;
    }
    advice = indexRanges(file, at, names, { memberSymbols: members }).advice;
  }
  const out = new Map<string, SymbolAdvice>();
  for (const [symbol, value] of Object.entries(at))
    if (symbols[symbol] !== value) out.set(symbol, { symbol, value: symbols[symbol]!, suggested: value });
  for (const a of advice) if (!moving.has(a.symbol)) out.set(a.symbol, { ...a, value: symbols[a.symbol] ?? a.value });
  for (const symbol of moving) out.set(symbol, { symbol, value: symbols[symbol]!, suggested: null });
  return [...out.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** Each symbol the init code copies from a structure member → every symbol copied from that member (with a value). */
function copiedTogether(file: SdfgFile, symbols: Record<string, bigint>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const leaves = new Map([...symbolsCopiedFromLeaves(file, false), ...symbolsCopiedFromLeaves(file, true)]);
  for (const list of leaves.values()) {
    const valued = list.filter((s) => symbols[s] !== undefined);
    if (valued.length > 1) for (const s of valued) out.set(s, valued);
  }
  return out;
}

/**
 * Scalars the program only compares for equality with constants (analysis/option-switches.ts, CLOUDSC's
 * NSSOPT): one of those constants, as a caller passes, never a value that takes no branch of an `if … elif`
 * chain and leaves what its branches assign uninitialised. Contiguous constants give their range; otherwise
 * the smallest (an input range holds one interval). An index range found for the same argument wins.
 */
function switchInputs(file: SdfgFile, wanted: ReadonlyMap<string, ProgramArg>, found: readonly IndexInput[]): IndexInput[] {
  const scalars = [...wanted.values()].filter((a) => a.kind === 'scalar' && !found.some((i) => i.argument === a.name));
  const out: IndexInput[] = [];
  for (const s of optionSwitches(
    file,
    scalars.map((a) => a.name),
  )) {
    const [tmin, tmax] = INT_RANGE[wanted.get(s.argument)!.dtype]!;
    const values = s.values.filter((v) => v >= tmin && v <= tmax && v >= -(2n ** 53n) && v <= 2n ** 53n);
    if (!values.length) continue;
    const lo = values[0]!;
    const hi = values[values.length - 1]!;
    const contiguous = hi - lo === BigInt(values.length - 1);
    const listed = values.join(', ');
    out.push({
      argument: s.argument,
      min: Number(lo),
      max: Number(contiguous ? hi : lo),
      reason: `compared only for equality with ${listed}: an option switch${contiguous ? '' : ', given the smallest'}`,
    });
  }
  return out;
}

function outsideWarnings(outside: readonly string[], count: number, advice: readonly SymbolAdvice[]): string[] {
  if (!count) return [];
  const lines = [
    `${count} read${count === 1 ? '' : 's'} at indices fixed by the symbol values ${count === 1 ? 'is' : 'are'} out of bounds whatever the inputs hold (e.g. ${outside.slice(0, 2).join('; ')})`,
  ];
  const fixes = advice.filter((a) => a.suggested !== null);
  if (fixes.length)
    lines.push(`symbol values that keep those reads in bounds: --symbols ${fixes.map((a) => `${a.symbol}=${a.suggested}`).join(',')}`);
  const stuck = advice.filter((a) => a.suggested === null);
  if (stuck.length)
    lines.push(
      `no single value of ${stuck.map((a) => a.symbol).join(', ')} keeps all of its reads in bounds at these extents: give the indexed arrays larger extents (--symbols)`,
    );
  return lines;
}

/** Detail lines for a run that crashed: what the generated inputs could not make safe. */
export function crashDetails(inputs: readonly IndexInput[], warnings: readonly string[]): string[] {
  const lines = [...warnings];
  if (inputs.length)
    lines.push(
      `${inputs.length} integer input${inputs.length === 1 ? ' was' : 's were'} generated index-safe (${inputs
        .map((i) => i.argument)
        .slice(0, 6)
        .join(', ')}${inputs.length > 6 ? ', …' : ''})`,
    );
  return lines;
}

function splitFor(r: IndexRange): 'lower' | 'upper' | null {
  const lower = r.roles.includes('lower');
  const upper = r.roles.includes('upper');
  return lower && !upper ? 'lower' : upper && !lower ? 'upper' : null;
}

/** Fills an integer argument's storage with seeded values in [min, max] (one generator output per element). */
export function fillIndexSafe(
  dtype: string,
  bytes: Uint8Array,
  gen: { nextPair(): [number, number]; next(): bigint },
  input: IndexInput,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const span = BigInt(input.max - input.min) + 1n;
  const small = span <= 2n ** 32n;
  const next = (): bigint => {
    if (small) return BigInt(input.min) + (BigInt(gen.nextPair()[0]) % span);
    return BigInt(input.min) + (gen.next() % span);
  };
  const width = Number(dtype.replace(/^u?int/, '')) / 8;
  for (let o = 0; o + width <= bytes.length; o += width) {
    const v = next();
    if (width === 1) view.setUint8(o, Number(BigInt.asUintN(8, v)));
    else if (width === 2) view.setUint16(o, Number(BigInt.asUintN(16, v)), true);
    else if (width === 4) view.setUint32(o, Number(BigInt.asUintN(32, v)), true);
    else view.setBigUint64(o, BigInt.asUintN(64, v), true);
  }
}

/** `idx: values in [0, 16) (indexes A dim 0)` lines for the console (at most `limit`, then a count). */
export function indexInputLines(inputs: readonly IndexInput[] | undefined, limit = 12): string[] {
  if (!inputs?.length) return [];
  const lines = inputs.slice(0, limit).map((i) => `index-safe input ${i.argument}: values in [${i.min}, ${i.max + 1}) (${i.reason})`);
  if (inputs.length > limit) lines.push(`… and ${inputs.length - limit} more index-safe inputs (the result's indexInputs lists all)`);
  return lines;
}
