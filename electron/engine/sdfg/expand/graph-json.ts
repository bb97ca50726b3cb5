/**
 * Builds the JSON of the small SDFGs that library expansions produce, in DaCe's own serialization, so that
 * the parser (normalise.ts) turns them into model objects exactly as it would a file written by DaCe.
 */

type Json = Record<string, unknown>;

export interface Dim {
  start: string;
  end: string;
}

function range(dims: readonly Dim[]): Json {
  return { type: 'Range', ranges: dims.map((d) => ({ start: d.start, end: d.end, step: '1', tile: '1' })) };
}

export interface MemletOptions {
  wcr?: string;
  /** DaCe's `wcr_nonatomic`: no two threads combine into the same element. */
  nonatomic?: boolean;
  other?: readonly Dim[];
}

export function memlet(data: string, dims: readonly Dim[], opts: MemletOptions = {}): Json {
  const attributes: Json = { data, subset: range(dims) };
  if (opts.wcr !== undefined) attributes['wcr'] = opts.wcr;
  if (opts.nonatomic) attributes['wcr_nonatomic'] = true;
  if (opts.other !== undefined) attributes['other_subset'] = range(opts.other);
  return { type: 'Memlet', attributes };
}

/** Every element of an array of this shape. */
export function whole(shape: readonly string[]): Dim[] {
  return shape.map((s) => ({ start: '0', end: s === '1' ? '0' : `${s} - 1` }));
}

/** One index per dimension. */
export function at(indices: readonly string[]): Dim[] {
  return indices.map((i) => ({ start: i, end: i }));
}

export interface MapSpec {
  label: string;
  params: string[];
  /** Inclusive ranges, one per parameter. */
  ranges: Dim[];
  schedule: string;
}

/** One state's nodes and memlet edges, with DaCe's scope fields filled in. */
export class StateJson {
  private readonly nodes: Json[] = [];
  private readonly edges: Json[] = [];

  constructor(private readonly label: string) {}

  access(data: string, scope: number | null = null): number {
    return this.add({ type: 'AccessNode', label: data, attributes: { data } }, scope);
  }

  tasklet(label: string, code: string, ins: string[], outs: string[], scope: number | null): number {
    const attributes = {
      label,
      code: { string_data: code, language: 'Python' },
      in_connectors: Object.fromEntries(ins.map((c) => [c, null])),
      out_connectors: Object.fromEntries(outs.map((c) => [c, null])),
    };
    return this.add({ type: 'Tasklet', label, attributes }, scope);
  }

  /** A C++ tasklet whose connectors carry DaCe dtypes (`{ type: 'pointer', dtype }` for a pointer connector). */
  cppTasklet(label: string, code: string, ins: Record<string, unknown>, outs: Record<string, unknown>): number {
    const attributes = { label, code: { string_data: code, language: 'CPP' }, in_connectors: ins, out_connectors: outs };
    return this.add({ type: 'Tasklet', label, attributes }, null);
  }

  /** A map's entry and exit; connectors `IN_x`/`OUT_x` for each container passing through, and the entry's
   * dynamic range inputs (`through.dynamic`: connectors its range names as symbols). */
  map(
    spec: MapSpec,
    through: { ins: string[]; outs: string[]; dynamic?: string[] },
    scope: number | null,
  ): { entry: number; exit: number } {
    const conns = (names: string[]) => ({
      in_connectors: Object.fromEntries(names.map((n) => [`IN_${n}`, null])),
      out_connectors: Object.fromEntries(names.map((n) => [`OUT_${n}`, null])),
    });
    const entryConns = conns(through.ins);
    for (const d of through.dynamic ?? []) entryConns.in_connectors[d] = null;
    const entry = this.add(
      {
        type: 'MapEntry',
        label: spec.label,
        attributes: { label: spec.label, params: spec.params, range: range(spec.ranges), schedule: spec.schedule, ...entryConns },
      },
      scope,
    );
    const exit = this.add({ type: 'MapExit', label: spec.label, attributes: conns(through.outs) }, entry);
    this.nodes[entry]!['scope_exit'] = String(exit);
    this.nodes[exit]!['scope_exit'] = String(exit);
    return { entry, exit };
  }

  edge(src: number, srcConn: string | null, dst: number, dstConn: string | null, m: Json): void {
    this.edges.push({
      type: 'MultiConnectorEdge',
      attributes: { data: m },
      src: String(src),
      dst: String(dst),
      src_connector: srcConn,
      dst_connector: dstConn,
    });
  }

  json(id: number): Json {
    return { type: 'SDFGState', label: this.label, id, nodes: this.nodes, edges: this.edges, attributes: {} };
  }

  private add(node: Json, scope: number | null): number {
    const id = this.nodes.length;
    this.nodes.push({ ...node, id, scope_entry: scope === null ? null : String(scope), scope_exit: null });
    return id;
  }
}

export interface ArraySpec {
  dtype: string;
  shape: string[];
  strides: string[];
  transient?: boolean;
}

/** An SDFG of states run one after the other. */
export function sdfgJson(name: string, arrays: Record<string, ArraySpec>, symbols: Record<string, string>, states: StateJson[]): Json {
  const descriptors: Json = {};
  for (const [n, a] of Object.entries(arrays)) {
    descriptors[n] = { type: 'Array', attributes: { dtype: a.dtype, shape: a.shape, strides: a.strides, transient: a.transient ?? false } };
  }
  const edges = states.slice(1).map((_, i) => ({
    type: 'Edge',
    attributes: { data: { type: 'InterstateEdge', attributes: {} } },
    src: String(i),
    dst: String(i + 1),
  }));
  return {
    type: 'SDFG',
    attributes: { name, _arrays: descriptors, symbols },
    nodes: states.map((s, i) => s.json(i)),
    edges,
    start_block: 0,
  };
}
