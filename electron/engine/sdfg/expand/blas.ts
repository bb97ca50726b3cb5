/**
 * MatMul, Gemm, Gemv and Dot, expanded as DaCe's pure BLAS expansions compute them (MatMul specialised by
 * the operands' squeezed ranks as SpecializeMatMul does: 2×2 Gemm, 2×1 and 1×2 Gemv, 1×1 Dot): a state zeroing
 * the result, then a map over the result's elements around a Sequential loop over the contracted dimension
 * that adds `alpha·a·b` into it (non-atomic: one loop per element). Gemm with `beta ≠ 0` multiplies into a
 * transient `_tmp` first and then writes `_c = beta·_cin + _tmp`, as ExpandGemmPure does.
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole, type Dim } from './graph-json.js';
import type { Expansion, ExpansionIo, Operand } from './operand.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);
const SUM = '(lambda x, y: (x + y))';

type Sym = (name: string) => string;

interface Factor {
  array: string;
  op: Operand;
  /** Index per squeezed dimension, over `_o<k>` (result) and `_k` (contracted). */
  index: string[];
}

interface Contraction {
  node: LibraryNode;
  factors: [Factor, Factor];
  /** Size of the contracted dimension. */
  k: string;
  /** Result container (the output, or `_tmp`) and its squeezed shape ([] for a scalar). */
  target: string;
  shape: string[];
  alpha: string | null;
  nonatomic: boolean;
}

function scalarAttr(raw: unknown, fallback: number): string | null {
  if (raw === undefined || raw === null) return String(fallback);
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return String(Number(raw));
  return null;
}

function ranges(shape: string[]): Dim[] {
  return shape.map((s) => ({ start: '0', end: `${s} - 1` }));
}

function contraction(c: Contraction, sym: Sym): StateJson[] {
  const { node, target, shape } = c;
  const index = shape.length ? shape.map((_, i) => sym(`_o${i}`)) : ['0'];
  const params = shape.map((_, i) => `_o${i}`);
  const targetShape = shape.length ? shape : ['1'];
  const init = new StateJson(`${node.className.toLowerCase()}_init`);
  const w0 = init.access(target);
  if (shape.length === 0) {
    const t = init.tasklet('init', '__out = 0', [], ['__out'], null);
    init.edge(t, '__out', w0, null, memlet(target, at(['0'])));
  } else {
    const m = init.map({ label: 'init', params, ranges: ranges(shape), schedule: node.schedule }, { ins: [], outs: [target] }, null);
    const t = init.tasklet('init', '__out = 0', [], ['__out'], m.entry);
    init.edge(m.entry, null, t, null, { type: 'Memlet', attributes: {} });
    init.edge(t, '__out', m.exit, `IN_${target}`, memlet(target, at(index)));
    init.edge(m.exit, `OUT_${target}`, w0, null, memlet(target, whole(shape)));
  }

  const st = new StateJson(node.className.toLowerCase());
  const names = c.factors.map((f) => f.array);
  const reads = c.factors.map((f) => st.access(f.array));
  const w = st.access(target);
  const code = c.alpha === null || c.alpha === '1' ? '__out = (__a * __b)' : `__out = ((${c.alpha} * __a) * __b)`;
  const inner = { label: 'contract', params: ['_k'], ranges: [{ start: '0', end: `${c.k} - 1` }], schedule: 'Sequential' };
  const red = { wcr: SUM, nonatomic: c.nonatomic };
  const through = { ins: names, outs: [target] };
  let innerScope: { entry: number; exit: number };
  let feed: (i: number) => [number, string];
  let drain: [number, string];
  if (shape.length === 0) {
    innerScope = st.map(inner, through, null);
    feed = (i) => [reads[i]!, ''];
    drain = [w, ''];
  } else {
    const outer = st.map({ label: 'result', params, ranges: ranges(shape), schedule: node.schedule }, through, null);
    innerScope = st.map(inner, through, outer.entry);
    c.factors.forEach((f, i) => {
      st.edge(reads[i]!, null, outer.entry, `IN_${f.array}`, memlet(f.array, whole(f.op.shape)));
    });
    feed = (i) => [outer.entry, `OUT_${names[i]!}`];
    st.edge(innerScope.exit, `OUT_${target}`, outer.exit, `IN_${target}`, memlet(target, at(index), red));
    st.edge(outer.exit, `OUT_${target}`, w, null, memlet(target, whole(targetShape), red));
    drain = [-1, ''];
  }
  const t = st.tasklet('multiply', code, ['__a', '__b'], ['__out'], innerScope.entry);
  c.factors.forEach((f, i) => {
    const [src, conn] = feed(i);
    st.edge(src, conn === '' ? null : conn, innerScope.entry, `IN_${f.array}`, memlet(f.array, whole(f.op.shape)));
    st.edge(innerScope.entry, `OUT_${f.array}`, t, i === 0 ? '__a' : '__b', memlet(f.array, at(f.index)));
  });
  st.edge(t, '__out', innerScope.exit, `IN_${target}`, memlet(target, at(index), red));
  if (drain[0] >= 0) st.edge(innerScope.exit, `OUT_${target}`, drain[0], null, memlet(target, at(index), red));
  return [init, st];
}

