/**
 * Output comparison: between the two verification calls of one mode (a difference means a transient was
 * read before being written: the poison leaked into an output) and between modes (every mode must compute
 * the same thing; bitwise on CPU unless the program's own float order is nondeterministic).
 */
import { halfValue } from './half.js';
import type { ProgramArg } from '../codegen/types.js';
import { gatherCOrder, unflatten } from './inputs.js';

export interface Difference {
  array: string;
  /** C-order flat index and the same as a multi-dimensional index. */
  flatIndex: number;
  index: number[];
  values: [string, string];
  /** How many elements differ in total. */
  count: number;
}

const FLOAT_PARTS: Record<string, { bytes: number; read: (v: DataView, o: number) => number }> = {
  float64: { bytes: 8, read: (v, o) => v.getFloat64(o, true) },
  float32: { bytes: 4, read: (v, o) => v.getFloat32(o, true) },
  float16: { bytes: 2, read: (v, o) => halfValue(v.getUint16(o, true)) },
  complex128: { bytes: 8, read: (v, o) => v.getFloat64(o, true) },
  complex64: { bytes: 4, read: (v, o) => v.getFloat32(o, true) },
};

/** One element as text, in its own type (floats with full precision so that bit differences show). */
function elementText(dtype: string, data: Uint8Array, index: number, elementBytes: number): string {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const o = index * elementBytes;
  switch (dtype) {
    case 'float64':
      return String(v.getFloat64(o, true));
    case 'float32':
      return String(v.getFloat32(o, true));
    case 'float16':
      return String(halfValue(v.getUint16(o, true)));
    case 'complex128':
      return `(${v.getFloat64(o, true)}, ${v.getFloat64(o + 8, true)})`;
    case 'complex64':
      return `(${v.getFloat32(o, true)}, ${v.getFloat32(o + 4, true)})`;
    case 'int8':
      return String(v.getInt8(o));
    case 'uint8':
      return String(v.getUint8(o));
    case 'bool':
      return v.getUint8(o) ? 'true' : 'false';
    case 'int16':
      return String(v.getInt16(o, true));
    case 'uint16':
      return String(v.getUint16(o, true));
    case 'int32':
      return String(v.getInt32(o, true));
    case 'uint32':
      return String(v.getUint32(o, true));
    case 'int64':
      return String(v.getBigInt64(o, true));
    case 'uint64':
      return String(v.getBigUint64(o, true));
    default: {
      const hex = [...data.subarray(o, o + elementBytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
      return `0x${hex}`;
    }
  }
}

function withinTolerance(a: number, b: number, rtol: number): boolean {
  if (a === b) return true;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  // An infinity matches only itself (a === b above): |∞ − x| ≤ rtol·∞ would call ∞ equal to anything.
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= rtol * Math.max(Math.abs(a), Math.abs(b));
}

/** First difference of one array's logical elements; `rtol` (floats only) null = bitwise. */
export function compareArray(arg: ProgramArg, a: Uint8Array, b: Uint8Array, rtol: number | null): Difference | null {
  const ga = gatherCOrder(arg, a);
  const gb = gatherCOrder(arg, b);
  const eb = arg.elementBytes;
  const n = ga.data.length / eb;
  const float = rtol !== null ? FLOAT_PARTS[arg.dtype] : undefined;
  const va = new DataView(ga.data.buffer, ga.data.byteOffset, ga.data.byteLength);
  const vb = new DataView(gb.data.buffer, gb.data.byteOffset, gb.data.byteLength);
  let first = -1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    let same = true;
    if (float) {
      for (let p = 0; p < eb; p += float.bytes) {
        if (!withinTolerance(float.read(va, i * eb + p), float.read(vb, i * eb + p), rtol!)) same = false;
      }
    } else {
      for (let k = i * eb; k < (i + 1) * eb; k++) {
        if (ga.data[k] !== gb.data[k]) {
          same = false;
          break;
        }
      }
    }
    if (!same) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (first < 0) return null;
  return {
    array: arg.name,
    flatIndex: first,
    index: unflatten(first, ga.shape),
    values: [elementText(arg.dtype, ga.data, first, eb), elementText(arg.dtype, gb.data, first, eb)],
    count,
  };
}
