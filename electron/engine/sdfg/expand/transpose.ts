/**
 * Transpose, expanded as DaCe's ExpandTransposePure does: one map over the input's two dimensions whose
 * tasklet copies `_in[i, j]` to `_out[j, i]`.
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole } from './graph-json.js';
import type { Operand } from './operand.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);

export function transposeStates(
  node: LibraryNode,
  inp: Operand,
  out: Operand,
  sym: (name: string) => string,
): { states: StateJson[] } | string {
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  if (inp.kept.length !== 2 || out.kept.length !== 2) return 'its input and output are not both two-dimensional';
  const st = new StateJson('transpose');
  const r = st.access('_in');
  const w = st.access('_out');
  const m = st.map(
    {
      label: 'transpose',
      params: ['_i0', '_i1'],
      ranges: inp.shape.map((s) => ({ start: '0', end: `${s} - 1` })),
      schedule: node.schedule,
    },
    { ins: ['_in'], outs: ['_out'] },
    null,
  );
  const t = st.tasklet('transpose', '__out = __inp', ['__inp'], ['__out'], m.entry);
  st.edge(r, null, m.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  st.edge(m.entry, 'OUT__in', t, '__inp', memlet('_in', at([sym('_i0'), sym('_i1')])));
  st.edge(t, '__out', m.exit, 'IN__out', memlet('_out', at([sym('_i1'), sym('_i0')])));
  st.edge(m.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape)));
  return { states: [st] };
}
