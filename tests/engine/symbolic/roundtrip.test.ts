import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, parseSym, show, simplify, type BinOp, type Expr, type Value } from '../../../electron/engine/symbolic/index.js';

const SYMBOLS: Record<string, bigint> = { a: 3n, b: -7n, c: 0n, N: 2n ** 40n, M: 12n };
const env = (name: string): bigint | undefined => SYMBOLS[name];

type Outcome = { ok: true; value: Value } | { ok: false; error: string };

function run(e: Expr): Outcome {
  try {
    return { ok: true, value: evaluate(e, env) };
  } catch (err) {
    return { ok: false, error: (err as Error).name };
  }
}

/** Bools count as 0/1 and floats compare by value: Python's own notion of equal numbers. */
function sameValue(x: Value, y: Value): boolean {
  const num = (v: Value): Value => (v.k === 'bool' ? { k: 'rat', n: v.v ? 1n : 0n, d: 1n } : v);
  const p = num(x);
  const q = num(y);
  if (p.k === 'rat' && q.k === 'rat') return p.n === q.n && p.d === q.d;
  const f = (v: Value): number => (v.k === 'rat' ? Number(v.n) / Number(v.d) : v.k === 'float' ? v.v : 0);
  const [u, w] = [f(p), f(q)];
  if (Number.isNaN(u) && Number.isNaN(w)) return true;
  return u === w || Math.abs(u - w) <= 1e-9 * Math.max(1, Math.abs(u), Math.abs(w));
}

const ARITH: BinOp[] = ['+', '-', '*', '/', '//', '%'];
const OTHER: BinOp[] = ['==', '!=', '<', '<=', '>', '>=', 'and', 'or', '&', '|', '^'];

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  { arbitrary: fc.bigInt({ min: -50n, max: 50n }).map((v): Expr => ({ k: 'int', v })), weight: 4 },
  { arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((v): Expr => ({ k: 'int', v })), weight: 1 },
  { arbitrary: fc.constantFrom(...Object.keys(SYMBOLS)).map((name): Expr => ({ k: 'sym', name })), weight: 4 },
  { arbitrary: fc.constantFrom(0.5, 1.25, 1e-3, 2.0, 1e21).map((v): Expr => ({ k: 'float', v, text: String(v) })), weight: 1 },
  { arbitrary: fc.boolean().map((v): Expr => ({ k: 'bool', v })), weight: 1 },
);

const exprTree = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: leaf, weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom(...ARITH), tie('e'), tie('e')).map(([op, a, b]): Expr => ({ k: 'bin', op, a, b })), weight: 4 },
    { arbitrary: fc.tuple(fc.constantFrom(...OTHER), tie('e'), tie('e')).map(([op, a, b]): Expr => ({ k: 'bin', op, a, b })), weight: 1 },
    {
      arbitrary: fc
        .tuple(tie('e'), fc.bigInt({ min: -3n, max: 4n }))
        .map(([a, k]): Expr => ({ k: 'bin', op: '**', a, b: { k: 'int', v: k } })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom<'-' | '+' | 'not'>('-', '+', 'not'), tie('e')).map(([op, a]): Expr => ({ k: 'un', op, a })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('Max', 'Min', 'Mod', 'int_floor', 'int_ceil'), tie('e'), tie('e'))
        .map(([fn, a, b]): Expr => ({ k: 'call', fn, args: [a, b], kwargs: [] })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('floor', 'ceiling', 'Abs'), tie('e'))
        .map(([fn, a]): Expr => ({ k: 'call', fn, args: [a], kwargs: [] })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(
          fc.array(fc.constantFrom<BinOp>('<', '<=', '=='), { minLength: 2, maxLength: 3 }),
          fc.array(tie('e'), { minLength: 4, maxLength: 4 }),
        )
        .map(([ops, operands]): Expr => ({ k: 'cmpchain', ops, operands: operands.slice(0, ops.length + 1) })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(tie('e'), tie('e'), tie('e'))
        .map(([cond, then, otherwise]): Expr => ({ k: 'ternary', cond, then, else: otherwise })),
      weight: 1,
    },
  ),
})).e;

describe('show() round trip', () => {
  it('parseSym(show(e), "legacy") evaluates like e', () => {
    fc.assert(
      fc.property(exprTree, (e) => {
        const text = show(e);
        const back = parseSym(text, 'legacy');
        const before = run(e);
        const after = run(back);
        if (!before.ok || !after.ok) {
          expect(after.ok, text).toBe(before.ok);
          return;
        }
        expect(sameValue(before.value, after.value), `${text}: ${JSON.stringify(before, big)} vs ${JSON.stringify(after, big)}`).toBe(true);
        // Printing is stable: the re-parsed tree prints the same text.
        expect(show(back)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('simplify() never changes a defined value', () => {
    fc.assert(
      fc.property(exprTree, (e) => {
        const before = run(e);
        if (!before.ok) return;
        const simplified = simplify(e);
        const after = run(simplified);
        expect(after.ok, `${show(e)} → ${show(simplified)}`).toBe(true);
        if (after.ok) expect(sameValue(before.value, after.value), `${show(e)} → ${show(simplified)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

function big(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
