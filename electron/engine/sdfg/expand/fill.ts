/**
 * The data-movement nodes of DaCe's standard library, expanded as their pure (mapped-tasklet) expansions do:
 * MemsetLibraryNode (a zero over its output subset; FillLibraryNode, its later name, writes its constant
 * `value`) and CopyLibraryNode (element for element from its input subset to its output subset; the explicit
 * MemoryMovementNode of DaCe's soft_hier flow is the same copy). Each becomes one map over the squeezed subset
 * whose tasklet writes each element; inside a GPU kernel the map is a loop of each thread, as DaCe's mapped
 * tasklet runs in-kernel copies Sequential.
 */
import type { LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole } from './graph-json.js';
import type { Expansion, ExpansionSite, Operand } from './operand.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);

type Sym = (name: string) => string;

/** Why the node cannot be expanded where it is, or null. */
function placeProblem(node: LibraryNode, ops: Operand[], site: ExpansionSite): string | null {
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  // On the host DaCe moves GPU memory with cudaMemcpy/cudaMemset or a GPU_Device map, not a host loop.
  const gpu = ops.find((o) => o.desc.storage.startsWith('GPU'));
  if (gpu && !site.inKernel) return `'${gpu.edge.memlet.data ?? ''}' is ${gpu.desc.storage} memory outside a kernel (not expanded)`;
  return null;
}

/** The constant a fill node writes as Python source, or why it cannot be written. */
function fillValue(node: LibraryNode): string | { problem: string } {
  const raw = node.attributes['value'];
  if (raw === undefined || raw === null) return '0';
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : { problem: `value ${String(raw)} is not a finite number` };
  if (typeof raw === 'boolean') return raw ? 'True' : 'False';
  if (typeof raw === 'string' && Number.isFinite(Number(raw)) && raw.trim() !== '') return String(Number(raw));
  return { problem: `value ${JSON.stringify(raw)} is not a number` };
}

function elementMap(st: StateJson, node: LibraryNode, site: ExpansionSite, shape: string[], through: { ins: string[]; outs: string[] }) {
  return st.map(
    {
      label: node.className.toLowerCase(),
      params: shape.map((_, i) => `_i${i}`),
      ranges: shape.map((s) => ({ start: '0', end: `${s} - 1` })),
      schedule: site.inKernel ? 'Sequential' : node.schedule,
    },
    through,
    null,
  );
}

export function fillStates(node: LibraryNode, out: Operand, sym: Sym, site: ExpansionSite): Expansion | string {
  const problem = placeProblem(node, [out], site);
  if (problem !== null) return problem;
  const value = fillValue(node);
  if (typeof value !== 'string') return value.problem;
  const st = new StateJson(node.className.toLowerCase());
  const w = st.access('_out');
  const m = elementMap(st, node, site, out.shape, { ins: [], outs: ['_out'] });
  const t = st.tasklet('fill', `__out = ${value}`, [], ['__out'], m.entry);
  st.edge(m.entry, null, t, null, { type: 'Memlet', attributes: {} });
  st.edge(t, '__out', m.exit, 'IN__out', memlet('_out', at(out.shape.map((_, i) => sym(`_i${i}`)))));
  st.edge(m.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape)));
  return { states: [st] };
}

export function copyStates(node: LibraryNode, inp: Operand, out: Operand, sym: Sym, site: ExpansionSite): Expansion | string {
  const problem = placeProblem(node, [inp, out], site);
  if (problem !== null) return problem;
  if (inp.shape.length !== out.shape.length)
    return `it reshapes ${inp.shape.length} dimensions into ${out.shape.length} (only copies of equal rank are expanded)`;
  if (inp.dtype !== out.dtype) return `it copies ${inp.dtype} into ${out.dtype}`;
  const st = new StateJson(node.className.toLowerCase());
  const r = st.access('_in');
  const w = st.access('_out');
  const m = elementMap(st, node, site, inp.shape, { ins: ['_in'], outs: ['_out'] });
  const t = st.tasklet('copy', '__out = __inp', ['__inp'], ['__out'], m.entry);
  const index = at(inp.shape.map((_, i) => sym(`_i${i}`)));
  st.edge(r, null, m.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  st.edge(m.entry, 'OUT__in', t, '__inp', memlet('_in', index));
  st.edge(t, '__out', m.exit, 'IN__out', memlet('_out', index));
  st.edge(m.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape)));
  return { states: [st] };
}
