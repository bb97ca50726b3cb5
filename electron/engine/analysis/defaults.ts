/**
 * DaCe's default schedules and storages: what `Default` means for a map or a transient, resolved exactly as
 * DaCe does before generating code (dace/sdfg/infer_types.py, set_default_schedule_and_storage_types, with
 * the tables of dace/dtypes.py). Both the analysis (storages) and the generator (schedules) read them here.
 *
 * - The chain of parent schedules of a scope starts with `null` (the top level) and lists the resolved
 *   schedule of every enclosing map, outermost first, through the maps around nested SDFG nodes (a nested
 *   SDFG adds no schedule of its own: infer_types recurses into it with the same chain).
 * - A `Default` map takes SCOPEDEFAULT_SCHEDULE of the innermost enclosing schedule found in the table;
 *   with none (top level), the schedule its memlets' storages ask for (STORAGEDEFAULT_SCHEDULE, scalars
 *   ignored), and with no such constraint SCOPEDEFAULT_SCHEDULE[None] = CPU_Multicore. So a top-level map
 *   with no schedule runs as an OpenMP `parallel for`, and maps inside it are Sequential.
 * - A `Default` transient takes SCOPEDEFAULT_STORAGE of the innermost enclosing schedule other than
 *   Sequential (`_determine_child_storage` skips Sequential), else CPU_Heap; the first access node in
 *   DaCe's traversal order decides (states in order, each state's top level before the scopes inside it).
 *
 * - Inside a GPU_Device map without explicit thread-block maps, DaCe adds an implicit GPU_ThreadBlock to the
 *   chain before choosing storages (so kernel transients are Register, not GPU_Shared).
 *
 * Not modelled: the GPU_ThreadBlock_Dynamic schedule special case, thread-block maps inside nested SDFGs of
 * a kernel (DaCe's recursive scope tree sees them), and conflicting storage constraints around a map (DaCe
 * raises InvalidSDFGNodeError; here the first constraint found wins).
 */
import type { DataflowNode, MapEntryNode, Sdfg, StateBlock } from '../model/sdfg.js';
import { forEachState, scopeChain } from './walk.js';

/** dtypes.SCOPEDEFAULT_SCHEDULE: the default schedule of scopes nested in a scope of that schedule. */
const SCOPEDEFAULT_SCHEDULE: Record<string, string> = {
  Default: 'Default',
  Sequential: 'Sequential',
  MPI: 'CPU_Multicore',
  CPU_Multicore: 'Sequential',
  CPU_Persistent: 'CPU_Multicore',
  GPU_Persistent: 'GPU_Device',
  GPU_Device: 'GPU_ThreadBlock',
  GPU_ThreadBlock: 'Sequential',
  GPU_ThreadBlock_Dynamic: 'Sequential',
  SVE_Map: 'Sequential',
  Snitch: 'Snitch',
  Snitch_Multicore: 'Snitch_Multicore',
  // DaCe ≤ 1.x: an unrolled loop is a sequential loop.
  Unrolled: 'Sequential',
};
/** SCOPEDEFAULT_SCHEDULE[None]: the top level. */
const TOPLEVEL_SCHEDULE = 'CPU_Multicore';

/** dtypes.SCOPEDEFAULT_STORAGE: the default storage of transients accessed in a scope of that schedule. */
const SCOPEDEFAULT_STORAGE: Record<string, string> = {
  Default: 'Default',
  Sequential: 'Register',
  MPI: 'CPU_Heap',
  CPU_Multicore: 'Register',
  CPU_Persistent: 'CPU_Heap',
  GPU_Persistent: 'GPU_Global',
  GPU_Device: 'GPU_Shared',
  GPU_ThreadBlock: 'Register',
  GPU_ThreadBlock_Dynamic: 'Register',
  SVE_Map: 'CPU_Heap',
  Snitch: 'Snitch_TCDM',
};
/** SCOPEDEFAULT_STORAGE[None]. */
const TOPLEVEL_STORAGE = 'CPU_Heap';

