/**
 * The argument buffers of a profile run: arrays from `--input NAME=file.npy`, everything else from a seeded
 * generator, symbols from the values the program was specialised for.
 *
 * The generator (documented in docs/profile.md, stable across versions because results must be
 * reproducible from `settings.seed`): SplitMix64 whose starting state is `seed XOR fnv1a64(argument name)`
 * (both as unsigned 64-bit; the name as UTF-8). Each element consumes one output `x` (complex: two):
 * - float64: `(x >>> 11) · 2^-53 · 2 − 1` (uniform in [-1, 1), exact);
 * - float32: `(x >>> 40) · 2^-24 · 2 − 1`; float16: `(x >>> 53) / 1024 − 1` (both exact in their type);
 * - every integer type: `x >>> 61`, i.e. 0…7 (small and non-negative, so index arrays stay in bounds of
 *   anything with at least 8 elements); an integer argument whose values index data (analysis/index-ranges.ts)
 *   takes `min + (x >>> 32) mod (max − min + 1)` inside its derived range instead (profile/index-inputs.ts);
 * - bool: `x >>> 63`.
 * Elements are generated in storage order over the whole allocation (padding included).
 */
import { constants as bufferConstants } from 'node:buffer';
import type { ProgramArg } from '../codegen/types.js';
import { TlabError } from '../errors.js';
import { fillIndexSafe } from './index-inputs.js';
import { readNpy, type NpyArray } from './npy.js';
import type { IndexInput } from './result.js';

const GOLDEN_HI = 0x9e3779b9;
const GOLDEN_LO = 0x7f4a7c15;

/** SplitMix64 on two uint32 halves: BigInt arithmetic would make filling large arrays take seconds. */
export class SplitMix64 {
  private hi: number;
  private lo: number;

  constructor(state: bigint) {
    const s = BigInt.asUintN(64, state);
    this.hi = Number(s >> 32n);
    this.lo = Number(s & 0xffffffffn);
  }

  /** Next output as [hi, lo] uint32 halves. */
  nextPair(): [number, number] {
    const lo = (this.lo + GOLDEN_LO) >>> 0;
    const carry = lo < this.lo ? 1 : 0;
    this.hi = (this.hi + GOLDEN_HI + carry) >>> 0;
    this.lo = lo;
    let [h, l] = xorShift(this.hi, this.lo, 30);
    [h, l] = mul64(h, l, 0xbf58476d, 0x1ce4e5b9);
    [h, l] = xorShift(h, l, 27);
    [h, l] = mul64(h, l, 0x94d049bb, 0x133111eb);
    return xorShift(h, l, 31);
  }

  next(): bigint {
    const [h, l] = this.nextPair();
    return (BigInt(h) << 32n) | BigInt(l);
  }
}

/** (h:l) ^ ((h:l) >>> s) for 0 < s < 32. */
function xorShift(h: number, l: number, s: number): [number, number] {
  const sh = h >>> s;
  const sl = ((l >>> s) | (h << (32 - s))) >>> 0;
  return [(h ^ sh) >>> 0, (l ^ sl) >>> 0];
}

/** Low 64 bits of (ah:al) × (bh:bl). */
function mul64(ah: number, al: number, bh: number, bl: number): [number, number] {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const highOfLow = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  const hi = (highOfLow + Math.imul(al, bh) + Math.imul(ah, bl)) >>> 0;
  return [hi, lo];
}

export function fnv1a64(text: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = BigInt.asUintN(64, h * 0x100000001b3n);
  }
  return h;
}

export function generatorFor(seed: bigint, argumentName: string): SplitMix64 {
  return new SplitMix64(BigInt.asUintN(64, seed) ^ fnv1a64(argumentName));
}

const TWO_POW_21 = 2 ** 21;
const TWO_POW_M53 = 2 ** -53;

/** Fills `view` (elements of `dtype`, little-endian) from the generator. */
export function fillGenerated(dtype: string, bytes: Uint8Array, gen: SplitMix64): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const float64 = () => {
    const [h, l] = gen.nextPair();
    return (h * TWO_POW_21 + (l >>> 11)) * TWO_POW_M53 * 2 - 1;
  };
  const float32 = () => (gen.nextPair()[0] >>> 8) * 2 ** -24 * 2 - 1;
  const small = () => gen.nextPair()[0] >>> 29;
  switch (dtype) {
    case 'float64':
      for (let o = 0; o + 8 <= bytes.length; o += 8) view.setFloat64(o, float64(), true);
      return;
    case 'float32':
      for (let o = 0; o + 4 <= bytes.length; o += 4) view.setFloat32(o, float32(), true);
      return;
    case 'float16':
      for (let o = 0; o + 2 <= bytes.length; o += 2) view.setUint16(o, halfBits((gen.nextPair()[0] >>> 21) / 1024 - 1), true);
      return;
    case 'complex128':
      for (let o = 0; o + 16 <= bytes.length; o += 16) {
        view.setFloat64(o, float64(), true);
        view.setFloat64(o + 8, float64(), true);
      }
      return;
    case 'complex64':
      for (let o = 0; o + 8 <= bytes.length; o += 8) {
        view.setFloat32(o, float32(), true);
        view.setFloat32(o + 4, float32(), true);
      }
      return;
    case 'bool':
      for (let o = 0; o < bytes.length; o++) bytes[o] = gen.nextPair()[0] >>> 31;
      return;
    case 'int8':
    case 'uint8':
      for (let o = 0; o < bytes.length; o++) bytes[o] = small();
      return;
    case 'int16':
    case 'uint16':
      for (let o = 0; o + 2 <= bytes.length; o += 2) view.setUint16(o, small(), true);
      return;
    case 'int32':
    case 'uint32':
      for (let o = 0; o + 4 <= bytes.length; o += 4) view.setUint32(o, small(), true);
      return;
    case 'int64':
    case 'uint64':
      for (let o = 0; o + 8 <= bytes.length; o += 8) view.setBigUint64(o, BigInt(small()), true);
      return;
    default:
      throw new TlabError('unsupported', `cannot generate input values of dtype ${dtype}`);
  }
}

