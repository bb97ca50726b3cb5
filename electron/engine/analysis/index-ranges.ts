/**
 * Index-safe generated inputs: which integer arguments hold values that the program uses as indices, and the
 * values that keep every such access in bounds.
 *
 * Real programs (ICON's connectivity tables, block/index arrays, start/end index members) read an integer from
 * an argument and use it to index another array, to bound a map or a loop. Random integers send them out of
 * bounds, so the profile's generated inputs ask this analysis for each integer argument's valid range.
 *
 * The value of an argument element (`v`) is followed, as an expression `f(v)`, through:
 * - interstate assignments (`s = idx[i, jb] - 1`) and loop regions (`i = s` … `i <= e`);
 * - map ranges (a parameter ranges over its bounds; a dynamic range input reads a container);
 * - tasklets that copy it into a transient (`out = c + 1`), and access-to-access copies;
 * - nested SDFGs (connectors and symbol mappings).
 * Each place where such a name indexes data (a memlet subset, an interstate subscript, a tasklet subscript of
 * another connector) bounds `f(v)` by the indexed extent: `[-offset, shape - offset)` of the descriptor (DaCe
 * adds the descriptor's offset, so Fortran programs whose offsets are 0 write their `- 1` in the index itself),
 * or `[0, size)` of a connector's subset inside a tasklet. Linear `f` is solved exactly; anything else
 * (`Min`, ternaries) is scanned over a window around the extent (a flat end past the window is cut off:
 * index-flat-edges.ts). Every bound an argument meets is intersected.
 *
 * Pure: no file system, no process. The other names in an index must have known values (symbols, constants) or
 * the access is skipped: the analysis never claims a range it did not derive.
 *
 * This file is the walk (what each name carries, through the control flow, states, tasklets and into nested
 * SDFGs: index-nested.ts) and the two passes. Each access it meets is a sink (index-sinks.ts), which solves
 * one bound (index-solve.ts) and reports it to the findings (index-findings.ts: bounds, reads out of bounds,
 * symbol advice).
 */
import type { ControlFlowBlock, DataflowNode, MemletEdge, RangeDim, RegionBlock, SdfgFile, StateBlock, Subset } from '../model/sdfg.js';
import { dynamicInputConnectors } from '../model/queries.js';
import { parsePythonStatements, parseSym, type Expr, type Stmt } from '../symbolic/index.js';
import { IndexFindings, type IndexRange, type SymbolAdvice } from './index-findings.js';
import { GENERATED, JointRanges, type Interval } from './index-joint.js';
import { nestedScope } from './index-nested.js';
import {
  addCarriers,
  carriersOf,
  descriptorOf,
  dottedName,
  memberName,
  tryEval,
  tryPython,
  trySym,
  VEXPR,
  type Scope,
} from './index-scope.js';
import { IndexSinks } from './index-sinks.js';
import { integerConstants } from './symbols.js';
import { ScopeRanges } from './scope-ranges.js';
import { interstateValues, valueRange } from './interstate-values.js';

/** What the caller knows beyond the symbols: both optional. */
export interface IndexRangeOptions {
  /** Arguments whose values are decided elsewhere (inclusive): the joint pass plans them so. */
  fixed?: ReadonlyMap<string, Interval>;
  /** Structure member leaves the init code copies into a symbol (`ptr_patch.nlev` → `tmp_struct_symbol_0`). */
  memberSymbols?: ReadonlyMap<string, string>;
}

class IndexRangeAnalysis {
  readonly findings: IndexFindings;
  private readonly sinks: IndexSinks;
  private readonly grammar: SdfgFile['grammar'];

  constructor(
    private readonly file: SdfgFile,
    /** Symbol values the program was specialised for (root names). */
    private readonly symbols: Record<string, bigint>,
    /** Integer arguments the generator fills (ABI names, `a.b` for members). */
    private readonly integerArgs: ReadonlySet<string>,
    /** Set for the joint pass (index-joint.ts): the arguments' planned values. */
    private readonly joint: JointRanges | null = null,
    /** Structure member leaves the init code copies into a symbol (`ptr_patch.nlev` → `tmp_struct_symbol_0`). */
    private readonly memberSymbols: ReadonlyMap<string, string> = new Map(),
  ) {
    this.grammar = file.grammar;
    this.findings = new IndexFindings(file, joint);
    this.sinks = new IndexSinks(file, joint, this.findings);
  }

