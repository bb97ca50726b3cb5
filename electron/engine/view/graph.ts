/**
 * Drawable view models of an SDFG, one region at a time (docs/graph.md). The renderer asks for the root, gets
 * its blocks collapsed with summaries, and asks again for whatever the user expands: building a region costs
 * what it shows (plus, once per element, the summary of what a collapsed child holds), never a pass over the
 * file. The hosts call `graphRegion` / `searchGraph` on the parsed file they keep per doc.
 */
import { TlabError } from '../errors.js';
import type {
  ConditionalBlockModel,
  ControlFlowBlock,
  DataflowNode,
  LoopBlock,
  MapEntryNode,
  ConsumeEntryNode,
  RegionBlock,
  Sdfg,
  SdfgFile,
  StateBlock,
} from '../model/sdfg.js';
import type { GraphEdge, GraphNode, GraphRegion, GraphRegionKind, MemletEdgeView, RegionId, SearchHit } from './types.js';
import { clip, codePreview, mapParams, memletLabel, SymText, wcrName } from './graph-labels.js';
import { stateScopes, TOP, type Endpoint, type Level } from './graph-scopes.js';
import { Summaries, transientId, lookupDescriptor } from './graph-summary.js';
import { searchElements } from './graph-search.js';
import { dtypeName } from '../analysis/sizes.js';

/** What a RegionId stands for. */
type Element =
  | { kind: 'cfg'; sdfg: Sdfg; block: RegionBlock | LoopBlock }
  | { kind: 'conditional'; sdfg: Sdfg; block: ConditionalBlockModel }
  | { kind: 'state'; sdfg: Sdfg; state: StateBlock }
  | { kind: 'scope'; sdfg: Sdfg; state: StateBlock; entry: MapEntryNode | ConsumeEntryNode }
  /** A NestedSDFG node: its region is the embedded SDFG's control flow. */
  | { kind: 'nested'; sdfg: Sdfg; inner: Sdfg };

const ROOT_REGION: RegionId = '$';

/** Per-file state of the graph view: which ids name what, memoised summaries and label printing. */
class GraphModel {
  readonly sym: SymText;
  readonly summaries: Summaries;
  private readonly elements = new Map<RegionId, Element>();
  private indexed = false;

  constructor(readonly file: SdfgFile) {
    this.sym = new SymText(file.grammar);
    this.summaries = new Summaries();
    this.elements.set(ROOT_REGION, { kind: 'cfg', sdfg: file.root, block: file.root.body });
  }

  /** The drawable content of one region; `null` = the root SDFG. */
  region(id: RegionId | null): GraphRegion {
    const key = id ?? ROOT_REGION;
    const el = this.lookup(key);
    switch (el.kind) {
      case 'cfg':
        return this.cfgRegion(key, el.sdfg, el.block, el.block.label);
      case 'nested':
        return this.cfgRegion(key, el.inner, el.inner.body, el.inner.name);
      case 'conditional':
        return this.conditionalRegion(key, el.sdfg, el.block);
      case 'state':
        return this.dataflowRegion(key, 'state', el.sdfg, el.state, TOP, el.state.label);
      case 'scope':
        return this.dataflowRegion(key, 'scope', el.sdfg, el.state, el.entry.id, el.entry.label);
    }
  }

  search(query: string, limit: number): SearchHit[] {
    this.indexAll();
    return searchElements(this.file, this.sym, query, limit);
  }

  /** Every expandable element of the file, registered once (search and ids the renderer got elsewhere). */
  indexAll(): void {
    if (this.indexed) return;
    this.indexed = true;
    for (const sdfg of this.file.sdfgs) this.indexCfg(sdfg, sdfg.body);
  }

  register(id: RegionId, el: Element): void {
    this.elements.set(id, el);
  }

  private lookup(id: RegionId): Element {
    let el = this.elements.get(id);
    if (!el && !this.indexed) {
      this.indexAll();
      el = this.elements.get(id);
    }
    if (!el) {
      throw new TlabError(
        'usage',
        `the graph has no expandable element "${clip(id, 200)}" (a state, region, loop, branch, scope or nested SDFG)`,
        {
          file: this.file.path,
          jsonPath: id.startsWith('$') ? id : null,
        },
      );
    }
    return el;
  }

  private indexCfg(sdfg: Sdfg, block: RegionBlock | LoopBlock): void {
    for (const b of block.blocks) {
      this.registerBlock(sdfg, b);
      if (b.kind === 'region' || b.kind === 'loop') this.indexCfg(sdfg, b);
      else if (b.kind === 'conditional') for (const br of b.branches) this.indexCfg(sdfg, br.body);
      else if (b.kind === 'state') {
        for (const n of b.nodes) {
          if (n.kind === 'map_entry' || n.kind === 'consume_entry') this.register(n.jsonPath, { kind: 'scope', sdfg, state: b, entry: n });
          // Nested SDFGs index themselves through `file.sdfgs`.
          else if (n.kind === 'nested_sdfg' && n.sdfg) this.register(n.jsonPath, { kind: 'nested', sdfg, inner: n.sdfg });
        }
      }
    }
  }

