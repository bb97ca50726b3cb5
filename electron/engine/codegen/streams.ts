/**
 * Streams and consume scopes in generated CPU code (the rules are stream-rules.ts's, the queue is
 * native/include/transient_stream.h). A stream transient is a `tlab_stream<T>` handle whose queues' block is
 * allocated and freed at the transient's site (memory.ts calls `streamOpen`/`streamClose`); memlets name a queue
 * by their subset's start, as DaCe indexes stream arrays.
 *
 * A consume scope is DaCe's `dace::Consume<1>::consume(S, num_pes, body)` run by one processing element: a loop
 * that pops one element and runs the body until the queue is empty, pe_index 0. DaCe's num_pes threads race
 * for elements, so any order and any split among them is one of its outcomes; one element at a time in FIFO
 * order on one PE is such an outcome, and it is deterministic (bodies that push back into the queue, as the
 * Fibonacci consume does, see their own pushes before the loop ends).
 */
import type { ConsumeEntryNode, DataDescriptor, MemletEdge } from '../model/sdfg.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { cppOf, grouped } from './expr.js';
import { simplify, type Expr } from '../symbolic/index.js';
import type { StateGraph } from './graph.js';
import { cppIdent, ctypeOf } from './names.js';
import { streamCapacity } from '../analysis/stream-footprint.js';

/**
 * Pushes from parallel code (a locked push) land in the order the threads reach the lock, so whatever a consume
 * scope sums over the queue sums in a varying order: a float result may differ in its last bits from call to call
 * (the bench's streams fixture did, between the two poisoned verification calls). Verification then compares
 * within its tolerance, as for a parallel float WCR (wcr.ts).
 */
function pushFrom(core: EmitCore, env: Env, desc: DataDescriptor): 'tlab_stream_push' | 'tlab_stream_push_locked' {
  if (!env.parallel) return 'tlab_stream_push';
  if (/float|double|complex|half/.test(ctypeOf(desc.dtype) ?? '')) core.nondeterministicFloat = true;
  return 'tlab_stream_push_locked';
}

/** One push statement; a locked one takes the plain path when the parallel map runs alone (Env.alone). */
function pushCall(core: EmitCore, env: Env, desc: DataDescriptor, queue: string, value: string): string {
  const push = pushFrom(core, env, desc);
  if (push === 'tlab_stream_push' || !env.alone) return `${push}(${queue}, ${value});`;
  env.alone.used = true;
  return `if (${env.alone.name}) tlab_stream_push(${queue}, ${value}); else tlab_stream_push_locked(${queue}, ${value});`;
}

/** A writer's `alone` member: its locked pushes go unlocked when the parallel map runs alone (Env.alone). */
function writerAlone(env: Env): string {
  if (!env.parallel || !env.alone) return '';
  env.alone.used = true;
  return `, ${env.alone.name}`;
}

/** The runtime header a program with streams includes (build.ts hashes it into the cache key then). */
export const STREAM_HEADER = 'transient_stream.h';

export function hasStreams(core: EmitCore): boolean {
  return core.file.sdfgs.some((s) => [...s.arrays.values()].some((d) => d.type === 'Stream' && d.transient));
}

/** The handle's declaration (function level, or in the scope body that allocates it). */
export function streamDeclaration(desc: DataDescriptor, variable: string): string {
  return `tlab_stream<${ctypeOf(desc.dtype)!}> ${variable};`;
}

/** Allocates the stream's block at its site: one queue per element of its shape, buffer_size elements each. */
export function streamOpen(core: EmitCore, ctx: FnCtx, env: Env, desc: DataDescriptor, variable: string, index: number): string {
  return `tlab_stream_open(${variable}, uint64_t(${core.sym(ctx, env, desc.totalSize)}), int64_t(${core.sym(ctx, env, streamCapacity(desc))}), ${index});`;
}

export function streamClose(variable: string): string {
  return `tlab_stream_close(${variable});`;
}

