/** Data descriptors (`_arrays` entries, sdfg-format.md §5) with omitted defaults filled in. */
import type { DataDescriptor, Sym } from '../model/sdfg.js';
import type { ParseContext } from './context.js';
import { INT32, describeValue, readDType } from './dtype.js';
import { LIFETIMES, STORAGE_TYPES, readBool, readEnum, readInt, readSym, readSymList } from './fields.js';
import { isPlainObject, keyPath, quoteText, type JsonObject } from './json.js';

/** Old class names → current ones (§5.2). */
const RENAMED_TYPES: ReadonlyMap<string, string> = new Map([
  ['View', 'ArrayView'],
  ['Reference', 'ArrayReference'],
  ['StructArray', 'ContainerArray'],
]);

const ARRAY_LIKE_TYPES: ReadonlySet<string> = new Set([
  'Array',
  'ArrayView',
  'ArrayReference',
  'ContainerArray',
  'ContainerView',
  'ContainerArrayReference',
  'ParameterArray',
]);
const STRUCTURE_TYPES: ReadonlySet<string> = new Set(['Structure', 'StructureView', 'StructureReference', 'Tensor']);
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  ...ARRAY_LIKE_TYPES,
  ...STRUCTURE_TYPES,
  'Scalar',
  'Stream',
  'ProcessGrid',
  'SubArray',
  'RedistrArray',
]);

/** numpy's NPY_MAXDIMS (64 since numpy 2.0); strides are quadratic in the rank, so the limit also bounds work. */
const MAX_DIMENSIONS = 64;

/** Structures nest members; real files stay within a handful of levels. */
const MAX_MEMBER_DEPTH = 64;

export interface DescriptorOptions {
  /** Count transients into the file statistics (false for `constants_prop` copies). */
  countTransients: boolean;
}

