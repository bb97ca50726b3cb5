/**
 * Array extents after the symbol values are substituted. A negative extent is no size at all: C++ would turn
 * it into a huge unsigned allocation or a heap overrun, and two negative extents can even multiply into a
 * plausible positive total (`I=-4, J=-4`). Every descriptor of every SDFG is checked — arguments, transients
 * and structure members — dimension by dimension and its `total_size`, wherever the values are known; what
 * stays symbolic is left alone, so the analysis still works without values.
 *
 * Also the byte size of each root argument, which the profiler needs before it allocates any input.
 */
import { TlabError } from '../errors.js';
import type { DataDescriptor, Sdfg, SdfgFile, Sym } from '../model/sdfg.js';
import { evaluate, render, type Expr } from './expr.js';
import { defaultSymbolValue } from './fortran-bounds.js';
import { SymbolContext } from './symbols.js';
import type { AnalysisOptions } from './types.js';

interface NegativeExtent {
  sdfg: string;
  array: string;
  jsonPath: string;
  /** Each negative field: `shape[1]` or `total_size`, as written, and its value. */
  fields: Array<{ where: string; expr: string; value: bigint }>;
  /** Root symbols the negative fields depend on, with their values. */
  symbols: Array<[string, bigint]>;
}

/** Values of the root symbols an expression needs, without recording anything in the SymbolContext (a check
 * must not change which symbols the analysis reports as used or defaulted); null when one has no value. */
function valuesFor(expr: Expr, symbols: SymbolContext, opts: AnalysisOptions): Map<string, bigint> | null {
  const env = new Map<string, bigint>();
  for (const name of symbols.exprs.namesOf(expr)) {
    const given = opts.symbols.get(name);
    const value = given ?? (symbols.definedIn(symbols.file.root).has(name) ? null : defaultSymbolValue(name, opts.defaultSymbol));
    if (value === null) return null;
    env.set(name, value);
  }
  return env;
}

/** The value of a size field of `sdfg` over the root symbols; null when unknown or unreadable. */
function sizeValue(
  src: Sym,
  sdfg: Sdfg,
  symbols: SymbolContext,
  opts: AnalysisOptions,
): { value: bigint; env: Map<string, bigint>; root: Expr } | null {
  let e: Expr;
  try {
    e = symbols.exprs.size(src);
  } catch {
    return null; // the analysis reports unreadable sizes itself
  }
  const root = symbols.toRoot(sdfg, e).expr;
  if (!root) return null;
  const env = valuesFor(root, symbols, opts);
  if (!env) return null;
  const value = evaluate(root, env);
  return value === null ? null : { value, env, root };
}

function descriptorsOf(sdfg: Sdfg): Array<{ desc: DataDescriptor; name: string }> {
  const out: Array<{ desc: DataDescriptor; name: string }> = [];
  const visit = (desc: DataDescriptor, name: string): void => {
    out.push({ desc, name });
    for (const m of desc.members ?? []) visit(m, `${name}.${m.name}`);
  };
  for (const desc of sdfg.arrays.values()) visit(desc, desc.name);
  return out;
}

const byName = ([a]: [string, bigint], [b]: [string, bigint]): number => (a < b ? -1 : a > b ? 1 : 0);

function negativeExtents(file: SdfgFile, symbols: SymbolContext, opts: AnalysisOptions): NegativeExtent[] {
  const found: NegativeExtent[] = [];
  for (const sdfg of file.sdfgs) {
    for (const { desc, name } of descriptorsOf(sdfg)) {
      const fields: NegativeExtent['fields'] = [];
      const used = new Map<string, bigint>();
      const check = (where: string, src: Sym): void => {
        const v = sizeValue(src, sdfg, symbols, opts);
        if (!v || v.value >= 0n) return;
        // Inside a nested SDFG, also say what the expression is in the caller's symbols (`M` → `N - 10`).
        const local = symbols.exprs.display(src);
        const outer = sdfg.parent ? render(v.root) : local;
        fields.push({ where, expr: outer === local ? local : `${local} = ${outer}`, value: v.value });
        for (const [n, value] of v.env) used.set(n, value);
      };
      desc.shape.forEach((dim, i) => check(`shape[${i}]`, dim));
      // With a negative dimension the total only repeats the news (or, worse, looks fine: (-4)·(-4) = 16).
      if (!fields.length) check('total_size', desc.totalSize);
      if (fields.length) found.push({ sdfg: sdfg.name, array: name, jsonPath: desc.jsonPath, fields, symbols: [...used].sort(byName) });
    }
  }
  return found;
}