interface Product {
  a: Factor;
  b: Factor;
  k: string;
  shape: string[];
}

/** The product of `a` and `b` by their squeezed ranks (what SpecializeMatMul picks), or why not. */
function product(aName: string, a: Operand, bName: string, b: Operand, transA: boolean, transB: boolean, sym: Sym): Product | string {
  const k = sym('_k');
  const o = (i: number) => sym(`_o${i}`);
  const ra = a.kept.length;
  const rb = b.kept.length;
  if (ra === 2 && rb === 2) {
    const [m, ka] = transA ? [a.shape[1]!, a.shape[0]!] : [a.shape[0]!, a.shape[1]!];
    const n = transB ? b.shape[0]! : b.shape[1]!;
    return {
      a: { array: aName, op: a, index: transA ? [k, o(0)] : [o(0), k] },
      b: { array: bName, op: b, index: transB ? [o(1), k] : [k, o(1)] },
      k: ka,
      shape: [m, n],
    };
  }
  if (ra === 2 && rb === 1) {
    const [m, ka] = transA ? [a.shape[1]!, a.shape[0]!] : [a.shape[0]!, a.shape[1]!];
    return { a: { array: aName, op: a, index: transA ? [k, o(0)] : [o(0), k] }, b: { array: bName, op: b, index: [k] }, k: ka, shape: [m] };
  }
  if (ra === 1 && rb === 2) {
    return { a: { array: aName, op: a, index: [k] }, b: { array: bName, op: b, index: [k, o(0)] }, k: b.shape[0]!, shape: [b.shape[1]!] };
  }
  if (ra === 1 && rb === 1)
    return { a: { array: aName, op: a, index: [k] }, b: { array: bName, op: b, index: [k] }, k: a.shape[0]!, shape: [] };
  return `operands of ${ra} and ${rb} dimensions (batched products are not expanded)`;
}