  private registerBlock(sdfg: Sdfg, b: ControlFlowBlock): void {
    if (b.kind === 'region' || b.kind === 'loop') this.register(b.jsonPath, { kind: 'cfg', sdfg, block: b });
    else if (b.kind === 'state') this.register(b.jsonPath, { kind: 'state', sdfg, state: b });
    else if (b.kind === 'conditional') {
      this.register(b.jsonPath, { kind: 'conditional', sdfg, block: b });
      for (const br of b.branches) this.register(br.body.jsonPath, { kind: 'cfg', sdfg, block: br.body });
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Control flow
  // -------------------------------------------------------------------------------------------------------

  private cfgRegion(id: RegionId, sdfg: Sdfg, block: RegionBlock | LoopBlock, label: string): GraphRegion {
    const nodes: GraphNode[] = block.blocks.map((b, i) => this.blockNode(sdfg, b, i === block.start));
    const edges: GraphEdge[] = [];
    for (const e of block.edges) {
      const src = block.blocks[e.src];
      const dst = block.blocks[e.dst];
      if (!src || !dst) continue;
      const condition = e.condition.trim() === '1' || e.condition.trim() === 'True' ? null : e.condition.trim();
      const parts = [...(condition === null ? [] : [condition]), ...e.assignments.map(([k, v]) => `${k} = ${v}`)];
      edges.push({
        kind: 'interstate',
        id: e.jsonPath,
        src: src.jsonPath,
        dst: dst.jsonPath,
        label: parts.join('; '),
        condition,
        assignments: e.assignments,
      });
    }
    return this.regionOf(id, 'cfg', sdfg, label, nodes, edges);
  }

  private conditionalRegion(id: RegionId, sdfg: Sdfg, block: ConditionalBlockModel): GraphRegion {
    const nodes: GraphNode[] = block.branches.map((br) => {
      this.register(br.body.jsonPath, { kind: 'cfg', sdfg, block: br.body });
      return {
        kind: 'branch',
        id: br.body.jsonPath,
        label: br.condition === null ? 'else' : `if ${br.condition}`,
        condition: br.condition,
        expand: br.body.jsonPath,
        summary: this.summaries.cfg(sdfg, br.body),
      };
    });
    return this.regionOf(id, 'conditional', sdfg, block.label, nodes, []);
  }

  private blockNode(sdfg: Sdfg, b: ControlFlowBlock, start: boolean): GraphNode {
    this.registerBlock(sdfg, b);
    const base = { id: b.jsonPath, label: b.label };
    switch (b.kind) {
      case 'state': {
        // An empty state has nothing to open.
        const open = b.nodes.length > 0;
        return { ...base, kind: 'state', start, expand: open ? b.jsonPath : null, summary: open ? this.summaries.state(sdfg, b) : null };
      }
      case 'region': {
        const open = b.blocks.length > 0;
        return {
          ...base,
          kind: 'region',
          start,
          regionType: b.type,
          expand: open ? b.jsonPath : null,
          summary: open ? this.summaries.cfg(sdfg, b) : null,
        };
      }
      case 'loop':
        return {
          ...base,
          kind: 'loop',
          start,
          variable: b.loopVariable,
          init: b.init,
          condition: b.condition,
          update: b.update,
          inverted: b.inverted,
          expand: b.jsonPath,
          summary: this.summaries.cfg(sdfg, b),
        };
      case 'conditional':
        return {
          ...base,
          kind: 'conditional',
          start,
          conditions: b.branches.map((br) => br.condition),
          expand: b.jsonPath,
          summary: this.summaries.conditional(sdfg, b),
        };
      default:
        return { ...base, kind: b.kind, start, expand: null, summary: null };
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Dataflow
  // -------------------------------------------------------------------------------------------------------

  private dataflowRegion(id: RegionId, kind: GraphRegionKind, sdfg: Sdfg, state: StateBlock, level: Level, label: string): GraphRegion {
    const scopes = stateScopes(state);
    const nodes = (scopes.nodes.get(level) ?? []).map((i) => this.dataflowNode(sdfg, state, state.nodes[i]!));
    const endpoint = (ep: Endpoint): string => (ep.kind === 'boundary' ? id : state.nodes[ep.node]!.jsonPath);
    const edges: MemletEdgeView[] = (scopes.edges.get(level) ?? []).map(({ edge, src, dst }) => {
      const m = edge.memlet;
      return {
        kind: 'memlet',
        id: edge.jsonPath,
        src: endpoint(src),
        dst: endpoint(dst),
        srcConnector: edge.srcConnector,
        dstConnector: edge.dstConnector,
        label: memletLabel(m, this.sym),
        data: m.data,
        volume: this.sym.show(m.volume),
        dynamic: m.dynamic,
        wcr: m.wcr === null ? null : wcrName(m.wcr),
        transient: m.data === null ? null : transientId(sdfg, m.data),
      };
    });
    return this.regionOf(id, kind, sdfg, label, nodes, edges);
  }

  private dataflowNode(sdfg: Sdfg, state: StateBlock, n: DataflowNode): GraphNode {
    const base = {
      id: n.jsonPath,
      label: n.label,
      inConnectors: Object.keys(n.inConnectors),
      outConnectors: Object.keys(n.outConnectors),
      expand: null,
      summary: null,
    };
    switch (n.kind) {
      case 'access': {
        const desc = lookupDescriptor(sdfg, n.data);
        return {
          ...base,
          kind: 'access',
          label: n.data,
          data: n.data,
          transient: transientId(sdfg, n.data),
          storage: desc?.storage ?? null,
          descriptor: desc ? { type: desc.type, dtype: dtypeName(desc.dtype), shape: desc.shape.map((s) => this.sym.show(s)) } : null,
        };
      }
      case 'tasklet': {
        const preview = codePreview(n.code.code);
        return { ...base, kind: 'tasklet', language: n.code.language, code: preview.text, codeLines: preview.lines };
      }
      case 'map_entry':
      case 'consume_entry': {
        this.register(n.jsonPath, { kind: 'scope', sdfg, state, entry: n });
        const scopes = stateScopes(state);
        const exitIdx = scopes.exitOf(n.id);
        const exit = exitIdx === null ? null : state.nodes[exitIdx]!;
        const isMap = n.kind === 'map_entry';
        return {
          ...base,
          kind: isMap ? 'map' : 'consume',
          label: isMap ? n.map.label : n.label,
          params: isMap ? mapParams(n.map.params, n.map.range, this.sym) : [`${n.peIndex} = 0:${this.sym.show(n.numPes)}`],
          schedule: isMap ? n.map.schedule : n.schedule,
          inConnectors: base.inConnectors,
          outConnectors: exit ? Object.keys(exit.outConnectors) : [],
          entryOut: base.outConnectors,
          exitIn: exit ? Object.keys(exit.inConnectors) : [],
          exitId: exit?.jsonPath ?? null,
          expand: n.jsonPath,
          summary: this.summaries.scope(sdfg, state, n.id),
        };
      }
      case 'nested_sdfg': {
        const inner = n.sdfg;
        if (inner) this.register(n.jsonPath, { kind: 'nested', sdfg, inner });
        return {
          ...base,
          kind: 'nested_sdfg',
          sdfg: inner?.sdfgIndex ?? null,
          symbolMapping: Object.entries(n.symbolMapping).map(([k, v]) => `${k} = ${this.sym.show(v)}`),
          expand: inner ? n.jsonPath : null,
          summary: inner ? this.summaries.cfg(inner, inner.body) : null,
          ...(n.deferred ? { deferred: true as const } : {}),
        };
      }
      case 'library':
        return { ...base, kind: 'library', className: n.className, implementation: n.implementation };
      case 'unknown':
        return { ...base, kind: 'unknown', type: n.type };
      case 'map_exit':
      case 'consume_exit':
        // An exit whose entry is missing: drawn as a plain node so that its edges still show.
        return { ...base, kind: 'unknown', type: n.kind === 'map_exit' ? 'MapExit' : 'ConsumeExit' };
    }
  }

  private regionOf(id: RegionId, kind: GraphRegionKind, sdfg: Sdfg, label: string, nodes: GraphNode[], edges: GraphEdge[]): GraphRegion {
    return { id, kind, sdfg: sdfg.sdfgIndex, label, nodes, edges };
  }
}

const models = new WeakMap<SdfgFile, GraphModel>();

/** The view-model state of a parsed file, created on first use and kept as long as the file is. */
function graphModel(file: SdfgFile): GraphModel {
  let m = models.get(file);
  if (!m) {
    m = new GraphModel(file);
    models.set(file, m);
  }
  return m;
}

/** Drawable content of one region (`null` = the root SDFG). Unknown ids are a `usage` TlabError. */
export function graphRegion(file: SdfgFile, region: RegionId | null): GraphRegion {
  return graphModel(file).region(region);
}

/** Case-insensitive search over labels, container names, tasklet code, conditions and assignments. */
export function searchGraph(file: SdfgFile, query: string, limit: number): SearchHit[] {
  return graphModel(file).search(query, limit);
}