export function readDescriptor(
  name: string,
  raw: unknown,
  path: string,
  ctx: ParseContext,
  options: DescriptorOptions,
  depth = 0,
): DataDescriptor {
  if (!isPlainObject(raw)) ctx.fail(path, `expected a data descriptor object, found ${describeValue(raw)}`);
  const rawType = raw['type'];
  if (typeof rawType !== 'string') ctx.fail(path, `data descriptor ${quoteText(name)} has no "type" (Array, Scalar, …)`);
  const type = RENAMED_TYPES.get(rawType) ?? rawType;
  const attrsRaw = raw['attributes'];
  if (attrsRaw !== undefined && attrsRaw !== null && !isPlainObject(attrsRaw)) {
    ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrsRaw)}`);
  }
  const attrs: JsonObject = attrsRaw ?? {};
  const attrsPath = `${path}.attributes`;
  if (!KNOWN_TYPES.has(type)) {
    ctx.warnOnce(
      `descriptor:${type}`,
      path,
      `unknown data descriptor type ${quoteText(type)} (kept; treated as ${'strides' in attrs ? 'Array-like' : 'opaque'})`,
    );
  }
  const arrayLike = ARRAY_LIKE_TYPES.has(type) || (!KNOWN_TYPES.has(type) && 'strides' in attrs);

  const dtypeRaw = attrs['dtype'];
  const dtype =
    dtypeRaw === undefined
      ? INT32
      : (readDType(dtypeRaw, `${attrsPath}.dtype`, ctx) ?? { kind: 'unknown' as const, raw: null, bytes: null });

  let shape = readSymList(attrs['shape'], `${attrsPath}.shape`, ctx, 'shape') ?? [];
  if (shape.length > MAX_DIMENSIONS) {
    ctx.fail(`${attrsPath}.shape`, `${shape.length} dimensions: more than the ${MAX_DIMENSIONS} numpy (and DaCe) allow`);
  }
  if (shape.length === 0 && type === 'Scalar') shape = ['1'];
  const storedStrides = readSymList(attrs['strides'], `${attrsPath}.strides`, ctx, 'strides');
  const strides = storedStrides && storedStrides.length === shape.length ? storedStrides : contiguousStrides(shape);
  if (storedStrides && storedStrides.length > 0 && storedStrides.length !== shape.length) {
    ctx.warn(`${attrsPath}.strides`, `${storedStrides.length} strides for ${shape.length} dimensions: using C-contiguous strides`);
  }
  const totalRaw = attrs['total_size'];
  const totalSize =
    totalRaw === undefined || totalRaw === null || totalRaw === 0 || totalRaw === '0'
      ? product(shape)
      : readSym(totalRaw, `${attrsPath}.total_size`, ctx);
  const storedOffset = readSymList(attrs['offset'], `${attrsPath}.offset`, ctx, 'offset');
  const offset = storedOffset && storedOffset.length > 0 ? storedOffset : shape.map(() => '0');

  const transient = readBool(attrs['transient'], false);
  if (transient && options.countTransients) ctx.counts.transients++;

  let members: DataDescriptor[] | null = null;
  if (STRUCTURE_TYPES.has(type) && attrs['members'] !== undefined && attrs['members'] !== null) {
    if (depth >= MAX_MEMBER_DEPTH) ctx.fail(path, `structure members nested deeper than ${MAX_MEMBER_DEPTH} levels`);
    members = readMembers(attrs['members'], `${attrsPath}.members`, ctx, options, depth + 1);
  }

  // A container array's element descriptor (DaCe's `stype`): what each of its pointers points at.
  const rawStype = /^Container/.test(type) ? attrs['stype'] : undefined;
  let stype: DataDescriptor | undefined;
  if (rawStype !== undefined && rawStype !== null) {
    if (depth >= MAX_MEMBER_DEPTH) ctx.fail(path, `structure members nested deeper than ${MAX_MEMBER_DEPTH} levels`);
    stype = readDescriptor(name, rawStype, `${attrsPath}.stype`, ctx, options, depth + 1);
  }

  return {
    name,
    type,
    arrayLike,
    dtype,
    shape,
    strides,
    totalSize,
    offset,
    transient,
    storage: readEnum(attrs['storage'], 'Default', STORAGE_TYPES, 'storage type', `${attrsPath}.storage`, ctx),
    lifetime: readEnum(attrs['lifetime'], 'Scope', LIFETIMES, 'allocation lifetime', `${attrsPath}.lifetime`, ctx),
    pool: readBool(attrs['pool'], false),
    mayAlias: readBool(attrs['may_alias'], false),
    alignment: readInt(attrs['alignment'], 0),
    startOffset: readInt(attrs['start_offset'], 0),
    bufferSize: type === 'Stream' ? readSymOrDefault(attrs['buffer_size'], '0', `${attrsPath}.buffer_size`, ctx) : null,
    members,
    ...(stype ? { stype } : {}),
    jsonPath: path,
  };
}

function readSymOrDefault(raw: unknown, fallback: Sym, path: string, ctx: ParseContext): Sym {
  return raw === undefined || raw === null ? fallback : readSym(raw, path, ctx);
}

/** Members are `[name, descriptor]` pairs in order; an object keyed by name is accepted as well. */
function readMembers(raw: unknown, path: string, ctx: ParseContext, options: DescriptorOptions, depth: number): DataDescriptor[] {
  const members: DataDescriptor[] = [];
  if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length; i++) {
      const pair: unknown = raw[i];
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
        ctx.fail(`${path}[${i}]`, 'expected a [member name, descriptor] pair');
      }
      members.push(readDescriptor(pair[0], pair[1], `${path}[${i}][1]`, ctx, options, depth));
    }
    return members;
  }
  if (isPlainObject(raw)) {
    for (const key of Object.keys(raw)) members.push(readDescriptor(key, raw[key], keyPath(path, key), ctx, options, depth));
    return members;
  }
  ctx.fail(path, `"members" must be a list of [name, descriptor] pairs, found ${describeValue(raw)}`);
}

const SIMPLE_FACTOR = /^\$?[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^\d+$/;

/** Product of symbolic factors as an expression both grammars accept; integer factors are folded. */
function product(factors: readonly Sym[]): Sym {
  let constant = 1n;
  const symbolic: string[] = [];
  for (const factor of factors) {
    const trimmed = factor.trim();
    if (INTEGER.test(trimmed)) constant *= BigInt(trimmed);
    else symbolic.push(SIMPLE_FACTOR.test(trimmed) ? trimmed : `(${trimmed})`);
  }
  if (constant === 0n) return '0';
  if (symbolic.length === 0) return constant.toString();
  if (constant !== 1n) symbolic.unshift(constant.toString());
  return symbolic.join('*');
}

/** C-contiguous strides in elements: the last dimension has stride 1. */
function contiguousStrides(shape: readonly Sym[]): Sym[] {
  const strides = new Array<Sym>(shape.length);
  for (let i = 0; i < shape.length; i++) strides[i] = i === shape.length - 1 ? '1' : product(shape.slice(i + 1));
  return strides;
}
