/**
 * Folds every SDFG format generation (sdfg-format.md §3) into the model of engine/model/sdfg.ts.
 *
 * The control-flow hierarchy (SDFGs → regions → states → nested SDFGs → …) is walked with an explicit work
 * stack rather than recursion: files nest deeper than 5 levels, and a hostile file can nest thousands of
 * levels, which must not overflow the JS stack. Popping the stack in LIFO order with children pushed in
 * reverse yields exactly DaCe's pre-order, so cfgId and sdfgIndex come out of the walk directly.
 */
import type {
  ConditionalBlockModel,
  ConditionalBranch,
  ControlFlowBlock,
  FormatGeneration,
  Grammar,
  InterstateEdge,
  LoopBlock,
  RegionBlock,
  Sdfg,
  SdfgFile,
  StateBlock,
} from '../model/sdfg.js';
import { detectGrammar } from '../symbolic/index.js';
import { ParseContext } from './context.js';
import { readState, type PendingNestedSdfg } from './dataflow.js';
import { describeValue } from './dtype.js';
import { listField, objectField, readBool, readCodeText, readIndex, readString } from './fields.js';
import { isPlainObject, keyPath, quoteText, type JsonObject } from './json.js';
import { checkNesting } from './nesting.js';
import { readArgNames, readArrays, readCodeMap, readConstants, readSymbols } from './sdfg-attributes.js';

/** Region types with a body graph (§6.4); unknown block types with `nodes` are treated the same way. */
const REGION_TYPES: ReadonlySet<string> = new Set(['ControlFlowRegion', 'NamedRegion', 'FunctionCallRegion', 'UnstructuredControlFlow']);
const JUMP_KINDS: ReadonlyMap<string, 'break' | 'continue' | 'return'> = new Map([
  ['BreakBlock', 'break'],
  ['ContinueBlock', 'continue'],
  ['ReturnBlock', 'return'],
]);

type RegionLike = RegionBlock | LoopBlock;

type Task =
  | { kind: 'sdfg'; raw: unknown; path: string; parent: NonNullable<Sdfg['parent']> }
  | { kind: 'block'; raw: unknown; path: string; sdfg: Sdfg; region: RegionLike; index: number }
  | { kind: 'branch'; raw: unknown; path: string; sdfg: Sdfg; conditional: ConditionalBlockModel; index: number };

class Normaliser {
  readonly sdfgs: Sdfg[] = [];
  private nextCfgId = 0;
  private readonly tasks: Task[] = [];

  constructor(private readonly ctx: ParseContext) {}

  run(root: JsonObject): Sdfg {
    const rootSdfg = this.readSdfg(root, '$', null);
    while (this.tasks.length > 0) {
      const task = this.tasks.pop()!;
      if (task.kind === 'sdfg') this.readNestedSdfg(task.raw, task.path, task.parent);
      else if (task.kind === 'block') task.region.blocks[task.index] = this.readBlock(task.raw, task.path, task.index, task.sdfg);
      else this.readBranch(task);
    }
    return rootSdfg;
  }

