/**
 * Tasklets. Each is emitted as two nested blocks: the outer one reads inputs into `__tlab_in<k>` temporaries
 * and binds outputs (`__tlab_out<k>`), the inner one declares the connectors under their own names and holds
 * the translated code, so a connector may share its name with a container or a symbol. Python code is
 * translated statement by statement; C++ code is pasted.
 */
import type { DataDescriptor, DType, TaskletNode } from '../model/sdfg.js';
import { parsePythonStatements, type Expr, type Stmt } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx, SubsetPoint } from './core.js';
import { cppOf, ExprError, grouped, sameSym, statementNames, type NameResolver } from './expr.js';
import type { StateGraph } from './graph.js';
import { cppIdent, ctypeOf, dtypeLabel } from './names.js';
import { StructAccess, structConnectorBinding, type StructConnectors } from './tasklet-structs.js';
import { wcrLines } from './wcr.js';
import { wcrPlain } from './wcr-conflicts.js';
import { streamInput, streamOutput } from './streams.js';

type ArrayConnectors = Map<string, { desc: DataDescriptor; subset: SubsetPoint }>;

/** `direct`: memlet index → the local that carries a tasklet-to-tasklet edge. */
export function emitTasklet(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, t: TaskletNode, direct: Map<number, string>): void {
  const o = core.out;
  const element = `tasklet '${t.label}'`;
  const lang = t.code.language;
  if (lang !== 'Python' && lang !== 'CPP') throw new Error(`internal: ${lang} tasklet at ${t.jsonPath} (the subset check refuses it)`);
  o.mark(t.jsonPath);
  o.openBrace();
  const pre: string[] = [];
  const bind: string[] = [];
  const post: string[] = [];
  /** Connector → how Python code indexes it (pointer connectors). */
  const arrays: ArrayConnectors = new Map();
  const values = new Set<string>();
  /** Connector → the structure it points at (tasklet-structs.ts). */
  const structs: StructConnectors = new Map();
  /** Value connectors of a vector dtype: `v[i]` is one of their elements (vectors.ts). */
  const vectors = new Set<string>();
  let k = 0;
  for (const e of g.inEdges.get(t.id)!) {
    if (!e.dstConnector) continue;
    const c = e.dstConnector;
    const cv = cppIdent(c);
    values.add(c);
    const tmp = `__tlab_in${k++}`;
    const stream = core.guard(e.jsonPath, element, () => streamInput(core, ctx, env, g, e, ctypeOf(t.inConnectors[c]), tmp));
    if (stream) {
      pre.push(...stream.pre);
      bind.push(...stream.bind);
      continue;
    }
    if (t.inConnectors[c]?.kind === 'pointer' && (direct.has(e.index) || e.memlet.data === null)) {
      core.fail(e.jsonPath, element, `pointer connector ${c} has no container to point into`, 'connect it to an access node');
    }
    if (direct.has(e.index)) {
      pre.push(`auto ${tmp} = ${direct.get(e.index)};`);
      bind.push(`auto ${cv} = ${tmp};`);
      continue;
    }
    if (e.memlet.data === null) {
      bind.push(`${ctypeOf(t.inConnectors[c]) ?? 'double'} ${cv} = {};`);
      continue;
    }
    core.guard(e.jsonPath, element, () => {
      const { ptr, desc } = core.containerPtr(ctx, e.memlet.data!, e.jsonPath);
      const subset = e.memlet.subset;
      const pointer = pointerConnector(t.inConnectors[c], desc, c);
      const struct = pointer ? null : structConnectorBinding(core, ctx, env, e.memlet.data!, subset, e.jsonPath);
      if (struct) {
        pre.push(`${struct.ctype}${tmp} = ${struct.value};`);
        bind.push(`${struct.ctype}${cv} = ${tmp};`);
        structs.set(c, struct.desc);
        values.delete(c);
      } else if (pointer) {
        pre.push(`${pointer} *${tmp} = ${pointerTo(pointer, desc, `${ptr} + ${core.startIndex(ctx, env, desc, subset, e.jsonPath)}`)};`);
        bind.push(`${pointer} *${cv} = ${tmp};`);
        arrays.set(c, { desc, subset: core.subsetOf(desc, subset, e.jsonPath) });
        values.delete(c);
      } else if (core.isSingleElement(desc, subset)) {
        if (desc.dtype.kind === 'vector') vectors.add(c);
        pre.push(`${ctypeOf(desc.dtype)} ${tmp} = ${ptr}[${core.startIndex(ctx, env, desc, subset, e.jsonPath)}];`);
        const ct = ctypeOf(t.inConnectors[c]);
        bind.push(`${ct ?? ctypeOf(desc.dtype)} ${cv} = ${tmp};`);
      } else {
        pre.push(`${ctypeOf(desc.dtype)} *${tmp} = ${ptr} + ${core.startIndex(ctx, env, desc, subset, e.jsonPath)};`);
        bind.push(`${ctypeOf(desc.dtype)} *${cv} = ${tmp};`);
        arrays.set(c, { desc, subset: core.subsetOf(desc, subset, e.jsonPath) });
        values.delete(c);
      }
    });
  }
  const written = new Set<string>();
  const connTmp = new Map<string, string>();
  for (const e of g.outEdges.get(t.id)!) {
    if (!e.srcConnector) continue;
    const c = e.srcConnector;
    const cv = cppIdent(c);
    if (written.has(c)) {
      // One connector feeding several memlets: later writes copy the first binding.
      const first = connTmp.get(c);
      if (!first) core.fail(e.jsonPath, element, `output connector ${c} is a range bound to several memlets`, 'split the tasklet output');
      if (e.memlet.data !== null && !direct.has(e.index)) {
        core.guard(e.jsonPath, element, () => {
          const { ptr, desc } = core.containerPtr(ctx, e.memlet.data!, e.jsonPath);
          const subset = e.memlet.subset;
          if (!core.isSingleElement(desc, subset) || e.memlet.wcr)
            throw new ExprError(`connector ${c} writes several memlets with ranges or WCR`);
          post.push(`${ptr}[${core.startIndex(ctx, env, desc, subset, e.jsonPath)}] = ${first};`);
        });
      } else if (direct.has(e.index)) post.push(`${direct.get(e.index)} = ${first};`);
      continue;
    }
    written.add(c);
    if (t.outConnectors[c]?.kind === 'pointer' && (direct.has(e.index) || e.memlet.data === null)) {
      core.fail(e.jsonPath, element, `pointer connector ${c} has no container to point into`, 'connect it to an access node');
    }
    const tmp = `__tlab_out${k++}`;
    const stream = core.guard(e.jsonPath, element, () => streamOutput(core, ctx, env, e, tmp));
    if (stream) {
      pre.push(...stream.pre);
      bind.push(...stream.bind);
      post.push(...stream.post);
      values.add(c);
      continue;
    }
    connTmp.set(c, tmp);
    if (direct.has(e.index)) {
      pre.push(`auto &${tmp} = ${direct.get(e.index)};`);
      bind.push(`auto &${cv} = ${tmp};`);
      values.add(c);
      continue;
    }
    if (e.memlet.data === null) {
      pre.push(`${ctypeOf(t.outConnectors[c]) ?? 'double'} ${tmp} = {};`);
      bind.push(`auto &${cv} = ${tmp};`);
      values.add(c);
      continue;
    }
    core.guard(e.jsonPath, element, () => {
      const { ptr, desc } = core.containerPtr(ctx, e.memlet.data!, e.jsonPath);
      const subset = e.memlet.subset;
      const ctype = ctypeOf(desc.dtype)!;
      const index = core.startIndex(ctx, env, desc, subset, e.jsonPath);
      const pointer = pointerConnector(t.outConnectors[c], desc, c);
      const struct = pointer ? null : structConnectorBinding(core, ctx, env, e.memlet.data!, subset, e.jsonPath);
      if (struct) {
        // The code writes members through the pointer: nothing to write back after it.
        if (e.memlet.wcr) throw new ExprError(`WCR on the structure connector ${c} is not supported`);
        pre.push(`${struct.ctype}${tmp} = ${struct.value};`);
        bind.push(`${struct.ctype}${cv} = ${tmp};`);
        structs.set(c, struct.desc);
      } else if (pointer) {
        if (e.memlet.wcr) throw new ExprError(`WCR on the pointer connector ${c} is not supported`);
        pre.push(`${pointer} *${tmp} = ${pointerTo(pointer, desc, `${ptr} + ${index}`)};`);
        bind.push(`${pointer} *${cv} = ${tmp};`);
        arrays.set(c, { desc, subset: core.subsetOf(desc, subset, e.jsonPath) });
      } else if (core.isSingleElement(desc, subset)) {
        values.add(c);
        if (desc.dtype.kind === 'vector') vectors.add(c);
        if (e.memlet.wcr) {
          pre.push(`${ctype} ${tmp} = {};`);
          bind.push(`${ctype} &${cv} = ${tmp};`);
          post.push(...wcrLines(core, ctx, env, `${ptr}[${index}]`, tmp, e.memlet.wcr, ctype, e.jsonPath, wcrPlain(core, ctx, env, g, e)));
        } else {
          pre.push(`${ctype} &${tmp} = ${ptr}[${index}];`);
          bind.push(`${ctype} &${cv} = ${tmp};`);
        }
      } else {
        if (e.memlet.wcr) throw new ExprError(`WCR on a range output (${c}) is not supported`);
        pre.push(`${ctype} *${tmp} = ${ptr} + ${index};`);
        bind.push(`${ctype} *${cv} = ${tmp};`);
        arrays.set(c, { desc, subset: core.subsetOf(desc, subset, e.jsonPath) });
      }
    });
  }
  // Declared connectors without edges still exist as tasklet variables.
  for (const [c, dt] of Object.entries(t.outConnectors)) {
    if (!written.has(c) && dt?.kind === 'pointer') {
      core.fail(t.jsonPath, element, `pointer connector ${c} has no memlet`, 'connect it to an access node');
    } else if (!written.has(c)) {
      bind.push(`${ctypeOf(dt) ?? 'double'} ${cppIdent(c)} = {};`);
      values.add(c);
    }
  }
  for (const l of pre) o.line(l);
  o.openBrace();
  for (const l of bind) o.line(l);
  if (lang === 'CPP') {
    for (const line of t.code.code.split('\n')) o.line(line);
  } else {
    const stmts = core.guard(t.jsonPath, element, () => parsePythonStatements(t.code.code));
    const access = new StructAccess(core, ctx, env, structs);
    const lines = core.guard(t.jsonPath, element, () => taskletStatements(core, ctx, env, stmts, values, arrays, access, vectors));
    for (const l of lines) o.line(l);
  }
  o.close();
  for (const l of post) o.line(l);
  o.close();
}

