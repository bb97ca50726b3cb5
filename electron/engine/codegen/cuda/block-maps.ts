/**
 * Inside a GPU kernel (kernel.ts): `GPU_ThreadBlock` maps (one thread per point, or one warp per point when
 * their body is only `GPU_Warp` maps) and `GPU_Warp` maps (one lane per point), with the flat-index decoding
 * every level of a GPU map shares. Apart from the kernel launch because they emit per-thread and per-lane
 * code inside a body kernel.ts has already opened, and keep only the frame kernel.ts hands them.
 */
import type { MapEntryNode } from '../../model/sdfg.js';
import type { EmitCore, Env, FnCtx } from '../core.js';
import { emitScope } from '../dataflow.js';
import { grouped } from '../expr.js';
import { containingScope, type StateGraph } from '../graph.js';
import { declareScopeStack } from '../memory.js';
import { cppIdent } from '../names.js';

/** Threads of a warp: 32 on every NVIDIA GPU (DaCe's AddWarpMap requires warp maps of exactly 32 points too). */
export const WARP_LANES = 32;

/** Per kernel being emitted: whether its block body runs thread-block maps. */
export interface KernelFrame {
  threadBlocks: boolean;
  /** Inside a thread-block map (per-thread code). */
  inThreadBlock: number;
  /** Inside a thread-block map whose points are warps (its body is only GPU_Warp maps). */
  inWarpBlock: number;
  /** Inside a GPU_Warp map (per-lane code). */
  inWarp: number;
}

/** The GPU_Warp maps directly in the body of thread-block map `tb`. */
export function warpMapsIn(core: EmitCore, ctx: FnCtx, g: StateGraph, tb: MapEntryNode): MapEntryNode[] {
  return g.state.nodes.filter(
    (n): n is MapEntryNode =>
      n.kind === 'map_entry' && containingScope(g, n) === tb.id && core.defaults.scheduleOf(ctx.sdfg, g.state, n) === 'GPU_Warp',
  );
}

/**
 * The first node beside the warp maps in the body of thread-block map `tb`: code there would run in every
 * lane of the warp (a write, a WCR, a copy 32 times over), so warp maps must have their thread-block map to
 * themselves, as AddWarpMap leaves it (it tiles the whole thread-block body into the warp map).
 */
function besideWarpMaps(g: StateGraph, tb: MapEntryNode, warps: MapEntryNode[]): { jsonPath: string; label: string } | null {
  const allowed = new Set<number>();
  for (const w of warps) {
    allowed.add(w.id);
    if (w.exitId !== null) allowed.add(w.exitId);
  }
  for (const n of g.state.nodes) {
    if (n.id === tb.exitId || allowed.has(n.id) || containingScope(g, n) !== tb.id) continue;
    return { jsonPath: n.jsonPath, label: 'label' in n && typeof n.label === 'string' ? n.label : n.kind };
  }
  return null;
}

/** `count = (end - start) / step + 1` of every dimension, as C++ over `env`. */
export function counts(core: EmitCore, ctx: FnCtx, env: Env, entry: MapEntryNode): Array<{ start: string; step: string; count: string }> {
  const element = `map ${entry.map.label}`;
  return entry.map.range.map((r) =>
    core.guard(entry.jsonPath, element, () => {
      const start = core.sym(ctx, env, r.start);
      const end = core.sym(ctx, env, r.end);
      const step = core.sym(ctx, env, r.step);
      return { start, step, count: `(((${end}) - (${start})) / (${step}) + 1)` };
    }),
  );
}

