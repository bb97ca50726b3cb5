/**
 * engine/symbolic: DaCe's symbolic size/range expressions (legacy SymPy and typed `$` grammar) and the Python
 * subset of code strings — parsing, exact evaluation, simplification, printing and C++ emission.
 */
export type { BinOp, Expr, Stmt } from './ast.js';
export { SymbolicSyntaxError, UnboundSymbolError, exprHeight } from './ast.js';
export { parseSym, parsePython, parsePythonStatements, parsePythonLambda, detectGrammar } from './parser.js';
export { MAX_EXPRESSION_DEPTH } from './parser-cursor.js';
export type { Value } from './evaluate.js';
export { evaluate, evalInt } from './evaluate.js';
export { floorDiv } from './values.js';
export { freeSymbols, substitute, simplify, approxOf, exactOf, isExact, E } from './transform.js';
export { show } from './show.js';
export { statementNames } from './names.js';
export { toCpp } from './cpp.js';
export { CPP_SYMBOLIC_HELPERS } from './cpp-helpers.js';
export { symbolicError } from './errors.js';
