import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TlabError } from '../../../electron/engine/errors.js';
import { encodeNpy, parseNpy, readNpy, writeNpy } from '../../../electron/engine/profile/npy.js';
import { placeNpy } from '../../../electron/engine/profile/inputs.js';
import type { ProgramArg } from '../../../electron/engine/codegen/types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tlab-npy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A .npy file as numpy would write it (header text given verbatim). */
function rawNpy(header: string, data: Uint8Array, major = 1): Uint8Array {
  const prefix = major === 1 ? 10 : 12;
  const total = prefix + header.length + 1;
  const padded = header + ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(prefix + padded.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  const v = new DataView(out.buffer);
  if (major === 1) v.setUint16(8, padded.length, true);
  else v.setUint32(8, padded.length, true);
  out.set(new TextEncoder().encode(padded), prefix);
  out.set(data, prefix + padded.length);
  return out;
}

function f64(values: number[]): Uint8Array {
  return new Uint8Array(new Float64Array(values).buffer);
}

function errorOf(fn: () => unknown): TlabError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TlabError);
    return e as TlabError;
  }
  throw new Error('expected a TlabError');
}

async function failure(p: Promise<unknown>): Promise<TlabError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(TlabError);
  return r as TlabError;
}

const arg2x3: ProgramArg = {
  name: 'A',
  kind: 'array',
  dtype: 'float64',
  ctype: 'double',
  elementBytes: 8,
  shape: [2n, 3n],
  totalElements: 6n,
  strides: [3n, 1n],
  written: false,
  read: true,
};

describe('npy', () => {
  it('reads what numpy writes: v1, v2 and v3 headers', () => {
    for (const major of [1, 2, 3]) {
      const a = parseNpy(rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", f64([1, 2, 3, 4, 5, 6]), major), 'x.npy');
      expect(a).toEqual({ dtype: 'float64', shape: [2, 3], data: f64([1, 2, 3, 4, 5, 6]) });
    }
    expect(parseNpy(rawNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", new Uint8Array([1])), 'b.npy').shape).toEqual([]);
    expect(parseNpy(rawNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", new Uint8Array(12)), 'i.npy').dtype).toBe('int32');
  });

  it('round-trips any shape and dtype through a file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('float64', 'float32', 'int32', 'int64', 'uint8', 'bool', 'int16', 'complex128'),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }),
        async (dtype, shape) => {
          const sizes: Record<string, number> = { float64: 8, float32: 4, int32: 4, int64: 8, uint8: 1, bool: 1, int16: 2, complex128: 16 };
          const n = shape.reduce((a, b) => a * b, 1) * sizes[dtype]!;
          const data = Uint8Array.from({ length: n }, (_, i) => (i * 37) & 0xff);
          const path = join(dir, 'rt.npy');
          await writeNpy(path, { dtype, shape, data });
          expect(await readNpy(path)).toEqual({ dtype, shape, data });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('pads the header to 64 bytes like numpy', () => {
    const bytes = encodeNpy({ dtype: 'float64', shape: [5], data: f64([1, 2, 3, 4, 5]) });
    const headerLen = new DataView(bytes.buffer).getUint16(8, true);
    expect((10 + headerLen) % 64).toBe(0);
    expect(new TextDecoder().decode(bytes.subarray(10, 10 + headerLen))).toContain("'shape': (5,)");
  });

  it('rejects truncated data, naming the file and the byte counts', () => {
    const e = errorOf(() => parseNpy(rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", f64([1, 2, 3])), 'short.npy'));
    expect(e.kind).toBe('input');
    expect(e.file).toBe('short.npy');
    expect(e.message).toMatch(/truncated.*needs 48 data bytes, the file has 24/);
  });

  it('rejects a truncated header, bad magic, Fortran order, big-endian and unknown dtypes', () => {
    const good = rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", f64([1]));
    expect(errorOf(() => parseNpy(good.subarray(0, 30), 'h.npy')).message).toMatch(/truncated header/);
    expect(errorOf(() => parseNpy(new Uint8Array(64), 'm.npy')).message).toMatch(/magic/);
    expect(errorOf(() => parseNpy(rawNpy("{'descr': '<f8', 'fortran_order': True, 'shape': (1,), }", f64([1])), 'f.npy')).message).toMatch(
      /Fortran order/,
    );
    expect(errorOf(() => parseNpy(rawNpy("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", f64([1])), 'b.npy')).message).toMatch(
      /big-endian/,
    );
    expect(
      errorOf(() => parseNpy(rawNpy("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(12)), 'u.npy')).message,
    ).toMatch(/unsupported dtype '<U3'/);
  });

  it('reports a missing file as an input error', async () => {
    const e = await failure(readNpy(join(dir, 'missing.npy')));
    expect(e).toBeInstanceOf(TlabError);
    expect(e.kind).toBe('input');
    expect(e.file).toContain('missing.npy');
  });
});

describe('npy checked against a program argument', () => {
  it('accepts the right dtype and shape', () => {
    const bytes = placeNpy(arg2x3, { dtype: 'float64', shape: [2, 3], data: f64([1, 2, 3, 4, 5, 6]) }, 'a.npy');
    expect(Array.from(new Float64Array(bytes.buffer))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('names the file, the array, expected and actual shape', () => {
    const e = errorOf(() => placeNpy(arg2x3, { dtype: 'float64', shape: [3, 2], data: f64([1, 2, 3, 4, 5, 6]) }, 'a.npy'));
    expect(e.kind).toBe('input');
    expect(e.file).toBe('a.npy');
    expect(e.message).toBe('array A: expected shape (2, 3), got (3, 2)');
  });

  it('names expected and actual dtype', () => {
    const e = errorOf(() => placeNpy(arg2x3, { dtype: 'float32', shape: [2, 3], data: new Uint8Array(24) }, 'a.npy'));
    expect(e.message).toBe('array A: expected dtype float64, got float32');
  });

  it('scatters C-order data into a padded, strided argument', () => {
    const padded: ProgramArg = { ...arg2x3, totalElements: 8n, strides: [4n, 1n] };
    const bytes = placeNpy(padded, { dtype: 'float64', shape: [2, 3], data: f64([1, 2, 3, 4, 5, 6]) }, 'a.npy');
    expect(Array.from(new Float64Array(bytes.buffer))).toEqual([1, 2, 3, 0, 4, 5, 6, 0]);
  });
});

describe('npy files on disk used as inputs', () => {
  it('writes then reads back a file numpy could load', async () => {
    const path = join(dir, 'disk.npy');
    await writeFile(path, rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", f64([6, 5, 4, 3, 2, 1])));
    expect((await readNpy(path)).shape).toEqual([2, 3]);
  });
});
