/**
 * Fused kernels: `GPU_Device` maps directly inside a `GPU_Device` map (DaCe's kernel fusion, e.g.
 * tests/kernel_fusion_cudatest.py). This is not dynamic parallelism in DaCe: cuda.py launches one kernel whose grid
 * is the outer map's points times the inner maps' points (each inner map a sub-grid in an extra grid dimension,
 * `get_kernel_dimensions` rule 4), runs each inner map's body only in its sub-grid, and puts a grid barrier
 * (`cub::GridBarrier` `__gbar.Sync()`) between consecutive inner maps, so the second map reads what the first wrote.
 *
 * Here each inner map becomes one launch over the outer map's points times its own points, in the order of the
 * outer scope's dataflow. A launch boundary is exactly a grid barrier (every block of the first finishes, and its
 * writes are visible, before any block of the second starts), so the results are DaCe's; what differs is the
 * launch count (one launch per inner map instead of one launch with barriers). The inner maps' bodies, thread-block
 * maps included, are emitted as any kernel's (kernel.ts): the outer map's parameters are the leading parameters of
 * each launch.
 *
 * A `GPU_Persistent` map (DaCe's persistent kernel, tests/persistent_map_cudatest.py) is emitted the same way:
 * its inner GPU_Device maps (Default ones resolve to GPU_Device there) each get one launch, and that launch has
 * DaCe's persistent geometry: `tlab_persistent_blocks()` blocks (SMs × 2, cuda.py's `dace_number_blocks`) that
 * visit the points in grid strides (`for (p = first; p < total; p += gridDim.x × blockDim.x)`). DaCe needs no
 * grid barrier between inner maps of one state (it calls them independent); launching them in order is stricter.
 *
 * The outer scope may hold only the inner device maps and access nodes between them (what kernel fusion makes);
 * anything else (a tasklet or a nested SDFG that would run in every thread of the fused grid, a dynamic range) is
 * refused with its element.
 */
import type { MapEntryNode } from '../../model/sdfg.js';
import type { EmitCore, Env, FnCtx } from '../core.js';
import { dynamicInputEdges } from '../../model/queries.js';
import { containingScope, scopeOrder, type StateGraph } from '../graph.js';
import type { KernelContext } from './common.js';

type EmitKernel = (backend: KernelContext, core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode) => void;

/** A GPU_Device or GPU_Persistent map at host level: one kernel, or a fused/persistent one (one launch per inner
 * device map). `emitKernel` is kernel.ts's launch of one GPU_Device map. */
export function emitHostLevelKernel(
  backend: KernelContext,
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  g: StateGraph,
  entry: MapEntryNode,
  schedule: string,
  emitKernel: EmitKernel,
): void {
  const inner = fusedDeviceMaps(core, ctx, g, entry);
  if (inner.length) emitFusedKernel(backend, core, ctx, env, g, entry, inner, emitKernel);
  else if (schedule === 'GPU_Persistent')
    core.fail(
      entry.jsonPath,
      `map '${entry.map.label}'`,
      'a GPU_Persistent map whose body holds no GPU_Device map is not supported (nothing to spread over the persistent grid)',
      'put the work in a GPU_Device map inside it, as DaCe’s persistent-map tests do',
    );
  else emitKernel(backend, core, ctx, env, g, entry);
}

/** The GPU_Device maps directly in `entry`'s scope (kernel fusion), in dataflow order. */
function fusedDeviceMaps(core: EmitCore, ctx: FnCtx, g: StateGraph, entry: MapEntryNode): MapEntryNode[] {
  return scopeOrder(g, entry.id).filter(
    (n): n is MapEntryNode => n.kind === 'map_entry' && core.defaults.scheduleOf(ctx.sdfg, g.state, n) === 'GPU_Device',
  );
}

/** One launch per inner device map. */
function emitFusedKernel(
  backend: KernelContext,
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  g: StateGraph,
  entry: MapEntryNode,
  inner: MapEntryNode[],
  emitKernel: EmitKernel,
): void {
  const element = `fused GPU_Device map '${entry.map.label}'`;
  for (const u of scopeOrder(g, entry.id)) {
    if (u.kind === 'access' || inner.includes(u as MapEntryNode)) continue;
    core.fail(
      u.jsonPath,
      `${u.kind} node '${u.label}'`,
      `only GPU_Device maps and access nodes may sit directly in ${element} (kernel fusion); this ${u.kind} would run in every thread of the fused grid`,
      'move it into one of the inner GPU_Device maps',
    );
  }
  for (const m of [entry, ...inner]) {
    if (dynamicInputEdges(g.state, m).length)
      core.fail(
        m.jsonPath,
        `map '${m.map.label}'`,
        `a dynamic range in ${element} is not supported (the fused grid is sized on the host)`,
        'make the map range symbolic',
      );
  }
  core.out.mark(entry.jsonPath);
  for (const d of inner) {
    if (containingScope(g, d) !== entry.id) continue;
    // The launch of `d` over the outer points times its own: the outer parameters lead (DaCe's grid dimensions).
    const launch: MapEntryNode = {
      ...d,
      map: {
        ...d.map,
        params: [...entry.map.params, ...d.map.params],
        range: [...entry.map.range, ...d.map.range],
        gpuBlockSize: d.map.gpuBlockSize ?? entry.map.gpuBlockSize,
        // kernel.ts gives a persistent launch DaCe's fixed grid and grid-stride loop.
        schedule: entry.map.schedule === 'GPU_Persistent' ? 'GPU_Persistent' : d.map.schedule,
      },
    };
    emitKernel(backend, core, ctx, env, g, launch);
  }
}
