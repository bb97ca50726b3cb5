/**
 * FFT and IFFT, expanded as DaCe's pure expansions compute them (`dft_explicit`/`idft_explicit`, a naive
 * discrete Fourier transform): the output zeroed, then `_out[i] += factor · e^(∓2πi·i·n/N) · _inp[n]` for every
 * pair (i, n). As with Reduce, the n axis is a Sequential loop inside the map over i, so the sum needs no
 * atomics. DaCe expands one-dimensional containers only, and so does this.
 */
import type { Grammar, LibraryNode } from '../../model/sdfg.js';
import { at, memlet, StateJson, whole } from './graph-json.js';
import type { Expansion, Operand } from './operand.js';

const SCHEDULES = new Set(['Default', 'Sequential', 'CPU_Multicore']);
const SUM = '(lambda a, b: (a + b))';

/** `factor` as a floating-point literal (std::complex<double> has no product with int), or null when it is
 * not a number. */
function factorOf(raw: unknown): string | null {
  const value = raw === undefined || raw === null ? 1 : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** A size as tasklet (Python) code: symbols are plain names there, in either grammar. */
function tasklet(size: string, grammar: Grammar): string {
  return grammar === 'typed' ? size.replace(/\$([A-Za-z_]\w*)/g, '$1') : size;
}

export function fftStates(
  node: LibraryNode,
  inp: Operand,
  out: Operand,
  sym: (name: string) => string,
  grammar: Grammar,
  inverse: boolean,
): Expansion | string {
  if (!SCHEDULES.has(node.schedule)) return `schedule ${node.schedule} is not expanded`;
  for (const op of [inp, out]) {
    const rank = op.desc.shape.length;
    if (rank !== 1 || op.kept.length !== 1)
      return `DaCe's pure ${node.className} expansion handles one-dimensional data only ('${op.edge.memlet.data ?? ''}' has ${rank} dimensions)`;
  }
  if (!out.dtype.startsWith('complex')) return `its output is ${out.dtype}, not complex`;
  const factor = factorOf(node.attributes['factor']);
  if (factor === null) return `factor ${JSON.stringify(node.attributes['factor'])} is not a number (symbolic factors are not expanded)`;
  const n = inp.shape[0]!;
  const i = sym('_o0');
  const k = sym('_k');

  const init = new StateJson(`${node.className.toLowerCase()}_init`);
  const w0 = init.access('_out');
  const m0 = init.map(
    { label: 'init', params: ['_o0'], ranges: [{ start: '0', end: `${n} - 1` }], schedule: node.schedule },
    { ins: [], outs: ['_out'] },
    null,
  );
  const t0 = init.tasklet('init', '__out = 0', [], ['__out'], m0.entry);
  init.edge(m0.entry, null, t0, null, { type: 'Memlet', attributes: {} });
  init.edge(t0, '__out', m0.exit, 'IN__out', memlet('_out', at([i])));
  init.edge(m0.exit, 'OUT__out', w0, null, memlet('_out', whole(out.shape)));

  const st = new StateJson(node.className.toLowerCase());
  const r = st.access('_in');
  const w = st.access('_out');
  const through = { ins: ['_in'], outs: ['_out'] };
  const outer = st.map(
    { label: 'dft_out', params: ['_o0'], ranges: [{ start: '0', end: `${n} - 1` }], schedule: node.schedule },
    through,
    null,
  );
  const inner = st.map(
    { label: 'dft_in', params: ['_k'], ranges: [{ start: '0', end: `${n} - 1` }], schedule: 'Sequential' },
    through,
    outer.entry,
  );
  const exponent = `((((2 * math.pi) * _o0) * _k) / (${tasklet(n, grammar)}))`;
  const sin = inverse ? `math.sin(${exponent})` : `(- math.sin(${exponent}))`;
  const code = `__out = ((complex(math.cos(${exponent}), ${sin}) * dace.complex128(__inp)) * ${factor})`;
  const t = st.tasklet('dft', code, ['__inp'], ['__out'], inner.entry);
  const red = { wcr: SUM, nonatomic: out.edge.memlet.wcr === null };
  st.edge(r, null, outer.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  st.edge(outer.entry, 'OUT__in', inner.entry, 'IN__in', memlet('_in', whole(inp.shape)));
  st.edge(inner.entry, 'OUT__in', t, '__inp', memlet('_in', at([k])));
  st.edge(t, '__out', inner.exit, 'IN__out', memlet('_out', at([i]), red));
  st.edge(inner.exit, 'OUT__out', outer.exit, 'IN__out', memlet('_out', at([i]), red));
  st.edge(outer.exit, 'OUT__out', w, null, memlet('_out', whole(out.shape), red));
  return { states: [init, st] };
}
