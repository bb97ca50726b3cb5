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
 */
import type {
  ControlFlowBlock,
  DataDescriptor,
  DataflowNode,
  MemletEdge,
  RangeDim,
  RegionBlock,
  SdfgFile,
  StateBlock,
  Subset,
} from '../model/sdfg.js';
import { dynamicInputConnectors } from '../model/queries.js';
import { freeSymbols, parsePython, parsePythonStatements, parseSym, show, substitute, type Expr, type Stmt } from '../symbolic/index.js';
import { trimFlatEdges } from './index-flat-edges.js';
import { foldKnown } from './index-fold.js';
import { GENERATED, intervalCorners, JointRanges, namesIntervals, type Interval } from './index-joint.js';
import {
  descriptorOf,
  dottedName,
  MAX_CARRIERS,
  memberName,
  rewrite,
  tryEval,
  V,
  VEXPR,
  type Carrier,
  type LazyInterval,
  type Scope,
} from './index-scope.js';
import { integerConstants } from './symbols.js';
import { ScopeRanges } from './scope-ranges.js';
import { interstateValues, valueRange } from './interstate-values.js';
import { writtenHulls, type Hull } from './written-hull.js';

/** What the caller knows beyond the symbols: both optional. */
export interface IndexRangeOptions {
  /** Arguments whose values are decided elsewhere (inclusive): the joint pass plans them so. */
  fixed?: ReadonlyMap<string, Interval>;
  /** Structure member leaves the init code copies into a symbol (`ptr_patch.nlev` → `tmp_struct_symbol_0`). */
  memberSymbols?: ReadonlyMap<string, string>;
}

/** The valid values of one integer argument. */
export interface IndexRange {
  /** The argument's name as the program's ABI has it (`p.cells.idx` for a structure member). */
  argument: string;
  /** Inclusive bounds. */
  min: bigint;
  max: bigint;
  /** The argument bounds a loop or map from below (`lower`), above (`upper`), or indexes data (`index`). */
  roles: Array<'lower' | 'upper' | 'index'>;
  /** The first access that bounds it, as people read it: `indexes A dim 0`. */
  reason: string;
  /** Accesses that bound it. */
  accesses: number;
}

/** A root symbol whose value sends an argument read out of bounds, and the nearest value that would not
 * (null when no single value keeps every such read in bounds: an extent is too small). */
export interface SymbolAdvice {
  symbol: string;
  value: bigint;
  suggested: bigint | null;
  min?: bigint;
  max?: bigint;
  /** The symbol is an extent that a fixed index reads past (it must grow), not a symbol inside the index. */
  extent?: boolean;
}

const MAX_OUTSIDE = 20;

interface Bound {
  min: bigint;
  max: bigint;
  roles: Set<'lower' | 'upper' | 'index'>;
  reason: string;
  accesses: number;
  empty: boolean;
}

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
const ceilDivBig = (a: bigint, b: bigint): bigint => -floorDivBig(-a, b);