/** Decodes flat index `flat` into the map's parameters (last fastest) and binds them in `inner`. */
export function decode(
  core: EmitCore,
  entry: MapEntryNode,
  inner: Env,
  flat: string,
  dims: Array<{ start: string; step: string; count: string }>,
  prefix: string,
): void {
  const o = core.out;
  o.line(`int64_t ${prefix}_rest = ${flat};`);
  for (let d = dims.length - 1; d >= 0; d--) {
    const p = entry.map.params[d]!;
    const v = cppIdent(p);
    o.line(
      `const int64_t ${v} = ${grouped(dims[d]!.start)} + (${prefix}_rest % ${prefix}_n${d}) * ${grouped(dims[d]!.step)}; ${prefix}_rest /= ${prefix}_n${d};`,
    );
    inner.names.set(p, v);
  }
  o.line(`(void)${prefix}_rest;`);
}

export function emitThreadBlockMap(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode, frame: KernelFrame): void {
  const o = core.out;
  const prefix = `__tlab_tb${entry.id}`;
  const warpMaps = warpMapsIn(core, ctx, g, entry);
  const warps = warpMaps.length > 0;
  if (warps) {
    const other = besideWarpMaps(g, entry, warpMaps);
    if (other) {
      core.fail(
        other.jsonPath,
        `'${other.label}'`,
        `code beside the GPU_Warp maps of thread-block map '${entry.map.label}' would run in every lane of the warp`,
        'move it into the warp map, or into a thread-block map without warp maps',
      );
    }
  }
  const dims = counts(core, ctx, env, entry);
  const inner: Env = { ...env, names: new Map(env.names) };
  // One thread per point, or one warp per point when the body is warp maps.
  const slot = warps ? `(int64_t(threadIdx.x) / ${WARP_LANES})` : 'int64_t(threadIdx.x)';
  o.mark(entry.jsonPath);
  o.openBrace();
  o.line('__syncthreads();');
  dims.forEach((d, i) => o.line(`const int64_t ${prefix}_n${i} = ${d.count};`));
  o.line(`const int64_t ${prefix}_total = ${dims.map((_, i) => `${prefix}_n${i}`).join(' * ') || '1'};`);
  o.line(
    `if (${prefix}_total${warps ? ` * ${WARP_LANES}` : ''} > int64_t(blockDim.x)) __trap();  // the block was sized at the first point`,
  );
  o.open(`if (${slot} < ${prefix}_total)`);
  decode(core, entry, inner, slot, dims, prefix);
  frame.inThreadBlock++;
  if (warps) frame.inWarpBlock++;
  try {
    declareScopeStack(core, ctx, inner, g.state, entry.id);
    emitScope(core, ctx, inner, g, entry.id);
  } finally {
    frame.inThreadBlock--;
    if (warps) frame.inWarpBlock--;
  }
  o.close();
  o.line('__syncthreads();');
  o.close();
}

/** A GPU_Warp map: its points are the lanes of the warp that runs the enclosing thread-block point. */
export function emitWarpMap(core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode, frame: KernelFrame): void {
  const o = core.out;
  const prefix = `__tlab_w${entry.id}`;
  const dims = counts(core, ctx, env, entry);
  const inner: Env = { ...env, names: new Map(env.names) };
  o.mark(entry.jsonPath);
  o.openBrace();
  dims.forEach((d, i) => o.line(`const int64_t ${prefix}_n${i} = ${d.count};`));
  o.line(`const int64_t ${prefix}_total = ${dims.map((_, i) => `${prefix}_n${i}`).join(' * ') || '1'};`);
  o.line(`if (${prefix}_total > ${WARP_LANES}) __trap();  // one point per lane`);
  o.line(`const int64_t ${prefix}_lane = int64_t(threadIdx.x) % ${WARP_LANES};`);
  o.open(`if (${prefix}_lane < ${prefix}_total)`);
  decode(core, entry, inner, `${prefix}_lane`, dims, prefix);
  frame.inWarp++;
  try {
    declareScopeStack(core, ctx, inner, g.state, entry.id);
    emitScope(core, ctx, inner, g, entry.id);
  } finally {
    frame.inWarp--;
  }
  o.close();
  // Lanes of one warp see each other's writes before the next warp map (the guard above is per lane).
  o.line('__syncwarp();');
  o.close();
}