  run(): IndexRange[] {
    const env = new Map<string, bigint>(Object.entries(this.symbols));
    for (const [k, v] of integerConstants(this.file.root)) env.set(k, v);
    const roots = new Map([...env.keys()].map((k) => [k, k]));
    const members = new Map<string, bigint>();
    for (const [leaf, symbol] of this.memberSymbols) {
      const v = env.get(symbol);
      if (v !== undefined) members.set(leaf, v);
    }
    const scope: Scope = {
      sdfg: this.file.root,
      env,
      containers: new Map(),
      symbols: new Map(),
      roots,
      ranges: new Map(),
      lazy: new Map(),
      defs: new Map(),
      members,
    };
    for (const arg of this.integerArgs) {
      const c = [{ arg, f: VEXPR, role: null }];
      scope.containers.set(arg, c);
      // A scalar argument is also read by its name in interstate code and ranges.
      const d = descriptorOf(this.file.root, arg);
      if (d && !d.arrayLike) scope.symbols.set(arg, c);
    }
    this.visitSdfg(scope);
    return this.findings.ranges();
  }

  private sym(src: string): Expr | null {
    return trySym(src, this.grammar);
  }

  private py(src: string): Expr | null {
    return tryPython(src);
  }

  private visitSdfg(scope: Scope): void {
    const { known, reach } = interstateValues(scope.sdfg, scope.env, scope.ranges, scope.members);
    for (const [k, v] of known) scope.env.set(k, v);
    for (const [k, r] of reach) if (!scope.ranges.has(k)) scope.ranges.set(k, r);
    // Twice: a loop's body may use a name its back edge assigns.
    this.collect(scope, scope.sdfg.body, false);
    this.collect(scope, scope.sdfg.body, true);
  }

  /** Walks the control flow: carriers always; accesses (sinks) and nested SDFGs on the final pass. */
  private collect(scope: Scope, region: RegionBlock | Extract<ControlFlowBlock, { kind: 'loop' }>, sinks: boolean): void {
    for (const e of region.edges) {
      for (const [name, rhs] of e.assignments) {
        const x = this.py(rhs);
        if (!x) continue;
        if (this.joint) this.joint.define(scope, name, x);
        if (sinks) this.sinks.subscriptSinks(scope, x);
        addCarriers(scope.symbols, name, carriersOf(scope, x, null));
      }
    }
    for (const b of region.blocks) {
      if (b.kind === 'state') this.visitState(scope, b, sinks);
      else if (b.kind === 'region') this.collect(scope, b, sinks);
      else if (b.kind === 'loop') {
        this.loopCarriers(scope, b);
        this.loopRange(scope, b);
        this.collect(scope, b, sinks);
      } else if (b.kind === 'conditional') {
        for (const br of b.branches) {
          if (sinks && br.condition) {
            const c = this.py(br.condition);
            if (c) this.sinks.subscriptSinks(scope, c);
          }
          this.collect(scope, br.body, sinks);
        }
      }
    }
  }

  private loopCarriers(scope: Scope, loop: Extract<ControlFlowBlock, { kind: 'loop' }>): void {
    const v = loop.loopVariable;
    if (!v) return;
    if (loop.init) {
      const m = /^\s*([A-Za-z_][A-Za-z_0-9]*)\s*=(?!=)(.*)$/s.exec(loop.init);
      const x = m && m[1] === v ? this.py(m[2]!) : null;
      if (x) addCarriers(scope.symbols, v, carriersOf(scope, x, 'lower'));
    }
    const cond = loop.condition ? this.py(loop.condition) : null;
    if (cond && cond.k === 'bin' && cond.a.k === 'sym' && cond.a.name === v) {
      const last: Expr | null =
        cond.op === '<=' ? cond.b : cond.op === '<' ? { k: 'bin', op: '-', a: cond.b, b: { k: 'int', v: 1n } } : null;
      if (last) addCarriers(scope.symbols, v, carriersOf(scope, last, 'upper'));
    }
  }

