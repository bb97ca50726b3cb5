/**
 * Dataflow inside one state: nodes of each scope in dependency order, maps as loop nests (OpenMP for
 * parallel schedules), copies between access nodes (also through map entries and exits), and calls of
 * nested SDFG functions. Tasklets are tasklet.ts's.
 */
import type { AccessNode, MapEntryNode, Memlet, MemletEdge, NestedSdfgNode, StateBlock, Subset } from '../model/sdfg.js';
import type { Expr } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx, SubsetPoint } from './core.js';
import { cppOf, ExprError, grouped, sameSym, sizeValue } from './expr.js';
import { scopeOrder, stateGraph, type StateGraph } from './graph.js';
import { declareScopeStack, emitSiteAllocations, emitSiteFrees } from './memory.js';
import { byCodeUnit, cppIdent, ctypeOf } from './names.js';
import type { SiteKey } from './placement.js';
import { dynamicInputEdges } from '../model/queries.js';
import { emitTasklet } from './tasklet.js';
import { wcrLines } from './wcr.js';
import { wcrPlain } from './wcr-conflicts.js';
import { emitReferenceSet, emitViewBindings, isAliasBinding } from './views.js';
import { isViewType } from '../analysis/aliases.js';
import { emitPersistentRegion } from './omp-persistent.js';
import { emitConsume, emitStreamCopy } from './streams.js';
import { inferredVector } from './vectors.js';

export function emitState(core: EmitCore, ctx: FnCtx, env: Env, state: StateBlock): void {
  core.out.mark(state.jsonPath);
  const want = (s: SiteKey) => s.kind === 'state' && s.stateJsonPath === state.jsonPath;
  emitSiteAllocations(core, ctx, env, want);
  emitScope(core, ctx, env, stateGraph(state), null);
  emitSiteFrees(core, ctx, want);
}

/** The units of one scope (null: the state's top level), each in dependency order. */
export function emitScope(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, scope: number | null): void {
  const units = scopeOrder(g, scope);
  const unitIds = new Set(units.map((u) => u.id));
  // Tasklet-to-tasklet edges carry values through locals declared in the scope that holds both tasklets.
  const direct = new Map<number, string>();
  for (const u of units) {
    if (u.kind !== 'tasklet') continue;
    for (const e of g.outEdges.get(u.id)!) {
      const dst = g.byId.get(e.dst);
      if (dst?.kind === 'tasklet' && unitIds.has(dst.id) && e.srcConnector) {
        const v = `__tlab_edge_${g.state.edges.indexOf(e)}`;
        const t =
          u.outConnectors[e.srcConnector] ??
          (e.dstConnector ? dst.inConnectors[e.dstConnector] : null) ??
          inferredVector(g, u, (data) => ctx.sdfg.arrays.get(data)?.dtype);
        core.out.line(`${ctypeOf(t) ?? 'double'} ${v} = {};`);
        direct.set(e.index, v);
      }
    }
  }
  emitViewBindings(core, ctx, env, g, scope);
  for (const u of units) {
    core.recover(u.jsonPath, `${u.kind} node '${u.label}'`, () => {
      switch (u.kind) {
        case 'access':
          emitAccess(core, ctx, env, g, u);
          break;
        case 'tasklet':
          emitTasklet(core, ctx, env, g, u, direct);
          break;
        case 'map_entry':
          emitMap(core, ctx, env, g, u);
          break;
        case 'consume_entry':
          emitConsume(core, ctx, env, g, u, (inner) => emitScopeBody(core, ctx, inner, g, u.id));
          break;
        case 'nested_sdfg':
          emitNestedCall(core, ctx, env, g, u);
          break;
        default:
          throw new Error(`internal: ${u.kind} node at ${u.jsonPath} reached the emitter (the subset check refuses it)`);
      }
    });
  }
}

/**
 * A map entry's dynamic range inputs, as DaCe's cpu.py `_generate_MapEntry` defines them: each connector's
 * element is read into a `const` local before the loops (in the block the caller opened), and the connector's
 * name is bound to that local in `inner`, for the range and the whole scope. The read uses `env` (the names
 * outside the map).
 */