  private readNestedSdfg(raw: unknown, path: string, parent: NonNullable<Sdfg['parent']>): void {
    let value = raw;
    if (typeof value === 'string') {
      // Very old files and SDFV exports embed nested SDFGs as JSON text (§4.3).
      if (!value.trimStart().startsWith('{')) this.ctx.fail(path, 'a nested SDFG given as a string must hold SDFG JSON text');
      try {
        value = JSON.parse(value);
      } catch (error) {
        this.ctx.fail(path, `the nested SDFG JSON text does not parse: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (!isPlainObject(value)) this.ctx.fail(path, `expected a nested SDFG object, found ${describeValue(value)}`);
    if (value['type'] !== undefined && value['type'] !== 'SDFG') {
      this.ctx.fail(`${path}.type`, `a nested SDFG must have "type": "SDFG", found ${describeValue(value['type'])}`);
    }
    parent.node.sdfg = this.readSdfg(value, path, parent);
  }

  private readSdfg(raw: JsonObject, path: string, parent: Sdfg['parent']): Sdfg {
    const ctx: ParseContext = this.ctx;
    const attrs = objectField(raw, 'attributes', path, ctx) ?? {};
    const attrsPath = `${path}.attributes`;
    const name = readString(attrs['name'], readString(raw['label'], ''));
    const body: RegionBlock = {
      kind: 'region',
      type: 'SDFG',
      id: null,
      label: name,
      jsonPath: path,
      cfgId: this.nextCfgId++,
      blocks: [],
      edges: [],
      start: null,
    };
    const sdfg: Sdfg = {
      name,
      sdfgIndex: this.sdfgs.length,
      cfgId: body.cfgId,
      arrays: readArrays(ctx, attrs, attrsPath),
      symbols: readSymbols(ctx, raw, attrs, attrsPath),
      constants: readConstants(ctx, attrs, attrsPath),
      argNames: readArgNames(ctx, attrs, attrsPath),
      globalCode: readCodeMap(ctx, attrs['global_code'], `${attrsPath}.global_code`),
      initCode: readCodeMap(ctx, attrs['init_code'], `${attrsPath}.init_code`),
      exitCode: readCodeMap(ctx, attrs['exit_code'], `${attrsPath}.exit_code`),
      body,
      parent,
      jsonPath: path,
    };
    this.sdfgs.push(sdfg);
    this.expandRegion(body, raw, path, sdfg);
    return sdfg;
  }

  /** Reads a region's interstate edges and start block, and queues its blocks (children after the parent). */
  private expandRegion(region: RegionLike, raw: JsonObject, path: string, sdfg: Sdfg): void {
    const blocksRaw = listField(raw, 'nodes', path, this.ctx);
    const edgesRaw = listField(raw, 'edges', path, this.ctx);
    const count = blocksRaw.length;
    region.blocks = new Array<ControlFlowBlock>(count);
    const edges = new Array<InterstateEdge>(edgesRaw.length);
    for (let i = 0; i < edgesRaw.length; i++) edges[i] = this.readInterstateEdge(edgesRaw[i], `${path}.edges[${i}]`, i, count);
    region.edges = edges;
    this.ctx.counts.edges += edges.length;
    const startKey = 'start_block' in raw ? 'start_block' : 'start_state';
    region.start = this.computeStart(count, edges, raw[startKey], `${path}.${startKey}`);
    for (let i = count - 1; i >= 0; i--) {
      this.tasks.push({ kind: 'block', raw: blocksRaw[i], path: `${path}.nodes[${i}]`, sdfg, region, index: i });
    }
  }

  /**
   * The start block is the unique block without incoming edges; the stored index counts only when that is
   * ambiguous (§6.1). A stored index that disagrees or points nowhere gets a warning.
   */
  private computeStart(count: number, edges: InterstateEdge[], storedRaw: unknown, path: string): number | null {
    const stored =
      typeof storedRaw === 'number' ? storedRaw : typeof storedRaw === 'string' && /^\d+$/.test(storedRaw) ? Number(storedRaw) : null;
    const storedValid = stored !== null && Number.isInteger(stored) && stored >= 0 && stored < count;
    if (count === 0) {
      if (stored !== null) this.ctx.warn(path, `stored start block ${stored} in a region without blocks (ignored)`);
      return null;
    }
    const hasIncoming = new Uint8Array(count);
    for (const edge of edges) hasIncoming[edge.dst] = 1;
    let source = -1;
    let sources = 0;
    for (let i = 0; i < count; i++) {
      if (hasIncoming[i] === 0) {
        if (sources === 0) source = i;
        sources++;
      }
    }
    if (sources === 1) {
      if (stored !== null && stored !== source) {
        this.ctx.warn(
          path,
          storedValid
            ? `stored start block ${stored} is stale: block ${source} is the only block without incoming edges and is used instead`
            : `stored start block ${stored} is out of range (${count} blocks): using block ${source}, the only block without incoming edges`,
        );
      }
      return source;
    }
    if (storedValid) return stored;
    const fallback = sources > 0 ? source : 0;
    this.ctx.warn(
      path,
      `${stored === null ? 'no start block is stored' : `stored start block ${stored} is out of range (${count} blocks)`} and ` +
        `${sources === 0 ? 'every block has incoming edges' : `${sources} blocks have no incoming edges`}: using block ${fallback}`,
    );
    return fallback;
  }

  private readInterstateEdge(raw: unknown, path: string, index: number, blockCount: number): InterstateEdge {
    const ctx: ParseContext = this.ctx;
    if (!isPlainObject(raw)) ctx.fail(path, `expected an interstate edge object, found ${describeValue(raw)}`);
    const src = readIndex(raw['src'], blockCount, `${path}.src`, ctx, 'interstate edge source block');
    const dst = readIndex(raw['dst'], blockCount, `${path}.dst`, ctx, 'interstate edge destination block');
    const attrs = objectField(raw, 'attributes', path, ctx);
    const data = attrs ? attrs['data'] : undefined;
    let edgeAttrs: JsonObject = {};
    let edgeAttrsPath = `${path}.attributes.data`;
    if (isPlainObject(data)) {
      if (isPlainObject(data['attributes'])) {
        edgeAttrs = data['attributes'];
        edgeAttrsPath += '.attributes';
      } else edgeAttrs = data;
    } else if (data !== undefined && data !== null) {
      ctx.fail(edgeAttrsPath, `expected an InterstateEdge object, found ${describeValue(data)}`);
    }
    const condition = readCodeText(edgeAttrs['condition'], `${edgeAttrsPath}.condition`, ctx);
    const assignments: Array<[string, string]> = [];
    const assignRaw = edgeAttrs['assignments'];
    if (isPlainObject(assignRaw)) {
      for (const key of Object.keys(assignRaw)) {
        const value = assignRaw[key];
        if (typeof value === 'string') assignments.push([key, value]);
        else if (typeof value === 'number' || typeof value === 'boolean') assignments.push([key, String(value)]);
        else
          ctx.fail(
            keyPath(`${edgeAttrsPath}.assignments`, key),
            `an assignment must be an expression string, found ${describeValue(value)}`,
          );
      }
    } else if (assignRaw !== undefined && assignRaw !== null) {
      ctx.fail(`${edgeAttrsPath}.assignments`, `"assignments" must be an object (symbol → expression), found ${describeValue(assignRaw)}`);
    }
    return { index, src, dst, condition: condition === null || condition.trim() === '' ? '1' : condition, assignments, jsonPath: path };
  }

  private readBlock(raw: unknown, path: string, index: number, sdfg: Sdfg): ControlFlowBlock {
    const ctx: ParseContext = this.ctx;
    if (!isPlainObject(raw)) ctx.fail(path, `expected a control-flow block object, found ${describeValue(raw)}`);
    const type = raw['type'];
    if (type === undefined) ctx.fail(path, 'the block has no "type" (SDFGState, LoopRegion, ConditionalBlock, …)');
    if (typeof type !== 'string') ctx.fail(`${path}.type`, `block "type" must be a string, found ${describeValue(type)}`);
    const storedId = raw['id'];
    if (typeof storedId === 'number' && storedId !== index) {
      ctx.warn(`${path}.id`, `block id ${storedId} differs from its position ${index}; edges refer to positions`);
    }
    if (type === 'SDFGState') return this.readStateBlock(raw, path, index, sdfg);
    ctx.sawControlFlowBlocks = true;
    const label = readString(raw['label'], '');
    const jump = JUMP_KINDS.get(type);
    if (jump) return { kind: jump, id: index, label, jsonPath: path };
    if (type === 'LoopRegion') return this.readLoop(raw, path, index, label, sdfg);
    if (type === 'ConditionalBlock') return this.readConditional(raw, path, index, label, sdfg);
    if (!REGION_TYPES.has(type)) {
      const hasBody = Array.isArray(raw['nodes']) || Array.isArray(raw['edges']);
      ctx.warnOnce(
        `block:${type}`,
        path,
        `unknown block type ${quoteText(type)} (kept as a region${hasBody ? '' : ' without a body: it has no "nodes"'})`,
      );
    }
    const region: RegionBlock = {
      kind: 'region',
      type,
      id: index,
      label,
      jsonPath: path,
      cfgId: this.nextCfgId++,
      blocks: [],
      edges: [],
      start: null,
    };
    this.expandRegion(region, raw, path, sdfg);
    return region;
  }

  private readStateBlock(raw: JsonObject, path: string, index: number | null, sdfg: Sdfg): StateBlock {
    const pending: PendingNestedSdfg[] = [];
    const state = readState(raw, path, index, sdfg, this.ctx, pending);
    for (let i = pending.length - 1; i >= 0; i--) {
      const nested = pending[i]!;
      this.tasks.push({ kind: 'sdfg', raw: nested.raw, path: nested.path, parent: { sdfg, state, node: nested.node } });
    }
    return state;
  }

  private readLoop(raw: JsonObject, path: string, index: number, label: string, sdfg: Sdfg): LoopBlock {
    const ctx: ParseContext = this.ctx;
    const attrs = objectField(raw, 'attributes', path, ctx) ?? {};
    const attrsPath = `${path}.attributes`;
    const loopVariable = attrs['loop_variable'];
    const loop: LoopBlock = {
      kind: 'loop',
      id: index,
      label,
      jsonPath: path,
      cfgId: this.nextCfgId++,
      blocks: [],
      edges: [],
      start: null,
      loopVariable: readLoopVariable(loopVariable, `${attrsPath}.loop_variable`, ctx),
      init: emptyToNull(readCodeText(attrs['init_statement'], `${attrsPath}.init_statement`, ctx)),
      condition: emptyToNull(readCodeText(attrs['loop_condition'], `${attrsPath}.loop_condition`, ctx)),
      update: emptyToNull(readCodeText(attrs['update_statement'], `${attrsPath}.update_statement`, ctx)),
      inverted: readBool(attrs['inverted'], false),
      updateBeforeCondition: readBool(attrs['update_before_condition'], true),
    };
    this.expandRegion(loop, raw, path, sdfg);
    return loop;
  }

  /** Branches come from `branches` only: dev-1.x files repeat the branch regions under `nodes` (§6.5). */
  private readConditional(raw: JsonObject, path: string, index: number, label: string, sdfg: Sdfg): ConditionalBlockModel {
    const ctx: ParseContext = this.ctx;
    const conditional: ConditionalBlockModel = {
      kind: 'conditional',
      id: index,
      label,
      jsonPath: path,
      cfgId: this.nextCfgId++,
      branches: [],
    };
    const branches = raw['branches'];
    if (branches === undefined || branches === null) {
      ctx.warn(path, 'ConditionalBlock without "branches": treated as having no branches');
      return conditional;
    }
    if (!Array.isArray(branches))
      ctx.fail(`${path}.branches`, `"branches" must be a list of [condition, region] pairs, found ${describeValue(branches)}`);
    conditional.branches = new Array<ConditionalBranch>(branches.length);
    for (let i = branches.length - 1; i >= 0; i--) {
      this.tasks.push({ kind: 'branch', raw: branches[i], path: `${path}.branches[${i}]`, sdfg, conditional, index: i });
    }
    return conditional;
  }

  private readBranch(task: Extract<Task, { kind: 'branch' }>): void {
    const ctx: ParseContext = this.ctx;
    const pair = task.raw;
    if (!Array.isArray(pair) || pair.length !== 2) ctx.fail(task.path, 'expected a [condition, region] pair');
    const condition = emptyToNull(readCodeText(pair[0], `${task.path}[0]`, ctx));
    const regionRaw: unknown = pair[1];
    const regionPath = `${task.path}[1]`;
    if (!isPlainObject(regionRaw)) ctx.fail(regionPath, `expected a branch region object, found ${describeValue(regionRaw)}`);
    const type = typeof regionRaw['type'] === 'string' ? regionRaw['type'] : 'ControlFlowRegion';
    const body: RegionBlock = {
      kind: 'region',
      type,
      id: null,
      label: readString(regionRaw['label'], ''),
      jsonPath: regionPath,
      cfgId: this.nextCfgId++,
      blocks: [],
      edges: [],
      start: null,
    };
    task.conditional.branches[task.index] = { condition, body };
    this.expandRegion(body, regionRaw, regionPath, task.sdfg);
  }
}

function readLoopVariable(raw: unknown, path: string, ctx: ParseContext): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') ctx.fail(path, `a loop variable must be a name, found ${describeValue(raw)}`);
  return raw;
}

function emptyToNull(text: string | null): string | null {
  return text === null || text.trim() === '' ? null : text;
}

/** Normalises an already-parsed SDFG JSON document. Throws TlabError('input') on unusable content. */
export interface NormaliseOptions {
  /** A preview (sdfg/preview.ts): nested SDFG bodies replaced by this string are deferred, not errors. */
  deferred?: string;
}

export function normaliseSdfg(
  root: unknown,
  file: string,
  jsonBytes: number,
  compressed: boolean,
  options: NormaliseOptions = {},
): SdfgFile {
  const ctx: ParseContext = new ParseContext(file, options.deferred ?? null);
  if (!isPlainObject(root)) ctx.fail('$', `the JSON root must be an SDFG object, found ${describeValue(root)}`);
  if (root['type'] !== 'SDFG') {
    ctx.fail(
      '$.type',
      root['type'] === undefined
        ? 'the root object has no "type": this is not an SDFG file'
        : `the root "type" is ${describeValue(root['type'])}, expected "SDFG"`,
    );
  }
  const normaliser = new Normaliser(ctx);
  const rootSdfg = normaliser.run(root);
  checkNesting(rootSdfg, file);
  const grammar = detectGrammar(ctx.dollarSamples);
  const versionRaw = root['dace_version'];
  return {
    path: file,
    compressed,
    jsonBytes,
    daceVersion: typeof versionRaw === 'string' ? versionRaw : typeof versionRaw === 'number' ? String(versionRaw) : null,
    generation: guessGeneration(root, ctx, grammar),
    grammar,
    root: rootSdfg,
    sdfgs: normaliser.sdfgs,
    sourceFiles: readSourceFiles(root, ctx),
    dumpError: readDumpError(root),
    stats: {
      sdfgs: normaliser.sdfgs.length,
      states: ctx.counts.states,
      nodes: ctx.counts.nodes,
      edges: ctx.counts.edges,
      transients: ctx.counts.transients,
    },
    warnings: ctx.finishWarnings(),
  };
}

/** Best guess of the writer (§3); features are detected from content, this is only a display hint. */
function guessGeneration(root: JsonObject, ctx: ParseContext, grammar: Grammar): FormatGeneration {
  if ('undefined_symbols' in root || 'scalar_parameters' in root) return 'G0';
  if (!('sdfg_list_id' in root) && !('cfg_list_id' in root) && ctx.sawListConnectors) return 'G0';
  if (grammar === 'typed') return 'G5';
  if ('source_files' in root) return 'G4';
  if (ctx.sawControlFlowBlocks) return 'G3';
  if ('cfg_list_id' in root || 'start_block' in root) return 'G2';
  return 'G1';
}

function readSourceFiles(root: JsonObject, ctx: ParseContext): string[] {
  const raw = root['source_files'];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    ctx.warn('$.source_files', `"source_files" should be a list of paths, found ${describeValue(raw)} (ignored)`);
    return [];
  }
  return raw.map((entry, i) => {
    if (typeof entry !== 'string')
      ctx.fail(`$.source_files[${i}]`, `a source file must be a path (a string), found ${describeValue(entry)}`);
    return entry;
  });
}

function readDumpError(root: JsonObject): SdfgFile['dumpError'] {
  const raw = root['error'];
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return { message: raw, raw };
  const message =
    isPlainObject(raw) && typeof raw['message'] === 'string' ? raw['message'] : 'the writer recorded an error without a message';
  return { message, raw };
}
