import { describe, expect, it } from 'vitest';
import {
  approxOf,
  E,
  evalInt,
  evaluate,
  exactOf,
  freeSymbols,
  parsePython,
  parseSym,
  show,
  simplify,
  substitute,
  symbolicError,
  SymbolicSyntaxError,
  MAX_EXPRESSION_DEPTH,
  UnboundSymbolError,
  type Value,
} from '../../../electron/engine/symbolic/index.js';
import { TlabError } from '../../../electron/engine/errors.js';
import { envOf, rat, sym } from './helpers.js';

const ev = (src: string, values: Record<string, bigint | number | boolean> = {}): Value => evaluate(parseSym(src, 'legacy'), envOf(values));
const py = (src: string, values: Record<string, bigint | number | boolean> = {}): Value => evaluate(parsePython(src), envOf(values));
const int = (src: string, values: Record<string, bigint> = {}): bigint | null =>
  evalInt(parseSym(src, 'legacy'), new Map(Object.entries(values)));

describe('exact arithmetic', () => {
  it('keeps integers exact past 2^53', () => {
    expect(int('N**5', { N: 10n ** 4n })).toBe(10n ** 20n);
    expect(int('N*N*N*N*N + 1', { N: 10n ** 4n })).toBe(10n ** 20n + 1n);
    expect(int('2**64 - 1')).toBe(18446744073709551615n);
    expect(int('(2**53 + 1)*3')).toBe(27021597764222979n);
    // A number env value that is an integer is exact too.
    expect(ev('N**5', { N: 10000 })).toEqual(rat(10n ** 20n));
  });

  it('divides exactly', () => {
    expect(ev('N/2', { N: 7n })).toEqual(rat(7, 2));
    expect(ev('N*(N + 1)/2', { N: 100n })).toEqual(rat(5050));
    expect(ev('(N/2)*2', { N: 7n })).toEqual(rat(7));
    expect(() => int('N/2', { N: 7n })).toThrow(/integer/);
    expect(() => ev('1/(N - N)', { N: 3n })).toThrow(/division by zero/);
  });

  it('has Python floor division and modulo for negatives', () => {
    expect(py('-7 // 2')).toEqual(rat(-4));
    expect(py('7 // -2')).toEqual(rat(-4));
    expect(py('-7 % 3')).toEqual(rat(2));
    expect(py('7 % -3')).toEqual(rat(-2));
    expect(py('-7 % -3')).toEqual(rat(-1));
    expect(ev('Mod(-7, 3)')).toEqual(rat(2));
    expect(ev('Mod(7, -3)')).toEqual(rat(-2));
    expect(ev('int_floor(-7, 2)')).toEqual(rat(-4));
    expect(ev('__int_floor(-7, 2)')).toEqual(rat(-4));
    expect(ev('int_ceil(-7, 2)')).toEqual(rat(-3));
    expect(ev('int_ceil(7, 2)')).toEqual(rat(4));
    expect(ev('floor(-7/2)')).toEqual(rat(-4));
    expect(ev('ceiling(-7/2)')).toEqual(rat(-3));
    expect(ev('Mod(bK/32, 2)', { bK: 80n })).toEqual(rat(1, 2));
    expect(py('-7.5 // 2')).toEqual({ k: 'float', v: -4 });
    expect(py('-7.5 % 2')).toEqual({ k: 'float', v: 0.5 });
  });

  it('raises to powers exactly, rationally for negative exponents', () => {
    expect(ev('2**10')).toEqual(rat(1024));
    expect(ev('2**-2')).toEqual(rat(1, 4));
    expect(ev('(-2)**3')).toEqual(rat(-8));
    expect(ev('(2/3)**2')).toEqual(rat(4, 9));
    expect(ev('4**(1/2)')).toEqual({ k: 'float', v: 2 });
    expect(() => ev('0**-1')).toThrow();
    expect(() => ev('3**(10**9)')).toThrow(/too large/);
  });
});

