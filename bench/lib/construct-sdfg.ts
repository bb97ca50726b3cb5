/**
 * DaCe-shaped SDFG documents built in code for the `constructs` bench section: states of access nodes, library
 * nodes, one-level maps and tasklets, laid out as DaCe's Python frontend saves them (the same JSON the corpus
 * holds), run one after the other.
 */

export interface ArraySpec {
  shape: string[];
  dtype?: string;
  transient?: boolean;
  /** `ArrayView` for a view; default `Array`. */
  type?: string;
  /** Elements between neighbours per dimension (a view's are its array's); default C order. */
  strides?: string[];
}

/** `a:b` (inclusive, as DaCe's Range writes it) or one index per dimension. */
const range = (dim: string) => {
  const [start, end] = dim.includes(':') ? dim.split(':') : [dim, dim];
  return { start: start!.trim(), end: end!.trim(), step: '1', tile: '1' };
};

export interface EdgeExtra {
  wcr?: string;
}

/** One state: add nodes (each returns its id), then the edges between them. */
export class StateBuilder {
  readonly nodes: Array<Record<string, unknown>> = [];
  readonly edges: object[] = [];
  /** The map entry whose scope the next nodes are in (null: the top level). */
  private scope: number | null = null;

  constructor(readonly label: string) {}

  private add(node: Record<string, unknown>): number {
    const id = this.nodes.length;
    this.nodes.push({ ...node, id, scope_entry: node.scope_entry ?? (this.scope === null ? null : String(this.scope)) });
    return id;
  }

  access(data: string): number {
    return this.add({ type: 'AccessNode', label: data, attributes: { data }, scope_exit: null });
  }

  library(classpath: string, name: string, attributes: Record<string, unknown>, ins: string[], outs: string[]): number {
    const conn = (cs: string[]) => Object.fromEntries(cs.map((c) => [c, null]));
    return this.add({
      type: 'LibraryNode',
      label: name,
      classpath,
      attributes: { name, ...attributes, in_connectors: conn(ins), out_connectors: conn(outs) },
      scope_exit: null,
    });
  }

  /** A map over `params` × `ranges` passing `ins`/`outs` (data names) through IN_/OUT_ connectors; nodes added
   * until `endMap` are inside it. */
  map(
    label: string,
    params: string[],
    ranges: string[],
    ins: string[],
    outs: string[],
    schedule = 'Default',
  ): { entry: number; exit: number } {
    const conn = (p: string, ds: string[]) => Object.fromEntries(ds.map((d) => [`${p}_${d}`, null]));
    const entry = this.nodes.length;
    const exit = entry + 1;
    this.add({
      type: 'MapEntry',
      label,
      attributes: {
        label,
        params,
        range: { type: 'Range', ranges: ranges.map(range) },
        schedule,
        in_connectors: conn('IN', ins),
        out_connectors: conn('OUT', ins),
      },
      scope_exit: String(exit),
    });
    this.add({
      type: 'MapExit',
      label,
      attributes: { in_connectors: conn('IN', outs), out_connectors: conn('OUT', outs) },
      scope_entry: String(entry),
      scope_exit: String(exit),
    });
    this.scope = entry;
    return { entry, exit };
  }

  endMap(): void {
    this.scope = null;
  }

  tasklet(label: string, code: string, ins: string[], outs: string[]): number {
    const conn = (cs: string[]) => Object.fromEntries(cs.map((c) => [c, null]));
    return this.add({
      type: 'Tasklet',
      label,
      attributes: { label, code: { string_data: code, language: 'Python' }, in_connectors: conn(ins), out_connectors: conn(outs) },
      scope_exit: null,
    });
  }

  edge(
    src: number,
    srcConn: string | null,
    dst: number,
    dstConn: string | null,
    data: string,
    subset: string[],
    extra: EdgeExtra = {},
  ): void {
    this.edges.push({
      type: 'MultiConnectorEdge',
      attributes: {
        data: {
          type: 'Memlet',
          attributes: { data, subset: { type: 'Range', ranges: subset.map(range) }, ...(extra.wcr ? { wcr: extra.wcr } : {}) },
        },
      },
      src: String(src),
      dst: String(dst),
      src_connector: srcConn,
      dst_connector: dstConn,
    });
  }

  toJson(id: number): object {
    return { type: 'SDFGState', label: this.label, id, collapsed: false, nodes: this.nodes, edges: this.edges, attributes: {} };
  }
}

/** The SDFG document (JSON text): its states run in order. */
export function sdfgText(name: string, arrays: Record<string, ArraySpec>, symbols: Record<string, string>, states: StateBuilder[]): string {
  const descs = Object.fromEntries(
    Object.entries(arrays).map(([n, a]) => [
      n,
      {
        type: a.type ?? 'Array',
        attributes: {
          dtype: a.dtype ?? 'float64',
          shape: a.shape,
          transient: a.transient ?? false,
          ...(a.strides ? { strides: a.strides } : {}),
        },
      },
    ]),
  );
  return sdfgEnvelope(
    { name, _arrays: descs, symbols },
    states.map((s, i) => s.toJson(i)),
  );
}

/** The root SDFG around `states`, run one after another (an unconditional interstate edge between neighbours). */
export function sdfgEnvelope(attributes: Record<string, unknown>, states: object[]): string {
  return JSON.stringify({
    type: 'SDFG',
    attributes,
    nodes: states,
    edges: states.slice(1).map((_, i) => ({
      type: 'Edge',
      attributes: { data: { type: 'InterstateEdge', attributes: {} } },
      src: String(i),
      dst: String(i + 1),
    })),
    start_block: 0,
    collapsed: false,
    label: '',
    id: null,
    cfg_list_id: 0,
    dace_version: '1.0.0',
  });
}
