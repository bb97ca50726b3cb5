/**
 * The `blas` implementation of MatMul, Gemm, Gemv, Dot (CBLAS, as DaCe's OpenBLAS expansions) and Potrf
 * (LAPACKE): one state whose C++ tasklet calls the library through pointer connectors. It creates no
 * transient (DaCe's BLAS expansions create none), so the memory analysis sees only the operands.
 *
 * CBLAS takes each matrix with one unit stride: the layout (row- or column-major) and the transposition
 * flags are chosen from the operands' strides; an operand with no unit stride is refused (pure handles it).
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { evalInt, parseSym, simplify, toCpp } from '../../symbolic/index.js';
import type { Grammar } from '../../model/sdfg.js';
import { cppIdent } from '../../codegen/names.js';
import { memlet, StateJson, whole } from './graph-json.js';
import type { Expansion, ExpansionIo, Operand } from './operand.js';

/** DaCe's BLAS type prefix by dtype; other dtypes have no routine here. */
const PREFIX: Record<string, string> = { float32: 's', float64: 'd' };
const CPU_SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);

/** A 2-D operand as CBLAS sees it: whether its rows are contiguous, and the leading dimension. */
interface Matrix {
  rowMajor: boolean;
  ld: string;
  rows: string;
  cols: string;
}

class Ctx {
  constructor(private readonly grammar: Grammar) {}

  /** A size or stride of the operands as C++ (the expansion's SDFG receives their symbols by name). */
  cpp(src: string): string {
    return `int(${toCpp(simplify(parseSym(src, this.grammar)), { symbol: cppIdent })})`;
  }

  isOne(src: string): boolean {
    if (src.trim() === '1') return true;
    try {
      return evalInt(parseSym(src, this.grammar), new Map()) === 1n;
    } catch {
      return false;
    }
  }

  matrix(name: string, op: Operand): Matrix | string {
    const [rows, cols] = [op.shape[0]!, op.shape[1]!];
    const [s0, s1] = [op.strides[0]!, op.strides[1]!];
    if (this.isOne(s1)) return { rowMajor: true, ld: this.cpp(s0), rows: this.cpp(rows), cols: this.cpp(cols) };
    if (this.isOne(s0)) return { rowMajor: false, ld: this.cpp(s1), rows: this.cpp(rows), cols: this.cpp(cols) };
    return `operand ${name} has no unit stride (strides ${s0}, ${s1}): BLAS needs one; use --library-impl pure for this node`;
  }
}

function ptrType(dtype: string): Record<string, unknown> {
  return { type: 'pointer', dtype };
}

/** The operands' common BLAS prefix, or why there is none. */
function prefixOf(node: LibraryNode, ops: Operand[]): string {
  const dtype = ops[0]!.dtype;
  if (ops.some((o) => o.dtype !== dtype)) return `operands of different types (${ops.map((o) => o.dtype).join(', ')}) have no BLAS routine`;
  const p = PREFIX[dtype];
  return p === undefined ? `${node.className} on ${dtype} has no BLAS routine here (float32 and float64 do)` : p;
}

function placeProblem(node: LibraryNode, io: ExpansionIo): string | null {
  if (!CPU_SCHEDULES.has(node.schedule) || [...io.ins.values(), ...io.outs.values()].some((o) => o.desc.storage.startsWith('GPU')))
    return 'the blas implementation on the GPU (cuBLAS) is not implemented yet: use --library-impl pure for this node';
  for (const o of io.outs.values())
    if (o.edge.memlet.wcr !== null) return 'its output accumulates (WCR): the blas implementation overwrites; use --library-impl pure';
  return null;
}

/** One state: every operand read or written whole through a pointer connector of the one C++ tasklet. */
function callState(node: LibraryNode, io: ExpansionIo, code: string, values: Record<string, string> = {}): StateJson {
  const st = new StateJson(`${node.className.toLowerCase()}_${node.label}`);
  const conns = (m: Map<string, Operand>) => Object.fromEntries([...m].map(([n, o]) => [n, n in values ? values[n]! : ptrType(o.dtype)]));
  const t = st.cppTasklet(node.label, code, conns(io.ins), conns(io.outs));
  for (const [n, o] of io.ins) st.edge(st.access(n), null, t, n, memlet(n, whole(o.shape)));
  for (const [n, o] of io.outs) st.edge(t, n, st.access(n), null, memlet(n, whole(o.shape)));
  return st;
}

const trans = (t: boolean) => (t ? 'CblasTrans' : 'CblasNoTrans');

