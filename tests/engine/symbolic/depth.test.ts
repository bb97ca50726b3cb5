/**
 * The expression depth limit (MAX_EXPRESSION_DEPTH, tree height): text one level deeper is refused by the
 * parsers with the limit in the message; trees exactly at the limit parse, and every walk of symbolic/
 * handles them — and what they derive (a sum of fractions becomes one fraction, simplify regroups it) —
 * with most of the stack already used by the caller. Before the limit, a sum of fractions 20,000 terms
 * long overflowed the stack in simplify/isExact under toCpp.
 */
import { describe, expect, it } from 'vitest';
import {
  approxOf,
  evaluate,
  exactOf,
  freeSymbols,
  isExact,
  MAX_EXPRESSION_DEPTH as MAX,
  parsePython,
  parsePythonStatements,
  parseSym,
  show,
  simplify,
  substitute,
  SymbolicSyntaxError,
  toCpp,
  type Expr,
} from '../../../electron/engine/symbolic/index.js';

const chain = (terms: number, term: string, op: string): string => Array.from({ length: terms }, () => term).join(op);

/** Texts whose tree is exactly `depth` levels high (a term of height h adds h - 1 to the spine's length). */
const SHAPES: Array<[string, (depth: number) => string]> = [
  ['sum of symbols', (d) => chain(d, 'N', ' + ')],
  ['sum of fractions', (d) => chain(d - 1, 'N/2', ' + ')],
  ['difference of fractions', (d) => chain(d - 1, 'i/3', ' - ')],
  ['product of sums', (d) => chain(d - 1, '(N + 1)', ' * ')],
  ['quotients', (d) => chain(d, 'N', ' / ')],
  ['floor quotients', (d) => chain(d, 'N', ' // ')],
  ['remainders', (d) => chain(d, 'N', ' % ')],
  ['shifts', (d) => chain(d, 'N', ' << ')],
  ['conjunction', (d) => chain(d, 'N', ' and ')],
  ['float sum', (d) => chain(d, '1.5', ' + ')],
  ['negations', (d) => `${'-'.repeat(d - 1)}N`],
  ['Mod calls', (d) => chain(d - 1, 'Mod(N, 3)', ' + ')],
  ['powers', (d) => chain(d - 1, 'N**2', ' * ')],
];

function tooDeep(fn: () => unknown): SymbolicSyntaxError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SymbolicSyntaxError);
    return err as SymbolicSyntaxError;
  }
  throw new Error('expected a SymbolicSyntaxError');
}

let reached = 0;
function burn(k: number, fn: () => void): void {
  reached++;
  if (k === 0) fn();
  else burn(k - 1, fn);
}

/** Runs `fn` with about `fraction` of the call stack already used (as a caller deep in the generator would). */
function withStackUsed(fraction: number, fn: () => void): void {
  reached = 0;
  try {
    burn(Number.MAX_SAFE_INTEGER, () => {});
  } catch {
    // RangeError: `reached` frames fill the stack.
  }
  burn(Math.floor(reached * fraction), fn);
}

/** Every walk of the module; a refusal (an Error such as "does not fit in 64 bits") is fine, a stack overflow or TypeError is not. */
function walkAll(e: Expr): void {
  const env = (name: string): bigint | undefined => (name === 'N' ? 7n : name === 'i' ? 5n : undefined);
  const steps: Array<() => unknown> = [
    () => show(e),
    () => freeSymbols(e),
    () => isExact(e),
    () => simplify(e),
    () => show(simplify(e)),
    () => evaluate(e, env),
    () => toCpp(e),
    () => toCpp(e, { pythonDivision: true }),
    () => toCpp(simplify(e)),
    () => substitute(e, new Map([['N', parseSym('M + 1', 'legacy')]])),
    () => approxOf(e),
    () => exactOf(e),
  ];
  for (const step of steps) {
    try {
      step();
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RangeError);
      expect(error).not.toBeInstanceOf(TypeError);
    }
  }
}

describe(`expression depth limit (${MAX} levels)`, () => {
  it.each(SHAPES)('%s: one level over the limit is refused with the limit in the message', (_name, text) => {
    const src = text(MAX + 1);
    for (const parse of [() => parseSym(src, 'legacy'), () => parsePython(src), () => parsePythonStatements(`x = ${src}`)]) {
      expect(tooDeep(parse).message).toContain(`nested deeper than the limit of ${MAX} levels`);
    }
  });

  it.each(SHAPES)('%s: at the limit it parses and every walk works with 60 percent of the stack used', (_name, text) => {
    const src = text(MAX);
    const trees = [parseSym(src, 'legacy'), parsePython(src)];
    withStackUsed(0.6, () => trees.forEach(walkAll));
  });

  it('bracket nesting is capped too, and far deeper text fails fast', () => {
    expect(tooDeep(() => parseSym(`${'('.repeat(5000)}N${')'.repeat(5000)}`, 'legacy')).message).toContain(`limit of ${MAX} levels`);
    expect(tooDeep(() => parseSym(chain(100_000, 'N', ' + '), 'legacy')).message).toContain(`limit of ${MAX} levels`);
    expect(tooDeep(() => parsePythonStatements(`if a:\n${'  '.repeat(1)}x = ${chain(MAX + 1, 'N', ' * ')}\n`)).message).toContain(
      `limit of ${MAX} levels`,
    );
  });
});
