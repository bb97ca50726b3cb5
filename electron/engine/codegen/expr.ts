/**
 * The generator's only contact with `engine/symbolic`: C++ emission with the generator's name resolution,
 * the names statements read and write, and integer values of sizes. Parsing itself is the symbolic module's
 * (parseSym / parsePython / parsePythonStatements / parsePythonLambda), so the generator accepts exactly
 * the language the analysis accepts.
 */
export { statementNames } from '../symbolic/index.js';
import { evaluate, floorDiv, SymbolicSyntaxError, toCpp, UnboundSymbolError, type Expr } from '../symbolic/index.js';

/** An expression the generator cannot translate; the emitter turns it into an UnsupportedElement. */
export class ExprError extends Error {}

/** Failures that mean "outside the supported subset" rather than a bug in the generator. */
export function isTranslationError(err: unknown): err is Error {
  return err instanceof ExprError || err instanceof SymbolicSyntaxError || err instanceof UnboundSymbolError;
}

export interface NameResolver {
  /** C++ for reading a bare name; throw ExprError for names that are not visible. */
  read(name: string): string;
  /** C++ for `name[i, j, …]` given the C++ of the indices (a container or an array connector). */
  index(name: string, indices: string[]): string;
}

/**
 * C++ for `e`. `symbolic`: a size/range field, where `/` is SymPy's exact division; `python`: code, with
 * Python 3 true division. toCpp reports what C++ cannot express with a plain Error; that is rethrown as an
 * ExprError so that it becomes a finding, while programming errors (TypeError, …) still surface as such.
 */
export function cppOf(e: Expr, names: NameResolver, semantics: 'symbolic' | 'python'): string {
  try {
    return toCpp(e, {
      symbol: (name) => names.read(name),
      subscript: (base, index) => names.index(base, index),
      pythonDivision: semantics === 'python',
    });
  } catch (err) {
    if (isTranslationError(err)) throw err;
    if (err instanceof Error && err.constructor === Error) throw new ExprError(err.message);
    throw err;
  }
}

/**
 * Integer value of a size or range field. A non-integer quotient is floored, exactly as `tlab_div` does in
 * the emitted C++, so that buffers sized from this value match what the generated code indexes.
 */
export function sizeValue(e: Expr, symbolValue: (name: string) => bigint | null): bigint {
  let v;
  try {
    v = evaluate(e, (name) => symbolValue(name) ?? undefined);
  } catch (err) {
    if (err instanceof UnboundSymbolError) throw new ExprError(`symbol ${err.symbol} has no value`);
    throw new ExprError(err instanceof Error ? err.message : String(err));
  }
  if (v.k === 'rat') return floorDiv(v.n, v.d);
  if (v.k === 'float' && Number.isInteger(v.v)) return BigInt(v.v);
  if (v.k === 'bool') return v.v ? 1n : 0n;
  throw new ExprError(`expected an integer, got ${v.v}`);
}

/**
 * toCpp parenthesises only what its own precedence needs, so expression text spliced next to an operator
 * is grouped unless it is a plain name, number or call.
 */
export function grouped(cpp: string): string {
  return /^-?[A-Za-z0-9_.]+$/.test(cpp) || /^[A-Za-z_][A-Za-z0-9_:]*\([^()]*\)$/.test(cpp) ? cpp : `(${cpp})`;
}

/** Whether two symbolic fields are the same text up to white space. */
export function sameSym(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}
