/**
 * NumPy `.npy` reading and writing (format versions 1.0, 2.0 and 3.0), little-endian and C order only:
 * that is what the generated programs take, and converting silently would hide a caller's mistake.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../io/atomic-write.js';
import { fsCause } from '../io/fs-errors.js';
import { TlabError } from '../errors.js';

/** dtype names as the SDFG and GeneratedProgram spell them → numpy `descr` and item size. */
const DTYPES: Record<string, { descr: string; bytes: number }> = {
  bool: { descr: '|b1', bytes: 1 },
  int8: { descr: '|i1', bytes: 1 },
  uint8: { descr: '|u1', bytes: 1 },
  int16: { descr: '<i2', bytes: 2 },
  uint16: { descr: '<u2', bytes: 2 },
  int32: { descr: '<i4', bytes: 4 },
  uint32: { descr: '<u4', bytes: 4 },
  int64: { descr: '<i8', bytes: 8 },
  uint64: { descr: '<u8', bytes: 8 },
  float16: { descr: '<f2', bytes: 2 },
  float32: { descr: '<f4', bytes: 4 },
  float64: { descr: '<f8', bytes: 8 },
  complex64: { descr: '<c8', bytes: 8 },
  complex128: { descr: '<c16', bytes: 16 },
};

const DESCR_TO_DTYPE = new Map<string, string>();
for (const [name, d] of Object.entries(DTYPES)) {
  DESCR_TO_DTYPE.set(d.descr, name);
  // Single-byte types carry no byte order; numpy writes '|', but '<' and '=' are as good.
  if (d.bytes === 1) {
    DESCR_TO_DTYPE.set(`<${d.descr.slice(1)}`, name);
    DESCR_TO_DTYPE.set(`=${d.descr.slice(1)}`, name);
  }
}
DESCR_TO_DTYPE.set('|?', 'bool');
DESCR_TO_DTYPE.set('<?', 'bool');

export interface NpyArray {
  /** dtype name (`float64`, …). */
  dtype: string;
  shape: number[];
  /** Raw little-endian element bytes in C order (exactly product(shape) × item size). */
  data: Uint8Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Parses `.npy` bytes; `file` only names the source in errors. */
export function parseNpy(bytes: Uint8Array, file: string): NpyArray {
  const fail = (what: string) => new TlabError('input', `not a valid .npy file: ${what}`, { file });
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) throw fail('missing the \\x93NUMPY magic');
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let headerStart: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) throw fail('truncated header');
    headerLen = view.getUint32(8, true);
    headerStart = 12;
  } else {
    throw fail(`unsupported format version ${major}.${bytes[7]} (1.0, 2.0 and 3.0 are supported)`);
  }
  if (headerStart + headerLen > bytes.length)
    throw fail(`truncated header (needs ${headerLen} bytes, file has ${bytes.length - headerStart})`);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(headerStart, headerStart + headerLen));
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) {
    throw fail(`header is not a numpy header dict: ${header.trim().slice(0, 120)}`);
  }
  if (fortran === 'True') throw new TlabError('input', 'array is in Fortran order; save it in C order (numpy.ascontiguousarray)', { file });
  if (descr.startsWith('>'))
    throw new TlabError('input', `array is big-endian (${descr}); save it little-endian (arr.astype('<${descr.slice(1)}'))`, { file });
  const dtype = DESCR_TO_DTYPE.get(descr);
  if (!dtype)
    throw new TlabError(
      'input',
      `unsupported dtype '${descr}' (supported: ${Object.values(DTYPES)
        .map((d) => d.descr)
        .join(', ')})`,
      { file },
    );
  const shape: number[] = [];
  for (const part of shapeText.split(',')) {
    const t = part.trim().replace(/L$/, '');
    if (!t) continue;
    if (!/^\d+$/.test(t)) throw fail(`bad shape entry '${part.trim()}'`);
    shape.push(Number(t));
  }
  const elements = shape.reduce((a, b) => a * b, 1);
  const expectedBytes = elements * DTYPES[dtype]!.bytes;
  const dataStart = headerStart + headerLen;
  const got = bytes.length - dataStart;
  if (got < expectedBytes) {
    throw new TlabError(
      'input',
      `truncated: shape (${shape.join(', ')}) of ${dtype} needs ${expectedBytes} data bytes, the file has ${got}`,
      { file },
    );
  }
  if (got > expectedBytes) {
    throw new TlabError('input', `${got - expectedBytes} bytes of trailing data after a (${shape.join(', ')}) ${dtype} array`, { file });
  }
  return { dtype, shape, data: bytes.slice(dataStart, dataStart + expectedBytes) };
}

export async function readNpy(path: string): Promise<NpyArray> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new TlabError('input', `cannot read: ${fsCause(cause)}`, { file: path, cause });
  }
  return parseNpy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}

/** Serialises as format 1.0 (or 2.0 when the header does not fit 64 KiB), padded to 64 bytes as numpy does. */
export function encodeNpy(array: NpyArray): Uint8Array {
  const info = DTYPES[array.dtype];
  if (!info) throw new TlabError('usage', `cannot write dtype ${array.dtype} to .npy`);
  const shape = array.shape.length === 1 ? `(${array.shape[0]},)` : `(${array.shape.join(', ')})`;
  const dict = `{'descr': '${info.descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  let major = 1;
  let prefix = 10;
  let total = prefix + dict.length + 1;
  if (total + ((64 - (total % 64)) % 64) - prefix > 0xffff) {
    major = 2;
    prefix = 12;
    total = prefix + dict.length + 1;
  }
  const padded = dict + ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(prefix + padded.length + array.data.length);
  out.set(MAGIC, 0);
  out[6] = major;
  out[7] = 0;
  const view = new DataView(out.buffer);
  if (major === 1) view.setUint16(8, padded.length, true);
  else view.setUint32(8, padded.length, true);
  for (let i = 0; i < padded.length; i++) out[prefix + i] = padded.charCodeAt(i);
  out.set(array.data, prefix + padded.length);
  return out;
}

export async function writeNpy(path: string, array: NpyArray): Promise<void> {
  await writeFileAtomic(path, encodeNpy(array));
}