/** dtypes.STORAGEDEFAULT_SCHEDULE: the schedule a map touching data of that storage prefers. */
const STORAGEDEFAULT_SCHEDULE: Record<string, string> = {
  CPU_Heap: 'CPU_Multicore',
  CPU_ThreadLocal: 'CPU_Multicore',
  GPU_Global: 'GPU_Device',
  GPU_Shared: 'GPU_ThreadBlock',
  SVE_Register: 'SVE_Map',
};

/** _determine_child_schedule: the table entry of the innermost parent schedule that has one. */
function childSchedule(parents: ReadonlyArray<string | null>): string | null {
  for (let i = parents.length - 1; i >= 0; i--) {
    const s = parents[i];
    if (s !== null && s !== undefined && s in SCOPEDEFAULT_SCHEDULE) return SCOPEDEFAULT_SCHEDULE[s]!;
  }
  return null;
}

/** _determine_child_storage: like childSchedule, but Sequential scopes do not decide. */
function childStorage(parents: ReadonlyArray<string | null>): string {
  for (let i = parents.length - 1; i >= 0; i--) {
    const s = parents[i];
    if (s === null || s === undefined || s === 'Sequential' || s === 'Unrolled') continue;
    if (s in SCOPEDEFAULT_STORAGE) return SCOPEDEFAULT_STORAGE[s]!;
  }
  return TOPLEVEL_STORAGE;
}

export class DefaultResolution {
  private readonly schedules = new Map<MapEntryNode, string>();
  private readonly sdfgParents = new Map<Sdfg, ReadonlyArray<string | null>>();
  private readonly storages = new Map<Sdfg, Map<string, string>>();

  /** The schedule map `entry` of `state` (in `sdfg`) runs with. */
  scheduleOf(sdfg: Sdfg, state: StateBlock, entry: MapEntryNode): string {
    const hit = this.schedules.get(entry);
    if (hit !== undefined) return hit;
    let schedule = entry.map.schedule;
    if (schedule === 'Default') {
      schedule = childSchedule(this.parentSchedules(sdfg, state, entry)) ?? this.scheduleFromStorage(sdfg, state, entry);
    }
    this.schedules.set(entry, schedule);
    return schedule;
  }

  /** DaCe's `parent_schedules` of a node: null, then the schedules of every enclosing map, outermost first. */
  parentSchedules(sdfg: Sdfg, state: StateBlock, node: DataflowNode): ReadonlyArray<string | null> {
    const chain = scopeChain(state, node).reverse();
    return [
      ...this.sdfgParents_(sdfg),
      ...chain.map((e) => (e.kind === 'map_entry' ? this.scheduleOf(sdfg, state, e) : e.kind === 'consume_entry' ? e.schedule : null)),
    ];
  }

  /** Whether `node` runs inside a CPU_Multicore map, in its own SDFG or around an enclosing NestedSDFG. */
  inParallel(sdfg: Sdfg, state: StateBlock, node: DataflowNode): boolean {
    const parents = this.parentSchedules(sdfg, state, node);
    return parents.includes('CPU_Multicore') || parents.includes('CPU_Persistent');
  }

  /** Whether `node` runs inside a CPU_Persistent map (an OpenMP parallel region every thread runs). */
  inPersistentRegion(sdfg: Sdfg, state: StateBlock, node: DataflowNode): boolean {
    return this.parentSchedules(sdfg, state, node).includes('CPU_Persistent');
  }

  /** The storage DaCe gives a `Default`-storage container of `sdfg`: decided by its first access node. */
  defaultStorage(sdfg: Sdfg, name: string): string | null {
    let table = this.storages.get(sdfg);
    if (!table) {
      table = new Map();
      this.storages.set(sdfg, table);
      const t = table;
      forEachState(sdfg.body, (state) => {
        for (const node of this.traversal(state)) {
          if (node.kind !== 'access' || t.has(node.data)) continue;
          let parents = this.parentSchedules(sdfg, state, node);
          // _set_default_storage_in_scope: a kernel without thread-block maps runs its body per thread.
          if (
            parents.includes('GPU_Device') &&
            !parents.includes('GPU_ThreadBlock') &&
            !parents.includes('GPU_ThreadBlock_Dynamic') &&
            !explicitThreadBlocks(state, node.scopeEntry)
          ) {
            parents = [...parents, 'GPU_ThreadBlock'];
          }
          t.set(node.data, childStorage(parents));
        }
      });
    }
    return table.get(name) ?? null;
  }

