/**
 * GPU maps. A `GPU_Device` map at host level becomes one kernel launch: `tlab_launch(grid, block, 0, stream,
 * body)` (`tlab_launch_blocks` when the body synchronises its block) of a `[=] __device__` lambda holding the map
 * body — `__tlab_kernel<<<…>>>` in transient_cuda_runtime.h, the CPU emulation in transient_cuda_host_runtime.h — so every host value the body names (pointers,
 * symbols, map parameters of enclosing host loops) is captured by value, exactly what a kernel's parameter list
 * would carry.
 *
 * - Without `GPU_ThreadBlock` maps inside, the device map's iteration space is flattened over threads (last
 *   parameter fastest, as DaCe's x dimension): block = the product of the map's `gpu_block_size`, else 256.
 * - With `GPU_ThreadBlock` maps directly in its body, each device-map point is one block (DaCe's rule); the
 *   block has as many threads as the largest thread-block map (sized on the host at the first block's point;
 *   a block whose map is larger traps instead of computing wrong results). Each thread-block map runs under
 *   `if (thread < count)` between `__syncthreads()`; the rest of the block body runs in every thread.
 * - `GPU_Warp` maps (the schedule of DaCe's warp branch, AddWarpMap): a thread-block map whose body is only
 *   warp maps gives each of its points one warp (32 threads), and each warp-map point is one lane of that
 *   warp. The block is sized for that (points × 32); a warp map with more than 32 points traps.
 * - Argument arrays are device pointers whatever storage they declare (the GPU ABI, docs/gpu.md), so the body
 *   reaches them directly, as DaCe's kernel does with the pointers it is passed. Host scalars the body reads
 *   are copied by value; host transients (memory the program allocates with `new`) cannot be reached from a
 *   kernel and are a finding, as is any write to a host scalar.
 *
 * The thread-block and warp maps inside the body, and the flat-index decoding all levels share: block-maps.ts.
 */
import type { MapEntryNode, Sdfg } from '../../model/sdfg.js';
import type { EmitCore, Env, FnCtx } from '../core.js';
import { dynamicInputEdges } from '../../model/queries.js';
import { bindDynamicInputs, emitScope } from '../dataflow.js';
import { containingScope, type StateGraph } from '../graph.js';
import { declareScopeStack } from '../memory.js';
import { cppIdent, ctypeOf } from '../names.js';
import { HINT } from '../subset.js';
import { CUDA_STREAM, isDeviceStorage, isProgramArgument, noteArgument, type KernelContext } from './common.js';
import { isAliasType } from '../../analysis/aliases.js';
import { aliasRoots } from '../views.js';
import { emitHostLevelKernel } from './fused.js';
import { counts, decode, emitThreadBlockMap, emitWarpMap, warpMapsIn, WARP_LANES, type KernelFrame } from './block-maps.js';

const DEFAULT_BLOCK_THREADS = 256;

const frames: KernelFrame[] = [];

/** Whether node `id` lies (transitively) inside scope `entry`. */
function inside(g: StateGraph, id: number, entry: number): boolean {
  let n = g.byId.get(id);
  for (let guard = 0; n && guard < 10_000; guard++) {
    const s = containingScope(g, n);
    if (s === entry) return true;
    if (s === null) return false;
    n = g.byId.get(s);
  }
  return false;
}

/** Containers the map reads or writes (memlets on edges that start or end in its scope), and which it writes. */
function containersOf(g: StateGraph, entry: MapEntryNode): { used: Set<string>; written: Set<string> } {
  const used = new Set<string>();
  const written = new Set<string>();
  const exit = entry.exitId;
  for (const e of g.state.edges) {
    if (e.memlet.data === null) continue;
    const srcIn = e.src === entry.id || inside(g, e.src, entry.id);
    const dstIn = e.dst === exit || inside(g, e.dst, entry.id);
    if (!srcIn && !dstIn) continue;
    used.add(e.memlet.data);
    if (e.dst === exit || (dstIn && g.byId.get(e.dst)?.kind === 'access')) written.add(e.memlet.data);
    const dst = g.byId.get(e.dst);
    if (srcIn && dst?.kind === 'access' && !dstIn) written.add(dst.data);
  }
  for (const n of g.state.nodes) if (n.kind === 'access' && inside(g, n.id, entry.id)) used.add(n.data);
  return { used, written };
}