export function bindDynamicInputs(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode, inner: Env): void {
  const edges = dynamicInputEdges(g.state, entry);
  for (const e of edges) {
    const conn = e.dstConnector!;
    core.guard(e.jsonPath, `dynamic range input ${conn} of map '${entry.map.label}'`, () => {
      // The subset check guarantees one element of a container.
      if (e.memlet.data === null) throw new Error(`internal: dynamic map input ${conn} at ${e.jsonPath} has no data`);
      const { ptr, desc } = core.containerPtr(ctx, e.memlet.data, e.jsonPath);
      const ctype = ctypeOf(entry.inConnectors[conn] ?? null) ?? ctypeOf(desc.dtype)!;
      const local = `__tlab_dyn${entry.id}_${cppIdent(conn)}`;
      core.out.mark(e.jsonPath);
      core.out.line(`const ${ctype} ${local} = ${ptr}[${core.startIndex(ctx, env, desc, e.memlet.subset, e.jsonPath)}];`);
      // The connector is a symbol in the scope, and symbolic arithmetic is signed (DaCe's ranges are sympy
      // expressions: `e - 1` with e = 0 is -1). An unsigned element would wrap there (spmv's `A_row[i + 1] - 1`
      // for an empty row: a loop of 2^32 iterations), so it enters the symbolic code as int64.
      inner.names.set(conn, /^(uint\d+_t|bool|unsigned\b.*)$/.test(ctype) ? `int64_t(${local})` : local);
    });
  }
}

function emitMap(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): void {
  if (core.backend?.emitMap(core, ctx, env, g, entry)) return;
  const o = core.out;
  const map = entry.map;
  const inner: Env = { ...env, names: new Map(env.names) };
  // A block keeps the dynamic inputs' locals to this map (a later map may read the same connector names).
  const dynamic = dynamicInputEdges(g.state, entry).length > 0;
  if (dynamic) {
    o.mark(entry.jsonPath);
    o.openBrace();
    bindDynamicInputs(core, ctx, env, g, entry, inner);
  }
  // Default schedules resolved as DaCe resolves them: a top-level map with no schedule is CPU_Multicore,
  // maps inside it are Sequential (analysis/defaults.ts).
  const schedule = core.defaults.scheduleOf(ctx.sdfg, g.state, entry);
  if (schedule === 'CPU_Persistent') {
    emitPersistentRegion(core, inner, entry, () => emitMapBody(core, ctx, inner, g, entry));
    if (dynamic) o.close();
    return;
  }
  const parallel = schedule === 'CPU_Multicore';
  o.mark(entry.jsonPath);
  const headers: string[] = [];
  map.params.forEach((p, i) => {
    const r = map.range[i]!;
    const v = cppIdent(p);
    const start = core.guard(entry.jsonPath, `map ${map.label}`, () => core.sym(ctx, inner, r.start));
    const end = core.guard(entry.jsonPath, `map ${map.label}`, () => core.sym(ctx, inner, r.end));
    const step = core.guard(entry.jsonPath, `map ${map.label}`, () => core.sym(ctx, inner, r.step));
    let negative: boolean;
    try {
      negative = sizeValue(core.symExpr(r.step), () => null) < 0n;
    } catch {
      negative = false;
    }
    headers.push(`for (int64_t ${v} = ${start}; ${v} ${negative ? '>=' : '<='} ${grouped(end)}; ${v} += ${step})`);
    inner.names.set(p, v);
  });
  if (parallel) {
    core.usesOpenMP = true;
    inner.parallel = true;
    // As DaCe's cpu.py (_generate_MapEntry): the outermost loop is the parallel one unless the map asks to
    // collapse several, and num_threads only when the map sets it.
    const threads = map.ompNumThreads > 0 ? ` num_threads(${map.ompNumThreads})` : '';
    const collapse = map.collapse > 1 ? ` collapse(${Math.min(map.collapse, map.params.length)})` : '';
    // A map that starts the team gets a flag its synchronised writes test (wcr.ts, streams.ts), declared before
    // the loop only when one does. Not one sharing a CPU_Persistent region's team, nor one nested in a parallel
    // map, which must not use its parent's either (OMP_NUM_THREADS=1,4 gives a team of one a nested team of four).
    inner.alone = !env.persistent && !env.parallel ? { name: `__tlab_alone${++core.aloneFlags}`, used: false } : undefined;
    // Inside a CPU_Persistent region the team exists: the loop is shared among it (cpu.py's `omp for`).
    o.line(env.persistent ? `#pragma omp for${collapse}` : `#pragma omp parallel for${threads}${collapse}`);
  }
  const pragmaAt = o.lines.length - 1;
  for (const h of headers) o.open(h);
  emitMapBody(core, ctx, inner, g, entry);
  for (let i = 0; i < headers.length; i++) o.close();
  if (parallel && inner.alone?.used) {
    const indent = /^ */.exec(o.lines[pragmaAt]!)![0];
    o.lines.splice(
      pragmaAt,
      0,
      `${indent}const bool ${inner.alone.name} = tlab_omp_alone(${map.ompNumThreads > 0 ? map.ompNumThreads : 0});`,
    );
  }
  if (dynamic) o.close();
}

