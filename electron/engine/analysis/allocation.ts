/**
 * Where DaCe allocates a transient in SCOPED mode (dace-memory-abi.md §2.1) and how often that site runs
 * per call. Init and workspace sites run 0 times per call.
 */
import type { DataDescriptor, Sdfg, StateBlock } from '../model/sdfg.js';
import type { AccessSite } from './accesses.js';
import { isAliasType } from './aliases.js';
import type { ExecutionCounter } from './executions.js';
import type { ProgramOrder } from './linearize.js';
import type { ControlFlowReads } from './liveness.js';
import type { DefaultResolution } from './defaults.js';
import { allocationSpan, blockExecutions } from './span.js';
import { isStackStorage } from './storage.js';
import { isGpuSchedule, isGpuStorage } from './target.js';
import type { AllocationSite } from './types.js';
import { scheduleOf, scopeChain } from './walk.js';

export interface AllocationInput {
  desc: DataDescriptor;
  /** Name as used by AccessNodes. */
  name: string;
  sdfg: Sdfg;
  memberOf: string | null;
  sites: AccessSite[];
  reads: ControlFlowReads | undefined;
  effectiveStorage: string;
  /** Symbols of the descriptor's total_size, as written in its SDFG. */
  sizeSymbols: readonly string[];
  /** DaCe's default schedules (a Default map around GPU data is a kernel). */
  defaults: DefaultResolution;
}

export interface Allocation {
  site: AllocationSite;
  executionsPerCall: bigint | null;
  /** Why no single allocation point fits (the generator refuses such a transient with this reason). */
  problem?: string;
}

const none = (why: string): Allocation => ({ site: { kind: 'none', why }, executionsPerCall: 0n });

/** Whether a site makes an allocator call on every execution (what SCOPED mode pays per call). */
export function allocatesPerCall(site: AllocationSite): boolean {
  return site.kind === 'sdfg' || site.kind === 'state' || site.kind === 'scope' || site.kind === 'blocks';
}

export function allocationOf(x: AllocationInput, order: ProgramOrder, counter: ExecutionCounter): Allocation {
  const { desc, sdfg } = x;
  if (x.memberOf !== null) return none(`member of structure '${x.memberOf}': allocated with it`);
  if (isAliasType(desc.type)) return none(`${desc.type}: an alias of another container, allocates nothing`);
  // DaCe compiles constants_prop values into the program (constexpr data); nothing is allocated per call.
  if (sdfg.constants.has(desc.name)) return none('constant (constants_prop): compiled into the program, never allocated');
  if (desc.lifetime === 'Persistent') return { site: { kind: 'init' }, executionsPerCall: 0n };
  if (desc.lifetime === 'External') return { site: { kind: 'external' }, executionsPerCall: 0n };
  // A stream's queues own heap memory whatever its storage says (stream-footprint.ts): it has a site like an array.
  const stream = desc.type === 'Stream';
  if (!stream && !desc.arrayLike && desc.type !== 'Scalar') return none(`${desc.type}: allocation not modelled`);
  if (x.sites.length === 0 && !x.reads) return none('never accessed: DaCe skips its allocation');
  if (!stream && isStackStorage(x.effectiveStorage)) return none(`stack storage (${x.effectiveStorage})`);
  if (desc.type === 'Scalar' && !isGpuStorage(x.effectiveStorage)) return none('Scalar: a local variable on the stack');
  const invocations = order.invocations.get(sdfg) ?? null;
  const states = new Set<StateBlock>(x.sites.map((s) => s.state));
  if (desc.lifetime === 'Global' || desc.lifetime === 'SDFG' || states.size !== 1 || x.reads) {
    // A size over symbols the SDFG assigns has no value at its start: DaCe allocates such a transient from
    // the first to the last state that uses it instead (span.ts). (For Global, DaCe would still hoist it to
    // the program's start and size it with unassigned symbols; we do not reproduce that.)
    const spanned = allocationSpan(sdfg, x.name, x.sizeSymbols);
    if (spanned && 'span' in spanned) {
      const { region, first, last } = spanned.span;
      return {
        site: {
          kind: 'blocks',
          sdfg: sdfg.sdfgIndex,
          regionJsonPath: region.jsonPath,
          firstJsonPath: first.jsonPath,
          lastJsonPath: last?.jsonPath ?? null,
        },
        executionsPerCall: blockExecutions(sdfg, first, invocations, (loop) => counter.loopTrips(loop, sdfg)),
      };
    }
    if (desc.lifetime === 'Global')
      return { site: { kind: 'sdfg', sdfg: 0 }, executionsPerCall: 1n, ...(spanned ? { problem: spanned.problem } : {}) };
    return {
      site: { kind: 'sdfg', sdfg: sdfg.sdfgIndex },
      executionsPerCall: invocations,
      ...(spanned ? { problem: spanned.problem } : {}),
    };
  }
  const state = x.sites[0]!.state;
  const place = order.places.get(state);
  const stateExecutions = place ? place.executions : null;
  const stateSite: Allocation = {
    site: { kind: 'state', sdfg: sdfg.sdfgIndex, stateJsonPath: state.jsonPath },
    executionsPerCall: stateExecutions,
  };
  if (desc.lifetime === 'State') return stateSite;
  const entry = commonScope(x.sites, sdfg, state, x.effectiveStorage, x.defaults);
  if (entry === null) return stateSite;
  const iterations = counter.scopeIterations(sdfg, state, entry);
  return {
    site: { kind: 'scope', sdfg: sdfg.sdfgIndex, stateJsonPath: state.jsonPath, mapEntryId: entry },
    executionsPerCall: stateExecutions === null || iterations === null ? null : stateExecutions * iterations,
  };
}

/**
 * Innermost scope that encloses every access, moved up out of GPU kernels for storages that the host must
 * allocate (DaCe moves such allocations "up the scope tree"). Null = the state's top level.
 */
function commonScope(sites: AccessSite[], sdfg: Sdfg, state: StateBlock, storage: string, defaults: DefaultResolution): number | null {
  let common: number[] | null = null;
  for (const { node } of sites) {
    if (node.scopeEntry === null) return null;
    const chain = [node.scopeEntry, ...scopeChain(state, state.nodes[node.scopeEntry]!).map((n) => n.id)];
    if (common === null) common = chain;
    else {
      const keep = new Set(chain);
      common = common.filter((id) => keep.has(id));
    }
    if (common.length === 0) return null;
  }
  if (!common || common.length === 0) return null;
  if (isStackStorage(storage) || storage === 'GPU_Shared') return common[0]!;
  // Host-allocated storage cannot be allocated inside a kernel: go to the scope around the outermost GPU map.
  let outermostGpu = -1;
  for (let i = 0; i < common.length; i++) {
    const entry = state.nodes[common[i]!];
    const schedule = entry?.kind === 'map_entry' ? defaults.scheduleOf(sdfg, state, entry) : entry ? scheduleOf(entry) : null;
    if (schedule && isGpuSchedule(schedule)) outermostGpu = i;
  }
  if (outermostGpu < 0) return common[0]!;
  return outermostGpu + 1 < common.length ? common[outermostGpu + 1]! : null;
}
