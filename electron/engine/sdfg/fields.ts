/**
 * Typed readers for single fields of SDFG JSON: symbolic expressions, subsets, code blocks, enumerations and
 * indices. Each reader fills the omitted-property default (sdfg-format.md §2.2) and reports wrong types with
 * the JSON path of the offending value.
 */
import type { CodeBlock, RangeDim, Subset, Sym } from '../model/sdfg.js';
import type { ParseContext } from './context.js';
import { describeValue } from './dtype.js';
import { isPlainObject, quoteText, type JsonObject } from './json.js';

/** Real files wrap an expression in at most one `{main, approx}` object; each level doubles the text. */
const MAX_SYMEXPR_DEPTH = 4;

/** Reads a symbolic expression (a string; integers and `{main, approx}` SymExpr objects are normalised). */
export function readSym(raw: unknown, path: string, ctx: ParseContext, depth = 0): Sym {
  if (typeof raw === 'string') {
    ctx.noteSymbolic(raw);
    return raw;
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (isPlainObject(raw) && 'main' in raw) {
    if (depth >= MAX_SYMEXPR_DEPTH) ctx.fail(path, `SymExpr {main, approx} objects nested deeper than ${MAX_SYMEXPR_DEPTH} levels`);
    const main = readSym(raw['main'], `${path}.main`, ctx, depth + 1);
    const approx = 'approx' in raw && raw['approx'] !== null ? readSym(raw['approx'], `${path}.approx`, ctx, depth + 1) : main;
    return `SymExpr(${main}, ${approx})`;
  }
  ctx.fail(path, `expected a symbolic expression (a string or an integer), found ${describeValue(raw)}`);
}

export function readSymOr(raw: unknown, fallback: Sym, path: string, ctx: ParseContext): Sym {
  return raw === undefined || raw === null ? fallback : readSym(raw, path, ctx);
}

/** A list of symbolic expressions, or null when absent. */
export function readSymList(raw: unknown, path: string, ctx: ParseContext, what: string): Sym[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) ctx.fail(path, `${what} must be a list of expressions, found ${describeValue(raw)}`);
  const out = new Array<Sym>(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = readSym(raw[i], `${path}[${i}]`, ctx);
  return out;
}

/** Subset unions can nest in theory; real files never do. */
const MAX_SUBSET_DEPTH = 32;

/** Reads a Range / Indices / SubsetUnion (or the rare string form); null = the whole container. */
export function readSubset(raw: unknown, path: string, ctx: ParseContext, depth = 0): Subset | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return parseSubsetString(raw, path, ctx);
  if (!isPlainObject(raw)) ctx.fail(path, `expected a subset (an object with "type": "Range" or "Indices"), found ${describeValue(raw)}`);
  const type = raw['type'];
  if (type !== undefined && type !== null && typeof type !== 'string') {
    ctx.fail(`${path}.type`, `a subset "type" must be a name (Range, Indices, SubsetUnion), found ${describeValue(type)}`);
  }
  if (type === 'Range' || (type === undefined && 'ranges' in raw)) return { kind: 'range', dims: readRangeDims(raw, path, ctx) };
  if (type === 'Indices' || (type === undefined && 'indices' in raw)) {
    const indices = readSymList(raw['indices'], `${path}.indices`, ctx, 'Indices "indices"') ?? [];
    return { kind: 'indices', indices };
  }
  if (type === 'SubsetUnion') {
    if (depth >= MAX_SUBSET_DEPTH) ctx.fail(path, `subset unions nested deeper than ${MAX_SUBSET_DEPTH} levels`);
    const list = raw['subset_list'];
    if (!Array.isArray(list)) ctx.fail(`${path}.subset_list`, `SubsetUnion needs a "subset_list" list, found ${describeValue(list)}`);
    const subsets: Subset[] = [];
    for (let i = 0; i < list.length; i++) {
      const subset = readSubset(list[i], `${path}.subset_list[${i}]`, ctx, depth + 1);
      if (subset) subsets.push(subset);
    }
    return { kind: 'union', subsets };
  }
  ctx.warnOnce(`subset:${type ?? ''}`, path, `unknown subset type ${describeValue(type)}: treated as the whole container`);
  return null;
}

