/**
 * Views and references in generated code. Neither owns bytes (placement `none` in every mode): a view is a
 * pointer into the container at the other end of its viewed edge (DaCe's `get_view_edge`), bound where its
 * AccessNode's scope starts, as cpu.py `allocate_view` declares `T *v = &viewed[offset of the memlet subset];`
 * and indexes it with the view's own strides and shape; a reference is a function-level pointer that its `set`
 * edges assign when they run (cpu.py `_emit_copy`, "Setting a reference"). The viewed edge and the `set` edge
 * are therefore no copies.
 *
 * The structural rules (which views and references the emitter can bind) are `aliasFindings`, called by
 * subset.ts; the emitter assumes them.
 */
import { AliasIndex, isReferenceType, isViewType, memletPathSource, viewedEdge, type Viewed } from '../analysis/aliases.js';
import type { AccessNode, MemletEdge, Sdfg, StateBlock, Subset } from '../model/sdfg.js';
import { blocksOf } from '../model/queries.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { ExprError, grouped } from './expr.js';
import { containingScope, type StateGraph } from './graph.js';
import { cppIdent, ctypeOf } from './names.js';
import { viewBindingOrder } from './view-order.js';

type AddFn = (jsonPath: string, element: string, message: string, hint: string) => void;

const VALIDATE = 'check the SDFG with DaCe validate()';

/** The viewed subset's start in the viewed container: the memlet's subset when it names that container, else its other_subset. */
function viewedSubset(edge: MemletEdge, aliasName: string, viewedName: string): { subset: Subset | null } | null {
  const m = edge.memlet;
  if (m.data === viewedName) return { subset: m.subset };
  if (m.data === aliasName) return { subset: m.otherSubset };
  return null;
}

interface StateAliases {
  /** View AccessNode id → its viewed edge and node (null: DaCe finds no viewed edge either). */
  views: Map<number, Viewed | null>;
  /** Edges that bind an alias (viewed edges, reference `set` edges): never copies. */
  binding: Set<MemletEdge>;
}

const perState = new WeakMap<StateBlock, StateAliases>();

function stateAliases(s: Sdfg, state: StateBlock): StateAliases {
  let a = perState.get(state);
  if (a) return a;
  a = { views: new Map(), binding: new Set() };
  for (const n of state.nodes) {
    if (n.kind !== 'access') continue;
    const type = s.arrays.get(n.data)?.type ?? '';
    if (isViewType(type)) {
      const v = viewedEdge(state, n);
      a.views.set(n.id, v);
      if (v) a.binding.add(v.edge);
    } else if (isReferenceType(type)) {
      for (const e of state.edges) if (e.dst === n.id && e.dstConnector === 'set' && e.memlet.data !== null) a.binding.add(e);
    }
  }
  perState.set(state, a);
  return a;
}

/** Views and references of arrays and scalars (those of structures are structs.ts's; of container arrays, not generated). */
export const isArrayAlias = (type: string): boolean => (isViewType(type) || isReferenceType(type)) && !/Structure|Container/.test(type);

/**
 * The structure member a view views (`v_cells` of `ptr_patch.cells`: the viewed edge's memlet names a member
 * of the viewed node's structure), or null when it views the node's container itself.
 */
const isContainerType = (type: string): boolean => type === 'ContainerArray' || type === 'ContainerView';

function viewedMember(v: Viewed, viewName: string): string | null {
  const data = v.edge.memlet.data;
  return data !== null && data !== viewName && data.startsWith(`${v.node.data}.`) ? data : null;
}

/** Whether `e` binds a view or sets a reference (and so is no copy). */
export function isAliasBinding(s: Sdfg, state: StateBlock, e: MemletEdge): boolean {
  return stateAliases(s, state).binding.has(e);
}

