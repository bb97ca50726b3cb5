/**
 * Property: real SDFG files, structurally mutated (a value replaced by a hostile one — objects with their own
 * toString/valueOf, arrays nested thousands deep, huge numbers, NaN-ish strings, wrong types —, keys deleted
 * or renamed, values wrapped thousands of levels deep, subtrees moved elsewhere), either parse and analyse or
 * throw TlabError. Anything else is an `analyze` that exits 70 with a stack trace.
 *
 * The documents are mutated in place and restored after each case (no copies, no disk), so thousands of cases
 * run in a few seconds; `npm run bench -- fuzz` and `node dist/bench/fuzz-driver.js` run many more.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TEST_SEEDS,
  applyMutations,
  caseArb,
  describeCrash,
  loadSeeds,
  runCase,
  runFrontEnd,
  type Mutation,
} from '../../../bench/lib/fuzz-core.js';
import { parseSym, show, simplify, evaluate, toCpp, freeSymbols } from '../../../electron/engine/symbolic/index.js';

const seeds = loadSeeds(TEST_SEEDS);

describe('structural fuzzing of real files', () => {
  it('every seed file parses and analyses unmutated', () => {
    for (const seed of seeds) expect(runFrontEnd(seed.doc, 8n, seed.name).kind, seed.name).toBe('ok');
  });

  it('restores every document exactly after a case', () => {
    const before = seeds.map((s) => JSON.stringify(s.doc));
    fc.assert(
      fc.property(caseArb(seeds.length), (c) => {
        const seed = seeds[c.seed]!;
        applyMutations(seed, c.mutations)();
        return JSON.stringify(seed.doc) === before[c.seed];
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('mutations reach the fields that used to crash (the test can fail)', () => {
    // A mutation that puts an own-toString object into a code language: exactly what crashed before.
    const seed = seeds.findIndex((s) => s.slots.some((slot) => slot.key === 'language'));
    const slot = seeds[seed]!.slots.findIndex((s) => s.key === 'language');
    const m: Mutation = { op: 'replace', slot, value: 0 };
    const outcome = runCase(seeds, { seed, mutations: [m], defaultSymbol: 8n });
    expect(outcome.kind).toBe('tlab');
    expect(outcome.kind === 'tlab' && outcome.error.jsonPath).toMatch(/\.language$/);
  });

  it('parse + analyse either succeed or throw TlabError (3,000 mutated files)', () => {
    const outcomes = { ok: 0, tlab: 0 };
    fc.assert(
      fc.property(caseArb(seeds.length), (c) => {
        const outcome = runCase(seeds, c);
        if (outcome.kind === 'crash') throw new Error(`crash: ${describeCrash(outcome.error)}`);
        outcomes[outcome.kind]++;
      }),
      // A fixed seed keeps `npm test` reproducible; the bench and the driver draw new cases every run.
      { numRuns: 3000, seed: 20_240_606 },
    );
    // Both outcomes must be common, or the mutations are too tame (or too destructive) to test anything.
    expect(outcomes.ok).toBeGreaterThan(300);
    expect(outcomes.tlab).toBeGreaterThan(300);
  });
});

/** A small random expression… */
const smallExpr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constantFrom(
      'N',
      'M',
      '0',
      '1',
      '-1',
      '2',
      '9'.repeat(40),
      '1e400',
      '0.5',
      'True',
      'None',
      '$N',
      'math.pi',
      'constructor',
      'toString',
      '(2**400000)',
    ),
    fc
      .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '//', '%', '**', '<', '==', 'and', 'or', '&', '<<'), tie('e'))
      .map(([a, op, b]) => `(${a}) ${op} (${b})`),
    fc
      .tuple(
        fc.constantFrom('Max', 'Min', 'int_ceil', 'int_floor', 'floor', 'ceiling', 'Mod', 'sqrt', 'abs', 'f'),
        fc.array(tie('e'), { minLength: 1, maxLength: 3 }),
      )
      .map(([fn, args]) => `${fn}(${args.join(', ')})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a} if ${b} else ${c}`),
  ),
})).e;

/** …made hostile once, at the top: nested thousands deep, or chained thousands long (`((N…`, `a.b.b…`, `x // y // …`). */
const exprText: fc.Arbitrary<string> = fc.oneof(
  smallExpr,
  fc
    .tuple(fc.constantFrom('(', '-', 'not ', '~', '+'), fc.integer({ min: 1, max: 3000 }), smallExpr)
    .map(([open, n, e]) => (open === '(' ? `${'('.repeat(n)}${e}${')'.repeat(n)}` : `${open.repeat(n)}${e}`)),
  fc.tuple(fc.constantFrom('.b', '[0]', '()'), fc.integer({ min: 1, max: 3000 })).map(([postfix, n]) => `a${postfix.repeat(n)}`),
  fc
    .tuple(smallExpr, fc.constantFrom(' + ', ' * ', ' // ', ' % ', ' ** ', ' < ', ' and ', ' - ', ' / '), fc.integer({ min: 2, max: 3000 }))
    .map(([e, op, n]) => Array.from({ length: n }, () => `(${e})`).join(op)),
);

describe('symbolic expressions from hostile files', () => {
  it('parse, print, simplify, evaluate and emit C++ without stack overflows or type errors', () => {
    const env = (name: string): bigint | undefined => (name === 'N' ? 7n : name === 'M' ? 2n ** 40n : undefined);
    fc.assert(
      fc.property(exprText, fc.constantFrom<'legacy' | 'typed'>('legacy', 'typed'), (src, grammar) => {
        let e;
        try {
          e = parseSym(src, grammar);
        } catch (error) {
          expect((error as Error).name).toBe('SymbolicSyntaxError');
          return;
        }
        show(e);
        freeSymbols(e);
        // Evaluation and C++ emission may refuse (unbound symbol, division by zero, too large): with an Error,
        // never with a RangeError (stack, string or BigInt size) or a TypeError.
        for (const step of [() => simplify(e), () => evaluate(e, env), () => toCpp(e)]) {
          try {
            step();
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
            expect(error).not.toBeInstanceOf(RangeError);
            expect(error).not.toBeInstanceOf(TypeError);
          }
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