describe('functions', () => {
  it.each<[string, Value]>([
    ['Max(1, 5, 3)', rat(5)],
    ['max(2, -1)', rat(2)],
    ['Min(4, 2, 9)', rat(2)],
    ['min(1/2, 1/3)', rat(1, 3)],
    ['Abs(-7)', rat(7)],
    ['abs(-7/2)', rat(7, 2)],
    ['ceiling(7/2)', rat(4)],
    ['floor(7/2)', rat(3)],
    ['int(7/2)', rat(3)],
    ['int(-7/2)', rat(-3)],
    ['int32(2**31)', rat(-(2 ** 31))],
    ['int64(5)', rat(5)],
    ['dace.int64(9/2)', rat(4)],
    ['dace.uint8(257)', rat(1)],
    ['SymExpr(N, 2*N)', rat(10)],
    ['Eq(N, 10)', { k: 'bool', v: true }],
    ['Ne(N, 10)', { k: 'bool', v: false }],
    ['bitwise_and(12, 10)', rat(8)],
    ['bitwise_or(12, 10)', rat(14)],
    ['bitwise_xor(12, 10)', rat(6)],
    ['bitwise_set(8, 1)', rat(10)],
    ['bitwise_clear(10, 1)', rat(8)],
    ['bitwise_test(10, 1)', { k: 'bool', v: true }],
    ['bitwise_test(10, 2)', { k: 'bool', v: false }],
    ['bitwise_shift(3, 2)', rat(12)],
    ['bitwise_shift(12, -2)', rat(3)],
    ['Piecewise((1, N < 0), (2, True))', rat(2)],
    ['Piecewise((1, N > 0), (2, True))', rat(1)],
    ['float(3)', { k: 'float', v: 3 }],
    ['dace.float64(1/4)', { k: 'float', v: 0.25 }],
    ['dace.float32(0.1)', { k: 'float', v: Math.fround(0.1) }],
    ['math.exp(0)', { k: 'float', v: 1 }],
    ['math.sqrt(16)', { k: 'float', v: 4 }],
    ['math.pi', { k: 'float', v: Math.PI }],
    ['round(2.5)', rat(2)],
    ['round(3.5)', rat(4)],
  ])('%s', (src, expected) => {
    expect(evaluate(parsePython(src), envOf({ N: 10n }))).toEqual(expected);
  });

  it('evaluates the corpus examples', () => {
    expect(int('262144*ceiling(M/512)*ceiling(N/512)', { M: 1000n, N: 513n })).toBe(262144n * 2n * 2n);
    expect(int('2*int_floor(N - 1, 2)', { N: 8n })).toBe(6n);
    expect(int('Max(1, Min(999, t)) - 1', { t: 5000n })).toBe(998n);
    expect(int('C_in*C_out*K**2', { C_in: 3n, C_out: 4n, K: 5n })).toBe(300n);
    const typed = parseSym('-1 + symbol($mill_at2, dtype=dace.int64) + __int_floor(1 + symbol($eigts1_d0, dtype=dace.int64), 2)', 'typed');
    expect(
      evalInt(
        typed,
        new Map([
          ['mill_at2', 10n],
          ['eigts1_d0', 4n],
        ]),
      ),
    ).toBe(11n);
  });

  it('evaluates Python conditions', () => {
    expect(py('0 <= i < N and not done', { i: 3n, N: 4n, done: false })).toEqual({ k: 'bool', v: true });
    expect(py('0 <= i < N', { i: 4n, N: 4n })).toEqual({ k: 'bool', v: false });
    expect(py('a if c else b', { a: 1n, b: 2n, c: false })).toEqual(rat(2));
    expect(py('x or 5', { x: 0n })).toEqual(rat(5));
    expect(py('1e-3 * 2')).toEqual({ k: 'float', v: 0.002 });
    expect(py('x / 2', { x: 1.5 })).toEqual({ k: 'float', v: 0.75 });
    expect(py('True + True')).toEqual(rat(2));
    expect(py('~5 & 0xff | 1 << 4 ^ 3')).toEqual(rat((~5 & 0xff) | ((1 << 4) ^ 3)));
  });

  it('short-circuits without touching unbound symbols', () => {
    expect(py('False and missing')).toEqual({ k: 'bool', v: false });
    expect(py('1 if True else missing')).toEqual(rat(1));
  });

  it('reports unbound symbols, unknown functions and unevaluable nodes', () => {
    expect(() => ev('N + 1')).toThrow(UnboundSymbolError);
    try {
      ev('N + M', { N: 1n });
    } catch (err) {
      expect((err as UnboundSymbolError).symbol).toBe('M');
    }
    expect(int('N + 1')).toBeNull();
    expect(() => ev('frobnicate(1)')).toThrow(/unknown function 'frobnicate'/);
    expect(() => py('A[0] > 1')).toThrow(/data container/);
    expect(() => ev('None')).toThrow(/None/);
    expect(() => py('1j')).toThrow(/complex/);
    expect(() => ev('Max()')).toThrow(/argument/);
  });

  it('uses symbol dtypes: float symbols stay floats', () => {
    const e = parseSym('symbol($x, dtype=dace.float64)/2', 'typed');
    expect(evaluate(e, envOf({ x: 3n }))).toEqual({ k: 'float', v: 1.5 });
  });
});