/** C = alpha·op(A)·op(B) + beta·C, with C's layout as CBLAS's order. */
function gemmCall(
  p: string,
  cx: Ctx,
  a: Operand,
  b: Operand,
  c: Operand,
  o: { transA: boolean; transB: boolean; alpha: string; beta: string },
) {
  const [A, B, C] = [cx.matrix('A', a), cx.matrix('B', b), cx.matrix('C', c)];
  if (typeof A === 'string') return A;
  if (typeof B === 'string') return B;
  if (typeof C === 'string') return C;
  const order = C.rowMajor ? 'CblasRowMajor' : 'CblasColMajor';
  const k = o.transA ? A.rows : A.cols;
  return `cblas_${p}gemm(${order}, ${trans(o.transA !== (A.rowMajor !== C.rowMajor))}, ${trans(o.transB !== (B.rowMajor !== C.rowMajor))}, ${C.rows}, ${C.cols}, ${k}, ${o.alpha}, _a, ${A.ld}, _b, ${B.ld}, ${o.beta}, _c, ${C.ld});`;
}

/** y = alpha·op(A)·x, A in its own layout. */
function gemvCall(p: string, cx: Ctx, a: Operand, x: Operand, y: Operand, names: [string, string, string], transA: boolean, alpha: string) {
  const A = cx.matrix(names[0], a);
  if (typeof A === 'string') return A;
  const order = A.rowMajor ? 'CblasRowMajor' : 'CblasColMajor';
  return `cblas_${p}gemv(${order}, ${trans(transA)}, ${A.rows}, ${A.cols}, ${alpha}, ${names[0]}, ${A.ld}, ${names[1]}, ${cx.cpp(x.strides[0]!)}, 0, ${names[2]}, ${cx.cpp(y.strides[0]!)});`;
}

function dotCall(p: string, cx: Ctx, x: Operand, y: Operand, names: [string, string, string]): string {
  return `${names[2]}[0] = cblas_${p}dot(${cx.cpp(x.shape[0]!)}, ${names[0]}, ${cx.cpp(x.strides[0]!)}, ${names[1]}, ${cx.cpp(y.strides[0]!)});`;
}

interface ProductSpec {
  names: { a: string; b: string; c: string };
  transA: boolean;
  transB: boolean;
  alpha: string | null;
  beta: string | null;
  cin: string | null;
}

function product(node: LibraryNode, io: ExpansionIo, grammar: Grammar, s: ProductSpec): Expansion | string {
  const place = placeProblem(node, io);
  if (place) return place;
  const a = io.ins.get(s.names.a);
  const b = io.ins.get(s.names.b);
  const c = io.outs.get(s.names.c);
  if (!a || !b || !c) return `it needs inputs ${s.names.a} and ${s.names.b} and output ${s.names.c}`;
  if (s.alpha === null || s.beta === null) return 'alpha and beta must be numbers';
  const cin = s.cin === null ? undefined : io.ins.get(s.cin);
  if (s.beta !== '0' && !cin) return `beta ${s.beta} needs the input ${s.cin ?? '_cin'}`;
  const ops = [a, b, c, ...(cin ? [cin] : [])];
  const p = prefixOf(node, ops);
  if (p.length !== 1) return p;
  const cx = new Ctx(grammar);
  const [ra, rb, rc] = [a.kept.length, b.kept.length, c.kept.length];
  const n = s.names;
  let call: string;
  if (ra === 2 && rb === 2 && rc === 2) {
    // Gemm reads C only through `_cin`: copy it into `_c` first when they are not the same memory.
    let pre = '';
    if (cin && s.beta !== '0') {
      if (cin.kept.length !== 2) return 'its input C does not have the shape of the product (broadcasts are not expanded)';
      pre = `if ((const void *)_cin != (const void *)_c) for (int __i = 0; __i < ${cx.cpp(c.shape[0]!)}; ++__i) for (int __j = 0; __j < ${cx.cpp(c.shape[1]!)}; ++__j) _c[__i * ${cx.cpp(c.strides[0]!)} + __j * ${cx.cpp(c.strides[1]!)}] = _cin[__i * ${cx.cpp(cin.strides[0]!)} + __j * ${cx.cpp(cin.strides[1]!)}];\n`;
    }
    const g = gemmCall(p, cx, a, b, c, { transA: s.transA, transB: s.transB, alpha: s.alpha, beta: cin ? s.beta : '0' });
    if (!g.startsWith('cblas_')) return g;
    call = pre + g;
  } else if (ra === 2 && rb === 1 && rc === 1) {
    const g = gemvCall(p, cx, a, b, c, [n.a, n.b, n.c], s.transA, s.alpha);
    if (!g.startsWith('cblas_')) return g;
    call = g;
  } else if (ra === 1 && rb === 2 && rc === 1) {
    // x·B = Bᵀ·x
    const g = gemvCall(p, cx, b, a, c, [n.b, n.a, n.c], true, s.alpha);
    if (!g.startsWith('cblas_')) return g;
    call = g;
  } else if (ra === 1 && rb === 1 && rc <= 1) {
    call = dotCall(p, cx, a, b, [n.a, n.b, n.c]);
  } else return `operands of ${ra}, ${rb} and ${rc} dimensions have no BLAS call here (batched products are not expanded)`;
  return { states: [callState(node, io, call)], library: 'OpenBLAS' };
}