/** The `ranges` of a Range object: inclusive `end`; `step`/`tile` default to 1. */
export function readRangeDims(raw: JsonObject, path: string, ctx: ParseContext): RangeDim[] {
  const ranges = raw['ranges'];
  if (!Array.isArray(ranges)) ctx.fail(`${path}.ranges`, `a Range needs a "ranges" list, found ${describeValue(ranges)}`);
  const dims = new Array<RangeDim>(ranges.length);
  for (let i = 0; i < ranges.length; i++) {
    const dim: unknown = ranges[i];
    const dimPath = `${path}.ranges[${i}]`;
    if (Array.isArray(dim)) {
      // Pre-0.9 writers stored a dimension as [start, end, step(, tile)].
      if (dim.length < 2) ctx.fail(dimPath, 'a range dimension needs at least a start and an end');
      dims[i] = {
        start: readSym(dim[0], `${dimPath}[0]`, ctx),
        end: readSym(dim[1], `${dimPath}[1]`, ctx),
        step: readSymOr(dim[2], '1', `${dimPath}[2]`, ctx),
        tile: readSymOr(dim[3], '1', `${dimPath}[3]`, ctx),
      };
      continue;
    }
    if (!isPlainObject(dim)) ctx.fail(dimPath, `expected a range dimension {start, end, step, tile}, found ${describeValue(dim)}`);
    if (dim['start'] === undefined || dim['end'] === undefined) ctx.fail(dimPath, 'a range dimension needs "start" and "end"');
    dims[i] = {
      start: readSym(dim['start'], `${dimPath}.start`, ctx),
      end: readSym(dim['end'], `${dimPath}.end`, ctx),
      step: readSymOr(dim['step'], '1', `${dimPath}.step`, ctx),
      tile: readSymOr(dim['tile'], '1', `${dimPath}.tile`, ctx),
    };
  }
  return dims;
}

/** Ranges in Python slice notation (`"0:N, i"`, exclusive end) as accepted by DaCe's property setter. */
function parseSubsetString(text: string, path: string, ctx: ParseContext): Subset {
  ctx.noteSymbolic(text);
  const dims: RangeDim[] = [];
  for (const part of splitTopLevel(text, ',')) {
    const pieces = splitTopLevel(part, ':').map((p) => p.trim());
    if (pieces.length === 0 || pieces.length > 3 || pieces[0] === '') ctx.fail(path, `cannot read the subset string ${quoteText(text)}`);
    if (pieces.length === 1) dims.push({ start: pieces[0]!, end: pieces[0]!, step: '1', tile: '1' });
    else dims.push({ start: pieces[0]!, end: `(${pieces[1]}) - 1`, step: pieces[2] || '1', tile: '1' });
  }
  return { kind: 'range', dims };
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  const last = text.slice(start);
  if (last.trim() !== '' || parts.length > 0) parts.push(last);
  return parts;
}

const LANGUAGES = ['Python', 'CPP', 'OpenCL', 'SystemVerilog', 'MLIR'];

/** Reads a CodeBlock (`{string_data, language}`); a bare string is Python; `NoCode` and null mean none. */
export function readCode(raw: unknown, path: string, ctx: ParseContext): CodeBlock | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return { code: raw, language: 'Python' };
  if (!isPlainObject(raw)) ctx.fail(path, `expected a code block {string_data, language}, found ${describeValue(raw)}`);
  const data = raw['string_data'] ?? raw['code'];
  if (data !== undefined && data !== null && typeof data !== 'string') {
    ctx.fail(`${path}.string_data`, `code must be a string, found ${describeValue(data)}`);
  }
  const language = readLanguage(raw['language'], `${path}.language`, ctx);
  if (language === 'NoCode') return null;
  return { code: data ?? '', language };
}

function readLanguage(raw: unknown, path: string, ctx: ParseContext): string {
  if (raw === undefined || raw === null) return 'Python';
  let text: string;
  if (typeof raw === 'string') text = raw;
  else if (isPlainObject(raw) && typeof raw['type'] === 'string') text = raw['type'];
  else ctx.fail(path, `a code language must be a name (Python, CPP, …), found ${describeValue(raw)}`);
  if (LANGUAGES.includes(text) || text === 'NoCode') return text;
  // DaCe accepts anything that ends in a language name (`Language.CPP`, `dace.dtypes.Language.Python`).
  for (const name of LANGUAGES) if (text.endsWith(name)) return name;
  if (text.endsWith('NoCode')) return 'NoCode';
  return text;
}

/** Code text of a CodeBlock field, or null. */
export function readCodeText(raw: unknown, path: string, ctx: ParseContext): string | null {
  return readCode(raw, path, ctx)?.code ?? null;
}

