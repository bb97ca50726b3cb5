/**
 * CSRMV (`c = alpha · A · b`, A in CSR form: `_a_rows`, `_a_cols`, `_a_vals`), expanded as DaCe's
 * ExpandCSRMVPure does: `_c` zeroed, then a map over the rows around a map over the row's nonzeros, whose
 * range comes from `_a_rows[i]` and `_a_rows[i + 1]` (dynamic map inputs); an indirection tasklet looks
 * `_b[_a_cols[j]]` up into the transient scalar `_b_value`, and a second tasklet adds `alpha · _a_vals[j] ·
 * _b_value` into `_c[i]`. As with Reduce, the nonzeros are a Sequential loop inside the row map, so the sum
 * needs no atomics. The indices are data: valid CSR input is the caller's business, as in DaCe.
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole } from './graph-json.js';
import type { Expansion, ExpansionIo } from './operand.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);
const SUM = '(lambda x, y: (x + y))';
const OPERANDS = ['_a_vals', '_a_cols', '_a_rows', '_b'] as const;

function numberAttr(raw: unknown, fallback: number): string | null {
  const value = raw === undefined || raw === null ? fallback : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
}

export function csrmvStates(node: LibraryNode, io: ExpansionIo, sym: (name: string) => string): Expansion | string {
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  const c = io.outs.get('_c');
  const ops = OPERANDS.map((n) => io.ins.get(n));
  if (!c || ops.some((o) => o === undefined)) return 'it needs inputs _a_rows, _a_cols, _a_vals and _b and output _c';
  for (const op of [...ops, c]) if (op!.kept.length > 1) return `'${op!.edge.memlet.data ?? ''}' is not one-dimensional`;
  const alpha = numberAttr(node.attributes['alpha'], 1);
  const beta = numberAttr(node.attributes['beta'], 0);
  if (alpha === null || beta === null) return 'alpha and beta must be numbers';
  if (beta !== '0') return `beta ${beta} (accumulating into C) is not expanded`;
  const b = io.ins.get('_b')!;
  const rows = c.shape[0]!;
  const i = sym('_i');
  const j = sym('_j');

  const init = new StateJson('csrmv_init');
  const w0 = init.access('_c');
  const m0 = init.map(
    { label: 'csrmv_init', params: ['_i'], ranges: [{ start: '0', end: `${rows} - 1` }], schedule: node.schedule },
    { ins: [], outs: ['_c'] },
    null,
  );
  const t0 = init.tasklet('csrmv_init', '__out = 0', [], ['__out'], m0.entry);
  init.edge(m0.entry, null, t0, null, { type: 'Memlet', attributes: {} });
  init.edge(t0, '__out', m0.exit, 'IN__c', memlet('_c', at([i])));
  init.edge(m0.exit, 'OUT__c', w0, null, memlet('_c', whole(c.shape)));

  const st = new StateJson('csrmv');
  const reads = OPERANDS.map((n) => st.access(n));
  const w = st.access('_c');
  const red = { wcr: SUM, nonatomic: c.edge.memlet.wcr === null };
  const outer = st.map(
    { label: 'spmv_rows', params: ['_i'], ranges: [{ start: '0', end: `${rows} - 1` }], schedule: node.schedule },
    { ins: [...OPERANDS], outs: ['_c'] },
    null,
  );
  const inner = st.map(
    {
      label: 'spmv_nonzeros',
      params: ['_j'],
      ranges: [{ start: sym('__row_begin'), end: `${sym('__row_end')} - 1` }],
      schedule: 'Sequential',
    },
    { ins: ['_a_vals', '_a_cols', '_b'], outs: ['_c'], dynamic: ['__row_begin', '__row_end'] },
    outer.entry,
  );
  OPERANDS.forEach((n, k) => st.edge(reads[k]!, null, outer.entry, `IN_${n}`, memlet(n, whole(ops[k]!.shape))));
  st.edge(outer.entry, 'OUT__a_rows', inner.entry, '__row_begin', memlet('_a_rows', at([i])));
  st.edge(outer.entry, 'OUT__a_rows', inner.entry, '__row_end', memlet('_a_rows', at([`${i} + 1`])));
  for (const n of ['_a_vals', '_a_cols', '_b'] as const)
    st.edge(outer.entry, `OUT_${n}`, inner.entry, `IN_${n}`, memlet(n, whole(ops[OPERANDS.indexOf(n)]!.shape)));
  const ind = st.tasklet('indirection', '__lookup = __ind_b[__col]', ['__ind_b', '__col'], ['__lookup'], inner.entry);
  st.edge(inner.entry, 'OUT__b', ind, '__ind_b', memlet('_b', whole(b.shape)));
  st.edge(inner.entry, 'OUT__a_cols', ind, '__col', memlet('_a_cols', at([j])));
  const value = st.access('_b_value', inner.entry);
  st.edge(ind, '__lookup', value, null, memlet('_b_value', at(['0'])));
  const mul = st.tasklet(
    'spmv',
    alpha === '1' ? '__o = (__a * __b)' : `__o = (${alpha} * (__a * __b))`,
    ['__a', '__b'],
    ['__o'],
    inner.entry,
  );
  st.edge(inner.entry, 'OUT__a_vals', mul, '__a', memlet('_a_vals', at([j])));
  st.edge(value, null, mul, '__b', memlet('_b_value', at(['0'])));
  st.edge(mul, '__o', inner.exit, 'IN__c', memlet('_c', at([i]), red));
  st.edge(inner.exit, 'OUT__c', outer.exit, 'IN__c', memlet('_c', at([i]), red));
  st.edge(outer.exit, 'OUT__c', w, null, memlet('_c', whole(c.shape), red));
  return { states: [init, st], transients: { _b_value: { dtype: b.dtype, shape: ['1'], strides: ['1'] } } };
}
