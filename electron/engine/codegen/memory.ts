/**
 * Memory in generated code: declaring each transient's pointer where its placement says, allocating and
 * freeing heap transients at their sites, stack arrays, and persistent transients in init/exit.
 *
 * The only target-specific part is `StorageAllocator`: the statements that allocate, free and zero one
 * buffer of a storage type. CPU storages go through the runtime's instrumented `tlab_alloc`/`tlab_free`; a
 * GPU backend adds its allocators (cudaMalloc, cudaMallocAsync for POOL, …) in `allocatorFor` and nothing
 * else here changes.
 */
import type { DataDescriptor, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AllocationCode, StorageAllocator } from './allocator.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { freeSymbols } from '../symbolic/index.js';
import { ExprError, sizeValue } from './expr.js';
import { setzeroAnywhere, stackScope } from './memory-index.js';
import { cppIdent, ctypeOf } from './names.js';
import type { Placement, SiteKey } from './placement.js';
import { declareAliases } from './views.js';
import { isAliasType } from '../analysis/aliases.js';
import { streamClose, streamDeclaration, streamOpen } from './streams.js';
import { isThreadLocal, THREAD_LOCAL, THREAD_LOCAL_ALLOCATOR, threadLocalName } from './thread-local.js';

const shifted = (ptr: string, startOffset: number, sign: '+' | '-') => (startOffset ? `${ptr} ${sign} ${startOffset}` : ptr);

/** Host memory through the runtime's instrumented allocator (aligned like DaCe's `new (std::align_val_t(A))`). */
const CPU_HEAP: StorageAllocator = {
  allocate: (a) => [
    `${a.ptr} = ${shifted(`static_cast<${a.ctype} *>(tlab_alloc(${a.bytes}, ${a.alignment}, ${a.index}))`, a.startOffset, '+')};`,
  ],
  free: (a) => [`tlab_free(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${a.alignment}, ${a.index});`],
  zero: (a) => [`std::memset(${shifted(a.ptr, a.startOffset, '-')}, 0, ${a.bytes});`],
};

/** The allocator of a storage type: the device backend's for its storages, else host memory. */
function allocatorFor(core: EmitCore, storage: string): StorageAllocator {
  if (storage === THREAD_LOCAL) return THREAD_LOCAL_ALLOCATOR;
  return core.backend?.allocator(storage) ?? CPU_HEAP;
}

/** DaCe aligns heap arrays to `alignment`, or to 64 bytes when the descriptor says 0. */
function alignmentOf(desc: DataDescriptor): number {
  return desc.alignment > 0 ? desc.alignment : 64;
}

function bytesExpr(core: EmitCore, ctx: FnCtx, env: Env, desc: DataDescriptor): string {
  return `size_t(${core.sym(ctx, env, desc.totalSize)}) * sizeof(${ctypeOf(desc.dtype)})`;
}

interface SiteTransient {
  name: string;
  desc: DataDescriptor;
  placement: Placement & { kind: 'heap' | 'persistent' | 'external' };
}

function transientsAt(core: EmitCore, ctx: FnCtx, want: (s: SiteKey) => boolean): SiteTransient[] {
  const out: SiteTransient[] = [];
  for (const [name, desc] of ctx.sdfg.arrays) {
    if (!desc.transient) continue;
    const p = core.plan.placement(ctx.sdfg, name);
    if ((p.kind === 'heap' || p.kind === 'persistent' || p.kind === 'external') && want(p.site)) out.push({ name, desc, placement: p });
  }
  return out;
}

/**
 * Allocations of the heap transients whose site `want` selects, and `setzero` fills of every transient there.
 * The byte count is computed once, at the allocation, into `__tlab_bytes_<x>`: the free passes the same
 * count even when the symbols it was computed from change in between.
 */
