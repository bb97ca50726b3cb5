/**
 * CPU_ThreadLocal storage, as DaCe's cpu.py emits it: one copy per OpenMP thread. The pointer is a file-scope
 * `#pragma omp threadprivate` variable (OpenMP requires threadprivate data at namespace scope), and allocation
 * and free each run in a `#pragma omp parallel` region, so every thread of the team allocates and frees its own
 * copy. Code outside a parallel region sees the calling thread's copy.
 *
 * Lifetime is the file's, in every mode: Scope (allocated at its site, each time) or Persistent (allocated in
 * init, freed in exit, with no pointer in the state struct, as framecode.py skips the struct entry). A
 * thread-local buffer is never a single buffer the workspace could hold, so the analysis never makes it
 * PERSISTENT or EXTERNAL (eligibility.ts); its footprint counts one thread's copy.
 *
 * As in DaCe, persistent copies survive between parallel regions only while the OpenMP team stays the same
 * (the same host thread calls init, the program and exit; no `num_threads` above the default team).
 */
import type { Sdfg } from '../model/sdfg.js';
import type { StorageAllocator } from './allocator.js';
import type { EmitCore } from './core.js';
import { ctypeOf } from './names.js';

export const THREAD_LOCAL = 'CPU_ThreadLocal';

const shifted = (ptr: string, startOffset: number, sign: '+' | '-') => (startOffset ? `${ptr} ${sign} ${startOffset}` : ptr);

/** Each statement runs once per thread of a new team (a team of one when already inside a parallel region). */
function perThread(lines: string[]): string[] {
  return ['#pragma omp parallel', '{', ...lines.map((l) => `  ${l}`), '}'];
}

/** Host memory through the instrumented allocator, once per OpenMP thread (one allocation event each). */
export const THREAD_LOCAL_ALLOCATOR: StorageAllocator = {
  allocate: (a) =>
    perThread([
      `${a.ptr} = ${shifted(`static_cast<${a.ctype} *>(tlab_alloc(${a.bytes}, ${a.alignment}, ${a.index}))`, a.startOffset, '+')};`,
    ]),
  free: (a) => perThread([`tlab_free(${shifted(a.ptr, a.startOffset, '-')}, ${a.bytes}, ${a.alignment}, ${a.index});`]),
  zero: (a) => perThread([`std::memset(${shifted(a.ptr, a.startOffset, '-')}, 0, ${a.bytes});`]),
};

/** Whether transient `name` of `s` is thread-local where this emission places it. */
export function isThreadLocal(core: EmitCore, s: Sdfg, name: string): boolean {
  const p = core.plan.placement(s, name);
  return (p.kind === 'heap' || p.kind === 'persistent') && p.storage === THREAD_LOCAL;
}

/** The file-scope threadprivate pointer of a thread-local transient. */
export function threadLocalName(core: EmitCore, s: Sdfg, name: string): string {
  return `__tlab_tls_${core.fieldName(s, name)}`;
}

/** The threadprivate pointers, at file scope after the state struct; they need OpenMP. */
export function emitThreadLocalPointers(core: EmitCore): void {
  for (const s of core.file.sdfgs) {
    for (const [name, desc] of s.arrays) {
      if (!desc.transient || !isThreadLocal(core, s, name)) continue;
      const v = threadLocalName(core, s, name);
      core.out.line(`static ${ctypeOf(desc.dtype)!} *${v} = nullptr;`);
      core.out.line(`#pragma omp threadprivate(${v})`);
      core.usesOpenMP = true;
    }
  }
}