/** `S, i`: the handle and queue index a memlet of stream `name` addresses. */
function queueOf(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, name: string, subset = e.memlet.subset): string {
  const { ptr, desc } = core.containerPtr(ctx, name, e.jsonPath);
  return `${ptr}, ${core.startIndex(ctx, env, desc, subset, e.jsonPath)}`;
}

const isStream = (ctx: FnCtx, name: string) => ctx.sdfg.arrays.get(name)?.type === 'Stream';

/**
 * A copy between an array and a stream (DaCe's bulk push and pop, cpu.py's copy_memory): every element of the
 * array subset pushed in row-major order; or popped into it, as many as the queue holds up to the subset's
 * size, at least one (DaCe's `pop(ptr, n)` waits for one). False: no stream involved.
 */
export function emitStreamCopy(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, srcName: string, dstName: string): boolean {
  const push = isStream(ctx, dstName);
  if (!push && !isStream(ctx, srcName)) return false;
  core.guard(e.jsonPath, `copy ${srcName} -> ${dstName}`, () => {
    // The memlet's subset is its `data`'s; the other end is other_subset (null: the whole container).
    const streamIsData = e.memlet.data === (push ? dstName : srcName);
    const srcSubset = push === streamIsData ? e.memlet.otherSubset : e.memlet.subset;
    const dstSubset = push === streamIsData ? e.memlet.subset : e.memlet.otherSubset;
    const arrayName = push ? srcName : dstName;
    const streamName = push ? dstName : srcName;
    const queue = queueOf(core, ctx, env, e, streamName, push ? dstSubset : srcSubset);
    const arr = core.containerPtr(ctx, arrayName, e.jsonPath);
    const point = core.subsetOf(arr.desc, push ? srcSubset : dstSubset, e.jsonPath);
    const r = core.baseResolver(ctx, env);
    const em = (x: Parameters<typeof cppOf>[0]) => cppOf(x, r, 'symbolic');
    const o = core.out;
    o.mark(e.jsonPath);
    o.openBrace();
    if (!push) o.line(`tlab_stream_wait(${queue});`);
    const run = contiguousRun(core, arr.desc, point.dims);
    if (run !== null && !env.parallel) {
      // Contiguous elements move as one run (DaCe's push(ptr, n) / pop(ptr, n)): no per-element ring arithmetic.
      const first = `&${arr.ptr}[${core.linear(
        ctx,
        env,
        arr.desc,
        point.dims.map((d) => grouped(em(d.start))),
      )}]`;
      const count = run === -1 ? '1' : `(${em(point.dims[run]!.end)}) - (${em(point.dims[run]!.start)}) + 1`;
      o.line(`${push ? 'tlab_stream_push_n' : 'tlab_stream_pop_n'}(${queue}, ${first}, int64_t(${count}));`);
      o.close();
      return;
    }
    const idx = point.dims.map((d, k) => {
      o.open(`for (int64_t __k${k} = 0; __k${k} < ((${em(d.end)}) - (${em(d.start)})) / (${em(d.step)}) + 1; ++__k${k})`);
      return `${grouped(em(d.start))} + __k${k} * ${grouped(em(d.step))}`;
    });
    const element = `${arr.ptr}[${core.linear(ctx, env, arr.desc, idx)}]`;
    if (push) o.line(pushCall(core, env, ctx.sdfg.arrays.get(streamName)!, queue, element));
    else o.line(`if (!tlab_stream_empty(${queue})) ${element} = tlab_stream_pop(${queue});`);
    for (let k = 0; k < point.dims.length; k++) o.close();
    o.close();
  });
  return true;
}

/**
 * The one dimension along which the subset's elements lie next to each other in memory (-1: a single element),
 * or null when they do not: every other dimension is one index, that one has step 1 and stride 1.
 */
function contiguousRun(core: EmitCore, desc: DataDescriptor, dims: ReadonlyArray<{ start: Expr; end: Expr; step: Expr }>): number | null {
  const isInt = (e: Expr, v: bigint) => e.k === 'int' && e.v === v;
  const varying = dims.flatMap((d, k) => (isInt(simplify({ k: 'bin', op: '-', a: d.end, b: d.start }), 0n) ? [] : [k]));
  if (varying.length === 0) return -1;
  if (varying.length > 1) return null;
  const k = varying[0]!;
  return isInt(simplify(dims[k]!.step), 1n) && isInt(simplify(core.symExpr(desc.strides[k] ?? '1')), 1n) ? k : null;
}