/** IEEE half bits of a value that is exactly representable (the generator only makes such values). */
function halfBits(v: number): number {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  let a = Math.abs(v);
  let exp = Math.floor(Math.log2(a));
  if (2 ** exp > a) exp--;
  if (exp < -14) return sign | Math.round(a / 2 ** -24);
  a = a / 2 ** exp - 1;
  return sign | ((exp + 15) << 10) | Math.round(a * 1024);
}

/** Writes a symbol or scalar value in the argument's own type. */
export function encodeValue(arg: ProgramArg, value: bigint | number): Uint8Array {
  const out = new Uint8Array(arg.elementBytes);
  const view = new DataView(out.buffer);
  const asBig = typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  const asNum = typeof value === 'number' ? value : Number(value);
  switch (arg.dtype) {
    case 'float64':
      view.setFloat64(0, asNum, true);
      break;
    case 'float32':
      view.setFloat32(0, asNum, true);
      break;
    case 'int8':
      view.setInt8(0, Number(BigInt.asIntN(8, asBig)));
      break;
    case 'uint8':
    case 'bool':
      view.setUint8(0, Number(BigInt.asUintN(8, asBig)));
      break;
    case 'int16':
      view.setInt16(0, Number(BigInt.asIntN(16, asBig)), true);
      break;
    case 'uint16':
      view.setUint16(0, Number(BigInt.asUintN(16, asBig)), true);
      break;
    case 'int32':
      view.setInt32(0, Number(BigInt.asIntN(32, asBig)), true);
      break;
    case 'uint32':
      view.setUint32(0, Number(BigInt.asUintN(32, asBig)), true);
      break;
    case 'int64':
      view.setBigInt64(0, BigInt.asIntN(64, asBig), true);
      break;
    case 'uint64':
      view.setBigUint64(0, BigInt.asUintN(64, asBig), true);
      break;
    default:
      throw new TlabError('unsupported', `cannot pass a value of dtype ${arg.dtype} for ${arg.kind} ${arg.name}`);
  }
  return out;
}

export interface InputOptions {
  seed: bigint;
  /** Argument name → .npy path (`--input NAME=F.npy`). */
  files: Map<string, string>;
  /** Integer arguments whose values index data: generated inside these ranges (profile/index-inputs.ts). */
  indexInputs?: readonly IndexInput[];
}

export interface PreparedArgument {
  arg: ProgramArg;
  /** The bytes handed to the program: the whole allocation for arrays, one value for scalars/symbols. */
  bytes: Uint8Array;
  source: 'file' | 'seed' | 'symbol';
  file?: string;
}

function argShape(arg: ProgramArg): number[] {
  return arg.shape.map(Number);
}

/** Builds every argument's bytes, in program argument order. */
export async function prepareInputs(args: ProgramArg[], symbols: Record<string, bigint>, opts: InputOptions): Promise<PreparedArgument[]> {
  const known = new Set(args.map((a) => a.name));
  for (const [name, file] of opts.files) {
    if (!known.has(name)) {
      const choices = args.filter((a) => a.kind !== 'symbol').map((a) => a.name);
      throw new TlabError(
        'usage',
        `--input ${name}=…: the program has no argument '${name}' (arguments: ${choices.join(', ') || 'none'})`,
        { file },
      );
    }
  }
  const out: PreparedArgument[] = [];
  for (const arg of args) {
    const file = opts.files.get(arg.name);
    if (arg.kind === 'symbol') {
      if (file)
        throw new TlabError('usage', `--input ${arg.name}=…: ${arg.name} is a symbol; give its value with --symbols ${arg.name}=V`, {
          file,
        });
      const value = symbols[arg.name];
      if (value === undefined)
        throw new TlabError('usage', `symbol ${arg.name} has no value: give --symbols ${arg.name}=V or --default-symbol V`);
      out.push({ arg, bytes: encodeValue(arg, value), source: 'symbol' });
      continue;
    }
    if (file) {
      const npy = await readNpy(file);
      out.push({ arg, bytes: placeNpy(arg, npy, file), source: 'file', file });
      continue;
    }
    const bytes = argumentBuffer(arg);
    const copied = arg.fromSymbol !== undefined ? symbols[arg.fromSymbol] : undefined;
    if (copied !== undefined) {
      // A structure member the init code copies into a symbol holds that symbol's value (codegen/init-args.ts).
      bytes.set(encodeValue(arg, copied));
      out.push({ arg, bytes, source: 'symbol' });
      continue;
    }
    const index = opts.indexInputs?.find((i) => i.argument === arg.name);
    if (index) fillIndexSafe(arg.dtype, bytes, generatorFor(opts.seed, arg.name), index);
    else fillGenerated(arg.dtype, bytes, generatorFor(opts.seed, arg.name));
    out.push({ arg, bytes, source: 'seed' });
  }
  return out;
}