/** A map's body: its stack arrays, the allocations of its scope, its nodes, the frees. */
function emitMapBody(core: EmitCore, ctx: FnCtx, inner: Env, g: StateGraph, entry: MapEntryNode): void {
  emitScopeBody(core, ctx, inner, g, entry.id);
}

/** The body of scope `entryId` (a map or a consume scope), run once per iteration or consumed element. */
function emitScopeBody(core: EmitCore, ctx: FnCtx, inner: Env, g: StateGraph, entryId: number): void {
  const want = (s: SiteKey) => s.kind === 'scope' && s.stateJsonPath === g.state.jsonPath && s.mapEntryId === entryId;
  declareScopeStack(core, ctx, inner, g.state, entryId);
  emitSiteAllocations(core, ctx, inner, want);
  emitScope(core, ctx, inner, g, entryId);
  emitSiteFrees(core, ctx, want);
}

/** Source and destination of a memlet between two containers. */
export function copyEnds(m: Memlet, srcName: string, dstName: string): { srcSubset: Subset | null; dstSubset: Subset | null } {
  const dataIsSrc = m.isDataSrc ?? m.data === srcName;
  if (m.data === srcName && (dataIsSrc || m.data !== dstName)) return { srcSubset: m.subset, dstSubset: m.otherSubset };
  return { srcSubset: m.otherSubset, dstSubset: m.subset };
}

/** Follows a write path outward through map exits to the access node it ends at. */
function outerDestination(g: StateGraph, e: MemletEdge): AccessNode | null {
  let edge: MemletEdge | undefined = e;
  for (let guard = 0; edge && guard < 1000; guard++) {
    const dst = g.byId.get(edge.dst);
    if (!dst) return null;
    if (dst.kind === 'access') return dst;
    if (dst.kind !== 'map_exit' || !edge.dstConnector?.startsWith('IN_')) return null;
    const conn: string = 'OUT_' + edge.dstConnector.slice(3);
    edge = g.outEdges.get(dst.id)!.find((x: MemletEdge) => x.srcConnector === conn);
  }
  return null;
}

/** Follows a read path outward through map entries to the access node it starts at. */
function outerSource(g: StateGraph, e: MemletEdge): AccessNode | null {
  let edge: MemletEdge | undefined = e;
  for (let guard = 0; edge && guard < 1000; guard++) {
    const src = g.byId.get(edge.src);
    if (!src) return null;
    if (src.kind === 'access') return src;
    if (src.kind !== 'map_entry' || !edge.srcConnector?.startsWith('OUT_')) return null;
    const conn: string = 'IN_' + edge.srcConnector.slice(4);
    edge = g.inEdges.get(src.id)!.find((x: MemletEdge) => x.dstConnector === conn);
  }
  return null;
}

function emitAccess(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, node: AccessNode): void {
  for (const e of g.inEdges.get(node.id)!) {
    if (e.memlet.data === null) continue;
    const src = g.byId.get(e.src);
    if (src?.kind !== 'access' && src?.kind !== 'map_entry') continue;
    const from = outerSource(g, e);
    if (!from) continue;
    if (isAliasBinding(ctx.sdfg, g.state, e)) {
      // A view's viewed edge is bound at its scope's start; a reference's set edge assigns the pointer here.
      if (e.dstConnector === 'set' && !isViewType(ctx.sdfg.arrays.get(node.data)!.type)) emitReferenceSet(core, ctx, env, e, from, node);
      continue;
    }
    emitCopy(core, ctx, env, g, e, from.data, node.data);
  }
  for (const e of g.outEdges.get(node.id)!) {
    if (e.memlet.data === null || isAliasBinding(ctx.sdfg, g.state, e)) continue;
    const dst = g.byId.get(e.dst);
    if (dst?.kind !== 'map_exit') continue;
    const to = outerDestination(g, e);
    if (!to) continue;
    emitCopy(core, ctx, env, g, e, node.data, to.data);
  }
}

/** Which source dimension copies into which destination dimension: the non-unit ones in order (a slice of a
 * higher-rank array into a lower-rank one), else position by position. Shared by the host and device copies. */
export function copyDimPairs(sp: SubsetPoint, dp: SubsetPoint): Array<[number, number]> {
  const unit = (d: SubsetPoint['dims'][number]) => sameSym(d.startText, d.endText);
  const sNon = sp.dims.map((d, i) => (unit(d) ? -1 : i)).filter((i) => i >= 0);
  const dNon = dp.dims.map((d, i) => (unit(d) ? -1 : i)).filter((i) => i >= 0);
  if (sNon.length === dNon.length) return sNon.map((s, i) => [s, dNon[i]!]);
  if (sp.dims.length === dp.dims.length) return sp.dims.map((_, i) => [i, i]);
  throw new ExprError(`copy between subsets of different shapes (${sNon.length} vs ${dNon.length} non-unit dimensions)`);
}