function taskletStatements(
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  stmts: readonly Stmt[],
  values: Set<string>,
  arrays: ArrayConnectors,
  access: StructAccess,
  vectors: ReadonlySet<string>,
): string[] {
  const declared = new Set<string>();
  const lines: string[] = [];
  // Locals first assigned inside a branch are hoisted (C++ scoping), typed double as DaCe's inference would.
  const { writes } = statementNames(stmts);
  const topLevel = new Set<string>();
  for (const s of stmts) if (s.k === 'assign') for (const t of s.targets) if (t.k === 'sym') topLevel.add(t.name);
  const resolver: NameResolver = {
    read: (name) => {
      const member = access.texts.get(name);
      if (member !== undefined) return member;
      if (access.isConnector(name)) throw new ExprError(`structure connector '${name}' is used as a value: reach one of its members`);
      if (values.has(name) || declared.has(name)) return cppIdent(name);
      if (arrays.has(name)) throw new ExprError(`array connector '${name}' is used as a value`);
      return core.baseResolver(ctx, env).read(name);
    },
    index: (name, indices) => {
      const a = arrays.get(name);
      if (!a) {
        if (vectors.has(name) && indices.length === 1) return `${cppIdent(name)}[${indices[0]}]`;
        // `x[0]` on a scalar connector is the value itself.
        if (values.has(name) && indices.length === 1 && indices[0] === '0') return cppIdent(name);
        return core.baseResolver(ctx, env).index(name, indices);
      }
      return `${cppIdent(name)}[${connectorIndex(core, ctx, env, a.desc, a.subset, indices)}]`;
    },
  };
  const emit = (e: Expr): string => cppOf(access.rewrite(e, emit), resolver, 'python');
  const hoisted = [...writes].filter((w) => !values.has(w) && !arrays.has(w) && !topLevel.has(w));
  for (const h of hoisted) {
    lines.push(`double ${cppIdent(h)} = 0;`);
    declared.add(h);
  }
  const target = (original: Expr): string => {
    const t = access.rewrite(original, emit);
    const member = t.k === 'sym' ? access.texts.get(t.name) : undefined;
    if (member !== undefined) return member;
    if (t.k === 'sym') {
      if (values.has(t.name) || declared.has(t.name)) return cppIdent(t.name);
      // Its memlet is a range, so the connector is a pointer: a new local of that name would not compile.
      if (arrays.has(t.name))
        throw new ExprError(
          `array connector '${t.name}' (its memlet is a range) is assigned as a whole: index it (${t.name}[…]) or make the memlet one element`,
        );
      return '';
    }
    if (t.k === 'subscript') return emit(t);
    throw new ExprError('only names and subscripts can be assigned');
  };
  const walk = (list: readonly Stmt[], depth: number): void => {
    const pad = '  '.repeat(depth);
    for (const s of list) {
      switch (s.k) {
        case 'pass':
          break;
        case 'expr':
          lines.push(`${pad}${emit(s.e)};`);
          break;
        case 'assign': {
          const value = emit(s.value);
          for (const t of s.targets) {
            const tt = target(t);
            if (tt === '' && t.k === 'sym') {
              declared.add(t.name);
              lines.push(`${pad}auto ${cppIdent(t.name)} = ${value};`);
            } else lines.push(`${pad}${tt} = ${value};`);
          }
          break;
        }
        case 'augassign': {
          const tt = target(s.target);
          if (tt === '') throw new ExprError(`'${s.target.k === 'sym' ? s.target.name : '?'}' is updated before it is assigned`);
          lines.push(`${pad}${tt} = ${emit({ k: 'bin', op: s.op, a: s.target, b: s.value })};`);
          break;
        }
        case 'if':
          lines.push(`${pad}if (${emit(s.cond)}) {`);
          walk(s.then, depth + 1);
          if (s.else.length) {
            lines.push(`${pad}} else {`);
            walk(s.else, depth + 1);
          }
          lines.push(`${pad}}`);
          break;
      }
    }
  };
  walk(stmts, 0);
  return lines;
}