class IndexRangeAnalysis {
  private readonly bounds = new Map<string, Bound>();
  /** Argument accesses out of bounds for any input (fixed by the symbol values). */
  readonly outside: string[] = [];
  outsideCount = 0;
  private readonly hints = new Map<string, { value: bigint; min: bigint; max: bigint; extent?: boolean }>();
  private readonly grammar: SdfgFile['grammar'];
  /** Carriers an index skipped because another name in it has no known value (the joint pass's work). */
  skipped = 0;

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
    const out: IndexRange[] = [];
    for (const [argument, b] of [...this.bounds].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
      if (b.empty) continue;
      out.push({ argument, min: b.min, max: b.max, roles: [...b.roles].sort(), reason: b.reason, accesses: b.accesses });
    }
    return out;
  }

  private sym(src: string): Expr | null {
    try {
      return parseSym(src, this.grammar);
    } catch {
      return null;
    }
  }

  private py(src: string): Expr | null {
    try {
      return parsePython(src);
    } catch {
      return null;
    }
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
        if (sinks) this.subscriptSinks(scope, x);
        this.addCarriers(scope.symbols, name, this.carriersOf(scope, x, null));
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
            if (c) this.subscriptSinks(scope, c);
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
      if (x) this.addCarriers(scope.symbols, v, this.carriersOf(scope, x, 'lower'));
    }
    const cond = loop.condition ? this.py(loop.condition) : null;
    if (cond && cond.k === 'bin' && cond.a.k === 'sym' && cond.a.name === v) {
      const last: Expr | null =
        cond.op === '<=' ? cond.b : cond.op === '<' ? { k: 'bin', op: '-', a: cond.b, b: { k: 'int', v: 1n } } : null;
      if (last) this.addCarriers(scope.symbols, v, this.carriersOf(scope, last, 'upper'));
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

  /** What an expression holds: each carrier among its names (and subscripts of carrier containers). */
  private carriersOf(scope: Scope, x: Expr, role: Carrier['role']): Carrier[] {
    const out: Carrier[] = [];
    // Subscripts of (or plain reads of scalar) carrier containers.
    const subs: Array<{ node: Expr; carriers: Carrier[] }> = [];
    rewrite(x, (n) => {
      if (n.k === 'subscript' || n.k === 'attr') {
        const name = n.k === 'subscript' ? dottedName(n.base) : dottedName(n);
        const cs = name !== null ? scope.containers.get(memberName(name)) : undefined;
        if (cs) {
          subs.push({ node: n, carriers: cs });
          return n;
        }
      }
      return undefined;
    });
    for (const s of subs) {
      for (const c of s.carriers) {
        const f = rewrite(x, (n) => (n === s.node ? c.f : undefined));
        out.push({ arg: c.arg, f, role: role ?? c.role });
      }
    }
    for (const name of freeSymbols(x)) {
      // A scalar container (a transient a tasklet wrote) is read by its name too.
      const cs = scope.symbols.get(name) ?? (descriptorOf(scope.sdfg, name)?.arrayLike === false ? scope.containers.get(name) : undefined);
      if (!cs) continue;
      for (const c of cs) out.push({ arg: c.arg, f: substitute(x, new Map([[name, c.f]])), role: role ?? c.role });
    }
    return out;
  }

  private addCarriers(table: Map<string, Carrier[]>, name: string, cs: Carrier[]): void {
    if (!cs.length) return;
    const list = table.get(name) ?? [];
    for (const c of cs) {
      if (list.length >= MAX_CARRIERS) break;
      if (!list.some((o) => o.arg === c.arg && o.role === c.role && JSON.stringify(o.f, big) === JSON.stringify(c.f, big))) list.push(c);
    }
    table.set(name, list);
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
          if (cs) this.addCarriers(scope.symbols, c, cs);
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
            if (cs) this.addCarriers(scope.containers, to, cs);
            // A view of a whole structure (`config` → `config_var_0`) sees its members under its own name.
            for (const [name, mcs] of [...scope.containers]) {
              if (name.startsWith(`${from}.`)) this.addCarriers(scope.containers, `${to}${name.slice(from.length)}`, mcs);
            }
          }
        }
      }
    }
    if (!sinks) return;
    for (const e of state.edges)
      if (e.memlet.data && e.memlet.subset) this.memletSink(at(ranges.ofEdge(e)), e.memlet.data, e.memlet.subset);
    for (const n of nodes)
      if (n.kind === 'nested_sdfg' && n.sdfg) this.enterNested(at(ranges.inside(n.scopeEntry)), n, inEdges.get(n.id) ?? []);
  }

  private rangeCarriers(scope: Scope, param: string, r: RangeDim | undefined): void {
    if (!r) return;
    const start = this.sym(r.start);
    const end = this.sym(r.end);
    if (start) this.addCarriers(scope.symbols, param, this.carriersOf(scope, start, 'lower'));
    if (end) this.addCarriers(scope.symbols, param, this.carriersOf(scope, end, 'upper'));
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
        this.taskletSinks(local, s.value, connSubsets);
        // A store `conn[i, j] = …` indexes too (indirect stores).
        for (const target of s.targets) if (target.k === 'subscript') this.taskletSinks(local, target, connSubsets);
      }
      const cs = this.carriersOf(local, s.value, null);
      if (!cs.length) continue;
      for (const target of s.targets) {
        const name = target.k === 'sym' ? target.name : target.k === 'subscript' ? dottedName(target.base) : null;
        if (!name) continue;
        local.symbols.set(name, cs);
        for (const e of outs) if (e.srcConnector === name) this.addCarriers(scope.containers, memberName(e.memlet.data!), cs);
      }
    }
  }

  /** `conn[i, j]` in a tasklet, `conn` fed by a subset: each index within that subset's size. */
  private taskletSinks(scope: Scope, x: Expr, conns: Map<string, { data: string; subset: Subset | null }>): void {
    rewrite(x, (n) => {
      if (n.k !== 'subscript' || n.base.k !== 'sym') return undefined;
      const conn = conns.get(n.base.name);
      if (!conn) return undefined;
      const extents = this.subsetSizes(scope, conn.data, conn.subset);
      if (!extents) return undefined;
      let dims = extents;
      // DaCe squeezes a connector's size-1 dimensions; an unknown size is not known to be 1, so it stays.
      if (n.index.length !== extents.length) dims = extents.filter((d) => d.size !== 1n);
      if (n.index.length !== dims.length) return undefined;
      n.index.forEach((ix, d) => {
        const size = dims[d]!.size;
        if (size !== null) this.sink(scope, ix, 0n, size, `indexes ${conn.data} dim ${dims[d]!.dim} in a tasklet`);
      });
      return undefined;
    });
  }

  /** The size of each dimension of a connector's subset (null where a bound has no known value). */
  private subsetSizes(scope: Scope, data: string, subset: Subset | null): Array<{ dim: number; size: bigint | null }> | null {
    const d = descriptorOf(scope.sdfg, data);
    if (!d) return null;
    if (!subset) {
      const sizes = d.shape.map((s) => {
        const e = this.sym(s);
        return e ? tryEval(e, scope.env) : null;
      });
      return sizes.map((size, dim) => ({ dim, size }));
    }
    if (subset.kind !== 'range') return subset.kind === 'indices' ? subset.indices.map((_, dim) => ({ dim, size: 1n })) : null;
    const out: Array<{ dim: number; size: bigint | null }> = [];
    for (const [dim, r] of subset.dims.entries()) {
      const a = this.sym(r.start);
      const b = this.sym(r.end);
      const s = this.sym(r.step);
      const av = a ? tryEval(a, scope.env) : null;
      const bv = b ? tryEval(b, scope.env) : null;
      const sv = s ? tryEval(s, scope.env) : null;
      out.push({ dim, size: av === null || bv === null || sv === null || sv <= 0n ? null : (bv - av) / sv + 1n });
    }
    return out;
  }

  /** Subscripts of arrays in interstate code: each index within its array's extent. */
  private subscriptSinks(scope: Scope, x: Expr): void {
    rewrite(x, (n) => {
      if (n.k !== 'subscript') return undefined;
      const name = dottedName(n.base);
      if (!name) return undefined;
      const d = descriptorOf(scope.sdfg, name);
      if (!d || !d.arrayLike || n.index.length !== d.shape.length) return undefined;
      n.index.forEach((ix, dim) => this.descriptorSink(scope, memberName(name), d, dim, ix));
      return undefined;
    });
  }

  private memletSink(scope: Scope, data: string, subset: Subset): void {
    const d = descriptorOf(scope.sdfg, data);
    if (!d || !d.arrayLike) return;
    const name = memberName(data);
    if (subset.kind === 'range') {
      if (subset.dims.length !== d.shape.length) return;
      subset.dims.forEach((r, dim) => {
        for (const src of [r.start, r.end]) {
          const e = this.sym(src);
          if (e) this.descriptorSink(scope, name, d, dim, e);
        }
      });
    } else if (subset.kind === 'indices') {
      if (subset.indices.length !== d.shape.length) return;
      subset.indices.forEach((src, dim) => {
        const e = this.sym(src);
        if (e) this.descriptorSink(scope, name, d, dim, e);
      });
    }
  }

  private descriptorSink(scope: Scope, name: string, d: DataDescriptor, dim: number, index: Expr): void {
    let carries = false;
    let known = true;
    const ranged: string[] = [];
    for (const n of freeSymbols(index)) {
      if (scope.symbols.has(n) || scope.containers.has(n)) carries = true;
      if (scope.env.has(n)) continue;
      if (scope.ranges.has(n) && ranged.length < 3) ranged.push(n);
      else known = false;
    }
    // Views alias argument memory (radiation's `v_config_…` views of structure members) as much as transients.
    // A transient read at a fixed index beyond its extent reads another allocation's memory: its extent symbol
    // is too small for the program (get_albedos reads rows 1 … 140 of a transient sized by an SA symbol).
    if (!carries && !known) return;
    // The joint pass only bounds arguments; reads fixed by the symbols were reported by the first.
    if (!carries && this.joint) return;
    const shape = this.sym(d.shape[dim]!);
    const offset = this.sym(d.offset[dim] ?? '0');
    const size = shape ? tryEval(shape, scope.env) : null;
    const off = offset ? tryEval(offset, scope.env) : 0n;
    if (size === null || off === null) return;
    // A name that holds an argument's value on some paths may also reach a known value on others (a row bound
    // `i_endidx` set to nproma = 48 in interior blocks, interstate-values.ts): on those paths the index is fixed.
    if (known) {
      // An argument read at an index fixed by the symbol values alone (and loops over known bounds): out of
      // bounds whatever the inputs hold. Linear indices reach their extremes at the loops' bounds.
      let reported = false;
      let highest: bigint | null = null;
      const transient = d.transient && !d.type.includes('View');
      for (const corner of corners(ranged, scope.ranges)) {
        const at = tryEval(index, new Map([...scope.env, ...corner]));
        if (at !== null && (highest === null || at > highest)) highest = at;
        if (!reported && at !== null && (at < -off || at >= size - off)) {
          reported = true;
          const loops = [...corner].map(([k, v]) => `${k} = ${v}`).join(', ');
          const what = transient ? `transient ${name}` : name;
          const text = `${what} dim ${dim} is read at ${at}, outside [${-off}, ${size - off}) with these symbol values (${show(index)}${loops ? ` at ${loops}` : ''})`;
          if (this.outside.length < MAX_OUTSIDE && !this.outside.includes(text)) this.outside.push(text);
          this.outsideCount++;
        }
        const fixed = substitute(index, new Map([...corner].map(([k, v]) => [k, { k: 'int', v }])));
        // An index over the extent's own symbol (`0 … SA - 1` of an array of SA) moves with the extent; a
        // transient's extent, not the index's symbols, is what the program's reads decide (extentHint).
        if (transient) continue;
        if (!shape || !freeSymbols(fixed).has(shape.k === 'sym' ? shape.name : '')) this.symbolHint(scope, fixed, -off, size - off);
      }
      if (highest !== null && highest >= size - off && shape) this.extentHint(scope, shape, highest + off + 1n);
      if (!carries) return;
    }
    // A transient filled only in part: the index stays inside what is written (written-hull.ts).
    const hull = d.transient && !d.type.includes('View') ? this.hullOf(scope, name)?.[dim] : undefined;
    if (hull && (hull[0] > -off || hull[1] < size - off - 1n)) {
      const lo = hull[0] > -off ? hull[0] : -off;
      const hi = hull[1] + 1n < size - off ? hull[1] + 1n : size - off;
      this.sink(scope, index, lo, hi, `indexes ${name} dim ${dim}, written only at [${hull[0]}, ${hull[1] + 1n})`);
      return;
    }
    this.sink(scope, index, -off, size - off, `indexes ${name} dim ${dim}`);
  }

  /** Per scope's symbol values (a nested SDFG called twice may see other values). */
  private readonly hulls = new Map<ReadonlyMap<string, bigint>, Map<string, Hull>>();

  private hullOf(scope: Scope, name: string): Hull | undefined {
    let h = this.hulls.get(scope.env);
    if (!h) {
      h = writtenHulls(scope.sdfg, scope.env, this.grammar);
      this.hulls.set(scope.env, h);
    }
    return h.get(name);
  }

  /**
   * An index of one root symbol (`1 - SOA_x`, a Fortran lower bound): the symbol's values that keep it in
   * bounds, intersected over every such index, so that a run out of bounds for any input can say which value
   * to give.
   */
  private symbolHint(scope: Scope, index: Expr, lo: bigint, hi: bigint): void {
    const names = [...freeSymbols(index)];
    if (names.length !== 1) return;
    const name = names[0]!;
    const root = scope.roots.get(name);
    const value = scope.env.get(name);
    if (value === undefined || root === undefined || this.file.root.constants.has(root)) return;
    const env = new Map(scope.env);
    env.delete(name);
    const range = this.solve(substitute(index, new Map([[name, VEXPR]])), env, lo, hi);
    const h = this.hints.get(root);
    if (!range) {
      this.hints.set(root, { value, min: 1n, max: 0n });
      return;
    }
    if (!h) this.hints.set(root, { value, min: range[0], max: range[1] });
    else {
      if (range[0] > h.min) h.min = range[0];
      if (range[1] < h.max) h.max = range[1];
    }
  }

  /**
   * An extent of one root symbol (`SA_x`, a Fortran size) that a fixed index reads past: the symbol must be at
   * least `needed`, the extent the program's own reads require.
   */
  private extentHint(scope: Scope, shape: Expr, needed: bigint): void {
    if (shape.k !== 'sym') return;
    const root = scope.roots.get(shape.name);
    const value = scope.env.get(shape.name);
    if (value === undefined || root === undefined || this.file.root.constants.has(root)) return;
    const h = this.hints.get(root);
    if (!h) this.hints.set(root, { value, min: needed, max: 2n ** 31n - 1n, extent: true });
    else if (needed > h.min) h.min = needed;
  }

  /** Root symbols whose value sends a fixed index out of bounds, and the values that would not. */
  symbolAdvice(): SymbolAdvice[] {
    const out: SymbolAdvice[] = [];
    for (const [symbol, h] of [...this.hints].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (h.min <= h.value && h.value <= h.max) continue;
      // An extent keeps its flag when no value fits (its read moved past int32 with it): advice followed grows
      // extents first, and must know this one moves with its read.
      if (h.min > h.max) out.push({ symbol, value: h.value, suggested: null, ...(h.extent ? { extent: true } : {}) });
      else
        out.push({
          symbol,
          value: h.value,
          suggested: h.value < h.min ? h.min : h.max,
          min: h.min,
          max: h.max,
          ...(h.extent ? { extent: true } : {}),
        });
    }
    return out;
  }

  /**
   * Bounds every argument that `index` carries so that lo <= index < hi. The first pass needs the other names
   * known; the joint pass (index-joint.ts) solves at every corner of their intervals.
   */
  private sink(scope: Scope, index: Expr, lo: bigint, hi: bigint, reason: string): void {
    if (hi <= lo) return;
    const carriers = this.carriersOf(scope, index, null);
    for (const c of this.joint ? this.joint.order(carriers) : carriers) {
      const names = freeSymbols(c.f);
      names.delete(V);
      const others = [...names].filter((n) => !scope.env.has(n));
      if (others.length && !this.joint) {
        this.skipped++;
        continue;
      }
      const at = namesIntervals(others, (n) => this.joint!.nameInterval(scope, n, 0));
      if (!at) continue;
      let range: Interval | null = null;
      for (const corner of intervalCorners(at)) {
        const r = this.solve(c.f, new Map([...scope.env, ...corner]), lo, hi);
        range = r && range ? [r[0] > range[0] ? r[0] : range[0], r[1] < range[1] ? r[1] : range[1]] : r;
        if (!range || range[0] > range[1]) break;
      }
      if (range && range[0] <= range[1]) this.bound(c.arg, range[0], range[1], c.role ?? 'index', reason);
    }
  }

  /** The values of V for which lo <= f(V) < hi: exact for linear f, else the widest run found by a scan. */
  private solve(f: Expr, env: Map<string, bigint>, lo: bigint, hi: bigint): [bigint, bigint] | null {
    const at = (v: bigint): bigint | null => {
      env.set(V, v);
      const r = tryEval(f, env);
      env.delete(V);
      return r;
    };
    const g0 = at(0n);
    const g1 = at(1n);
    const g2 = at(2n);
    if (g0 !== null && g1 !== null && g2 !== null && g1 - g0 === g2 - g1 && g1 !== g0) {
      const a = g1 - g0;
      // lo <= a v + g0 <= hi - 1
      const min = a > 0n ? ceilDivBig(lo - g0, a) : ceilDivBig(hi - 1n - g0, a);
      const max = a > 0n ? floorDivBig(hi - 1n - g0, a) : floorDivBig(lo - g0, a);
      return min <= max ? [min, max] : null;
    }
    const span = hi - lo;
    const from = lo - 2n * span - 64n;
    const to = hi + 2n * span + 64n;
    if (to - from > 20_000n) return null;
    let best: [bigint, bigint] | null = null;
    let runStart: bigint | null = null;
    for (let v = from; v <= to + 1n; v++) {
      const r = v <= to ? at(v) : null;
      const ok = r !== null && r >= lo && r < hi;
      if (ok && runStart === null) runStart = v;
      if (!ok && runStart !== null) {
        if (!best || v - 1n - runStart > best[1] - best[0]) best = [runStart, v - 1n];
        runStart = null;
      }
    }
    // A run touching the window's edge is not bounded there: the scan cannot tell its true extent, unless the
    // index is flat out there (`max(1, v)`, a clamped loop start), when the flat part adds nothing.
    if (best && (best[0] === from || best[1] === to)) return trimFlatEdges(best, from, to, at);
    return best;
  }

  private bound(arg: string, min: bigint, max: bigint, role: 'lower' | 'upper' | 'index', reason: string): void {
    if (this.joint) {
      // Inside the planned values, which then narrow at once (index-joint.ts).
      const r = this.joint.clamp(arg, min, max);
      if (!r) return;
      this.addBound(arg, r[0], r[1], role, reason);
      const b = this.bounds.get(arg)!;
      this.joint.narrow(arg, [b.min, b.max]);
      return;
    }
    this.addBound(arg, min, max, role, reason);
  }

  private addBound(arg: string, min: bigint, max: bigint, role: 'lower' | 'upper' | 'index', reason: string): void {
    const b = this.bounds.get(arg);
    if (!b) {
      this.bounds.set(arg, { min, max, roles: new Set([role]), reason, accesses: 1, empty: false });
      return;
    }
    b.roles.add(role);
    b.accesses++;
    const nmin = min > b.min ? min : b.min;
    const nmax = max < b.max ? max : b.max;
    if (nmin > nmax) return; // Conflicting accesses (guarded by conditions we do not follow): keep the first.
    if (nmin !== b.min || nmax !== b.max) {
      b.min = nmin;
      b.max = nmax;
      b.reason = reason;
    }
  }

  private enterNested(scope: Scope, n: Extract<DataflowNode, { kind: 'nested_sdfg' }>, ins: MemletEdge[]): void {
    const inner = n.sdfg!;
    const env = new Map<string, bigint>(integerConstants(inner));
    const symbols = new Map<string, Carrier[]>();
    const roots = new Map<string, string>();
    const ranges = new Map<string, [bigint, bigint]>();
    const lazy = new Map<string, LazyInterval>();
    // What a carrier holds is written in this scope's names: the callee sees it with their values (index-fold.ts).
    const inCaller = (cs: Carrier[]): Carrier[] => cs.map((c) => ({ ...c, f: foldKnown(c.f, scope.env) }));
    for (const [name, src] of Object.entries(n.symbolMapping)) {
      const e = this.sym(src);
      if (!e) continue;
      const root = e.k === 'sym' ? scope.roots.get(e.name) : undefined;
      if (root !== undefined) roots.set(name, root);
      const v = tryEval(e, scope.env);
      if (v !== null) env.set(name, v);
      else {
        // A mapping over the caller's loop variables ranges with them (its extremes at their bounds).
        const names = [...freeSymbols(e)].filter((x) => !scope.env.has(x));
        if (names.length && names.length <= 3 && names.every((x) => scope.ranges.has(x))) {
          const vals = corners(names, scope.ranges).map((c) => tryEval(e, new Map([...scope.env, ...c])));
          if (vals.every((x) => x !== null)) {
            const sorted = vals.sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
            ranges.set(name, [sorted[0]!, sorted[sorted.length - 1]!]);
          }
        }
      }
      // The joint pass sees a mapping over the caller's data at the caller's intervals, asked when needed.
      if (v === null && !ranges.has(name) && this.joint)
        lazy.set(
          name,
          this.joint.lazy((depth) => this.joint!.exprInterval(scope, e, depth)),
        );
      const cs = inCaller(this.carriersOf(scope, e, null));
      if (cs.length) symbols.set(name, cs);
    }
    const containers = new Map<string, Carrier[]>();
    for (const e of ins) {
      if (!e.dstConnector || !e.memlet.data) continue;
      const found = scope.containers.get(memberName(e.memlet.data));
      if (!found) continue;
      const cs = inCaller(found);
      containers.set(e.dstConnector, cs);
      const d = inner.arrays.get(e.dstConnector);
      if (d && !d.arrayLike) symbols.set(e.dstConnector, cs);
    }
    // Structure arguments pass whole: their members keep the carriers (and values) under the inner name.
    const members = new Map<string, bigint>();
    for (const e of ins) {
      if (!e.dstConnector || !e.memlet.data) continue;
      const prefix = `${memberName(e.memlet.data)}.`;
      for (const [name, cs] of scope.containers) {
        if (name.startsWith(prefix)) containers.set(`${e.dstConnector}.${name.slice(prefix.length)}`, inCaller(cs));
      }
      for (const [name, v] of scope.members) {
        if (name.startsWith(prefix)) members.set(`${e.dstConnector}.${name.slice(prefix.length)}`, v);
      }
    }
    this.visitSdfg({ sdfg: inner, env, containers, symbols, roots, ranges, lazy, defs: new Map(), members });
  }
}

/** Every combination of the named variables at their range's bounds (one empty map when none). */
function corners(names: readonly string[], ranges: ReadonlyMap<string, [bigint, bigint]>): Array<Map<string, bigint>> {
  let out: Array<Map<string, bigint>> = [new Map<string, bigint>()];
  for (const n of names) {
    const [lo, hi] = ranges.get(n)!;
    const at = (m: Map<string, bigint>, v: bigint) => new Map<string, bigint>([...m, [n, v]]);
    out = out.flatMap((m) => (lo === hi ? [at(m, lo)] : [at(m, lo), at(m, hi)]));
  }
  return out;
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

function big(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
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
  const found = { outside: a.outside, outsideCount: a.outsideCount, advice: a.symbolAdvice() };
  if (!a.skipped) return { ranges: first, ...found };
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
