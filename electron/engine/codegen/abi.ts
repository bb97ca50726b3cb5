/**
 * The library's exported surface (docs/runtime-abi.md): the state struct, `__dace_init_<n>` /
 * `__dace_exit_<n>`, DaCe's external-memory pair per storage, and the uniform `__tlab_*` trampolines the
 * native addon calls. Sizes here are evaluated over the root symbols only: init and the workspace functions
 * see nothing else.
 */
import type { DataDescriptor, Sdfg } from '../model/sdfg.js';
import { exprHeight, freeSymbols, MAX_EXPRESSION_DEPTH, substitute, type Expr } from '../symbolic/index.js';
import { definedSymbols } from '../analysis/symbols.js';
import type { EmitCore } from './core.js';
import { cppOf, ExprError, sizeValue, type NameResolver } from './expr.js';
import { emitPersistentAllocations, emitPersistentFrees } from './memory.js';
import { emitCodeBlocks } from './code-blocks.js';
import { abiParameters } from './functions.js';
import { initTakesArguments } from './init-args.js';
import { byCodeUnit, cppIdent, ctypeOf } from './names.js';
import { emitThreadLocalPointers, isThreadLocal } from './thread-local.js';
import { assembleStruct, isStructureType, structLeaves } from './structs.js';

/** `struct <n>_state_t`: one pointer per persistent or workspace transient. */
export function emitStateStruct(core: EmitCore): void {
  const o = core.out;
  o.open(`struct ${core.name}_state_t`);
  for (const s of core.file.sdfgs) {
    for (const [name, desc] of s.arrays) {
      if (!desc.transient) continue;
      const p = core.plan.placement(s, name);
      // A thread-local transient's pointer is a threadprivate variable, not a field (framecode.py skips it too).
      if ((p.kind === 'persistent' && !isThreadLocal(core, s, name)) || p.kind === 'external')
        o.line(`${ctypeOf(desc.dtype)} *${core.fieldName(s, name)} = nullptr;`);
      if (p.kind === 'persistent') o.line(`size_t ${core.fieldName(s, name)}_bytes = 0;`);
    }
  }
  o.line('int __tlab_unused = 0;');
  o.close('};');
  emitThreadLocalPointers(core);
  o.line('');
}

/**
 * A size expression of any SDFG rewritten over root symbols (nested symbols go through symbol_mapping).
 * Each mapping is within the parser's depth limit, but a chain of them stacks up: the result is held to the
 * same limit, so the walks after it (toCpp, evaluation) stay as safe as on parsed text.
 */
export function rootSizeExpr(core: EmitCore, s: Sdfg, src: string): Expr {
  const e = core.symExpr(src);
  if (!s.parent) return e;
  const mapping = s.parent.node.symbolMapping;
  const outer = new Map<string, Expr>();
  for (const name of freeSymbols(e)) {
    const m = mapping[name];
    if (m === undefined) throw new ExprError(`size uses '${name}', which is not mapped from the outer SDFG`);
    outer.set(name, rootSizeExpr(core, s.parent.sdfg, m));
  }
  const root = substitute(e, outer);
  if (exprHeight(root) > MAX_EXPRESSION_DEPTH) {
    throw new ExprError(
      `size ${src}, written over the program's symbols through the nested SDFGs' symbol mappings, is nested deeper than the limit of ${MAX_EXPRESSION_DEPTH} levels`,
    );
  }
  return root;
}

function rootResolver(core: EmitCore): NameResolver {
  const assigned = definedSymbols(core.file.root);
  return {
    read: (name) => {
      if (core.argSymbols.includes(name)) return `int64_t(${cppIdent(name)})`;
      // Init and the workspace functions run before the program: a symbol it assigns (interstate edge, loop)
      // has no value there, whatever --symbols says. DaCe refuses such a Persistent size too.
      if (assigned.has(name))
        throw new ExprError(
          `size uses '${name}', which the program assigns itself: it has no value when init or the workspace functions run`,
        );
      const v = core.plan.symbolValue(name);
      if (v !== null) return `int64_t(${v}LL)`;
      throw new ExprError(`symbol '${name}' has no value`);
    },
    index: () => {
      throw new ExprError('sizes cannot read data');
    },
  };
}

function rootBytes(core: EmitCore, s: Sdfg, desc: DataDescriptor): string {
  const e = core.guard(desc.jsonPath, `transient ${desc.name}`, () =>
    cppOf(rootSizeExpr(core, s, desc.totalSize), rootResolver(core), 'symbolic'),
  );
  return `size_t(${e}) * sizeof(${ctypeOf(desc.dtype)})`;
}

/** The symbol parameters of the external-memory functions (and of a symbols-only `__dace_init_<n>`). */
function symbolParams(core: EmitCore): string {
  return core.argSymbols.map((n) => `${core.abiSymbolCtype(n)} ${cppIdent(n)}`).join(', ');
}