function blockThreads(entry: MapEntryNode): number {
  const b = entry.map.gpuBlockSize;
  if (!b || b.length === 0) return DEFAULT_BLOCK_THREADS;
  const p = b.reduce((x, y) => x * Math.max(1, y), 1);
  return p > 0 && p <= 1024 ? p : DEFAULT_BLOCK_THREADS;
}

/** Thread-block and warp maps size the block on the host, before the kernel could read a dynamic bound. */
function dynamicThreadBlock(core: EmitCore, entry: MapEntryNode, schedule: string): never {
  core.fail(
    entry.jsonPath,
    `map '${entry.map.label}'`,
    `a ${schedule} map with a dynamic range is not supported (its block is sized on the host before the kernel runs)`,
    'make the thread-block map range symbolic, or make the map Sequential',
  );
}

export function emitKernelMap(backend: KernelContext, core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): boolean {
  // DaCe's default resolution: a Default map directly inside a GPU_Device map is a thread-block map.
  const schedule = core.defaults.scheduleOf(ctx.sdfg, g.state, entry);
  const element = `map '${entry.map.label}'`;
  if (core.deviceDepth > 0) {
    const frame = frames[frames.length - 1];
    if ((schedule === 'GPU_ThreadBlock' || schedule === 'GPU_Warp') && dynamicInputEdges(g.state, entry).length)
      dynamicThreadBlock(core, entry, schedule);
    if (schedule === 'GPU_Warp') {
      if (!frame || frame.inWarpBlock === 0 || frame.inWarp > 0) {
        core.fail(
          entry.jsonPath,
          element,
          'a GPU_Warp map must sit directly in the body of a GPU_ThreadBlock map (not nested in another warp map)',
          'put the warp map directly inside a GPU_ThreadBlock map, as AddWarpMap does',
        );
      }
      emitWarpMap(core, ctx, env, g, entry, frame);
      return true;
    }
    if (schedule === 'GPU_ThreadBlock') {
      if (!frame || !frame.threadBlocks || frame.inThreadBlock > 0) {
        core.fail(
          entry.jsonPath,
          element,
          'a GPU_ThreadBlock map must sit in the body of a GPU_Device map (not nested in another thread-block map)',
          HINT.validate,
        );
      }
      emitThreadBlockMap(core, ctx, env, g, entry, frame);
      return true;
    }
    if (schedule === 'GPU_Device' || schedule === 'GPU_Persistent')
      core.fail(
        entry.jsonPath,
        element,
        `a ${schedule} map inside a kernel (dynamic parallelism) is not supported`,
        'make the inner map Sequential',
      );
    if (schedule === 'CPU_Multicore' || schedule === 'CPU_Persistent')
      core.fail(entry.jsonPath, element, `a ${schedule} map inside a GPU kernel cannot run`, 'make the inner map Sequential');
    return false;
  }
  if (schedule === 'GPU_ThreadBlock' || schedule === 'GPU_Warp')
    core.fail(entry.jsonPath, element, `a ${schedule} map outside any GPU_Device map`, 'put it inside a GPU_Device map');
  if (schedule !== 'GPU_Device' && schedule !== 'GPU_Persistent') return false;
  emitHostLevelKernel(backend, core, ctx, env, g, entry, schedule, emitKernel);
  return true;
}

