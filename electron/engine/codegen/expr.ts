/**
 * The generator's only contact with `engine/symbolic`: C++ emission with the generator's name resolution,
 * the names statements read and write, and integer values of sizes. Parsing itself is the symbolic module's
 * (parseSym / parsePython / parsePythonStatements / parsePythonLambda), so the generator accepts exactly
 * the language the analysis accepts.
 */
import {
  evaluate,
  floorDiv,
  freeSymbols,
  SymbolicSyntaxError,
  toCpp,
  UnboundSymbolError,
  type Expr,
  type Stmt,
} from '../symbolic/index.js';

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

/** Names read and names assigned by statements (a subscripted target writes its container, reads its indices). */
export function statementNames(stmts: readonly Stmt[], reads: Set<string> = new Set(), writes: Set<string> = new Set()): { reads: Set<string>; writes: Set<string> } {
  const read = (e: Expr) => {
    for (const n of freeSymbols(e)) reads.add(n);
  };
  const write = (t: Expr) => {
    if (t.k === 'sym') writes.add(t.name);
    else if (t.k === 'subscript' && t.base.k === 'sym') {
      writes.add(t.base.name);
      t.index.forEach(read);
    } else if (t.k === 'tuple') t.items.forEach(write);
    else read(t);
  };
  for (const s of stmts) {
    switch (s.k) {
      case 'assign':
        read(s.value);
        s.targets.forEach(write);
        break;
      case 'augassign':
        read(s.value);
        read(s.target);
        write(s.target);
        break;
      case 'if':
        read(s.cond);
        statementNames(s.then, reads, writes);
        statementNames(s.else, reads, writes);
        break;
      case 'expr':
        read(s.e);
        break;
      case 'pass':
        break;
    }
  }
  return { reads, writes };
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