export function emitInitExit(core: EmitCore, argArrays: string[], argScalars: string[]): void {
  const o = core.out;
  const n = core.name;
  // DaCe's Fortran-frontend ABI when init code reads an argument (init-args.ts), mainline DaCe's otherwise.
  const abi = initTakesArguments(core.file, core.backend !== null)
    ? abiParameters(core, argArrays, argScalars)
    : { params: [symbolParams(core)].filter(Boolean), names: core.argSymbols.map(cppIdent) };
  o.open(`extern "C" ${n}_state_t *__dace_init_${n}(${abi.params.join(', ')})`);
  o.line(`${n}_state_t *__state = new ${n}_state_t();`);
  for (const l of core.backend?.initLines(core) ?? []) o.line(l);
  emitCodeBlocks(core, 'init');
  emitPersistentAllocations(core, (s, desc) => rootBytes(core, s, desc));
  for (const a of abi.names) o.line(`(void)${a};`);
  o.line('return __state;');
  o.close();
  o.line('');
  o.open(`extern "C" int __dace_exit_${n}(${n}_state_t *__state)`);
  for (const l of core.backend?.exitLines(core) ?? []) o.line(l);
  emitPersistentFrees(core);
  emitCodeBlocks(core, 'exit');
  o.line('delete __state;');
  o.line(`return ${core.backend?.exitCode ?? '0'};`);
  o.close();
  o.line('');
}

function storages(core: EmitCore): string[] {
  return [...new Set(core.slots.map((s) => s.storage))].sort(byCodeUnit);
}

/** `__dace_get_external_memory_size_<S>` and `__dace_set_external_memory_<S>` for every workspace storage. */
export function emitExternalFunctions(core: EmitCore): void {
  const o = core.out;
  const n = core.name;
  const params = symbolParams(core);
  for (const storage of storages(core)) {
    const slots = core.slots.filter((s) => s.storage === storage);
    const packed = slots.every((s) => s.packedOffset !== null);
    o.open(`extern "C" size_t __dace_get_external_memory_size_${storage}(${n}_state_t *__state${params ? ', ' + params : ''})`);
    o.line('(void)__state;');
    if (packed) o.line(`return size_t(${core.packedTotals.get(storage) ?? 0n}ULL);`);
    else {
      o.line('size_t __size = 0;');
      for (const s of slots) {
        const desc = s.sdfg.arrays.get(s.name)!;
        core.recover(desc.jsonPath, `transient '${s.name}'`, () => o.line(`__size += ${rootBytes(core, s.sdfg, desc)};`));
      }
      o.line('return __size;');
    }
    o.close();
    o.line('');
    o.open(`extern "C" void __dace_set_external_memory_${storage}(${n}_state_t *__state, char *__base${params ? ', ' + params : ''})`);
    if (!packed) o.line('size_t __offset = 0;');
    for (const s of slots) {
      const desc = s.sdfg.arrays.get(s.name)!;
      const ctype = ctypeOf(desc.dtype);
      o.mark(desc.jsonPath);
      if (packed) o.line(`__state->${core.fieldName(s.sdfg, s.name)} = reinterpret_cast<${ctype} *>(__base + ${s.packedOffset}ULL);`);
      else {
        o.line(`__state->${core.fieldName(s.sdfg, s.name)} = reinterpret_cast<${ctype} *>(__base + __offset);`);
        core.recover(desc.jsonPath, `transient '${s.name}'`, () => o.line(`__offset += ${rootBytes(core, s.sdfg, desc)};`));
      }
    }
    for (const a of core.argSymbols) o.line(`(void)${cppIdent(a)};`);
    o.close();
    o.line('');
  }
}

/**
 * The call arguments of `__program_<n>` read from the trampoline's `__argv` (docs/runtime-abi.md §2): lines to
 * run before the call (structures assembled from their leaves), the arguments, lines after it (scalar members
 * copied back) and how many `__argv` entries it reads.
 */
function argvArguments(
  core: EmitCore,
  argArrays: string[],
  argScalars: string[],
): { before: string[]; call: string[]; after: string[]; count: number } {
  const root = core.file.root;
  const before: string[] = [];
  const call: string[] = [];
  const after: string[] = [];
  let i = 0;
  for (const a of argArrays) {
    const desc = root.arrays.get(a)!;
    if (isStructureType(desc.type)) {
      // A structure arrives as its leaves: built here, passed by pointer as DaCe's signature has it.
      const count = (d: DataDescriptor) =>
        Number(
          core.guard(d.jsonPath, `container array '${d.name}'`, () =>
            sizeValue(core.symExpr(d.totalSize), (x) => core.plan.symbolValue(x)),
          ),
        );
      let pointer = 'nullptr';
      core.recover(desc.jsonPath, `argument Structure '${a}'`, () => {
        const built = assembleStruct(a, desc, i, count);
        before.push(...built.before);
        after.push(...built.after);
        pointer = built.pointer;
        i += structLeaves(a, desc, count).length;
      });
      call.push(pointer);
    } else call.push(`static_cast<${ctypeOf(desc.dtype)} *>(__argv[${i++}])`);
  }
  for (const s of [...argScalars, ...core.argSymbols].sort(byCodeUnit)) {
    const ctype = argScalars.includes(s) ? ctypeOf(root.arrays.get(s)!.dtype)! : core.abiSymbolCtype(s);
    call.push(`*static_cast<const ${ctype} *>(__argv[${i++}])`);
  }
  return { before, call, after, count: i };
}