/** The zeroed storage of one argument. Sizes are checked before any build (profile/memory.ts); this is the
 * last line for callers of the engine API that come here directly. */
export function argumentBuffer(arg: ProgramArg): Uint8Array {
  const bytes = (arg.kind === 'array' ? arg.totalElements : 1n) * BigInt(arg.elementBytes);
  if (bytes < 0n)
    throw new TlabError(
      'usage',
      `argument ${arg.name} would have a negative size (${arg.totalElements} elements): check the symbol values`,
    );
  if (bytes > BigInt(bufferConstants.MAX_LENGTH)) {
    throw new TlabError(
      'usage',
      `argument ${arg.name} needs ${bytes} bytes, more than one Node.js buffer holds (${bufferConstants.MAX_LENGTH}): use smaller symbol values`,
    );
  }
  return new Uint8Array(Number(bytes));
}

/** Checks a loaded .npy against the argument and lays it out in the argument's strides. */
export function placeNpy(arg: ProgramArg, npy: NpyArray, file: string): Uint8Array {
  const expectedShape = arg.kind === 'array' ? argShape(arg) : [];
  if (npy.dtype !== arg.dtype) {
    throw new TlabError('input', `array ${arg.name}: expected dtype ${arg.dtype}, got ${npy.dtype}`, { file });
  }
  const scalarOk = arg.kind !== 'array' && npy.shape.reduce((a, b) => a * b, 1) === 1 && npy.shape.length <= 1;
  if (!scalarOk && (npy.shape.length !== expectedShape.length || npy.shape.some((d, i) => d !== expectedShape[i]))) {
    throw new TlabError('input', `array ${arg.name}: expected shape (${expectedShape.join(', ')}), got (${npy.shape.join(', ')})`, {
      file,
    });
  }
  if (arg.kind !== 'array') return npy.data.slice(0, arg.elementBytes);
  const bytes = argumentBuffer(arg);
  scatter(arg, npy.data, bytes);
  return bytes;
}

function isCContiguous(arg: ProgramArg): boolean {
  let expect = 1n;
  for (let d = arg.shape.length - 1; d >= 0; d--) {
    if (arg.shape[d]! > 1n && arg.strides[d] !== expect) return false;
    expect *= arg.shape[d]!;
  }
  return true;
}

/** Storage element offset of each C-order element, or null when the layout is plain C order. */
function elementOffsets(arg: ProgramArg): Int32Array | Float64Array | null {
  if (isCContiguous(arg)) return null;
  const shape = argShape(arg);
  const strides = arg.strides.map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const offsets = new Float64Array(count);
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < count; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += idx[d]! * strides[d]!;
    offsets[i] = off;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
  return offsets;
}

function scatter(arg: ProgramArg, cOrder: Uint8Array, storage: Uint8Array): void {
  const offsets = elementOffsets(arg);
  if (!offsets) {
    storage.set(cOrder.subarray(0, Math.min(cOrder.length, storage.length)));
    return;
  }
  const eb = arg.elementBytes;
  for (let i = 0; i < offsets.length; i++) storage.set(cOrder.subarray(i * eb, (i + 1) * eb), offsets[i]! * eb);
}

/** The logical array (C order, shape elements only) out of an argument's storage bytes. */
export function gatherCOrder(arg: ProgramArg, storage: Uint8Array): NpyArray {
  const shape = argShape(arg);
  const count = shape.reduce((a, b) => a * b, 1);
  const eb = arg.elementBytes;
  const offsets = elementOffsets(arg);
  let data: Uint8Array;
  if (!offsets) data = storage.slice(0, count * eb);
  else {
    data = new Uint8Array(count * eb);
    for (let i = 0; i < count; i++) data.set(storage.subarray(offsets[i]! * eb, offsets[i]! * eb + eb), i * eb);
  }
  return { dtype: arg.dtype, shape, data };
}

/** C-order flat index → multi-dimensional index. */
export function unflatten(index: number, shape: number[]): number[] {
  const out = new Array<number>(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    const n = shape[d]!;
    out[d] = n ? index % n : 0;
    index = n ? Math.floor(index / n) : 0;
  }
  return out;
}
