/**
 * The values of constants (`constants_prop`) that are also data containers. The subset check reads them to
 * refuse what cannot be written; emit-constants.ts writes the rest. Kept apart from the emitter so the
 * subset check never depends on EmitCore.
 */
import type { DataDescriptor, Sdfg } from '../model/sdfg.js';
import type { Expr } from '../symbolic/index.js';
import { sizeValue } from './expr.js';
import { ctypeOf, isIntegerCtype } from './names.js';

/**
 * The C++ literals of a constant container, in C order, or why it cannot be written as a constexpr array
 * (the subset rule for constants: subset.ts reports the problem, the emitter writes the literals).
 */
export function constantLiterals(
  s: Sdfg,
  desc: DataDescriptor,
  symExpr: (src: string) => Expr,
): { ctype: string; literals: string[] } | { problem: string; hint: string } {
  const ctype = ctypeOf(desc.dtype);
  if (!ctype) return { problem: `dtype of the constant is not supported`, hint: 'use a real or integer constant' };
  const values = constantElements(s.constants.get(desc.name)?.value);
  if (!values) return { problem: 'the constant has no numeric value in constants_prop', hint: 'store the constant with its value in DaCe' };
  let elements: bigint;
  try {
    elements = desc.shape.reduce((n, d) => n * sizeValue(symExpr(d), () => null), 1n);
  } catch {
    return { problem: 'the shape of a constant must not depend on symbols', hint: 'give the constant a fixed shape in DaCe' };
  }
  if (BigInt(values.length) !== elements) {
    return {
      problem: `constants_prop holds ${values.length} value(s) for a shape of ${elements} element(s)`,
      hint: 'check the SDFG with DaCe validate()',
    };
  }
  const literals = values.map((v) => constantLiteral(v, ctype));
  if (literals.some((l) => l === null))
    return { problem: `a value of the constant cannot be written as ${ctype}`, hint: 'use a real or integer constant' };
  return { ctype, literals: literals as string[] };
}

/**
 * The elements of a `constants_prop` value in C order (ndarray objects, nested lists, bare numbers). An
 * explicit stack: the file decides how deep the lists nest (a hostile one 10,000 levels).
 */
function constantElements(value: unknown): Array<number | boolean | string> | null {
  const out: Array<number | boolean | string> = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') {
      out.push(v);
    } else if (v && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, 'data')) {
      stack.push((v as { data: unknown }).data);
    } else {
      return null;
    }
  }
  return out;
}

/** A C++ literal of `ctype` for one constant element, or null when it has no exact spelling. */
function constantLiteral(v: number | boolean | string, ctype: string): string | null {
  const n = typeof v === 'string' ? Number(v.trim()) : typeof v === 'boolean' ? (v ? 1 : 0) : v;
  if (!Number.isFinite(n)) return null;
  if (ctype === 'bool') return n !== 0 ? 'true' : 'false';
  if (isIntegerCtype(ctype)) {
    if (!Number.isInteger(n)) return null;
    return `${ctype}(${BigInt(n)}${ctype.startsWith('u') ? 'ULL' : 'LL'})`;
  }
  if (ctype === 'double' || ctype === 'float') {
    // The shortest round-trip spelling; a '.0' keeps integral values floating-point literals.
    const text = String(n);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  return null;
}
