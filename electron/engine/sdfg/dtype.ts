/**
 * Data types as written in SDFG files (sdfg-format.md §2.7): scalar names as strings, composite types as small
 * objects keyed by `type`.
 */
import type { DType } from '../model/sdfg.js';
import type { ParseContext } from './context.js';
import { isPlainObject, keyPath, quoteText } from './json.js';

/** numpy byte sizes; `bool_` is the pre-1.0 spelling of `bool`. */
const SCALAR_BYTES: ReadonlyMap<string, number> = new Map([
  ['bool', 1],
  ['bool_', 1],
  ['int8', 1],
  ['int16', 2],
  ['int32', 4],
  ['int64', 8],
  ['uint8', 1],
  ['uint16', 2],
  ['uint32', 4],
  ['uint64', 8],
  ['float16', 2],
  ['bfloat16', 2],
  ['float8_e4m3fn', 1],
  ['float8_e5m2', 1],
  ['float32', 4],
  ['float64', 8],
  ['complex64', 8],
  ['complex128', 16],
  ['uintp', 8],
]);

/** Descriptors without a `dtype` key are int32 (omitted default, §2.2); shared because it is immutable. */
export const INT32: DType = Object.freeze({ kind: 'scalar', name: 'int32', bytes: 4 });

const scalarCache = new Map<string, DType>();

function scalar(name: string): DType | null {
  const cached = scalarCache.get(name);
  if (cached) return cached;
  const bytes = SCALAR_BYTES.get(name);
  if (bytes === undefined) return null;
  // `bool_` is the same type as `bool`; consumers should see one spelling.
  const dtype: DType = Object.freeze({ kind: 'scalar', name: name === 'bool_' ? 'bool' : name, bytes });
  scalarCache.set(name, dtype);
  return dtype;
}

/** Composite dtypes can nest (pointer to struct of vectors…); real files stay below 5 levels. */
const MAX_DTYPE_DEPTH = 64;

/**
 * Reads a dtype value. `null` means "void / infer later" and is returned as null; callers decide what null
 * means for them (connectors keep it, descriptors fall back to int32).
 */
export function readDType(raw: unknown, path: string, ctx: ParseContext, depth = 0): DType | null {
  if (raw === null || raw === undefined) return null;
  if (depth > MAX_DTYPE_DEPTH) ctx.fail(path, `data type nested deeper than ${MAX_DTYPE_DEPTH} levels`);
  if (typeof raw === 'string') {
    const known = scalar(raw);
    if (known) return known;
    // Older writers spell a few types as the Python/numpy class (`dace.float64`, `numpy.float32`).
    const lastDot = raw.lastIndexOf('.');
    if (lastDot >= 0) {
      const short = scalar(raw.slice(lastDot + 1));
      if (short) return short;
    }
    if (raw === 'pyobject' || raw === 'string') return { kind: 'opaque', ctype: raw === 'string' ? 'char *' : 'PyObject *', bytes: null };
    ctx.warnOnce(`dtype:${raw}`, path, `unknown data type ${quoteText(raw)} (kept; its size is unknown)`);
    return { kind: 'unknown', raw, bytes: null };
  }
  if (!isPlainObject(raw)) ctx.fail(path, `expected a data type (a string or an object with "type"), found ${describeValue(raw)}`);
  const type = raw['type'];
  if (typeof type !== 'string' && type !== undefined && type !== null) {
    ctx.fail(`${path}.type`, `a data type's "type" must be a name (pointer, vector, struct, …), found ${describeValue(type)}`);
  }
  switch (type) {
    case 'pointer':
      return { kind: 'pointer', base: readDType(raw['dtype'], `${path}.dtype`, ctx, depth + 1), bytes: 8 };
    case 'string':
      // dace.string is a char pointer with string marshalling.
      return { kind: 'pointer', base: scalar('int8'), bytes: 8 };
    case 'vector': {
      const base = readDType(raw['dtype'], `${path}.dtype`, ctx, depth + 1) ?? INT32;
      const elementsRaw = raw['elements'];
      if (elementsRaw !== undefined && elementsRaw !== null && typeof elementsRaw !== 'number' && typeof elementsRaw !== 'string') {
        ctx.fail(`${path}.elements`, `vector "elements" must be a count, found ${describeValue(elementsRaw)}`);
      }
      const elements = typeof elementsRaw === 'number' ? String(elementsRaw) : typeof elementsRaw === 'string' ? elementsRaw : '1';
      const count = /^\d+$/.test(elements) ? Number(elements) : null;
      const bytes = count !== null && base.bytes !== null ? count * base.bytes : null;
      return { kind: 'vector', base, elements, bytes };
    }
    case 'struct': {
      const name = typeof raw['name'] === 'string' ? raw['name'] : '';
      const fields = readStructFields(raw['data'], `${path}.data`, ctx, depth);
      const declared = raw['bytes'];
      let bytes: number | null = typeof declared === 'number' && Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
      if (bytes === null) {
        // DaCe sums the field sizes without padding when the file does not say.
        let sum = 0;
        for (const [, field] of fields) {
          if (field.bytes === null) {
            sum = Number.NaN;
            break;
          }
          sum += field.bytes;
        }
        bytes = Number.isNaN(sum) ? null : sum;
      }
      return { kind: 'struct', name, fields, bytes };
    }
    case 'opaque':
      return { kind: 'opaque', ctype: typeof raw['ctype'] === 'string' ? raw['ctype'] : '', bytes: null };
    case 'pyobject':
      return { kind: 'opaque', ctype: 'PyObject *', bytes: null };
    case 'callback':
      return { kind: 'opaque', ctype: 'callback', bytes: null };
    default:
      ctx.warnOnce(
        `dtype-object:${type ?? ''}`,
        path,
        `unknown data type object of type ${describeValue(type)} (kept; its size is unknown)`,
      );
      return { kind: 'unknown', raw, bytes: null };
  }
}

function readStructFields(raw: unknown, path: string, ctx: ParseContext, depth: number): Array<[string, DType]> {
  const fields: Array<[string, DType]> = [];
  if (raw === null || raw === undefined) return fields;
  if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length; i++) {
      const pair: unknown = raw[i];
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
        ctx.fail(`${path}[${i}]`, 'expected a [field name, data type] pair');
      }
      fields.push([pair[0], readDType(pair[1], `${path}[${i}][1]`, ctx, depth + 1) ?? INT32]);
    }
    return fields;
  }
  // Some writers store the field table as an object (insertion order is the field order).
  if (isPlainObject(raw)) {
    for (const key of Object.keys(raw)) fields.push([key, readDType(raw[key], keyPath(path, key), ctx, depth + 1) ?? INT32]);
    return fields;
  }
  ctx.fail(path, `expected a list of struct fields, found ${describeValue(raw)}`);
}

/** A short, safe description of a JSON value for error messages (never prints large content). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `the string "${value.slice(0, 40)}…"` : `the string "${value}"`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
