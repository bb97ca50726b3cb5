/**
 * The attributes of one SDFG (normalise.ts reads the rest): its data descriptors, symbols, constants, argument
 * names and global/init/exit code. Apart from the control-flow walk because each is a leaf field of the
 * SDFG's `attributes`, read once per SDFG with only the parse context.
 */
import type { CodeBlock, DataDescriptor, DType, Sdfg } from '../model/sdfg.js';
import type { ParseContext } from './context.js';
import { readDescriptor } from './descriptors.js';
import { INT32, describeValue, readDType } from './dtype.js';
import { listField, objectField, readCode } from './fields.js';
import { isPlainObject, keyPath, type JsonObject } from './json.js';

export function readArrays(ctx: ParseContext, attrs: JsonObject, attrsPath: string): Map<string, DataDescriptor> {
  const arrays = new Map<string, DataDescriptor>();
  const raw = objectField(attrs, '_arrays', attrsPath, ctx);
  if (!raw) return arrays;
  const base = `${attrsPath}._arrays`;
  for (const name of Object.keys(raw)) {
    arrays.set(name, readDescriptor(name, raw[name], keyPath(base, name), ctx, { countTransients: true }));
  }
  return arrays;
}

export function readSymbols(ctx: ParseContext, raw: JsonObject, attrs: JsonObject, attrsPath: string): Map<string, DType> {
  const symbols = new Map<string, DType>();
  const declared = objectField(attrs, 'symbols', attrsPath, ctx);
  if (declared) {
    for (const name of Object.keys(declared)) {
      symbols.set(name, readDType(declared[name], keyPath(`${attrsPath}.symbols`, name), ctx) ?? INT32);
    }
  }
  // G0 listed free symbols as [name, Scalar descriptor] pairs beside the attributes.
  for (const key of ['undefined_symbols', 'scalar_parameters']) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const pair: unknown = list[i];
      if (!Array.isArray(pair) || typeof pair[0] !== 'string' || symbols.has(pair[0])) continue;
      const descriptor: unknown = pair[1];
      const dtypeRaw = isPlainObject(descriptor) && isPlainObject(descriptor['attributes']) ? descriptor['attributes']['dtype'] : undefined;
      symbols.set(pair[0], readDType(dtypeRaw, `$.${key}[${i}][1].attributes.dtype`, ctx) ?? INT32);
    }
  }
  return symbols;
}

export function readConstants(ctx: ParseContext, attrs: JsonObject, attrsPath: string): Sdfg['constants'] {
  const constants: Sdfg['constants'] = new Map();
  const raw = objectField(attrs, 'constants_prop', attrsPath, ctx);
  if (!raw) return constants;
  for (const name of Object.keys(raw)) {
    const entryPath = keyPath(`${attrsPath}.constants_prop`, name);
    const entry = raw[name];
    if (Array.isArray(entry) && entry.length === 2) {
      const descriptor = entry[0] === null ? null : readDescriptor(name, entry[0], `${entryPath}[0]`, ctx, { countTransients: false });
      constants.set(name, { descriptor, value: entry[1] });
    } else {
      ctx.warn(entryPath, 'a constant should be a [descriptor, value] pair; kept as a bare value');
      constants.set(name, { descriptor: null, value: entry });
    }
  }
  return constants;
}

export function readArgNames(ctx: ParseContext, attrs: JsonObject, attrsPath: string): string[] {
  const list = listField(attrs, 'arg_names', attrsPath, ctx);
  const names: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const name = list[i];
    if (typeof name !== 'string')
      ctx.fail(`${attrsPath}.arg_names[${i}]`, `an argument name must be a string, found ${describeValue(name)}`);
    names.push(name);
  }
  return names;
}

/** Target name → CodeBlock; G0 wrote one CodeBlock, which targets the frame. */
export function readCodeMap(ctx: ParseContext, raw: unknown, path: string): Record<string, CodeBlock> {
  const out: Record<string, CodeBlock> = Object.create(null) as Record<string, CodeBlock>;
  if (raw === undefined || raw === null) return out;
  if (typeof raw === 'string' || (isPlainObject(raw) && 'string_data' in raw)) {
    const code = readCode(raw, path, ctx);
    if (code && code.code !== '') out['frame'] = code;
    return out;
  }
  if (!isPlainObject(raw)) ctx.fail(path, `expected an object of code blocks (target → code), found ${describeValue(raw)}`);
  for (const target of Object.keys(raw)) {
    const code = readCode(raw[target], keyPath(path, target), ctx);
    if (code) Object.defineProperty(out, target, { value: code, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