/** The `__tlab_*` exports: one uniform signature per entry point for the native addon (docs/runtime-abi.md §2). */
export function emitTrampolines(core: EmitCore, argArrays: string[], argScalars: string[]): void {
  const o = core.out;
  const n = core.name;
  const symArgs = core.argSymbols.map((a, i) => `static_cast<${core.abiSymbolCtype(a)}>(__syms[${i}])`).join(', ');
  const args = argvArguments(core, argArrays, argScalars);
  const initArgs = initTakesArguments(core.file, core.backend !== null);
  o.line('// Transient Lab trampolines: one uniform signature for the native addon (docs/runtime-abi.md §2).');
  o.open('extern "C" void *__tlab_init(const int64_t *__syms, void *const *__argv)');
  o.line(`(void)__syms; (void)__argv;`);
  if (initArgs) {
    // The argument vector of __tlab_program: this __dace_init_<n> takes the program's arguments (init-args.ts).
    for (const l of args.before) o.line(l);
    o.line(`void *__handle = __dace_init_${n}(${args.call.join(', ')});`);
    for (const l of args.after) o.line(l);
    o.line('return __handle;');
  } else o.line(`return __dace_init_${n}(${symArgs});`);
  o.close();
  o.open('extern "C" void __tlab_program(void *__handle, void *const *__argv)');
  for (const l of args.before) o.line(l);
  o.line('(void)__argv;');
  o.line(`__program_${n}(${[`static_cast<${n}_state_t *>(__handle)`, ...args.call].join(', ')});`);
  for (const l of args.after) o.line(l);
  o.close();
  const i = args.count;
  // Argument counts let the addon refuse a too-short argv before the program reads past its end.
  o.line(`extern "C" uint32_t __tlab_arg_count(void) { return ${i}; }`);
  o.line(`extern "C" uint32_t __tlab_init_symbol_count(void) { return ${core.argSymbols.length}; }`);
  // Non-zero: __tlab_init reads that many __argv entries (the same vector as __tlab_program's).
  o.line(`extern "C" uint32_t __tlab_init_arg_count(void) { return ${initArgs ? i : 0}; }`);
  o.open('extern "C" int __tlab_exit(void *__handle)');
  o.line(`return __dace_exit_${n}(static_cast<${n}_state_t *>(__handle));`);
  o.close();
  o.open('extern "C" uint64_t __tlab_external_size(void *__handle, const char *__storage, const int64_t *__syms)');
  o.line('(void)__handle; (void)__storage; (void)__syms;');
  for (const s of storages(core)) {
    o.line(
      `if (std::strcmp(__storage, "${s}") == 0) return __dace_get_external_memory_size_${s}(static_cast<${n}_state_t *>(__handle)${symArgs ? ', ' + symArgs : ''});`,
    );
  }
  o.line('return UINT64_MAX;');
  o.close();
  o.open('extern "C" int __tlab_set_external(void *__handle, const char *__storage, char *__base, const int64_t *__syms)');
  o.line('(void)__handle; (void)__storage; (void)__base; (void)__syms;');
  for (const s of storages(core)) {
    o.open(`if (std::strcmp(__storage, "${s}") == 0)`);
    o.line(`__dace_set_external_memory_${s}(static_cast<${n}_state_t *>(__handle), __base${symArgs ? ', ' + symArgs : ''});`);
    o.line('return 0;');
    o.close();
  }
  o.line('return -1;');
  o.close();
  o.open('extern "C" uint32_t __tlab_external_slot_count(const char *__storage)');
  o.line('(void)__storage;');
  for (const s of storages(core))
    o.line(`if (std::strcmp(__storage, "${s}") == 0) return ${core.slots.filter((x) => x.storage === s).length};`);
  o.line('return 0;');
  o.close();
  o.open(
    'extern "C" int __tlab_set_external_offsets(void *__handle, const char *__storage, char *__base, const uint64_t *__offsets, uint32_t __n)',
  );
  o.line('(void)__handle; (void)__storage; (void)__base; (void)__offsets; (void)__n;');
  for (const s of storages(core)) {
    const slots = core.slots.filter((x) => x.storage === s);
    o.open(`if (std::strcmp(__storage, "${s}") == 0)`);
    o.line(`if (__n != ${slots.length}) return -2;`);
    o.line(`${n}_state_t *__state = static_cast<${n}_state_t *>(__handle);`);
    slots.forEach((slot, k) => {
      const ctype = ctypeOf(slot.sdfg.arrays.get(slot.name)!.dtype);
      o.line(`__state->${core.fieldName(slot.sdfg, slot.name)} = reinterpret_cast<${ctype} *>(__base + __offsets[${k}]);`);
    });
    o.line('return 0;');
    o.close();
  }
  o.line('return -1;');
  o.close();
}