export const STORAGE_TYPES: ReadonlySet<string> = new Set([
  'Default',
  'Register',
  'CPU_Pinned',
  'CPU_Heap',
  'CPU_ThreadLocal',
  'GPU_Global',
  'GPU_Shared',
  'SVE_Register',
  'Snitch_TCDM',
  'Snitch_L2',
  'Snitch_SSR',
  'FPGA_Global',
  'FPGA_Local',
  'FPGA_Registers',
  'FPGA_ShiftRegister',
  'Immaterial',
  'CPU_Stack',
  'GPU_Stack',
]);
export const SCHEDULE_TYPES: ReadonlySet<string> = new Set([
  'Default',
  'Sequential',
  'MPI',
  'CPU_Multicore',
  'CPU_Persistent',
  'SVE_Map',
  'GPU_Device',
  'GPU_ThreadBlock',
  'GPU_ThreadBlock_Dynamic',
  'GPU_Persistent',
  'Snitch',
  'Snitch_Multicore',
  'Unrolled',
  'GPU_Default',
  'FPGA_Device',
  'FPGA_Multi_Pumped',
]);
export const LIFETIMES: ReadonlySet<string> = new Set(['Scope', 'State', 'SDFG', 'Global', 'Persistent', 'External']);

/**
 * Reads an enumeration value. The value set is open (branch-only members exist): unknown names are kept
 * verbatim with one warning per name; the 2.0 object form `{"type": "StorageType.NAME", …}` is accepted.
 */
export function readEnum(
  raw: unknown,
  fallback: string,
  known: ReadonlySet<string>,
  what: string,
  path: string,
  ctx: ParseContext,
): string {
  if (raw === undefined || raw === null) return fallback;
  let name: string;
  if (typeof raw === 'string') name = raw;
  else if (isPlainObject(raw) && typeof raw['type'] === 'string') name = raw['type'];
  else {
    ctx.warn(path, `${what} should be a name, found ${describeValue(raw)}; using ${fallback}`);
    return fallback;
  }
  if (known.has(name)) return name;
  const dot = name.lastIndexOf('.');
  if (dot >= 0 && known.has(name.slice(dot + 1))) return name.slice(dot + 1);
  ctx.warnOnce(`enum:${what}:${name}`, path, `unknown ${what} ${quoteText(name)} (kept as is)`);
  return name;
}

export function readBool(raw: unknown, fallback: boolean): boolean {
  return typeof raw === 'boolean' ? raw : fallback;
}

/** An integer attribute; anything that is not a safe integer (or its decimal text) gives the fallback. */
export function readInt(raw: unknown, fallback: number): number {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : fallback;
  if (typeof raw === 'string' && /^-?\d{1,15}$/.test(raw)) return Number(raw);
  return fallback;
}

export function readString(raw: unknown, fallback: string): string {
  return typeof raw === 'string' ? raw : fallback;
}

/**
 * Reads an id that refers to one of `count` elements (node ids and block indices are written as strings
 * holding integers). Dangling references are errors: the graph cannot be used with them.
 */
export function readIndex(raw: unknown, count: number, path: string, ctx: ParseContext, what: string): number {
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) value = Number(raw);
  else ctx.fail(path, `${what} must be an integer id, found ${describeValue(raw)}`);
  if (!Number.isInteger(value) || value < 0 || value >= count) {
    ctx.fail(path, `${what} ${describeId(raw)} does not exist (${count === 0 ? 'there are none' : `valid ids are 0-${count - 1}`})`);
  }
  return value;
}

function describeId(raw: unknown): string {
  return typeof raw === 'string' ? quoteText(raw) : String(raw);
}

/** An object-valued field; absent or null → null; anything else is a type error. */
export function objectField(owner: JsonObject, key: string, ownerPath: string, ctx: ParseContext): JsonObject | null {
  const value = owner[key];
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) ctx.fail(`${ownerPath}.${key}`, `"${key}" must be an object, found ${describeValue(value)}`);
  return value;
}

const EMPTY_LIST: readonly unknown[] = Object.freeze([]);

/** A list-valued field; absent or null → empty; anything else is a type error. */
export function listField(owner: JsonObject, key: string, ownerPath: string, ctx: ParseContext): readonly unknown[] {
  const value = owner[key];
  if (value === undefined || value === null) return EMPTY_LIST;
  if (!Array.isArray(value)) ctx.fail(`${ownerPath}.${key}`, `"${key}" must be a list, found ${describeValue(value)}`);
  return value;
}
