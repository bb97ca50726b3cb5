/**
 * Resolution of `Default` storage, following DaCe's scope-default rule (sdfg-format.md §5.3) and gt4py's
 * "Default Arrays are CPU_Heap" rewrite:
 * - accessed at the top level of a state (of an SDFG that itself runs at top level) → CPU_Heap;
 * - directly inside a GPU_Device map → GPU_Shared; inside other GPU scopes → Register;
 * - inside CPU scopes → Register (a stack array) when the size is a constant of at most 65536 bytes
 *   (`compiler.max_stack_array_size`), else CPU_Heap (DaCe falls back to the heap).
 */
import type { DataDescriptor } from '../model/sdfg.js';
import type { AccessSite, Embedding } from './accesses.js';
import { isGpuSchedule } from './target.js';
import { scheduleOf, scopeChain } from './walk.js';

export const MAX_STACK_ARRAY_BYTES = 65536n;

/** Storages that never go through an allocator call (stack, registers, shared memory). */
export function isStackStorage(storage: string): boolean {
  return storage === 'Register' || storage === 'GPU_Shared' || storage === 'SVE_Register' || storage === 'FPGA_Registers';
}

export function effectiveStorage(
  desc: DataDescriptor,
  sites: AccessSite[],
  embedding: Embedding,
  constantBytes: bigint | null,
): string {
  if (desc.storage === 'Register') {
    // DaCe's CPU code generator (cpu.py allocate_array) puts Register data of symbolic size, or larger than
    // max_stack_array_size, on the heap instead; in GPU kernels it stays a per-thread array.
    const inGpu = sites.some(({ state, node }) => scopeChain(state, node).some((e) => isGpuSchedule(scheduleOf(e) ?? ''))) || (embedding.schedule !== null && isGpuSchedule(embedding.schedule));
    if (!inGpu && desc.type !== 'Scalar' && (constantBytes === null || constantBytes > MAX_STACK_ARRAY_BYTES)) return 'CPU_Heap';
    return desc.storage;
  }
  if (desc.storage !== 'Default') return desc.storage;
  let innermost: string | null | undefined;
  let topLevel = sites.length === 0;
  for (const { state, node } of sites) {
    if (node.scopeEntry === null) {
      topLevel = true;
      break;
    }
    const entry = state.nodes[node.scopeEntry];
    innermost ??= entry ? scheduleOf(entry) : null;
  }
  if (topLevel) {
    if (embedding.schedule === null) return 'CPU_Heap';
    // The nested SDFG runs once per iteration of an outer scope: its "top level" is that scope's body.
    return resolveInScope(embedding.schedule, false, constantBytes);
  }
  return resolveInScope(innermost ?? 'Default', true, constantBytes);
}

function resolveInScope(schedule: string, directChild: boolean, constantBytes: bigint | null): string {
  if (schedule === 'GPU_Device' && directChild) return 'GPU_Shared';
  if (isGpuSchedule(schedule)) return 'Register';
  return constantBytes !== null && constantBytes <= MAX_STACK_ARRAY_BYTES ? 'Register' : 'CPU_Heap';
}