/** Structural rules for the views and references of one state (subset.ts). */
export function aliasFindings(s: Sdfg, state: StateBlock, add: AddFn): void {
  const a = stateAliases(s, state);
  for (const n of state.nodes) {
    if (n.kind !== 'access') continue;
    const desc = s.arrays.get(n.data);
    if (!desc || !(isArrayAlias(desc.type) || desc.type === 'StructureView' || desc.type === 'ContainerView')) continue;
    if (isViewType(desc.type)) {
      const element = `view '${n.data}' in state ${state.label}`;
      const v = a.views.get(n.id) ?? null;
      if (!v) {
        add(n.jsonPath, element, 'the view has no viewed container (no edge of it leads to an AccessNode)', VALIDATE);
        continue;
      }
      const member = viewedMember(v, n.data);
      if (member !== null && !s.arrays.has(member))
        add(v.edge.jsonPath, element, `the view views '${member}', which is no member of '${v.node.data}'`, VALIDATE);
      else if (member === null && !viewedSubset(v.edge, n.data, v.node.data))
        add(
          v.edge.jsonPath,
          element,
          `the viewed memlet names '${v.edge.memlet.data}', neither the view nor the viewed container '${v.node.data}'`,
          VALIDATE,
        );
      checkSameType(s, n.data, member ?? v.node.data, n.jsonPath, element, add);
    } else if (isReferenceType(desc.type)) {
      const element = `reference '${n.data}' in state ${state.label}`;
      for (const e of state.edges) {
        if (e.dst !== n.id || e.dstConnector !== 'set' || e.memlet.data === null) continue;
        const from = memletPathSource(state, e);
        if (from?.kind !== 'access') {
          add(
            e.jsonPath,
            element,
            'a reference set from a code node (a pointer-typed connector) is not supported',
            'set the reference from an AccessNode',
          );
          continue;
        }
        if (!viewedSubset(e, n.data, from.data))
          add(
            e.jsonPath,
            element,
            `the set memlet names '${e.memlet.data}', neither the reference nor the container '${from.data}'`,
            VALIDATE,
          );
        checkSameType(s, n.data, from.data, e.jsonPath, element, add);
      }
    }
  }
}

/** A view or reference is a `T *` into the other container: the element types must agree (no reinterpretation). */
function checkSameType(s: Sdfg, alias: string, target: string, jsonPath: string, element: string, add: AddFn): void {
  const a = s.arrays.get(alias);
  const t = s.arrays.get(target);
  if (!a || !t || !ctypeOf(a.dtype) || !ctypeOf(t.dtype)) return;
  // A view of one element of a container array points at what the container's pointer does.
  const pointee = isContainerType(t.type) && !isContainerType(a.type) ? `${ctypeOf(a.dtype)} *` : ctypeOf(a.dtype);
  if (pointee !== ctypeOf(t.dtype))
    add(
      jsonPath,
      element,
      `'${alias}' (${ctypeOf(a.dtype)}) aliases '${target}' (${ctypeOf(t.dtype)}): views that reinterpret the element type are not supported`,
      'give the view the dtype of the data it views',
    );
}

const controlFlowNames = new WeakMap<Sdfg, Set<string>>();

/** Names the control flow of `s` reads (interstate conditions and assignments, branch conditions, loop statements). */
function namesInControlFlow(s: Sdfg): Set<string> {
  let names = controlFlowNames.get(s);
  if (names) return names;
  names = new Set();
  const texts: string[] = [];
  for (const b of blocksOf(s)) {
    if (b.kind === 'region' || b.kind === 'loop') for (const e of b.edges) texts.push(e.condition, ...e.assignments.map(([, v]) => v));
    if (b.kind === 'loop') texts.push(b.init ?? '', b.condition ?? '', b.update ?? '');
    if (b.kind === 'conditional') for (const br of b.branches) texts.push(br.condition ?? '');
  }
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z_]\w*/g)) names.add(m[0]);
  controlFlowNames.set(s, names);
  return names;
}

/** A view the control flow reads (`if v[i] > 0` after the state that binds v): declared at the function's top, as
 * DaCe declares a container whose accesses span several states there, and assigned where it is bound. */
function viewReadByControlFlow(s: Sdfg, name: string): boolean {
  return namesInControlFlow(s).has(name);
}

/** Registers the function's views and references; references are declared here (a `set` edge in one state, uses in
 * others), and so are the views the control flow reads. */
export function declareAliases(core: EmitCore, ctx: FnCtx): void {
  for (const [name, desc] of ctx.sdfg.arrays) {
    const view = isViewType(desc.type);
    if (!desc.transient || (!view && !isReferenceType(desc.type))) continue;
    ctx.containers.set(name, cppIdent(name));
    if (!view || viewReadByControlFlow(ctx.sdfg, name)) core.out.line(`${ctypeOf(desc.dtype)!} *${cppIdent(name)} = nullptr;`);
  }
}