  private sdfgParents_(sdfg: Sdfg): ReadonlyArray<string | null> {
    let hit = this.sdfgParents.get(sdfg);
    if (!hit) {
      hit = sdfg.parent ? this.parentSchedules(sdfg.parent.sdfg, sdfg.parent.state, sdfg.parent.node) : [null];
      this.sdfgParents.set(sdfg, hit);
    }
    return hit;
  }

  /** _determine_schedule_from_storage: the schedule the non-scalar data around the map asks for. */
  private scheduleFromStorage(sdfg: Sdfg, state: StateBlock, entry: MapEntryNode): string {
    const data = new Set<string>();
    for (const e of state.edges) {
      if (e.memlet.data === null) continue;
      if (e.src === entry.id || (entry.exitId !== null && e.dst === entry.exitId)) data.add(e.memlet.data);
    }
    for (const name of data) {
      const desc = sdfg.arrays.get(name);
      if (!desc || desc.type === 'Scalar') continue;
      // Data around a map at the top level already has its storage: Default became CPU_Heap there.
      const storage = this.storageOf(sdfg, name);
      const preferred = STORAGEDEFAULT_SCHEDULE[storage];
      if (preferred) return preferred;
    }
    return TOPLEVEL_SCHEDULE;
  }

  /** A container's storage as DaCe sees it: non-transients of a nested SDFG take their outer container's. */
  private storageOf(sdfg: Sdfg, name: string): string {
    const desc = sdfg.arrays.get(name);
    if (!desc) return TOPLEVEL_STORAGE;
    if (!desc.transient && sdfg.parent) {
      const { state, node } = sdfg.parent;
      const e = state.edges.find((x) => (x.dst === node.id && x.dstConnector === name) || (x.src === node.id && x.srcConnector === name));
      if (e?.memlet.data) return this.storageOf(sdfg.parent.sdfg, e.memlet.data);
    }
    if (desc.storage !== 'Default') return desc.storage;
    return this.defaultStorage(sdfg, name) ?? TOPLEVEL_STORAGE;
  }

  /** A state's nodes in infer_types' order: the top level, then each scope's body, depth first. */
  private *traversal(state: StateBlock): Generator<DataflowNode> {
    const children = new Map<number | null, DataflowNode[]>();
    for (const n of state.nodes) {
      const scope =
        n.kind === 'map_exit' || n.kind === 'consume_exit'
          ? n.entryId !== null
            ? (state.nodes[n.entryId]?.scopeEntry ?? null)
            : n.scopeEntry
          : n.scopeEntry;
      const list = children.get(scope) ?? [];
      list.push(n);
      children.set(scope, list);
    }
    const visit = function* (scope: number | null, depth: number): Generator<DataflowNode> {
      const nodes = children.get(scope) ?? [];
      yield* nodes;
      if (depth > state.nodes.length) return;
      for (const n of nodes) if (n.kind === 'map_entry' || n.kind === 'consume_entry') yield* visit(n.id, depth + 1);
    };
    yield* visit(null, 0);
  }
}

/**
 * transformation/helpers.py gpu_map_has_explicit_threadblocks: a thread-block map anywhere inside the scope
 * (in this state), or a Default map directly inside it (it will become one).
 */
function explicitThreadBlocks(state: StateBlock, scope: number | null): boolean {
  for (const n of state.nodes) {
    if (n.kind !== 'map_entry') continue;
    const chain = scopeChain(state, n).map((e) => e.id);
    const inside = scope === null || chain.includes(scope);
    if (!inside) continue;
    if (n.map.schedule === 'GPU_ThreadBlock' || n.map.schedule === 'GPU_ThreadBlock_Dynamic') return true;
    if (n.map.schedule === 'Default' && n.scopeEntry === scope) return true;
  }
  return false;
}
