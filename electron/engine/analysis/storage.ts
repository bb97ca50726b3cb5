/**
 * The storage a transient really gets: `Default` resolved as DaCe resolves it (defaults.ts: the scope of its
 * first access decides; CPU_Heap at the top level, Register inside CPU_Multicore maps, …), then DaCe's CPU
 * code-generator fallback (cpu.py allocate_array): Register data of symbolic size, or larger than
 * `compiler.max_stack_array_size`, is allocated on the heap (CPU_Heap here). In GPU kernels Register data
 * stays a per-thread array. (gt4py's rewrite of Default Arrays to CPU_Heap, for PERSISTENT/EXTERNAL, is the
 * same as the top-level default: eligible transients are never inside a scope.)
 */
import type { DataDescriptor, Sdfg } from '../model/sdfg.js';
import type { AccessSite } from './accesses.js';
import type { DefaultResolution } from './defaults.js';
import { isGpuSchedule } from './target.js';

/** dace config `compiler.max_stack_array_size`, in bytes. */
export const MAX_STACK_ARRAY_BYTES = 65536n;

/** Storages that never go through an allocator call (stack, registers, shared memory). */
export function isStackStorage(storage: string): boolean {
  return storage === 'Register' || storage === 'GPU_Shared' || storage === 'SVE_Register' || storage === 'FPGA_Registers';
}

/**
 * `name`: the container's name as access nodes use it. `constantBytes`: the footprint when the size is a
 * constant, null when it depends on symbols.
 */
export function effectiveStorage(
  desc: DataDescriptor,
  sdfg: Sdfg,
  name: string,
  sites: AccessSite[],
  constantBytes: bigint | null,
  defaults: DefaultResolution,
): string {
  let storage = desc.storage;
  if (storage === 'Default') {
    // Never accessed: DaCe makes it Register but allocates nothing; CPU_Heap keeps the reasons readable.
    if (sites.length === 0) return 'CPU_Heap';
    storage = defaults.defaultStorage(sdfg, name) ?? 'CPU_Heap';
  }
  if (storage === 'Register' && desc.type !== 'Scalar' && (constantBytes === null || constantBytes > MAX_STACK_ARRAY_BYTES)) {
    const inKernel = sites.some(({ state, node }) =>
      defaults.parentSchedules(sdfg, state, node).some((s) => s !== null && isGpuSchedule(s)),
    );
    if (!inKernel) return 'CPU_Heap';
  }
  return storage;
}