export function emitSiteAllocations(core: EmitCore, ctx: FnCtx, env: Env, want: (s: SiteKey) => boolean): void {
  const o = core.out;
  for (const { name, desc, placement } of transientsAt(core, ctx, want)) {
    core.recover(desc.jsonPath, `transient '${name}'`, () => {
      if (desc.type === 'Stream') {
        // A queue handle, its block allocated by the stream runtime (streams.ts); always 'heap' (stream-rules.ts).
        o.mark(desc.jsonPath);
        const v = ctx.containers.get(name)!;
        if (placement.site.kind === 'scope') o.line(streamDeclaration(desc, v));
        o.line(streamOpen(core, ctx, env, desc, v, core.plan.transientIndex(ctx.sdfg, name)));
        return;
      }
      const allocator = allocatorFor(core, placement.storage);
      const a = allocationCode(core, ctx, name, desc);
      if (placement.kind === 'heap') {
        o.mark(desc.jsonPath);
        // A map body is its own C++ block, one per iteration and thread: the pointer lives there (DaCe
        // declares scope-allocated data inside the scope too), never in a variable all threads share.
        // A thread-local pointer is the file-scope threadprivate variable (thread-local.ts).
        if (placement.site.kind === 'scope' && placement.storage === THREAD_LOCAL)
          o.line(`size_t ${a.bytes} = ${bytesExpr(core, ctx, env, desc)};`);
        else if (placement.site.kind === 'scope')
          o.line(`size_t ${a.bytes} = ${bytesExpr(core, ctx, env, desc)}; ${a.ctype} *${a.ptr} = nullptr;`);
        else o.line(`${a.bytes} = ${bytesExpr(core, ctx, env, desc)};`);
        for (const l of allocator.allocate(a)) o.line(l);
        if (setzeroAnywhere(core, ctx.sdfg, name)) for (const l of allocator.zero(a)) o.line(l);
      } else if (setzeroAnywhere(core, ctx.sdfg, name)) {
        // Persistent and workspace memory: zeroed where SCOPED would allocate it, so that modes agree.
        const bytes =
          placement.kind === 'persistent' ? `__state->${core.fieldName(ctx.sdfg, name)}_bytes` : bytesExpr(core, ctx, env, desc);
        for (const l of allocator.zero({ ...a, bytes, startOffset: placement.kind === 'persistent' ? desc.startOffset : 0 })) o.line(l);
      }
    });
  }
}

/** Frees of the heap transients whose site `want` selects, in reverse declaration order. */
export function emitSiteFrees(core: EmitCore, ctx: FnCtx, want: (s: SiteKey) => boolean): void {
  for (const { name, desc, placement } of transientsAt(core, ctx, want).reverse()) {
    if (placement.kind !== 'heap') continue;
    if (desc.type === 'Stream') {
      core.out.line(streamClose(ctx.containers.get(name)!));
      continue;
    }
    for (const l of allocatorFor(core, placement.storage).free(allocationCode(core, ctx, name, desc))) core.out.line(l);
  }
}

function bytesVariable(name: string): string {
  return `__tlab_bytes_${cppIdent(name)}`;
}

function allocationCode(core: EmitCore, ctx: FnCtx, name: string, desc: DataDescriptor): AllocationCode {
  return {
    ptr: ctx.containers.get(name)!,
    ctype: ctypeOf(desc.dtype)!,
    bytes: bytesVariable(name),
    alignment: alignmentOf(desc),
    index: core.plan.transientIndex(ctx.sdfg, name),
    startOffset: desc.startOffset,
  };
}

/**
 * Declares the function's transients: aliases of state-struct fields (persistent, workspace), constant
 * arrays, pointers of heap transients, and the stack arrays that several scopes share.
 */
export function declareTransients(core: EmitCore, ctx: FnCtx): void {
  const s = ctx.sdfg;
  const o = core.out;
  declareAliases(core, ctx);
  for (const [name, desc] of s.arrays) {
    if (!desc.transient || isAliasType(desc.type)) continue;
    const p = core.plan.placement(s, name);
    const ctype = ctypeOf(desc.dtype)!;
    const v = cppIdent(name);
    if (isThreadLocal(core, s, name)) {
      ctx.containers.set(name, threadLocalName(core, s, name));
      if (p.kind === 'heap' && p.site.kind !== 'scope') o.line(`size_t ${bytesVariable(name)} = 0;`);
    } else if (p.kind === 'persistent' || p.kind === 'external') {
      o.line(`${ctype} *${v} = __state->${core.fieldName(s, name)};`);
      ctx.containers.set(name, v);
    } else if (p.kind === 'constant') {
      // Every access goes through a plain `T *`; the subset check refuses writes to constants, so the
      // const_cast never leads to a store into read-only memory.
      o.line(`${ctype} *${v} = const_cast<${ctype} *>(${core.constantName(s, name)});`);
      ctx.containers.set(name, v);
    } else if (p.kind === 'heap' && desc.type === 'Stream') {
      ctx.containers.set(name, v);
      if (p.site.kind !== 'scope') o.line(streamDeclaration(desc, v));
    } else if (p.kind === 'heap' || p.kind === 'stack') {
      ctx.containers.set(name, v);
      if (p.kind === 'heap' && p.site.kind !== 'scope') o.line(`${ctype} *${v} = nullptr; size_t ${bytesVariable(name)} = 0;`);
    }
  }
  for (const [name, desc] of s.arrays) {
    if (!desc.transient || core.plan.placement(s, name).kind !== 'stack') continue;
    if (stackScope(core, s, name) === null)
      core.recover(desc.jsonPath, `transient ${desc.type} '${name}'`, () => declareStack(core, ctx, desc));
  }
}