function scalarAttr(raw: unknown, fallback: number): string | null {
  if (raw === undefined || raw === null) return String(fallback);
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return String(Number(raw));
  return null;
}

export function matMulBlas(node: LibraryNode, io: ExpansionIo, grammar: Grammar): Expansion | string {
  return product(node, io, grammar, {
    names: { a: '_a', b: '_b', c: '_c' },
    transA: false,
    transB: false,
    alpha: '1',
    beta: '0',
    cin: null,
  });
}

export function gemmBlas(node: LibraryNode, io: ExpansionIo, grammar: Grammar): Expansion | string {
  const at = node.attributes;
  return product(node, io, grammar, {
    names: { a: '_a', b: '_b', c: '_c' },
    transA: at['transA'] === true,
    transB: at['transB'] === true,
    alpha: scalarAttr(at['alpha'], 1),
    beta: scalarAttr(at['beta'], 0),
    cin: '_cin',
  });
}

export function gemvBlas(node: LibraryNode, io: ExpansionIo, grammar: Grammar): Expansion | string {
  const at = node.attributes;
  const beta = scalarAttr(at['beta'], 0);
  if (beta !== '0') return `beta ${String(at['beta'])} (Gemv accumulating into y) is not expanded`;
  return product(node, io, grammar, {
    names: { a: '_A', b: '_x', c: '_y' },
    transA: at['transA'] === true,
    transB: false,
    alpha: scalarAttr(at['alpha'], 1),
    beta,
    cin: null,
  });
}

export function dotBlas(node: LibraryNode, io: ExpansionIo, grammar: Grammar): Expansion | string {
  return product(node, io, grammar, {
    names: { a: '_x', b: '_y', c: '_result' },
    transA: false,
    transB: false,
    alpha: '1',
    beta: '0',
    cin: null,
  });
}

/** DaCe's Potrf has no pure expansion (ExpandPotrfPure raises NotImplementedError). */
export function potrfPure(): string {
  return 'DaCe has no pure expansion of Potrf (Cholesky factorisation): use --library-impl blas (LAPACKE)';
}

/** `_res = LAPACKE_?potrf(…)` on `_xout`, after copying `_xin` into it when they are not the same memory. */
export function potrfBlas(node: LibraryNode, io: ExpansionIo, grammar: Grammar): Expansion | string {
  const place = placeProblem(node, io);
  if (place) return place;
  const x = io.ins.get('_xin');
  const xo = io.outs.get('_xout');
  const res = io.outs.get('_res');
  if (!x || !xo || !res) return 'it needs the input _xin and the outputs _xout and _res';
  const p = prefixOf(node, [x, xo]);
  if (p.length !== 1) return p;
  if (x.kept.length !== 2 || xo.kept.length !== 2) return 'its matrix is not 2-dimensional';
  const cx = new Ctx(grammar);
  const X = cx.matrix('_xout', xo);
  if (typeof X === 'string') return X;
  const uplo = node.attributes['lower'] === false ? "'U'" : "'L'";
  const n = cx.cpp(xo.shape[0]!);
  const copy = `if ((const void *)_xin != (const void *)_xout) for (int __i = 0; __i < ${n}; ++__i) for (int __j = 0; __j < ${n}; ++__j) _xout[__i * ${cx.cpp(xo.strides[0]!)} + __j * ${cx.cpp(xo.strides[1]!)}] = _xin[__i * ${cx.cpp(x.strides[0]!)} + __j * ${cx.cpp(x.strides[1]!)}];`;
  const order = X.rowMajor ? 'LAPACK_ROW_MAJOR' : 'LAPACK_COL_MAJOR';
  const call = `_res = LAPACKE_${p}potrf(${order}, ${uplo}, ${n}, _xout, ${X.ld});`;
  return { states: [callState(node, io, `${copy}\n${call}`, { _res: 'int32' })], library: 'LAPACKE' };
}
