/**
 * The program's C++ functions: `__program_<n>_internal` (the root SDFG, symbols as 64-bit integers) with its
 * DaCe-ABI wrapper `__program_<n>`, and one `static void __tlab_nsdfg_<k>(state, inner arguments…, mapped
 * symbols…)` per nested SDFG. Each body is: symbol locals, transient declarations and SDFG-level
 * allocations, the control flow, then `__tlab_exit_<k>:` and the SDFG-level frees.
 */
import type { Sdfg } from '../model/sdfg.js';
import { TlabError } from '../errors.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { emitRegion, localSymbols } from './control-flow.js';
import { declareTransients, emitSiteAllocations, emitSiteFrees } from './memory.js';
import { byCodeUnit, cppIdent, ctypeOf } from './names.js';
import { Containers } from './structs.js';
import { restrictArgs } from './restrict-args.js';

/** Whether a nested SDFG runs inside a CPU_Multicore or CPU_Persistent map of an enclosing SDFG: its WCR writes then race. */
function calledInParallel(core: EmitCore, s: Sdfg): boolean {
  return s.parent !== null && core.defaults.inParallel(s.parent.sdfg, s.parent.state, s.parent.node);
}

export function nestedSignature(core: EmitCore, s: Sdfg): string {
  const params = [`${core.name}_state_t *__state`];
  const restrict = restrictArgs(s);
  for (const [name, desc] of s.arrays)
    if (!desc.transient) params.push(`${ctypeOf(desc.dtype)} *${restrict.has(name) ? '__restrict__ ' : ''}${cppIdent(name)}`);
  const node = s.parent!.node;
  for (const sym of Object.keys(node.symbolMapping).sort(byCodeUnit)) params.push(`${core.symbolCtype(s, sym)} ${cppIdent(sym)}`);
  return `static ${core.backend?.functionQualifier(core, s) ?? ''}void __tlab_nsdfg_${core.nestedIds.get(s)}(${params.join(', ')})`;
}

function functionBody(core: EmitCore, ctx: FnCtx, env: Env, locals: string[]): void {
  const o = core.out;
  for (const l of locals) {
    const c = cppIdent(l);
    env.names.set(l, c);
    o.line(`${core.symbolCtype(ctx.sdfg, l)} ${c} = 0;`);
  }
  declareTransients(core, ctx);
  emitSiteAllocations(core, ctx, env, (site) => site.kind === 'sdfg');
  emitRegion(core, ctx, env, ctx.sdfg.body, null);
  o.line(`${ctx.exitLabel}: ;`);
  emitSiteFrees(core, ctx, (site) => site.kind === 'sdfg');
}

export function emitNestedFunction(core: EmitCore, s: Sdfg): void {
  const o = core.out;
  const id = core.nestedIds.get(s)!;
  const ctx: FnCtx = {
    sdfg: s,
    containers: new Containers(s.arrays),
    exitLabel: `__tlab_exit_${id}`,
    constantsUsed: new Set(),
    isRoot: false,
  };
  // One function serves every call site; a call from inside a parallel map makes its WCR writes concurrent.
  // Device functions (called from kernels) run in parallel threads: WCR writes are atomic there.
  const device = (core.backend?.functionQualifier(core, s) ?? '') !== '';
  const persistent = core.defaults.inPersistentRegion(s.parent!.sdfg, s.parent!.state, s.parent!.node);
  const env: Env = { names: new Map(), parallel: calledInParallel(core, s), device, persistent };
  for (const [name, desc] of s.arrays) if (!desc.transient) ctx.containers.set(name, cppIdent(name));
  for (const sym of Object.keys(s.parent!.node.symbolMapping)) env.names.set(sym, cppIdent(sym));
  o.mark(s.jsonPath);
  o.open(nestedSignature(core, s));
  if (device) core.deviceDepth++;
  try {
    functionBody(
      core,
      ctx,
      env,
      localSymbols(core, s).filter((l) => !(l in s.parent!.node.symbolMapping)),
    );
  } finally {
    if (device) core.deviceDepth--;
  }
  o.close();
  o.line('');
}

