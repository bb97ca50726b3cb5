/**
 * Test helper: small DaCe-shaped SDFG documents built in code — states of one map (`i` over [0, N)) around one
 * tasklet, as DaCe's Python frontend lays them out (access node → MapEntry → tasklet → MapExit → access node).
 */
import { sdfgEnvelope } from '../../../bench/lib/construct-sdfg.js';

interface ArraySpec {
  shape: string[];
  dtype?: string;
  transient?: boolean;
}

interface ConnectorSpec {
  conn: string;
  data: string;
  /** Inner memlet subset, one `start:end` or index per dimension (e.g. `['3', 'i']`, `['0:N-1']`). */
  index: string[];
  /** Connector type as DaCe writes it in in_connectors/out_connectors (`'float64'`, `{ type: 'pointer', dtype:
   * 'int32' }`); null = inferred. */
  type?: unknown;
}

interface MapTaskletSpec {
  label: string;
  inputs: ConnectorSpec[];
  outputs: ConnectorSpec[];
  code: string;
  language?: 'Python' | 'CPP';
}

export interface SdfgSpec {
  name: string;
  arrays: Record<string, ArraySpec>;
  states: MapTaskletSpec[];
  /** SDFG attributes added as they are (global_code, init_code, exit_code, …). */
  attributes?: Record<string, unknown>;
  /** GPU program: every container GPU_Global, every map a GPU_Device kernel. */
  gpu?: boolean;
}

const range = (dim: string) => {
  const [start, end] = dim.includes(':') ? dim.split(':') : [dim, dim];
  return { start: start!, end: end!, step: '1', tile: '1' };
};
const memlet = (data: string, dims: string[]) => ({
  type: 'Memlet',
  attributes: { data, subset: { type: 'Range', ranges: dims.map(range) } },
});
const edge = (src: number, dst: number, srcConn: string | null, dstConn: string | null, m: object) => ({
  type: 'MultiConnectorEdge',
  attributes: { data: m },
  src: String(src),
  dst: String(dst),
  src_connector: srcConn,
  dst_connector: dstConn,
});

function mapState(spec: MapTaskletSpec, id: number, arrays: Record<string, ArraySpec>, gpu: boolean): object {
  const whole = (data: string) => arrays[data]!.shape.map((s) => `0:${s} - 1`);
  const ins = [...new Set(spec.inputs.map((c) => c.data))];
  const outs = [...new Set(spec.outputs.map((c) => c.data))];
  const nodes: object[] = [
    {
      type: 'MapEntry',
      label: spec.label,
      attributes: {
        label: spec.label,
        params: ['i'],
        range: { type: 'Range', ranges: [range('0:N - 1')] },
        schedule: gpu ? 'GPU_Device' : 'Sequential',
        in_connectors: Object.fromEntries(ins.map((d) => [`IN_${d}`, null])),
        out_connectors: Object.fromEntries(ins.map((d) => [`OUT_${d}`, null])),
      },
      scope_entry: null,
      scope_exit: '1',
      id: 0,
    },
    {
      type: 'MapExit',
      label: spec.label,
      attributes: {
        in_connectors: Object.fromEntries(outs.map((d) => [`IN_${d}`, null])),
        out_connectors: Object.fromEntries(outs.map((d) => [`OUT_${d}`, null])),
      },
      scope_entry: '0',
      scope_exit: '1',
      id: 1,
    },
    {
      type: 'Tasklet',
      label: `${spec.label}_t`,
      attributes: {
        code: { string_data: spec.code, language: spec.language ?? 'Python' },
        label: `${spec.label}_t`,
        in_connectors: Object.fromEntries(spec.inputs.map((c) => [c.conn, c.type ?? null])),
        out_connectors: Object.fromEntries(spec.outputs.map((c) => [c.conn, c.type ?? null])),
      },
      scope_entry: '0',
      scope_exit: null,
      id: 2,
    },
  ];
  const edges: object[] = [];
  const access = (data: string) => {
    const nid = nodes.length;
    nodes.push({ type: 'AccessNode', label: data, attributes: { data }, id: nid, scope_entry: null, scope_exit: null });
    return nid;
  };
  for (const d of ins) edges.push(edge(access(d), 0, null, `IN_${d}`, memlet(d, whole(d))));
  for (const c of spec.inputs) edges.push(edge(0, 2, `OUT_${c.data}`, c.conn, memlet(c.data, c.index)));
  for (const c of spec.outputs) edges.push(edge(2, 1, c.conn, `IN_${c.data}`, memlet(c.data, c.index)));
  for (const d of outs) edges.push(edge(1, access(d), `OUT_${d}`, null, memlet(d, whole(d))));
  return { type: 'SDFGState', label: spec.label, id, collapsed: false, nodes, edges, attributes: {} };
}

/** The SDFG document (JSON text) for `spec`: its states run in order. */
export function sdfgText(spec: SdfgSpec): string {
  const arrays = Object.fromEntries(
    Object.entries(spec.arrays).map(([name, a]) => [
      name,
      {
        type: 'Array',
        attributes: {
          dtype: a.dtype ?? 'float64',
          shape: a.shape,
          transient: a.transient ?? false,
          ...(spec.gpu ? { storage: 'GPU_Global' } : {}),
        },
      },
    ]),
  );
  return sdfgEnvelope(
    { name: spec.name, _arrays: arrays, symbols: { N: 'int32' }, ...spec.attributes },
    spec.states.map((s, i) => mapState(s, i, spec.arrays, spec.gpu ?? false)),
  );
}