function emitCopy(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, e: MemletEdge, srcName: string, dstName: string): void {
  if (emitStreamCopy(core, ctx, env, e, srcName, dstName)) return;
  if (core.backend?.emitCopy(core, ctx, env, e, srcName, dstName)) return;
  const element = `copy ${srcName} -> ${dstName}`;
  core.guard(e.jsonPath, element, () => {
    const src = core.containerPtr(ctx, srcName, e.jsonPath);
    const dst = core.containerPtr(ctx, dstName, e.jsonPath);
    const { srcSubset, dstSubset } = copyEnds(e.memlet, srcName, dstName);
    const sp = core.subsetOf(src.desc, srcSubset, e.jsonPath);
    const dp = core.subsetOf(dst.desc, dstSubset, e.jsonPath);
    const pairs = copyDimPairs(sp, dp);
    const r = core.baseResolver(ctx, env);
    const em = (x: Expr) => cppOf(x, r, 'symbolic');
    const o = core.out;
    o.mark(e.jsonPath);
    o.openBrace();
    const srcIdx = sp.dims.map((d) => em(d.start));
    const dstIdx = dp.dims.map((d) => em(d.start));
    pairs.forEach(([si, di], k) => {
      const d = sp.dims[si]!;
      const count = `((${em(d.end)}) - (${em(d.start)})) / (${em(d.step)}) + 1`;
      o.open(`for (int64_t __k${k} = 0; __k${k} < ${count}; ++__k${k})`);
      srcIdx[si] = `${grouped(em(d.start))} + __k${k} * ${grouped(em(d.step))}`;
      const dd = dp.dims[di]!;
      dstIdx[di] = `${grouped(em(dd.start))} + __k${k} * ${grouped(em(dd.step))}`;
    });
    const target = `${dst.ptr}[${core.linear(ctx, env, dst.desc, dstIdx)}]`;
    const value = `${src.ptr}[${core.linear(ctx, env, src.desc, srcIdx)}]`;
    if (e.memlet.wcr)
      for (const l of wcrLines(
        core,
        ctx,
        env,
        target,
        value,
        e.memlet.wcr,
        ctypeOf(dst.desc.dtype)!,
        e.jsonPath,
        wcrPlain(core, ctx, env, g, e),
      ))
        o.line(l);
    else o.line(`${target} = ${value};`);
    for (let i = 0; i < pairs.length; i++) o.close();
    o.close();
  });
}

/** `__tlab_nsdfg_<k>(state, inner arguments…, mapped symbols…)`: pointers to the outer subsets' starts. */
function emitNestedCall(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, node: NestedSdfgNode): void {
  const inner = node.sdfg;
  const element = `nested SDFG '${node.label}'`;
  if (!inner) throw new Error(`internal: nested SDFG at ${node.jsonPath} is not embedded (the subset check refuses it)`);
  const o = core.out;
  o.mark(node.jsonPath);
  const args = ['__state'];
  for (const [name, desc] of inner.arrays) {
    if (desc.transient) continue;
    const e = g.inEdges.get(node.id)!.find((x) => x.dstConnector === name) ?? g.outEdges.get(node.id)!.find((x) => x.srcConnector === name);
    // The subset check guarantees a memlet for every argument: a null pointer would only crash inside.
    if (!e || e.memlet.data === null) throw new Error(`internal: argument '${name}' of ${element} has no memlet`);
    args.push(
      core.guard(e.jsonPath, element, () => {
        const { ptr, desc: outer } = core.containerPtr(ctx, e.memlet.data!, e.jsonPath);
        if (ctypeOf(outer.dtype) !== ctypeOf(desc.dtype)) throw new ExprError(`'${name}' changes type across the nested SDFG boundary`);
        return `${ptr} + ${core.startIndex(ctx, env, outer, e.memlet.subset, e.jsonPath)}`;
      }),
    );
  }
  for (const sym of Object.keys(node.symbolMapping).sort(byCodeUnit)) {
    args.push(core.guard(node.jsonPath, `${element} symbol ${sym}`, () => core.sym(ctx, env, node.symbolMapping[sym]!)));
  }
  o.line(`__tlab_nsdfg_${core.nestedIds.get(inner)}(${args.join(', ')});`);
}