/** Throws TlabError('usage') naming the arrays and the symbols when some extent is negative. */
export function checkExtents(file: SdfgFile, symbols: SymbolContext, opts: AnalysisOptions): void {
  const found = negativeExtents(file, symbols, opts);
  if (!found.length) return;
  const values = new Map(found.flatMap((f) => f.symbols));
  const valueText = [...values]
    .sort(byName)
    .map(([n, v]) => `${n}=${v}`)
    .join(', ');
  const where = (f: NegativeExtent): string =>
    `${f.array}${file.sdfgs.length > 1 && f.sdfg !== file.root.name ? ` (in SDFG ${f.sdfg})` : ''}`;
  const names = `${found.slice(0, 4).map(where).join(', ')}${found.length > 4 ? ` and ${found.length - 4} more` : ''}`;
  const arrays = found.length === 1 ? `array ${names} would have` : `${found.length} arrays (${names}) would have`;
  const head = `negative array extent: with ${valueText || 'these symbol values'}, ${arrays} a negative size`;
  throw new TlabError('usage', head, {
    file: file.path,
    jsonPath: found[0]!.jsonPath,
    details: [
      ...found.slice(0, 20).map((f) => `${f.jsonPath}: ${f.fields.map((x) => `${x.where} = ${x.expr} = ${x.value}`).join(', ')}`),
      ...(found.length > 20 ? [`… and ${found.length - 20} more arrays`] : []),
      'an extent must be 0 or more: give symbol values that make every one so (--symbols NAME=V, --default-symbol V)',
    ],
  });
}

export interface ArgumentSize {
  name: string;
  /** Bytes of the whole allocation (`total_size × element size`); null when unknown. */
  bytes: bigint | null;
}

/** Byte sizes of the root SDFG's non-transient arrays and scalars: what a caller must allocate. */
export function argumentSizes(file: SdfgFile, opts: AnalysisOptions): ArgumentSize[] {
  const symbols = new SymbolContext(file, opts);
  const out: ArgumentSize[] = [];
  for (const desc of file.root.arrays.values()) {
    if (desc.transient) continue;
    const elementBytes = desc.dtype.bytes;
    const v = sizeValue(desc.type === 'Scalar' ? '1' : desc.totalSize, file.root, symbols, opts);
    out.push({ name: desc.name, bytes: v && elementBytes !== null ? v.value * BigInt(elementBytes) : null });
  }
  return out;
}

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

export interface SymbolTypeProblem {
  name: string;
  value: bigint;
  dtype: string;
  range: [bigint, bigint];
}

/**
 * Symbol values the program cannot receive: the root SDFG declares each symbol's integer type, and a value
 * outside it would wrap when passed (`N=3000000000` for an int32 N arrives as -1294967296).
 */
export function symbolTypeProblems(file: SdfgFile, values: ReadonlyMap<string, { value: bigint }>): SymbolTypeProblem[] {
  const out: SymbolTypeProblem[] = [];
  for (const [name, { value }] of values) {
    const t = file.root.symbols.get(name);
    if (!t || t.kind !== 'scalar') continue;
    const range = INTEGER_RANGES[t.name];
    if (range && (value < range[0] || value > range[1])) out.push({ name, value, dtype: t.name, range });
  }
  return out;
}

export function describeSymbolTypeProblem(p: SymbolTypeProblem): string {
  return `symbol ${p.name}=${p.value} does not fit its declared type ${p.dtype} (${p.range[0]} to ${p.range[1]}): the program would receive a wrapped value`;
}
