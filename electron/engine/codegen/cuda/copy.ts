/**
 * Host-level copies that touch device memory (host→device, device→host, device→device): one
 * `tlab_cuda_copy` (transient_cuda_runtime.h) with the subsets' start pointers, counts and element strides,
 * which issues contiguous rows or 2-D pitched copies on the program's stream, like DaCe's copy dispatch.
 * Copies inside kernels stay the host emitter's element loops (they run in device code).
 */
import type { MemletEdge } from '../../model/sdfg.js';
import type { EmitCore, Env, FnCtx, SubsetPoint } from '../core.js';
import { copyDimPairs, copyEnds } from '../dataflow.js';
import { cppOf, ExprError, grouped } from '../expr.js';
import { ctypeOf } from '../names.js';
import { CUDA_STREAM } from './common.js';

export function emitHostDeviceCopy(core: EmitCore, ctx: FnCtx, env: Env, e: MemletEdge, srcName: string, dstName: string): void {
  const element = `copy ${srcName} -> ${dstName}`;
  core.guard(e.jsonPath, element, () => {
    const src = core.containerPtr(ctx, srcName, e.jsonPath);
    const dst = core.containerPtr(ctx, dstName, e.jsonPath);
    if (e.memlet.wcr) throw new ExprError('a write-conflict resolution on a copy between host and device memory is not supported');
    if (ctypeOf(src.desc.dtype) !== ctypeOf(dst.desc.dtype))
      throw new ExprError(`copy between ${ctypeOf(src.desc.dtype)} and ${ctypeOf(dst.desc.dtype)} data across host and device`);
    const { srcSubset, dstSubset } = copyEnds(e.memlet, srcName, dstName);
    const sp = core.subsetOf(src.desc, srcSubset, e.jsonPath);
    const dp = core.subsetOf(dst.desc, dstSubset, e.jsonPath);
    const pairs = copyDimPairs(sp, dp);
    const r = core.baseResolver(ctx, env);
    const em = (x: SubsetPoint['dims'][number]['start']) => cppOf(x, r, 'symbolic');
    const stride = (desc: typeof src.desc, d: number, step: string) => {
      const s = desc.strides[d]!;
      const base = s.trim() === '1' ? 'int64_t(1)' : `int64_t(${core.sym(ctx, env, s)})`;
      return `${base} * ${grouped(step)}`;
    };
    const countsCpp = pairs.map(([si]) => {
      const d = sp.dims[si]!;
      return `((${em(d.end)}) - (${em(d.start)})) / (${em(d.step)}) + 1`;
    });
    const srcStrides = pairs.map(([si]) => stride(src.desc, si, em(sp.dims[si]!.step)));
    const dstStrides = pairs.map(([, di]) => stride(dst.desc, di, em(dp.dims[di]!.step)));
    const srcStart = core.linear(
      ctx,
      env,
      src.desc,
      sp.dims.map((d) => em(d.start)),
    );
    const dstStart = core.linear(
      ctx,
      env,
      dst.desc,
      dp.dims.map((d) => em(d.start)),
    );
    const o = core.out;
    o.mark(e.jsonPath);
    o.openBrace();
    const n = pairs.length;
    if (n) {
      o.line(`const int64_t __tlab_cn[${n}] = {${countsCpp.map((c) => `int64_t(${c})`).join(', ')}};`);
      o.line(`const int64_t __tlab_cs[${n}] = {${srcStrides.join(', ')}};`);
      o.line(`const int64_t __tlab_cd[${n}] = {${dstStrides.join(', ')}};`);
    }
    const arr = (a: string) => (n ? a : 'nullptr');
    o.line(
      `tlab_cuda_copy(${dst.ptr} + ${grouped(dstStart)}, ${arr('__tlab_cd')}, ${src.ptr} + ${grouped(srcStart)}, ${arr('__tlab_cs')}, ${arr('__tlab_cn')}, ${n}, sizeof(${ctypeOf(dst.desc.dtype)}), ${CUDA_STREAM});`,
    );
    o.close();
  });
}
