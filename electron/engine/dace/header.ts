/**
 * The C signatures of a DaCe build, read from the build's own text (docs/dace-folders.md): `__dace_init_<n>`,
 * `__program_<n>` and `__dace_exit_<n>` from `include/<n>.h` (or, in the older layout without `include/`, from
 * their definitions in `src/cpu/<n>.cpp`), and the External pairs `__dace_get_external_memory_size_<S>` /
 * `__dace_set_external_memory_<S>`, which the header never declares, from their DACE_EXPORTED definitions in
 * `src/cpu/*.cpp` and `src/cuda/*.cu`. Never recomputed from the SDFG: which symbols a signature takes changes
 * between DaCe versions (dace-memory-abi.md §1.2).
 */
import type { DaceCType } from './types.js';

export interface CParam {
  name: string;
  /** The type as written, without `__restrict__` (`double *`, `int`, `long long`). */
  text: string;
  /** How libffi passes it; null for a by-value type we cannot pass (complex, a C++ object). */
  type: DaceCType | null;
}

export interface CFunction {
  name: string;
  params: CParam[];
}

const SCALARS: Record<string, DaceCType> = {
  bool: 'bool',
  char: 'int8',
  'signed char': 'int8',
  int8_t: 'int8',
  'unsigned char': 'uint8',
  uint8_t: 'uint8',
  short: 'int16',
  'short int': 'int16',
  int16_t: 'int16',
  'unsigned short': 'uint16',
  uint16_t: 'uint16',
  int: 'int32',
  'signed int': 'int32',
  int32_t: 'int32',
  unsigned: 'uint32',
  'unsigned int': 'uint32',
  uint32_t: 'uint32',
  'dace::uint': 'uint32',
  long: 'int64',
  'long int': 'int64',
  'long long': 'int64',
  'long long int': 'int64',
  int64_t: 'int64',
  'unsigned long': 'uint64',
  'unsigned long long': 'uint64',
  uint64_t: 'uint64',
  size_t: 'uint64',
  float: 'float32',
  double: 'float64',
  'dace::float16': 'float16',
  half: 'float16',
};

/** Comments out, so that a commented-out prototype is never read. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

function parseParam(raw: string): CParam | string {
  const text = raw
    .replace(/\b(__restrict__|__restrict|restrict|const|volatile)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^(.*?)\s*\b([A-Za-z_]\w*)$/.exec(text);
  if (!m || !m[1]) return `cannot read the parameter '${raw.trim()}'`;
  const typeText = m[1]
    .replace(/\s*\*\s*/g, ' *')
    .replace(/\s*&\s*/g, ' &')
    .trim();
  if (typeText.includes('&')) return `parameter '${raw.trim()}' is a C++ reference, which a C caller cannot pass`;
  // `<n>Handle_t` is DaCe's `typedef void *` for the state.
  const type: DaceCType | null = typeText.includes('*') || /Handle_t$/.test(typeText) ? 'pointer' : (SCALARS[typeText] ?? null);
  return { name: m[2]!, text: typeText, type };
}

/** Every definition or declaration of `name(…)` in `text` (its parameter list parsed), or null when absent. */
export function findFunction(text: string, name: string): CFunction | string | null {
  const clean = stripComments(text);
  const at = new RegExp(`\\b${name}\\s*\\(([^)]*)\\)`).exec(clean);
  if (!at) return null;
  const list = at[1]!.trim();
  const params: CParam[] = [];
  if (list && list !== 'void') {
    for (const raw of list.split(',')) {
      const p = parseParam(raw);
      if (typeof p === 'string') return `${name}: ${p}`;
      params.push(p);
    }
  }
  return { name, params };
}

/** `S` of every `__dace_get_external_memory_size_<S>` defined as an export in `text`. */
export function externalStorages(text: string): string[] {
  const clean = stripComments(text);
  const out = new Set<string>();
  for (const m of clean.matchAll(
    /\b(?:DACE_EXPORTED|extern\s+"C")\s+(?:size_t|unsigned long|uint64_t)\s+__dace_get_external_memory_size_(\w+)\s*\(/g,
  ))
    out.add(m[1]!);
  return [...out];
}

/** `void __program_x(xHandle_t handle, double * __restrict__ A, int N)` as DaCe's header writes it. */
export function signatureText(fn: CFunction, returns: string): string {
  return `${returns} ${fn.name}(${fn.params.map((p) => `${p.text}${p.text.endsWith('*') ? '' : ' '}${p.name}`).join(', ')})`;
}
