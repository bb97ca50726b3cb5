/** C++ naming and type mapping shared by the generator and the subset check. */
import type { DType } from '../model/sdfg.js';

/** C types of DaCe's scalar dtypes, as in DaCe's ABI (reference dace-memory-abi.md §1.2). */
const CTYPES: Record<string, string> = {
  bool: 'bool',
  bool_: 'bool',
  int8: 'int8_t',
  int16: 'int16_t',
  int32: 'int',
  int64: 'int64_t',
  uint8: 'uint8_t',
  uint16: 'uint16_t',
  uint32: 'uint32_t',
  uint64: 'uint64_t',
  float16: 'tlab_half',
  float32: 'float',
  float64: 'double',
  // transient_complex.h: std::complex, thrust::complex under nvcc (std::complex is host-only there).
  complex64: 'tlab_complex64',
  complex128: 'tlab_complex128',
  uintp: 'uintptr_t',
};

/** The struct dtypes codegen/structs.ts gave structure descriptors: `ctypeOf` names exactly these. */
const structTypes = new WeakSet<DType>();

/** A struct dtype that `ctypeOf` maps to its C struct name (structure containers are pointers to it). */
export function structDtype(name: string): DType {
  const dtype: DType = { kind: 'struct', name, fields: [], bytes: null };
  structTypes.add(dtype);
  return dtype;
}

/** The element type of a container array (a pointer to each element), as codegen/structs.ts gives it. */
export function elementPointerDtype(ctype: string): DType {
  const dtype: DType = { kind: 'opaque', ctype: `${ctype} *`, bytes: null };
  structTypes.add(dtype);
  return dtype;
}

/** Element types of DaCe vectors (`dace.vector(float32, 4)`) the generator lays out: integers and reals. */
const VECTOR_BASES: ReadonlySet<string> = new Set([
  'int8_t',
  'int16_t',
  'int',
  'int64_t',
  'uint8_t',
  'uint16_t',
  'uint32_t',
  'uint64_t',
  'float',
  'double',
]);

/** Elements of a vector dtype whose count is a literal from 1 to 64 (null otherwise). */
export function vectorElements(dtype: DType): number | null {
  if (dtype.kind !== 'vector' || !/^\s*\d+\s*$/.test(dtype.elements)) return null;
  const n = Number(dtype.elements);
  return n >= 1 && n <= 64 ? n : null;
}

/** The C type of a dtype, or null when the generator does not support it (pointers, file structs…). float16 is
 * `tlab_half`, which half.ts defines per target. */
export function ctypeOf(dtype: DType | null | undefined): string | null {
  if (dtype && dtype.kind === 'struct' && structTypes.has(dtype)) return cppIdent(dtype.name);
  if (dtype && dtype.kind === 'opaque' && structTypes.has(dtype)) return dtype.ctype;
  if (dtype?.kind === 'vector') {
    const n = vectorElements(dtype);
    const base = n === null ? null : ctypeOf(dtype.base);
    return base && VECTOR_BASES.has(base) ? `tlab_vec<${base}, ${n}>` : null;
  }
  if (!dtype || dtype.kind !== 'scalar') return null;
  return CTYPES[dtype.name] ?? null;
}

export function dtypeLabel(dtype: DType): string {
  switch (dtype.kind) {
    case 'scalar':
      return dtype.name;
    case 'pointer':
      return `pointer<${dtype.base ? dtypeLabel(dtype.base) : 'void'}>`;
    case 'vector':
      return `vector<${dtypeLabel(dtype.base)}, ${dtype.elements}>`;
    case 'struct':
      return `struct ${dtype.name}`;
    case 'opaque':
      return `opaque ${dtype.ctype}`;
    default:
      return 'unknown';
  }
}

export function isIntegerCtype(ctype: string): boolean {
  return /^(u?int\d+_t|int|uintptr_t)$/.test(ctype);
}

/** Symbols are computed in 64 bits inside the program so that index arithmetic cannot overflow at 2^31. */
export function innerSymbolCtype(dtype: DType | null | undefined): string {
  const c = ctypeOf(dtype ?? null) ?? 'int';
  if (c === 'uint64_t' || c === 'uintptr_t') return 'uint64_t';
  if (c === 'bool' || isIntegerCtype(c)) return 'int64_t';
  return c;
}

const CPP_KEYWORDS = new Set(
  (
    'alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t class compl ' +
    'const constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit export ' +
    'extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr ' +
    'operator or or_eq private protected public register reinterpret_cast return short signed sizeof static ' +
    'static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename ' +
    'union unsigned using virtual void volatile wchar_t while xor xor_eq std main size_t int8_t int16_t int32_t ' +
    'int64_t uint8_t uint16_t uint32_t uint64_t NAN INFINITY errno assert abs min max printf ' +
    // C++20 (the generated code is compiled as C++20, like DaCe's).
    'char8_t concept consteval constinit co_await co_return co_yield requires'
  ).split(' '),
);

/** A C++ identifier for an SDFG name (containers, symbols, connectors, map parameters). */
export function cppIdent(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_');
  const safe = /^[0-9]/.test(clean) ? `_${clean}` : clean;
  return CPP_KEYWORDS.has(safe) || safe.startsWith('__tlab') ? `${safe}_` : safe;
}

/** DaCe sorts argument names by UTF-16 code unit (Python's order for identifiers), never by locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