describe('freeSymbols, substitute, approxOf', () => {
  it('lists symbols but not functions or module names', () => {
    expect([...freeSymbols(parsePython('math.exp(a) + Max(b, c) * math.pi + A[i]'))].sort()).toEqual(['A', 'a', 'b', 'c', 'i']);
    expect([...freeSymbols(parseSym('symbol($n, dtype=dace.int64) + $?', 'typed'))].sort()).toEqual(['?', 'n']);
  });

  it('substitutes simultaneously', () => {
    const e = parseSym('N + M*2', 'legacy');
    const swapped = substitute(
      e,
      new Map([
        ['N', sym('M')],
        ['M', parseSym('N + 1', 'legacy')],
      ]),
    );
    expect(show(swapped)).toBe('M + (N + 1)*2');
  });

  it('picks the approximation of SymExpr for sizes and the exact part for indexing', () => {
    const e = parseSym('SymExpr(Min($ngm, 31 + $b), 31 + $b) + 1', 'typed');
    expect(show(approxOf(e))).toBe('31 + b + 1');
    expect(show(exactOf(e))).toBe('Min(ngm, 31 + b) + 1');
  });
});

describe('simplify and builders', () => {
  it.each([
    ['N + 0', 'N'],
    ['0 + N', 'N'],
    ['N*1', 'N'],
    ['1*N', 'N'],
    ['N*0', '0'],
    ['2*3 + 4', '10'],
    ['(N + 1) + 2', 'N + 3'],
    ['N - 1 + 1', 'N'],
    ['2*(3*N)', '6*N'],
    ['N + N', '2*N'],
    ['N - N', '0'],
    ['Max(1, 2) + Min(5, 3)', '5'],
    ['6/3', '2'],
    ['7/2', '7/2'],
    ['N**1', 'N'],
    ['N**0', '1'],
    ['-(-N)', 'N'],
    ['3 < 4', 'True'],
    ['x if 1 < 2 else y', 'x'],
  ])('%s → %s', (src, expected) => {
    expect(show(simplify(parseSym(src, 'legacy')))).toBe(expected);
  });

  it('leaves float arithmetic alone where reassociating would change rounding', () => {
    expect(show(simplify(parsePython('(x + 1e20) - 1e20')))).toBe('x + 1e20 - 1e20');
    expect(show(simplify(parsePython('x*0.0 + y*1')))).toBe('x*0.0 + y');
  });

  it('keeps errors of closed expressions', () => {
    expect(show(simplify(parseSym('1/0 + 1', 'legacy')))).toBe('1/0 + 1');
  });

  it('simplifies sums as long as the depth limit allows', () => {
    const src = Array.from({ length: MAX_EXPRESSION_DEPTH }, (_, i) => `a${i % 16}`).join(' + ');
    const s = simplify(parseSym(src, 'legacy'));
    expect(show(s)).toBe(Array.from({ length: 16 }, (_, i) => `${MAX_EXPRESSION_DEPTH / 16}*a${i}`).join(' + '));
  });

  it('builds with E', () => {
    const n = E.sym('N');
    expect(show(E.add(n, E.int(0)))).toBe('N');
    expect(show(E.mul(E.int(1), n))).toBe('N');
    expect(show(E.mul(n, E.int(0)))).toBe('0');
    expect(show(E.sub(E.add(n, E.int(3)), E.int(1)))).toBe('N + 2');
    expect(show(E.mul(E.int(4), E.mul(E.int(2), n)))).toBe('8*N');
    expect(E.int(2 ** 40)).toEqual({ k: 'int', v: 2n ** 40n });
    expect(() => E.int(1.5)).toThrow();
  });
});

describe('evaluation depth', () => {
  it('evaluates and prints sums as long as the depth limit allows', () => {
    const e = parseSym(Array.from({ length: MAX_EXPRESSION_DEPTH }, () => 'N').join(' + '), 'legacy');
    expect(evalInt(e, new Map([['N', 3n]]))).toBe(3n * BigInt(MAX_EXPRESSION_DEPTH));
    expect(show(e).length).toBe(MAX_EXPRESSION_DEPTH * 4 - 3);
  });
});

describe('symbolicError', () => {
  it('wraps syntax and evaluation errors into TlabError with file and path', () => {
    let caught: unknown;
    try {
      parseSym('N +', 'legacy');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SymbolicSyntaxError);
    const wrapped = symbolicError(caught, 'a.sdfg', '$.nodes[0].attributes._arrays.A.attributes.shape[0]');
    expect(wrapped).toBeInstanceOf(TlabError);
    expect(wrapped.kind).toBe('input');
    expect(wrapped.describe()).toMatch(/^a\.sdfg: at \$\.nodes\[0\].*shape\[0\]: cannot parse expression: .*column 4/);
    expect(symbolicError(new UnboundSymbolError('N'), 'a.sdfg', null).kind).toBe('usage');
  });
});