  /** A loop `v = a; v <= b` (or `<`, `>=`, `>`) whose bounds have known values: v's range. */
  private loopRange(scope: Scope, loop: Extract<ControlFlowBlock, { kind: 'loop' }>): void {
    const v = loop.loopVariable;
    // An earlier loop over the same variable (CLOUDSC's many `jk = 1 … klev`) says nothing about this one.
    if (v) scope.ranges.delete(v);
    const m = v && loop.init ? /^\s*([A-Za-z_][A-Za-z_0-9]*)\s*=(?!=)(.*)$/s.exec(loop.init) : null;
    const init = m && m[1] === v ? this.py(m[2]!) : null;
    const cond = loop.condition ? this.py(loop.condition) : null;
    if (!init || !cond || cond.k !== 'bin' || cond.a.k !== 'sym' || cond.a.name !== v) return;
    // Bounds over other loops' ranges, or names that reach known values on some paths: as far as they reach.
    const a = valueRange(init, scope.env, scope.ranges);
    const b = valueRange(cond.b, scope.env, scope.ranges);
    if ((a === null || b === null) && this.joint) this.joint.loop(scope, v, init, cond.op, cond.b);
    if (a === null || b === null) return;
    const spans: Record<string, [bigint, bigint]> = {
      '<=': [a[0], b[1]],
      '<': [a[0], b[1] - 1n],
      '>=': [b[0], a[1]],
      '>': [b[0] + 1n, a[1]],
    };
    const r = spans[cond.op];
    if (r && r[0] <= r[1]) scope.ranges.set(v, r);
  }

  private visitState(scope: Scope, state: StateBlock, sinks: boolean): void {
    const nodes = state.nodes;
    const inEdges = new Map<number, MemletEdge[]>();
    for (const e of state.edges) {
      const l = inEdges.get(e.dst) ?? [];
      l.push(e);
      inEdges.set(e.dst, l);
    }
    // Map parameters and dynamic range inputs first: the accesses inside the scopes use them.
    const ranges = new ScopeRanges(nodes, scope.ranges);
    const at = (r: Map<string, [bigint, bigint]>): Scope => ({ ...scope, ranges: r });
    for (const n of nodes) {
      if (n.kind !== 'map_entry') continue;
      for (const c of dynamicInputConnectors(n)) {
        for (const e of inEdges.get(n.id) ?? []) {
          if (e.dstConnector !== c || !e.memlet.data) continue;
          const cs = scope.containers.get(memberName(e.memlet.data));
          if (cs) addCarriers(scope.symbols, c, cs);
        }
      }
      n.map.params.forEach((p, i) => {
        this.rangeCarriers(scope, p, n.map.range[i]);
        const r = n.map.range[i];
        const a = r ? this.sym(r.start) : null;
        const b = r ? this.sym(r.end) : null;
        const around = ranges.inside(n.scopeEntry);
        const av = a ? valueRange(a, scope.env, around) : null;
        const bv = b ? valueRange(b, scope.env, around) : null;
        if (av !== null && bv !== null && av[0] <= bv[1]) ranges.set(n.id, p, [av[0], bv[1]]);
      });
    }
    if (this.joint) this.joint.dataMapRanges(scope, nodes, ranges, (src) => this.sym(src));
    for (const n of nodes) {
      if (n.kind === 'tasklet') this.visitTasklet(at(ranges.inside(n.scopeEntry)), state, n, inEdges.get(n.id) ?? [], sinks);
      else if (n.kind === 'access') {
        for (const e of inEdges.get(n.id) ?? []) {
          const src = nodes[e.src];
          if (src?.kind === 'access' && e.memlet.data) {
            const from = memberName(e.memlet.data);
            const to = memberName(n.data);
            if (from === to) continue;
            const cs = scope.containers.get(from);
            if (cs) addCarriers(scope.containers, to, cs);
            // A view of a whole structure (`config` → `config_var_0`) sees its members under its own name.
            for (const [name, mcs] of [...scope.containers]) {
              if (name.startsWith(`${from}.`)) addCarriers(scope.containers, `${to}${name.slice(from.length)}`, mcs);
            }
          }
        }
      }
    }
    if (!sinks) return;
    for (const e of state.edges)
      if (e.memlet.data && e.memlet.subset) this.sinks.memletSink(at(ranges.ofEdge(e)), e.memlet.data, e.memlet.subset);
    for (const n of nodes)
      if (n.kind === 'nested_sdfg' && n.sdfg)
        this.visitSdfg(nestedScope(at(ranges.inside(n.scopeEntry)), n, inEdges.get(n.id) ?? [], this.grammar, this.joint));
  }

  private rangeCarriers(scope: Scope, param: string, r: RangeDim | undefined): void {
    if (!r) return;
    const start = this.sym(r.start);
    const end = this.sym(r.end);
    if (start) addCarriers(scope.symbols, param, carriersOf(scope, start, 'lower'));
    if (end) addCarriers(scope.symbols, param, carriersOf(scope, end, 'upper'));
  }

