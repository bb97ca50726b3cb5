/**
 * Tasklet connectors bound to a structure (`i1` on a memlet of `A`, a `Structure` argument, or of one element of
 * a container array of structures): the tasklet reaches into it through member paths (`o1.b[0].c = i1.b[0].c`,
 * as DaCe's LiftStructViews tests write them). Structures are always reached through a pointer in generated
 * code (structs.ts), so the connector is the struct's pointer and every member step is C's arrow: a scalar
 * member is its value, an array member is indexed with its own strides and offsets, an element of a container
 * array is that element's pointer. The code therefore reads and writes the argument's own members, which is
 * what DaCe's LiftStructViews makes of such a tasklet (one view per member path, the tasklet's connector bound
 * to the view). A chain that ends at a structure or a whole array is not a value and is refused.
 */
import type { DataDescriptor, Subset } from '../model/sdfg.js';
import type { Expr } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { ExprError, grouped } from './expr.js';
import { cppIdent, ctypeOf } from './names.js';
import { isStructureType } from './structs.js';

/** Connector name → the structure descriptor its pointer points at. */
export type StructConnectors = Map<string, DataDescriptor>;

/**
 * The binding of a connector whose memlet names a structure (or one element of a container array of
 * structures): `t_A *c = <pointer>`; null for any other container.
 */
export function structConnectorBinding(
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  name: string,
  subset: Subset | null,
  jsonPath: string,
): { ctype: string; value: string; desc: DataDescriptor } | null {
  const { ptr, desc } = core.containerPtr(ctx, name, jsonPath);
  const element = desc.type === 'ContainerArray' || desc.type === 'ContainerView' ? desc.stype : undefined;
  if (!isStructureType(desc.type) && !(element && isStructureType(element.type))) return null;
  if (!core.isSingleElement(desc, subset)) throw new ExprError(`the memlet of structure '${name}' is a range, not one structure`);
  const start = core.startIndex(ctx, env, desc, subset, jsonPath);
  const target = element ?? desc;
  const value = element ? `${ptr}[${start}]` : start === '0' ? ptr : `${ptr} + ${grouped(start)}`;
  return { ctype: `${ctypeOf(target.dtype)!} *`, value, desc: target };
}

type Step = { k: 'attr'; name: string } | { k: 'index'; index: Expr[] };

/** The connector a member chain starts at and its steps, outermost last; null when `e` is no such chain. */
function chainOf(e: Expr, conns: StructConnectors): { root: string; steps: Step[] } | null {
  const steps: Step[] = [];
  let cur = e;
  while (cur.k === 'attr' || cur.k === 'subscript') {
    steps.push(cur.k === 'attr' ? { k: 'attr', name: cur.name } : { k: 'index', index: cur.index });
    cur = cur.base;
  }
  if (cur.k !== 'sym' || !conns.has(cur.name) || steps.length === 0) return null;
  return { root: cur.name, steps: steps.reverse() };
}

/** Applies `f` to the direct children of `e`. */
function mapChildren(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.k) {
    case 'bin':
      return { ...e, a: f(e.a), b: f(e.b) };
    case 'un':
      return { ...e, a: f(e.a) };
    case 'cmpchain':
      return { ...e, operands: e.operands.map(f) };
    case 'call':
      return { ...e, args: e.args.map(f), kwargs: e.kwargs.map(([k, v]) => [k, f(v)]) };
    case 'ternary':
      return { ...e, cond: f(e.cond), then: f(e.then), else: f(e.else) };
    case 'subscript':
      return { ...e, base: f(e.base), index: e.index.map(f) };
    case 'attr':
      return { ...e, base: f(e.base) };
    case 'tuple':
      return { ...e, items: e.items.map(f) };
    default:
      return e;
  }
}

/**
 * Rewrites tasklet code so that every member chain on a structure connector becomes one name whose C++ is in
 * `texts` (the resolver's `read` returns it), `render` giving the C++ of the indices inside a chain.
 */
export class StructAccess {
  readonly texts = new Map<string, string>();

  constructor(
    private readonly core: EmitCore,
    private readonly ctx: FnCtx,
    private readonly env: Env,
    private readonly conns: StructConnectors,
  ) {}

  isConnector(name: string): boolean {
    return this.conns.has(name);
  }

  rewrite(e: Expr, render: (x: Expr) => string): Expr {
    const chain = chainOf(e, this.conns);
    if (!chain) return mapChildren(e, (x) => this.rewrite(x, render));
    const name = `__tlab_member${this.texts.size}`;
    this.texts.set(name, this.chainCpp(chain.root, chain.steps, render));
    return { k: 'sym', name };
  }

  private chainCpp(root: string, steps: Step[], render: (x: Expr) => string): string {
    let cpp = cppIdent(root);
    let d = this.conns.get(root)!;
    let text = root;
    // What `cpp` is: a struct pointer, a member array (`T *`), a container array (`T **`) or a value.
    let kind: 'struct' | 'array' | 'container' | 'value' = 'struct';
    for (const s of steps) {
      if (s.k === 'attr') {
        text += `.${s.name}`;
        if (kind !== 'struct') throw new ExprError(`'${text}': only a structure has members`);
        const m = d.members?.find((x) => x.name === s.name);
        if (!m) throw new ExprError(`'${text}': ${s.name} is not a member of structure ${ctypeOf(d.dtype) ?? d.name}`);
        cpp = `${cpp}->${cppIdent(s.name)}`;
        d = m;
        kind = m.type === 'Scalar' ? 'value' : isStructureType(m.type) ? 'struct' : m.stype ? 'container' : 'array';
        continue;
      }
      const index = s.index.map((x) => render(x));
      text += `[${index.join(', ')}]`;
      if (kind === 'struct') {
        // DaCe's Fortran frontend indexes the one-element structure (`p[0].n`): the structure itself.
        if (index.every((i) => i === '0')) continue;
        throw new ExprError(`'${text}': a structure is indexed`);
      }
      if (kind === 'value') throw new ExprError(`'${text}': a scalar member is indexed`);
      cpp = `${cpp}[${this.core.linear(this.ctx, this.env, d, index)}]`;
      if (kind === 'array') kind = 'value';
      else {
        d = d.stype!;
        kind = isStructureType(d.type) ? 'struct' : 'array';
      }
    }
    if (kind !== 'value')
      throw new ExprError(
        `'${text}' is a ${kind === 'struct' ? 'structure' : 'whole array'}, not a value: reach a scalar member or index the array`,
      );
    return cpp;
  }
}
