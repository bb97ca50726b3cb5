/**
 * Write-conflict resolution: `target ⊕= value` for a memlet's WCR lambda. `a + b` and `a * b` become compound
 * assignments (`#pragma omp atomic` where another thread may write the element), `min`/`max` the runtime helpers,
 * and any other two-argument lambda its translated body (a named critical section there). `nonatomic`: a memlet
 * marked `wcr_nonatomic` (its writer guarantees no two threads share an element, as DaCe trusts) or a write no
 * other thread reaches (wcr-conflicts.ts).
 */
import { parsePythonLambda, type Expr } from '../symbolic/index.js';
import type { EmitCore, Env, FnCtx } from './core.js';
import { cppOf, ExprError } from './expr.js';

/** The statements applying `wcr` to `target` with `value`. */
export function wcrLines(
  core: EmitCore,
  ctx: FnCtx,
  env: Env,
  target: string,
  value: string,
  wcr: string,
  ctype: string,
  jsonPath: string,
  nonatomic: boolean,
): string[] {
  const parallel = env.parallel && !nonatomic;
  const device = env.device && !nonatomic;
  const lambda = core.guard(jsonPath, 'WCR', () => parsePythonLambda(wcr));
  if (lambda.params.length !== 2)
    throw new Error(`internal: WCR '${wcr}' at ${jsonPath} is not a two-argument lambda (the subset check refuses it)`);
  const [a, b] = lambda.params as [string, string];
  const body = lambda.body;
  const isParam = (x: Expr, n: string) => x.k === 'sym' && x.dtype === undefined && x.name === n;
  const both = (l: Expr, r: Expr) => (isParam(l, a) && isParam(r, b)) || (isParam(l, b) && isParam(r, a));
  let op: string | null = null;
  if (body.k === 'bin' && (body.op === '+' || body.op === '*') && both(body.a, body.b)) op = body.op;
  let fn: string | null = null;
  if (body.k === 'call' && body.args.length === 2 && body.kwargs.length === 0 && both(body.args[0]!, body.args[1]!)) {
    const name = body.fn;
    if (name === 'min' || name === 'max' || name === 'Min' || name === 'Max') fn = `tlab_${name.toLowerCase()}`;
  }
  const floating = /float|double|complex/.test(ctype);
  // Vectors (vectors.ts) combine elementwise: no atomic on the whole, a critical section in parallel code.
  const vector = ctype.startsWith('tlab_vec<');
  if (vector && (fn || device))
    throw new ExprError(`write-conflict resolution on ${ctype} ${device ? 'inside a GPU kernel' : `with ${fn}`} is not supported`);
  const complex = ctype.includes('complex') || vector;
  if (parallel && floating) core.nondeterministicFloat = true;
  let update: string;
  if (op) update = `${target} ${op}= ${value};`;
  else if (fn) update = `${target} = ${fn}(${target}, ${value});`;
  else {
    const names = new Map(env.names);
    names.set(a, '__tlab_a');
    names.set(b, '__tlab_b');
    const expr = core.guard(jsonPath, 'WCR', () => cppOf(body, core.baseResolver(ctx, { ...env, names }), 'python'));
    update = `{ ${ctype} __tlab_a = ${target}; ${ctype} __tlab_b = ${value}; ${target} = ${expr}; }`;
  }
  if (device) {
    // Device code: every WCR write may race with other threads (DaCe emits atomics unless wcr_nonatomic).
    if (op === '+' && !complex) return [`tlab_atomic_add(&${target}, static_cast<${ctype}>(${value}));`];
    if (complex)
      core.fail(jsonPath, 'WCR', `write-conflict resolution on ${ctype} inside a GPU kernel is not supported`, 'reduce in a real type');
    const names = new Map(env.names);
    names.set(a, '__tlab_a');
    names.set(b, '__tlab_b');
    const expr = op
      ? `__tlab_a ${op} __tlab_b`
      : fn
        ? `${fn}(__tlab_a, __tlab_b)`
        : core.guard(jsonPath, 'WCR', () => cppOf(body, core.baseResolver(ctx, { ...env, names }), 'python'));
    return [
      `{ const ${ctype} __tlab_b = ${value}; tlab_atomic_update(&${target}, [=] (${ctype} __tlab_a) { return static_cast<${ctype}>(${expr}); }); }`,
    ];
  }
  if (!parallel) return [update];
  const guarded = [op && !complex ? '#pragma omp atomic' : '#pragma omp critical (__tlab_wcr)', update];
  if (!env.alone) return guarded;
  // One thread alone (tlab_omp_alone): the same update in the same order, without the synchronisation.
  env.alone.used = true;
  return [`if (${env.alone.name}) ${update}`, 'else {', ...guarded, '}'];
}
