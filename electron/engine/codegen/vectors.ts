/**
 * DaCe vector dtypes (`dace.vector(dace.float32, 4)`, DaCe's `dace::vec<float, 4>`) on the CPU. Generated code
 * names them `tlab_vec<T, N>`: N elements of T back to back, with T's alignment, so one vector is N·sizeof(T)
 * bytes exactly as DaCe's `dtypes.vector.bytes` counts it, and an array of K vectors is K·N plain elements.
 * Arithmetic is elementwise (vector with vector, vector with a scalar on either side), as DaCe's vector
 * operators are; `v[i]` reads one element.
 *
 * The runner never sees a vector: an argument of K vectors of N elements is passed as K·N elements of T with one
 * more, innermost, dimension of N (`vectorArg`), so inputs are generated, saved, compared and printed per element
 * like any other array of T.
 */
import type { DataDescriptor, DType, SdfgFile, TaskletNode } from '../model/sdfg.js';
import type { StateGraph } from './graph.js';
import { vectorElements } from './names.js';
import type { ProgramArg } from './types.js';

const usesVector = (t: DType | null | undefined): boolean => !!t && (t.kind === 'vector' || (t.kind === 'pointer' && usesVector(t.base)));

function fileUsesVectors(file: SdfgFile): boolean {
  for (const s of file.sdfgs) for (const d of s.arrays.values()) if (usesVector(d.dtype)) return true;
  return false;
}

const PREAMBLE = [
  'template <class T, int N> struct tlab_vec {',
  '  T v[N];',
  '  T &operator[](int64_t i) { return v[i]; }',
  '  const T &operator[](int64_t i) const { return v[i]; }',
  '};',
  'template <class T, int N> inline tlab_vec<T, N> operator-(const tlab_vec<T, N> &a) {',
  '  tlab_vec<T, N> r;',
  '  for (int i = 0; i < N; ++i) r.v[i] = -a.v[i];',
  '  return r;',
  '}',
  '#define TLAB_VEC_OP(op) \\',
  '  template <class T, int N> inline tlab_vec<T, N> operator op(const tlab_vec<T, N> &a, const tlab_vec<T, N> &b) { \\',
  '    tlab_vec<T, N> r; for (int i = 0; i < N; ++i) r.v[i] = a.v[i] op b.v[i]; return r; } \\',
  '  template <class T, int N, class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0> \\',
  '  inline tlab_vec<T, N> operator op(const tlab_vec<T, N> &a, S b) { \\',
  '    tlab_vec<T, N> r; for (int i = 0; i < N; ++i) r.v[i] = a.v[i] op static_cast<T>(b); return r; } \\',
  '  template <class T, int N, class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0> \\',
  '  inline tlab_vec<T, N> operator op(S a, const tlab_vec<T, N> &b) { \\',
  '    tlab_vec<T, N> r; for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(a) op b.v[i]; return r; } \\',
  '  template <class T, int N, class S> inline tlab_vec<T, N> &operator op##=(tlab_vec<T, N> &a, const S &b) { return a = a op b; }',
  'TLAB_VEC_OP(+) TLAB_VEC_OP(-) TLAB_VEC_OP(*) TLAB_VEC_OP(/)',
  '#undef TLAB_VEC_OP',
];

/** The `tlab_vec` definition for a file that uses vector dtypes (nothing otherwise). */
export function vectorPreamble(file: SdfgFile): string[] {
  return fileUsesVectors(file) ? PREAMBLE : [];
}

/**
 * The vector dtype of an untyped tasklet output, as DaCe's type inference gives it for elementwise code: the
 * vector type of the tasklet's inputs when they all agree on one (`b = a * 2` with `a` a vector<float32, 2>),
 * following tasklet-to-tasklet edges back; null when no input is a vector or the code indexes anything.
 */
export function inferredVector(g: StateGraph, t: TaskletNode, arrayDtype: (data: string) => DType | undefined, depth = 0): DType | null {
  // Code that reads elements (`a[1]`) may well compute a scalar: no guess then (the edge stays a double).
  if (depth > 32 || t.code.code.includes('[')) return null;
  let found: DType | null = null;
  for (const e of g.inEdges.get(t.id) ?? []) {
    if (!e.dstConnector) continue;
    let d: DType | null | undefined = t.inConnectors[e.dstConnector];
    if (!d && e.memlet.data !== null) d = arrayDtype(e.memlet.data);
    const src = g.byId.get(e.src);
    if (!d && src?.kind === 'tasklet' && e.srcConnector)
      d = src.outConnectors[e.srcConnector] ?? inferredVector(g, src, arrayDtype, depth + 1);
    if (d?.kind !== 'vector') continue;
    if (found && (found.elements !== d.elements || JSON.stringify(found.base) !== JSON.stringify(d.base))) return null;
    found = d;
  }
  return found;
}

/** Vector containers the generator does not lay out: on the GPU target, and scalar arguments passed by value. */
export function vectorFindings(
  d: DataDescriptor,
  element: string,
  gpuTarget: boolean,
  add: (jsonPath: string, element: string, message: string, hint: string) => void,
): void {
  if (d.dtype.kind !== 'vector') return;
  if (gpuTarget) add(d.jsonPath, element, 'vector dtypes are generated for the CPU only', 'use a scalar dtype with one more dimension');
  else if (d.type === 'Scalar' && !d.transient)
    add(d.jsonPath, element, 'a vector scalar argument is not supported (it is passed by value)', 'pass it as a one-element Array');
}

/** A vector argument as the runner sees it: its elements, with one more innermost dimension of N. */
export function vectorArg(arg: ProgramArg, dtype: DType, baseCtype: string): ProgramArg {
  const n = vectorElements(dtype);
  if (n === null || dtype.kind !== 'vector' || dtype.base.kind !== 'scalar') return arg;
  const big = BigInt(n);
  return {
    ...arg,
    dtype: dtype.base.name,
    ctype: baseCtype,
    elementBytes: dtype.base.bytes,
    shape: [...arg.shape, big],
    totalElements: arg.totalElements * big,
    strides: [...arg.strides.map((s) => s * big), 1n],
    vector: { dtype: `vector<${dtype.base.name}, ${n}>`, elements: n },
  };
}