function expandProduct(
  node: LibraryNode,
  io: ExpansionIo,
  names: { a: string; b: string; c: string; cin: string | null },
  opts: { transA: boolean; transB: boolean; alpha: string | null; beta: string | null },
  sym: Sym,
): Expansion | string {
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  const a = io.ins.get(names.a);
  const b = io.ins.get(names.b);
  const c = io.outs.get(names.c);
  if (!a || !b || !c) return `it needs inputs ${names.a} and ${names.b} and output ${names.c}`;
  if (opts.alpha === null || opts.beta === null) return 'alpha and beta must be numbers';
  const p = product(names.a, a, names.b, b, opts.transA, opts.transB, sym);
  if (typeof p === 'string') return p;
  if (c.kept.length !== p.shape.length) return `its output has ${c.kept.length} dimensions other than 1, the product ${p.shape.length}`;
  const nonatomic = c.edge.memlet.wcr === null;
  const beta = opts.beta;
  if (beta === '0') {
    return {
      states: contraction({ node, factors: [p.a, p.b], k: p.k, target: names.c, shape: p.shape, alpha: opts.alpha, nonatomic }, sym),
    };
  }
  const cin = names.cin === null ? undefined : io.ins.get(names.cin);
  if (!cin || names.cin === null) return `beta ${beta} needs the input ${names.cin ?? '_cin'}`;
  if (cin.kept.length !== p.shape.length) return 'its input C does not have the shape of the product (broadcasts are not expanded)';
  const states = contraction(
    { node, factors: [p.a, p.b], k: p.k, target: '_tmp', shape: p.shape, alpha: opts.alpha, nonatomic: true },
    sym,
  );
  const add = new StateJson(`${node.className.toLowerCase()}_add`);
  const params = p.shape.map((_, i) => `_o${i}`);
  const index = params.map(sym);
  const rc = add.access(names.cin);
  const rt = add.access('_tmp');
  const w = add.access(names.c);
  const m = add.map(
    { label: 'add', params, ranges: ranges(p.shape), schedule: node.schedule },
    { ins: [names.cin, '_tmp'], outs: [names.c] },
    null,
  );
  const t = add.tasklet('add', `__y = ((${beta} * __c) + __tmp)`, ['__c', '__tmp'], ['__y'], m.entry);
  add.edge(rc, null, m.entry, `IN_${names.cin}`, memlet(names.cin, whole(cin.shape)));
  add.edge(rt, null, m.entry, 'IN__tmp', memlet('_tmp', whole(p.shape)));
  add.edge(m.entry, `OUT_${names.cin}`, t, '__c', memlet(names.cin, at(index)));
  add.edge(m.entry, 'OUT__tmp', t, '__tmp', memlet('_tmp', at(index)));
  add.edge(t, '__y', m.exit, `IN_${names.c}`, memlet(names.c, at(index)));
  add.edge(m.exit, `OUT_${names.c}`, w, null, memlet(names.c, whole(c.shape)));
  return {
    states: [...states, add],
    transients: { _tmp: { dtype: c.dtype, shape: p.shape, strides: p.shape.map((_, i) => p.shape.slice(i + 1).join(' * ') || '1') } },
  };
}

export function matMulStates(node: LibraryNode, io: ExpansionIo, sym: Sym): Expansion | string {
  return expandProduct(node, io, { a: '_a', b: '_b', c: '_c', cin: null }, { transA: false, transB: false, alpha: '1', beta: '0' }, sym);
}

export function gemmStates(node: LibraryNode, io: ExpansionIo, sym: Sym): Expansion | string {
  const at = node.attributes;
  const cin = io.ins.has('_cin') ? '_cin' : null;
  return expandProduct(
    node,
    io,
    { a: '_a', b: '_b', c: '_c', cin },
    { transA: at['transA'] === true, transB: at['transB'] === true, alpha: scalarAttr(at['alpha'], 1), beta: scalarAttr(at['beta'], 0) },
    sym,
  );
}

export function gemvStates(node: LibraryNode, io: ExpansionIo, sym: Sym): Expansion | string {
  const at = node.attributes;
  const beta = scalarAttr(at['beta'], 0);
  if (beta !== '0') return `beta ${String(at['beta'])} (Gemv accumulating into y) is not expanded`;
  return expandProduct(
    node,
    io,
    { a: '_A', b: '_x', c: '_y', cin: null },
    { transA: at['transA'] === true, transB: false, alpha: scalarAttr(at['alpha'], 1), beta },
    sym,
  );
}

export function dotStates(node: LibraryNode, io: ExpansionIo, sym: Sym): Expansion | string {
  return expandProduct(
    node,
    io,
    { a: '_x', b: '_y', c: '_result', cin: null },
    { transA: false, transB: false, alpha: '1', beta: '0' },
    sym,
  );
}