/** Python tasklets index array connectors relative to the memlet start, over all or the non-unit dimensions. */
function connectorIndex(core: EmitCore, ctx: FnCtx, env: Env, desc: DataDescriptor, subset: SubsetPoint, idx: string[]): string {
  const nonUnit = subset.dims.map((d, i) => (sameSym(d.startText, d.endText) ? -1 : i)).filter((i) => i >= 0);
  let dims: number[];
  if (idx.length === desc.strides.length) dims = desc.strides.map((_, i) => i);
  else if (idx.length === nonUnit.length) dims = nonUnit;
  else throw new ExprError(`array connector indexed with ${idx.length} indices`);
  const terms = dims.map((d, i) => {
    const stride = desc.strides[d]!;
    return stride.trim() === '1' ? `int64_t(${idx[i]})` : `int64_t(${idx[i]}) * ${grouped(core.sym(ctx, env, stride))}`;
  });
  return terms.join(' + ') || '0';
}

/**
 * The element type of a pointer-typed connector (DaCe's C frontend declares them, e.g. `pointer<int32>`), null
 * for a value connector. As DaCe's memlet_definition, the connector points at the memlet's first element, cast
 * when its element type is not the container's.
 */
function pointerConnector(type: DType | null | undefined, desc: DataDescriptor, c: string): string | null {
  if (type?.kind !== 'pointer') return null;
  const element = ctypeOf(type.base);
  if (!element) throw new ExprError(`connector ${c} has type ${dtypeLabel(type)}, which is not supported`);
  if (!ctypeOf(desc.dtype)) throw new ExprError(`connector ${c} points into '${desc.name}', whose dtype is not supported`);
  return element;
}

function pointerTo(element: string, desc: DataDescriptor, address: string): string {
  return ctypeOf(desc.dtype) === element ? address : `reinterpret_cast<${element} *>(${address})`;
}