export function emitRootFunction(core: EmitCore, argArrays: string[], argScalars: string[]): void {
  const root = core.file.root;
  const o = core.out;
  const ctx: FnCtx = {
    sdfg: root,
    containers: new Containers(root.arrays),
    exitLabel: '__tlab_exit_0',
    constantsUsed: core.rootConstants,
    isRoot: true,
  };
  const env: Env = { names: new Map(), parallel: false };
  const params = [`${core.name}_state_t *__state`];
  for (const a of argArrays) {
    const desc = root.arrays.get(a)!;
    params.push(`${ctypeOf(desc.dtype)} *__restrict__ ${cppIdent(a)}`);
    ctx.containers.set(a, cppIdent(a));
  }
  const scalarOrSymbol = [...argScalars, ...core.argSymbols].sort(byCodeUnit);
  for (const n of scalarOrSymbol) {
    if (argScalars.includes(n)) {
      params.push(`${ctypeOf(root.arrays.get(n)!.dtype)} __arg_${cppIdent(n)}`);
    } else {
      params.push(`${core.symbolCtype(root, n)} ${cppIdent(n)}`);
      env.names.set(n, cppIdent(n));
    }
  }
  // Body first (it records which non-argument symbols it needed), then the function around it.
  const body = o.capture(() => {
    for (const n of argScalars) {
      o.line(`${ctypeOf(root.arrays.get(n)!.dtype)} *${cppIdent(n)} = &__arg_${cppIdent(n)};`);
      ctx.containers.set(n, cppIdent(n));
    }
    functionBody(core, ctx, env, localSymbols(core, root));
  });

  o.mark(root.jsonPath);
  o.open(`static void __program_${core.name}_internal(${params.join(', ')})`);
  for (const c of [...ctx.constantsUsed].sort(byCodeUnit)) {
    const v = core.plan.symbolValue(c);
    if (v === null)
      throw new TlabError('input', `symbol ${c} has no value: pass --symbols ${c}=… or --default-symbol …`, {
        file: core.file.path,
        jsonPath: `${root.jsonPath}.attributes.symbols`,
      });
    o.line(`const ${core.symbolCtype(root, c)} ${cppIdent(c)} = ${v}LL;  // specialised: not an argument in DaCe's ABI`);
  }
  for (const l of body) o.line(l);
  o.close();
  o.line('');
  const abi = abiParameters(core, argArrays, argScalars);
  o.open(`extern "C" void __program_${core.name}(${[`${core.name}_state_t *__state`, ...abi.params].join(', ')})`);
  o.line(`__program_${core.name}_internal(${['__state', ...abi.names].join(', ')});`);
  o.close();
  o.line('');
}

/** DaCe's argument list (sdfg.py `signature`): arrays by name, then scalars and symbols merged by name; the
 * parameters of `__program_<n>`, and of `__dace_init_<n>` where it takes the arguments (init-args.ts). */
export function abiParameters(core: EmitCore, argArrays: string[], argScalars: string[]): { params: string[]; names: string[] } {
  const root = core.file.root;
  const params: string[] = [];
  const names: string[] = [];
  for (const a of argArrays) {
    params.push(`${ctypeOf(root.arrays.get(a)!.dtype)} *__restrict__ ${cppIdent(a)}`);
    names.push(cppIdent(a));
  }
  for (const n of [...argScalars, ...core.argSymbols].sort(byCodeUnit)) {
    const ctype = argScalars.includes(n) ? ctypeOf(root.arrays.get(n)!.dtype)! : core.abiSymbolCtype(n);
    params.push(`${ctype} ${cppIdent(n)}`);
    names.push(cppIdent(n));
  }
  return { params, names };
}