/** Stack arrays whose every access is in the body of map `entry` of `state`: declared in that body. */
export function declareScopeStack(core: EmitCore, ctx: FnCtx, env: Env, state: StateBlock, entry: number): void {
  for (const [name, desc] of ctx.sdfg.arrays) {
    if (!desc.transient || core.plan.placement(ctx.sdfg, name).kind !== 'stack') continue;
    const sc = stackScope(core, ctx.sdfg, name);
    if (sc && sc.state === state && sc.entry === entry)
      core.recover(desc.jsonPath, `transient ${desc.type} '${name}'`, () => declareStack(core, ctx, desc));
  }
}

/**
 * A stack array. Only data of constant size lives on the stack (the analysis sends symbolic or large
 * Register data to the heap, as DaCe's code generator does, and the subset check refuses the stack arrays
 * of symbolic size it keeps, in kernels), so the size is a number here; if not, it is a finding.
 */
function declareStack(core: EmitCore, ctx: FnCtx, desc: DataDescriptor): void {
  const ctype = ctypeOf(desc.dtype)!;
  const sizeExpr = core.symExpr(desc.type === 'Scalar' ? '1' : desc.totalSize);
  const unknown = [...freeSymbols(sizeExpr)].sort();
  if (unknown.length)
    throw new ExprError(
      `a stack array needs a size known at compile time, but its size ${desc.totalSize} depends on ${unknown.join(', ')}`,
    );
  const size = sizeValue(sizeExpr, () => null);
  const v = cppIdent(desc.name);
  const bytes = `size_t(${size}) * sizeof(${ctype})`;
  if (core.deviceDepth > 0) {
    // Device code: shared memory or a thread's own array, never poisoned (the poison switch is host data).
    const q = core.backend?.stackQualifier(ctx.sdfg, desc.name) ?? '';
    core.out.line(`${q}${ctype} ${v}_stack[${size}]; ${ctype} *${v} = ${v}_stack;`);
    if (setzeroAnywhere(core, ctx.sdfg, desc.name)) core.out.line(`memset(${v}, 0, ${bytes});`);
    core.stackTransients.add(`${ctx.sdfg.sdfgIndex}:${desc.name}`);
    return;
  }
  // Left uninitialised and poisoned like heap memory, so verification sees a read before a write here too
  // (a zeroing `= {}` would give both verification calls the same zeros and hide it).
  core.out.line(`${ctype} ${v}_stack[${size}]; ${ctype} *${v} = ${v}_stack;`);
  core.out.line(`tlab_poison_stack(${v}, ${bytes});`);
  if (setzeroAnywhere(core, ctx.sdfg, desc.name)) core.out.line(`std::memset(${v}, 0, ${bytes});`);
  core.stackTransients.add(`${ctx.sdfg.sdfgIndex}:${desc.name}`);
}

/** `__dace_init_<n>`'s part: allocate every persistent transient, sized with the init-time symbols. */
export function emitPersistentAllocations(core: EmitCore, bytesOf: (s: Sdfg, desc: DataDescriptor) => string): void {
  const o = core.out;
  for (const s of core.file.sdfgs) {
    for (const [name, desc] of s.arrays) {
      if (!desc.transient) continue;
      const p = core.plan.placement(s, name);
      if (p.kind !== 'persistent') continue;
      core.recover(desc.jsonPath, `transient '${name}'`, () => {
        o.mark(desc.jsonPath);
        const field = `__state->${core.fieldName(s, name)}`;
        o.line(`${field}_bytes = ${bytesOf(s, desc)};`);
        const a = persistentCode(core, s, name, desc);
        const allocator = allocatorFor(core, p.storage);
        for (const l of allocator.allocate(a)) o.line(l);
        if (setzeroAnywhere(core, s, name)) for (const l of allocator.zero(a)) o.line(l);
      });
    }
  }
}

/** `__dace_exit_<n>`'s part: free every persistent transient, in reverse order. */
export function emitPersistentFrees(core: EmitCore): void {
  for (const s of [...core.file.sdfgs].reverse()) {
    for (const [name, desc] of [...s.arrays].reverse()) {
      if (!desc.transient) continue;
      const p = core.plan.placement(s, name);
      if (p.kind !== 'persistent') continue;
      for (const l of allocatorFor(core, p.storage).free(persistentCode(core, s, name, desc))) core.out.line(l);
    }
  }
}

function persistentCode(core: EmitCore, s: Sdfg, name: string, desc: DataDescriptor): AllocationCode {
  const field = `__state->${core.fieldName(s, name)}`;
  return {
    ptr: isThreadLocal(core, s, name) ? threadLocalName(core, s, name) : field,
    ctype: ctypeOf(desc.dtype)!,
    bytes: `${field}_bytes`,
    alignment: alignmentOf(desc),
    index: core.plan.transientIndex(s, name),
    startOffset: desc.startOffset,
  };
}