/** Whether scope `outer` (null: the state) contains scope `inner` or is it. */
function scopeContains(g: StateGraph, outer: number | null, inner: number | null): boolean {
  for (let x = inner, guard = 0; guard < 10_000; guard++) {
    if (x === outer) return true;
    if (x === null) return false;
    x = g.byId.get(x)?.scopeEntry ?? null;
  }
  return false;
}

/**
 * Binds the views of the AccessNodes directly in `scope` (null: the state's top level), before the scope's nodes
 * run: `T *v = viewed + offset;`, once per name, from the AccessNode DaCe binds it with (view-order.ts); the
 * name's other AccessNodes of the scope use that binding.
 */
export function emitViewBindings(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, scope: number | null): void {
  const a = stateAliases(ctx.sdfg, g.state);
  for (const node of viewBindingOrder(ctx.sdfg, g, a.views, scope))
    core.recover(node.jsonPath, `view '${node.data}'`, () => bindView(core, ctx, env, g, node, a.views.get(node.id)!, scope));
}

function bindView(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, node: AccessNode, v: Viewed, scope: number | null): void {
  if (!scopeContains(g, containingScope(g, v.node), scope))
    throw new ExprError(`view '${node.data}' views '${v.node.data}' from inside a scope the view is not in`);
  const value = core.guard(v.edge.jsonPath, `view '${node.data}'`, () => {
    const member = viewedMember(v, node.data);
    const { ptr, desc } = core.containerPtr(ctx, member ?? v.node.data, v.edge.jsonPath);
    const subset = member !== null ? v.edge.memlet.subset : viewedSubset(v.edge, node.data, v.node.data)!.subset;
    const start = core.startIndex(ctx, env, desc, subset, v.edge.jsonPath);
    // A view of one element of a container array is that element's pointer (DaCe: `AB->As[i]`).
    if (isContainerType(desc.type) && !isContainerType(ctx.sdfg.arrays.get(node.data)!.type)) return `${ptr}[${start}]`;
    return start === '0' ? ptr : `${ptr} + ${grouped(start)}`;
  });
  const desc = ctx.sdfg.arrays.get(node.data)!;
  core.out.mark(node.jsonPath);
  // Bound outside parallel code, a view the control flow reads sets the function's pointer; in parallel code each
  // thread keeps its own (a shared pointer would race), which the control flow after the map does not see.
  const shared = viewReadByControlFlow(ctx.sdfg, node.data) && !env.parallel && !env.device;
  core.out.line(`${shared ? '' : `${ctypeOf(desc.dtype)!} *`}${ctx.containers.get(node.data)!} = ${value};`);
}

/** A reference's `set` edge: the reference now points at the subset's start of the container the edge comes from. */
export function emitReferenceSet(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, from: AccessNode, ref: AccessNode): void {
  const element = `reference '${ref.data}'`;
  core.guard(e.jsonPath, element, () => {
    if (env.device) throw new ExprError(`reference '${ref.data}' is set inside a GPU kernel`);
    if (env.parallel) throw new ExprError(`reference '${ref.data}' is set inside a parallel map (every thread would set it)`);
    const { ptr, desc } = core.containerPtr(ctx, from.data, e.jsonPath);
    const start = core.startIndex(ctx, env, desc, viewedSubset(e, ref.data, from.data)!.subset, e.jsonPath);
    core.out.mark(e.jsonPath);
    core.out.line(`${ctx.containers.get(ref.data)!} = ${start === '0' ? ptr : `${ptr} + ${grouped(start)}`};`);
  });
}

const indexes = new WeakMap<Sdfg, AliasIndex>();

/**
 * The containers of `s` a view or reference may alias (top-level names): one for a view, every container its
 * `set` edges name for a reference; empty when none is known.
 */
export function aliasRoots(s: Sdfg, name: string): string[] {
  let index = indexes.get(s);
  if (!index) {
    index = new AliasIndex();
    indexes.set(s, index);
  }
  return [...new Set((index.targetOf(s, name)?.candidates ?? []).map((c) => c.split('.')[0]!))].filter((c) => c !== name);
}