  private visitTasklet(
    scope: Scope,
    state: StateBlock,
    t: Extract<DataflowNode, { kind: 'tasklet' }>,
    ins: MemletEdge[],
    sinks: boolean,
  ): void {
    if (t.code.language !== 'Python') return;
    let stmts: Stmt[];
    try {
      stmts = parsePythonStatements(t.code.code);
    } catch {
      return;
    }
    const local: Scope = { ...scope, symbols: new Map(scope.symbols), containers: new Map(scope.containers) };
    const connSubsets = new Map<string, { data: string; subset: Subset | null }>();
    for (const e of ins) {
      if (!e.dstConnector || !e.memlet.data) continue;
      connSubsets.set(e.dstConnector, { data: e.memlet.data, subset: e.memlet.subset });
      const cs = scope.containers.get(memberName(e.memlet.data));
      if (cs) {
        local.symbols.set(e.dstConnector, cs);
        local.containers.set(e.dstConnector, cs);
      }
    }
    const outs = state.edges.filter((e) => e.src === t.id && e.srcConnector && e.memlet.data);
    for (const e of outs)
      if (!connSubsets.has(e.srcConnector!)) connSubsets.set(e.srcConnector!, { data: e.memlet.data!, subset: e.memlet.subset });
    for (const s of stmts) {
      if (s.k !== 'assign') continue;
      if (sinks) {
        this.sinks.taskletSinks(local, s.value, connSubsets);
        // A store `conn[i, j] = …` indexes too (indirect stores).
        for (const target of s.targets) if (target.k === 'subscript') this.sinks.taskletSinks(local, target, connSubsets);
      }
      const cs = carriersOf(local, s.value, null);
      if (!cs.length) continue;
      for (const target of s.targets) {
        const name = target.k === 'sym' ? target.name : target.k === 'subscript' ? dottedName(target.base) : null;
        if (!name) continue;
        local.symbols.set(name, cs);
        for (const e of outs) if (e.srcConnector === name) addCarriers(scope.containers, memberName(e.memlet.data!), cs);
      }
    }
  }
}

/** An argument's element count at these symbol values (null where a size is unknown). */
function elements(file: SdfgFile, arg: string, env: ReadonlyMap<string, bigint>): bigint | null {
  const d = descriptorOf(file.root, arg);
  if (!d) return null;
  let n = 1n;
  for (const s of d.shape) {
    let v: bigint | null;
    try {
      v = tryEval(parseSym(s, file.grammar), env);
    } catch {
      return null;
    }
    if (v === null) return null;
    n *= v;
  }
  return n;
}

/** The integer arguments' valid ranges (see the module comment; arguments no index bounds are absent), and the
 * argument reads that are out of bounds whatever the inputs hold (their index depends on symbols only). */
export function indexRanges(
  file: SdfgFile,
  symbols: Record<string, bigint>,
  integerArgs: Iterable<string>,
  { fixed = new Map(), memberSymbols = new Map() }: IndexRangeOptions = {},
): { ranges: IndexRange[]; outside: string[]; outsideCount: number; advice: SymbolAdvice[] } {
  const args = new Set(integerArgs);
  const a = new IndexRangeAnalysis(file, symbols, args, null, memberSymbols);
  const first = a.run();
  const found = { outside: a.findings.outside, outsideCount: a.findings.outsideCount, advice: a.findings.symbolAdvice() };
  if (!a.findings.skipped) return { ranges: first, ...found };
  // Indices that several arguments reach at once (index-joint.ts): a second pass at the planned values.
  const planned = new Map<string, Interval>();
  const free = new Map<string, bigint | null>();
  const env = new Map(Object.entries(symbols));
  for (const arg of args) {
    const r = fixed.get(arg) ?? first.find((x) => x.argument === arg);
    if (r) planned.set(arg, Array.isArray(r) ? r : [r.min, r.max]);
    else {
      planned.set(arg, GENERATED);
      free.set(arg, elements(file, arg, env));
    }
  }
  const joint = new IndexRangeAnalysis(file, symbols, args, new JointRanges(planned, free), memberSymbols).run();
  const ranges = [...joint, ...first.filter((x) => !joint.some((j) => j.argument === x.argument))];
  ranges.sort((x, y) => (x.argument < y.argument ? -1 : x.argument > y.argument ? 1 : 0));
  return { ranges, ...found };
}