/** A tasklet connector's lines when its memlet is a stream or the consumed element; null: not a stream. */
export interface ConnectorLines {
  pre: string[];
  bind: string[];
  post: string[];
}

export function streamInput(
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  g: StateGraph,
  e: MemletEdge,
  ctype: string | null,
  tmp: string,
): ConnectorLines | null {
  const src = g.byId.get(e.src);
  const cv = cppIdent(e.dstConnector!);
  if (src?.kind === 'consume_entry' && e.srcConnector === 'OUT_stream') {
    return { pre: [`auto ${tmp} = ${consumedElement(src)};`], bind: [`${ctype ?? 'auto'} ${cv} = ${tmp};`], post: [] };
  }
  if (e.memlet.data === null || !isStream(ctx, e.memlet.data)) return null;
  const desc = ctx.sdfg.arrays.get(e.memlet.data)!;
  const t = ctypeOf(desc.dtype)!;
  return {
    pre: [`${t} ${tmp} = tlab_stream_pop(${queueOf(core, ctx, env, e, e.memlet.data)});`],
    bind: [`${ctype ?? t} ${cv} = ${tmp};`],
    post: [],
  };
}

/** A dynamic output pushes at each assignment (a writer object); any other pushes its value once, after. */
export function streamOutput(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, tmp: string): ConnectorLines | null {
  if (e.memlet.data === null || !isStream(ctx, e.memlet.data)) return null;
  const desc = ctx.sdfg.arrays.get(e.memlet.data)!;
  const t = ctypeOf(desc.dtype)!;
  const cv = cppIdent(e.srcConnector!);
  const { ptr } = core.containerPtr(ctx, e.memlet.data, e.jsonPath);
  const index = core.startIndex(ctx, env, desc, e.memlet.subset, e.jsonPath);
  if (e.memlet.dynamic) {
    return {
      pre: [
        `tlab_stream_writer<${t}, ${pushFrom(core, env, desc) === 'tlab_stream_push_locked'}> ${tmp}{&${ptr}, ${index}${writerAlone(env)}};`,
      ],
      bind: [`auto &${cv} = ${tmp};`],
      post: [],
    };
  }
  return { pre: [`${t} ${tmp} = {};`], bind: [`${t} &${cv} = ${tmp};`], post: [pushCall(core, env, desc, `${ptr}, ${index}`, tmp)] };
}

function consumedElement(entry: ConsumeEntryNode): string {
  return `__tlab_consumed${entry.id}`;
}

/** The consume scope: pop and run `body` until the input queue is empty, on one processing element. */
export function emitConsume(
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  g: StateGraph,
  entry: ConsumeEntryNode,
  body: (inner: Env) => void,
): void {
  const input = g.inEdges.get(entry.id)!.find((e) => e.dstConnector === 'IN_stream')!;
  const name = input.memlet.data!;
  const desc = ctx.sdfg.arrays.get(name)!;
  const o = core.out;
  o.mark(entry.jsonPath);
  o.openBrace();
  const queue = core.guard(input.jsonPath, `consume scope '${entry.label}'`, () => queueOf(core, ctx, env, input, name));
  const inner: Env = { ...env, names: new Map(env.names) };
  if (entry.peIndex) {
    const pe = `__tlab_pe${entry.id}`;
    // num_pes is DaCe's thread count; one PE runs every element here, so the index is always 0.
    o.line(`const int64_t ${pe} = 0; (void)${pe};`);
    inner.names.set(entry.peIndex, pe);
  }
  o.open(`while (!tlab_stream_empty(${queue}))`);
  o.line(`const ${ctypeOf(desc.dtype)!} ${consumedElement(entry)} = tlab_stream_pop(${queue});`);
  body(inner);
  o.close();
  o.close();
}