function emitKernel(backend: KernelContext, core: EmitCore, ctx: FnCtx, env: Env, g: StateGraph, entry: MapEntryNode): void {
  const o = core.out;
  const element = `GPU_Device map '${entry.map.label}'`;
  const k = backend.nextKernel();
  const prefix = `__tlab_k${k}`;
  const { used, written } = containersOf(g, entry);
  // Host data the kernel needs: scalars by value; host transient arrays and writes to host scalars are findings.
  const shadows: Array<{ name: string; ctype: string; ptr: string }> = [];
  for (const name of [...used].sort()) {
    const desc = ctx.sdfg.arrays.get(name);
    if (!desc) continue;
    if (isAliasType(desc.type)) {
      // A view or reference is a pointer the lambda captures: fine when whatever it may point at is device memory.
      const roots = aliasRoots(ctx.sdfg, name);
      for (const r of roots) noteArgument(backend, ctx.sdfg, r);
      const host = roots.find((r) => {
        const storage = backend.storageOf(ctx.sdfg, r);
        return !(isDeviceStorage(storage) || storage === 'GPU_Shared' || isProgramArgument(ctx.sdfg, r));
      });
      if (roots.length && host === undefined) continue;
      core.fail(
        desc.jsonPath,
        `${desc.type} '${name}'`,
        host === undefined
          ? `'${name}' is accessed inside GPU kernel '${entry.map.label}', but nothing in the program says what it aliases`
          : `'${name}' aliases host data '${host}' (storage ${backend.storageOf(ctx.sdfg, host)}) and is accessed inside GPU kernel '${entry.map.label}'`,
        'give the data it aliases GPU_Global storage',
      );
    }
    const storage = backend.storageOf(ctx.sdfg, name);
    // Device memory: the captured pointer is a device pointer.
    if (isDeviceStorage(storage) || storage === 'GPU_Shared') continue;
    // An argument array (of the program, through any nesting) is a device pointer in argv, whatever storage it
    // declares: DaCe's kernel dereferences the pointer it is passed, and here that pointer is device memory.
    if (desc.type !== 'Scalar' && isProgramArgument(ctx.sdfg, name)) {
      noteArgument(backend, ctx.sdfg, name);
      continue;
    }
    const p = core.plan.placement(ctx.sdfg, name);
    if (p.kind === 'constant')
      core.fail(
        desc.jsonPath,
        `constant '${name}'`,
        'a constants_prop array read inside a GPU kernel is not supported',
        'pass the values as an argument array',
      );
    // Stack data whose every access is inside the kernel is declared there (per thread): nothing to pass.
    if (p.kind === 'stack' && !usedOutside(g, entry, name)) continue;
    const single = desc.type === 'Scalar' || desc.shape.every((x) => x.trim() === '1');
    if (!single)
      core.fail(
        desc.jsonPath,
        `container '${name}'`,
        `host array '${name}' (storage ${storage}) is accessed inside GPU kernel '${entry.map.label}'`,
        'give it GPU_Global storage and copy it to the device first',
      );
    if (written.has(name))
      core.fail(
        desc.jsonPath,
        `container '${name}'`,
        `host scalar '${name}' is written inside GPU kernel '${entry.map.label}'`,
        'give it GPU_Global storage',
      );
    const ptr = ctx.containers.get(name);
    if (!ptr) continue;
    shadows.push({ name, ctype: ctypeOf(desc.dtype)!, ptr });
  }
  for (const n of g.state.nodes) {
    if (n.kind !== 'nested_sdfg' || !n.sdfg || !inside(g, n.id, entry.id)) continue;
    for (const s of [n.sdfg, ...nestedBelow(core, n.sdfg)]) {
      const problem = deviceFunctionProblem(core, s);
      if (problem)
        core.fail(
          n.jsonPath,
          `nested SDFG '${n.label}'`,
          problem,
          'give the transient Register storage (a per-thread array) or move it out of the kernel',
        );
    }
  }
  const tbMaps = g.state.nodes.filter(
    (n): n is MapEntryNode =>
      n.kind === 'map_entry' && core.defaults.scheduleOf(ctx.sdfg, g.state, n) === 'GPU_ThreadBlock' && inside(g, n.id, entry.id),
  );
  // Dynamic range inputs size the grid, so they are read on the host (as DaCe's cuda.py does before the launch)
  // and the kernel captures them by value: they must live in host memory.
  for (const e of dynamicInputEdges(g.state, entry)) {
    const data = e.memlet.data;
    const desc = data === null ? undefined : ctx.sdfg.arrays.get(data);
    if (!data || !desc) continue;
    // A Scalar of Default storage is host memory in the real plan (the dry run's resolver says GPU_Global).
    const device =
      desc.type === 'Scalar'
        ? isDeviceStorage(desc.storage)
        : isDeviceStorage(backend.storageOf(ctx.sdfg, data)) || isProgramArgument(ctx.sdfg, data);
    if (device)
      core.fail(
        e.jsonPath,
        `dynamic range input ${e.dstConnector} of ${element}`,
        `the grid of GPU kernel '${entry.map.label}' depends on '${data}', which is in device memory`,
        'read the bound into a host scalar before the map, or make the kernel map range symbolic',
      );
  }
  const outer: Env = { ...env, names: new Map(env.names) };

  o.mark(entry.jsonPath);
  o.openBrace();
  bindDynamicInputs(core, ctx, env, g, entry, outer);
  const dims = counts(core, ctx, outer, entry);
  dims.forEach((d, i) => o.line(`const int64_t ${prefix}_n${i} = ${d.count};`));
  o.line(`const int64_t ${prefix}_total = ${dims.map((_, i) => `${prefix}_n${i}`).join(' * ') || '1'};`);
  for (const s of shadows) o.line(`const ${s.ctype} ${prefix}_v_${cppIdent(s.name)} = ${s.ptr}[0];`);
  let threads: string;
  let blocks: string;
  if (tbMaps.length) {
    // One block per device-map point; threads: the largest thread-block map, evaluated at the first point.
    o.line(`int64_t ${prefix}_threads = 1;`);
    o.openBrace();
    const first: Env = { ...outer, names: new Map(outer.names) };
    entry.map.params.forEach((p, i) => {
      o.line(`const int64_t ${cppIdent(p)} = ${dims[i]!.start};`);
      first.names.set(p, cppIdent(p));
    });
    for (const tb of tbMaps) {
      const direct = containingScope(g, tb) === entry.id;
      if (!direct) continue;
      if (dynamicInputEdges(g.state, tb).length) dynamicThreadBlock(core, tb, 'GPU_ThreadBlock');
      const tbDims = counts(core, ctx, first, tb);
      // A thread-block map of warps needs one warp per point.
      const lanes = warpMapsIn(core, ctx, g, tb).length ? ` * ${WARP_LANES}` : '';
      o.line(`${prefix}_threads = tlab_max(${prefix}_threads, int64_t(${tbDims.map((d) => d.count).join(' * ')}${lanes}));`);
    }
    o.close();
    threads = `${prefix}_threads`;
    blocks = `${prefix}_total`;
  } else {
    threads = String(blockThreads(entry));
    blocks = `(${prefix}_total + ${threads} - 1) / ${threads}`;
  }
  // GPU_Persistent (a launch of fused.ts): DaCe's fixed grid, the points visited in grid strides.
  const persistent = entry.map.schedule === 'GPU_Persistent';
  if (persistent) blocks = `std::min<int64_t>(${blocks}, tlab_persistent_blocks())`;
  o.open(`if (${prefix}_total > 0)`);
  // tlab_launch_blocks: the body synchronises its block (the host runtime runs those threads as fibers).
  const launch = tbMaps.length ? 'tlab_launch_blocks' : 'tlab_launch';
  o.line(`${launch}(dim3(unsigned(${blocks})), dim3(unsigned(${threads})), 0, ${CUDA_STREAM}, [=] __device__ () {`);
  o.openBraceless();
  const inner: Env = { ...outer, names: new Map(outer.names), device: true, parallel: true };
  const kctx: FnCtx = { ...ctx, containers: ctx.containers.copy() };
  for (const s of shadows) {
    const local = `${prefix}_l_${cppIdent(s.name)}`;
    o.line(`${s.ctype} ${local} = ${prefix}_v_${cppIdent(s.name)};`);
    kctx.containers.set(s.name, `(&${local})`);
  }
  if (persistent) {
    const [first, stride] = tbMaps.length
      ? ['int64_t(blockIdx.x)', 'int64_t(gridDim.x)']
      : ['int64_t(blockIdx.x) * int64_t(blockDim.x) + int64_t(threadIdx.x)', 'int64_t(gridDim.x) * int64_t(blockDim.x)'];
    o.open(`for (int64_t ${prefix}_point = ${first}; ${prefix}_point < ${prefix}_total; ${prefix}_point += ${stride})`);
  } else if (tbMaps.length) o.line(`const int64_t ${prefix}_point = int64_t(blockIdx.x);`);
  else {
    o.line(`const int64_t ${prefix}_point = int64_t(blockIdx.x) * int64_t(blockDim.x) + int64_t(threadIdx.x);`);
    o.line(`if (${prefix}_point >= ${prefix}_total) return;`);
  }
  decode(core, entry, inner, `${prefix}_point`, dims, prefix);
  core.deviceDepth++;
  frames.push({ threadBlocks: tbMaps.length > 0, inThreadBlock: 0, inWarpBlock: 0, inWarp: 0 });
  try {
    core.guard(entry.jsonPath, element, () => {
      declareScopeStack(core, kctx, inner, g.state, entry.id);
      emitScope(core, kctx, inner, g, entry.id);
    });
  } finally {
    frames.pop();
    core.deviceDepth--;
  }
  if (persistent) o.close();
  o.closeBraceless();
  o.line('});');
  o.line('TLAB_CUDA(cudaGetLastError());');
  o.close();
  o.close();
  // Any heap transient allocated at a site inside the kernel would need a host call in device code.
  for (const [name, desc] of ctx.sdfg.arrays) {
    if (!desc.transient) continue;
    const p = core.plan.placement(ctx.sdfg, name);
    if (
      p.kind === 'heap' &&
      p.site.kind === 'scope' &&
      p.site.stateJsonPath === g.state.jsonPath &&
      (p.site.mapEntryId === entry.id || inside(g, p.site.mapEntryId, entry.id))
    ) {
      core.fail(
        desc.jsonPath,
        `transient '${name}'`,
        `'${name}' (storage ${p.storage}) would be allocated inside GPU kernel '${entry.map.label}'`,
        'give it Register or GPU_Shared storage, or move it out of the kernel',
      );
    }
  }
}

function usedOutside(g: StateGraph, entry: MapEntryNode, name: string): boolean {
  return g.state.nodes.some((n) => n.kind === 'access' && n.data === name && n.id !== entry.id && !inside(g, n.id, entry.id));
}

function nestedBelow(core: EmitCore, s: Sdfg): Sdfg[] {
  return core.file.sdfgs.filter((x) => {
    for (let p = x.parent; p; p = p.sdfg.parent) if (p.sdfg === s) return true;
    return false;
  });
}

/** Nested SDFGs whose code runs on the device must not touch host-only state. */
function deviceFunctionProblem(core: EmitCore, s: Sdfg): string | null {
  for (const [name, desc] of s.arrays) {
    if (!desc.transient) continue;
    const p = core.plan.placement(s, name);
    // A heap Scalar is a plain local in device code after the codegen follow-ups; GPU memory never is.
    if (p.kind === 'heap' && desc.type === 'Scalar' && !p.storage.startsWith('GPU_')) continue;
    if (p.kind === 'heap' || p.kind === 'persistent' || p.kind === 'external')
      return `transient '${name}' of a nested SDFG inside a GPU kernel needs ${p.kind} memory (storage ${p.storage})`;
  }
  return null;
}
