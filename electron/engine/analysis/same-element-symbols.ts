/**
 * Symbols that `--default-symbol` gives one value although the program uses them to name different elements of
 * the same dimension. CLOUDSC's species indices are the example: `zvqx[ncldql - 1]`, `zvqx[ncldqi - 1]`, …,
 * `zvqx[ncldqv - 1]` are five different elements when a caller passes ncldql = 1 … ncldqv = 5 (and nclv = 5),
 * but one element when all of them are 16. The program then writes only that element while its loops over
 * `jm = 1 … nclv` read all of them: reads of memory nothing wrote, which verification reports as the program's
 * own uninitialised read. The cause is the symbol values, so the analysis says so before anything runs.
 *
 * Found from memlet subsets: a dimension indexed by exactly `s + c` (one symbol, a constant offset). Two or more
 * defaulted symbols at the same offset in the same dimension of the same container, with the same value, name
 * the same element. Pure: no file system, no process.
 */
import { evalInt, freeSymbols, parseSym } from '../symbolic/index.js';
import { statesOf } from '../model/queries.js';
import type { SdfgFile, Subset } from '../model/sdfg.js';

/** At most this many example accesses in the warning. */
const EXAMPLES = 3;

/**
 * One warning line when defaulted symbols of equal value index the same element somewhere, else null.
 * `defaulted`: the symbols that took `--default-symbol`; `values`: every symbol's value.
 */
export function sameElementSymbolsWarning(
  file: SdfgFile,
  defaulted: readonly string[],
  values: ReadonlyMap<string, bigint>,
  defaultValue: bigint,
): string | null {
  if (defaulted.length < 2) return null;
  const watched = new Set(defaulted);
  // (container, dimension, offset) → the watched symbols indexing it, with one written access each.
  const slots = new Map<string, Map<string, string>>();
  const root = file.root;
  for (const st of statesOf(root)) {
    for (const e of st.edges) {
      const m = e.memlet;
      if (m.data === null || !m.subset) continue;
      single(m.subset).forEach((index, dim) => {
        const hit = symbolPlusConstant(index, file.grammar, watched, values);
        if (!hit) return;
        const key = `${m.data}\u0000${dim}\u0000${hit.offset}`;
        let at = slots.get(key);
        if (!at) slots.set(key, (at = new Map<string, string>()));
        if (!at.has(hit.symbol)) at.set(hit.symbol, `${m.data}[${index}]`);
      });
    }
  }
  const symbols = new Set<string>();
  const examples: string[] = [];
  let containers = 0;
  for (const at of slots.values()) {
    if (at.size < 2) continue;
    containers++;
    for (const s of at.keys()) symbols.add(s);
    if (examples.length < EXAMPLES) examples.push([...at.values()].sort().join(', '));
  }
  if (!symbols.size) return null;
  const names = [...symbols].sort();
  return (
    `symbols ${names.join(', ')} all got --default-symbol ${defaultValue} and index the same element in ${containers} ` +
    `place${containers === 1 ? '' : 's'} (${examples.join('; ')}): where they name different elements (species, fields), ` +
    `only one is written and reads of the others are uninitialised; give them distinct values with --symbols`
  );
}

/** The per-dimension index of a subset that names one element per dimension; other dimensions are null. */
function single(subset: Subset): Array<string | null> {
  if (subset.kind === 'indices') return subset.indices;
  if (subset.kind === 'range') return subset.dims.map((d) => (d.start === d.end ? d.start : null));
  return [];
}

/** `s + c` for one watched symbol `s` and an integer constant `c`, from the index text; else null. */
function symbolPlusConstant(
  index: string | null,
  grammar: SdfgFile['grammar'],
  watched: ReadonlySet<string>,
  values: ReadonlyMap<string, bigint>,
): { symbol: string; offset: bigint } | null {
  if (index === null) return null;
  let x;
  try {
    x = parseSym(index, grammar);
  } catch {
    return null;
  }
  const free = [...freeSymbols(x)];
  if (free.length !== 1 || !watched.has(free[0]!)) return null;
  const s = free[0]!;
  const v = values.get(s);
  if (v === undefined) return null;
  try {
    // Linear with slope 1: the value at v and at v + 1 differ by one, and the offset is the value at v minus v.
    const at = evalInt(x, new Map([[s, v]]));
    const next = evalInt(x, new Map([[s, v + 1n]]));
    return at !== null && next !== null && next - at === 1n ? { symbol: s, offset: at - v } : null;
  } catch {
    return null;
  }
}
