/**
 * The generator's expression layer over engine/symbolic: C++ with Python semantics for code and integer
 * semantics for sizes, name resolution, the names statements read and write, and size values.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  cppOf,
  ExprError,
  isTranslationError,
  sizeValue,
  statementNames,
  type NameResolver,
} from '../../../electron/engine/codegen/expr.js';
import {
  CPP_SYMBOLIC_HELPERS,
  parsePython,
  parsePythonLambda,
  parsePythonStatements,
  parseSym,
} from '../../../electron/engine/symbolic/index.js';
import { run, scratchDir, removeScratchDirs } from './compile.js';

afterAll(removeScratchDirs);

const names: NameResolver = {
  read: (n) => {
    if (n === 'hidden') throw new ExprError(`name '${n}' is not defined here`);
    return n;
  },
  index: (n, idx) => `${n}[${idx.join('][')}]`,
};
const code = (src: string) => cppOf(parsePython(src), names, 'python');
const size = (src: string, grammar: 'legacy' | 'typed' = 'legacy') => cppOf(parseSym(src, grammar), names, 'symbolic');

describe('expressions', () => {
  test('sizes: both grammars evaluate to the same integers; quotients floor like tlab_div', () => {
    const values: Record<string, bigint> = { N: 1000n, M: 513n, n: 7n };
    const env = (n: string) => values[n] ?? null;
    expect(sizeValue(parseSym('262144*ceiling(M/512)*ceiling(N/512)', 'legacy'), env)).toBe(262144n * 2n * 2n);
    expect(sizeValue(parseSym('-1 + $N', 'typed'), env)).toBe(999n);
    expect(sizeValue(parseSym('symbol($n, dtype=dace.int64) + 1i64', 'typed'), env)).toBe(8n);
    expect(sizeValue(parseSym('Mod(-7, 3) + int_floor(-7, 2) + __int_floor(7, 2) + Max(1, Min(999, n)) - 1', 'legacy'), env)).toBe(
      2n - 4n + 3n + 7n - 1n,
    );
    expect(sizeValue(parseSym('SymExpr(Min($N, 31 + $n), 31 + $n)', 'typed'), env)).toBe(38n);
    expect(sizeValue(parseSym('N**2 // 3', 'legacy'), env)).toBe(333333n);
    expect(sizeValue(parseSym('M/2', 'legacy'), env)).toBe(256n);
    expect(sizeValue(parseSym('-M/2', 'legacy'), env)).toBe(-257n);
    expect(() => sizeValue(parseSym('K + 1', 'legacy'), env)).toThrow(/symbol K has no value/);
    expect(() => sizeValue(parseSym('K + 1', 'legacy'), env)).toThrow(ExprError);
  });

  test('code keeps Python semantics in C++; sizes keep integer semantics', () => {
    expect(code('a / b')).toBe('tlab_truediv(a, b)');
    expect(code('a // b')).toBe('tlab_int_floor(a, b)');
    expect(code('a % b')).toBe('tlab_py_mod(a, b)');
    expect(code('a ** 2')).toBe('tlab_ipow(a, 2)');
    expect(code('0 < x <= 5')).toBe('(0 < x) && (x <= 5)');
    expect(code('x if not c else -y')).toBe('!c ? x : -y');
    expect(code('math.exp(x) + np.sqrt(y) + abs(z) + min(a, b, c)')).toBe('std::exp(x) + std::sqrt(y) + tlab_abs(z) + tlab_min(a, b, c)');
    expect(code('dace.float32(i) + int(x)')).toBe('static_cast<float>(i) + static_cast<long long>(x)');
    // Names in code may hold floats: floor stays a floor and a quotient is never turned into integer division.
    expect(code('math.floor(x)')).toBe('std::floor(x)');
    expect(code('int(a / 2)')).toBe('static_cast<long long>(tlab_truediv(a, 2))');
    expect(code('A[i, j + 1] * 2')).toBe('A[i][j + 1] * 2');
    expect(size('ceiling(N / 512)')).toBe('tlab_int_ceil(N, 512)');
    expect(size('N*(N + 1)/2')).toBe('tlab_div(N * (N + 1), 2)');
    expect(size('int_floor(N, 2) + Mod(N, 3)')).toBe('tlab_int_floor(N, 2) + tlab_py_mod(N, 3)');
  });

  test('what C++ cannot express, or names the resolver rejects, are translation errors', () => {
    for (const src of ['foo(x)', 'None + 1', '(a, b)', 'hidden + 1']) {
      let caught: unknown = null;
      try {
        code(src);
      } catch (err) {
        caught = err;
      }
      expect(isTranslationError(caught), src).toBe(true);
    }
    expect(() => parsePython('"text"')).toThrow(/string literals/);
    expect(() => parsePython('A[:, 0]')).toThrow(/slices/);
    expect(() => code('y = 1')).toThrow();
  });

  test('statements: reads and writes, subscripted targets, nested branches', () => {
    const stmts = parsePythonStatements(
      'if (a > 0):\n    b = 1\nelif a < -1:\n    C[i, k] = 2\nelse:\n    b = (3 +\n         d)\nb += math.pi * e',
    );
    const { reads, writes } = statementNames(stmts);
    expect([...writes].sort()).toEqual(['C', 'b']);
    expect([...reads].sort()).toEqual(['a', 'b', 'd', 'e', 'i', 'k']);
    expect(() => parsePythonStatements('for i in range(3):\n    pass')).toThrow(/'for' statements are not supported/);
  });

  test('WCR lambdas', () => {
    const l = parsePythonLambda('(lambda a, b: max(a, b) + 1)');
    expect(l.params).toEqual(['a', 'b']);
    expect(cppOf(l.body, names, 'python')).toBe('tlab_max(a, b) + 1');
  });

  test('the emitted code agrees with Python on division, floor division, modulo, powers and casts', async () => {
    const dir = scratchDir('helpers');
    const ints = [-7, -3, -1, 0, 1, 2, 5, 9];
    const divisors = [-4, -3, -1, 1, 2, 5];
    const exprs = [
      'a / b',
      'a // b',
      'a % b',
      'int(a / b)',
      'abs(a) ** 2 + min(a, b)',
      'math.floor(a / b) + math.ceil(a / b)',
      '-a // b if a < b else a % -b',
    ];
    const lines: string[] = [];
    const expected: number[] = [];
    const pyFloorDiv = (a: number, b: number) => Math.floor(a / b);
    const pyMod = (a: number, b: number) => a - Math.floor(a / b) * b;
    const python: Record<string, (a: number, b: number) => number> = {
      'a / b': (a, b) => a / b,
      'a // b': pyFloorDiv,
      'a % b': pyMod,
      'int(a / b)': (a, b) => Math.trunc(a / b),
      'abs(a) ** 2 + min(a, b)': (a, b) => Math.abs(a) ** 2 + Math.min(a, b),
      'math.floor(a / b) + math.ceil(a / b)': (a, b) => Math.floor(a / b) + Math.ceil(a / b),
      '-a // b if a < b else a % -b': (a, b) => (a < b ? pyFloorDiv(-a, b) : pyMod(a, -b)),
    };
    for (const src of exprs) {
      for (const [ta, tb, offset] of [
        ['long long', 'long long', 0],
        ['double', 'double', 0.5],
      ] as const) {
        for (const a of ints)
          for (const b of divisors) {
            const x = a + offset;
            lines.push(`{ ${ta} a = ${x}; ${tb} b = ${b}; std::printf("%.17g\\n", static_cast<double>(${code(src)})); }`);
            expected.push(python[src]!(x, b));
          }
      }
    }
    const src = `${CPP_SYMBOLIC_HELPERS}\n#include <cstdio>\nint main() {\n${lines.join('\n')}\nreturn 0;\n}\n`;
    writeFileSync(join(dir, 'h.cpp'), src);
    const c = await run('g++', ['-std=c++17', '-O1', '-o', join(dir, 'h'), join(dir, 'h.cpp')]);
    expect(c.code, c.output).toBe(0);
    const out = (await run(join(dir, 'h'), [])).output.trim().split('\n').map(Number);
    expect(out).toHaveLength(expected.length);
    out.forEach((v, i) => expect(v, `case ${i}`).toBeCloseTo(expected[i]!, 12));
  });
});

describe('tasklet functions (cpp-functions.ts)', () => {
  test('NumPy and math functions translate to one C++ table; unknown ones and wrong arities are translation errors', () => {
    expect(code('sign_numpy_2(x) + np.sign(y) + np.heaviside(x, 0.5)')).toBe('tlab_sign(x) + tlab_sign(y) + tlab_heaviside(x, 0.5)');
    expect(code('np.clip(a, lo, hi) * np.maximum(a, b) - numpy.minimum(a, b)')).toBe(
      'tlab_clip(a, lo, hi) * tlab_maximum(a, b) - tlab_minimum(a, b)',
    );
    expect(code('math.hypot(x, y) + np.fmod(a, b) + cpp_mod(a, b) + py_mod(a, b)')).toBe(
      'std::hypot(x, y) + tlab_fmod(a, b) + tlab_fmod(a, b) + tlab_py_mod(a, b)',
    );
    expect(code('np.where(x > 0, x, -x) + 1')).toBe('(x > 0 ? x : -x) + 1');
    expect(code('np.isnan(x) or math.isinf(y)')).toBe('tlab_isnan(x) || tlab_isinf(y)');
    for (const bad of ['np.sign(x, y)', 'np.heaviside(x)', 'exp(x, y)', 'np.clip(x, 1)', 'np.frobnicate(x)']) {
      let caught: unknown = null;
      try {
        code(bad);
      } catch (err) {
        caught = err;
      }
      expect(isTranslationError(caught), bad).toBe(true);
    }
  });

  test('the helpers compute what NumPy computes (NaN, ±0, negative values, integer operands)', async () => {
    const dir = scratchDir('functions');
    const values = [-2.5, -1, -0.0, 0, 0.25, 3, NaN, Infinity, -Infinity];
    const sign = (x: number) => (Number.isNaN(x) ? NaN : x > 0 ? 1 : x < 0 ? -1 : 0);
    const heaviside = (x: number, h: number) => (Number.isNaN(x) ? NaN : x < 0 ? 0 : x > 0 ? 1 : h);
    const maximum = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b));
    const minimum = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b));
    // C's fmod: the remainder has the dividend's sign; NaN for an infinite dividend or a zero divisor.
    const fmod = (a: number, b: number) => a % b;
    const cases: Array<[string, (x: number, y: number) => number]> = [
      ['np.sign(x)', (x) => sign(x)],
      ['sign_numpy_2(x)', (x) => sign(x)],
      ['np.heaviside(x, 0.5)', (x) => heaviside(x, 0.5)],
      ['np.clip(x, -1, 2)', (x) => minimum(maximum(x, -1), 2)],
      ['max(x, y, 0.5, -3)', (x, y) => [y, 0.5, -3].reduce((m, v) => (m < v ? v : m), x)],
      ['min(x, y, 0.5)', (x, y) => [y, 0.5].reduce((m, v) => (v < m ? v : m), x)],
      ['np.maximum(x, y)', maximum],
      ['np.minimum(x, y)', minimum],
      ['np.fmod(x, y)', fmod],
      ['np.hypot(x, y)', (x, y) => Math.hypot(x, y)],
      ['math.copysign(x, y)', (x, y) => (Object.is(y, -0) || y < 0 ? -Math.abs(x) : Number.isNaN(y) ? NaN : Math.abs(x))],
      [
        'float(np.isnan(x)) + 2 * float(np.isinf(x)) + 4 * float(np.isfinite(x))',
        (x) => +Number.isNaN(x) + 2 * +(Math.abs(x) === Infinity) + 4 * +Number.isFinite(x),
      ],
      ['np.where(x > y, x, y)', (x, y) => (x > y ? x : y)],
      ['np.square(x) + np.reciprocal(y)', (x, y) => x * x + 1 / y],
    ];
    const lines: string[] = [];
    const expected: number[] = [];
    for (const [src, f] of cases)
      for (const x of values)
        for (const y of [-2, -0.0, 0.5, NaN]) {
          if (src.startsWith('math.copysign') && Number.isNaN(y)) continue; // the sign bit of a NaN is not portable
          const lit = (v: number) =>
            Number.isNaN(v) ? 'NAN' : v === Infinity ? 'INFINITY' : v === -Infinity ? '-INFINITY' : Object.is(v, -0) ? '-0.0' : `${v}`;
          lines.push(`{ double x = ${lit(x)}; double y = ${lit(y)}; std::printf("%.17g\\n", static_cast<double>(${code(src)})); }`);
          expected.push(f(x, y));
        }
    // Integer operands keep integer semantics: fmod truncates toward zero, sign and gcd/lcm stay integers.
    const ints: Array<[string, number]> = [
      ['np.fmod(a, b)', -3],
      ['np.sign(a) * 10 + np.sign(b)', -9],
      ['math.gcd(a, b) * 100 + np.lcm(a, b)', 100 + 28],
      ['np.heaviside(a, b)', 0],
    ];
    for (const [src, v] of ints) {
      lines.push(`{ long long a = -7; long long b = 4; std::printf("%.17g\\n", static_cast<double>(${code(src)})); }`);
      expected.push(v);
    }
    const src = `${CPP_SYMBOLIC_HELPERS}\n#include <cmath>\n#include <cstdio>\nint main() {\n${lines.join('\n')}\nreturn 0;\n}\n`;
    writeFileSync(join(dir, 'f.cpp'), src);
    const c = await run('g++', ['-std=c++17', '-O1', '-o', join(dir, 'f'), join(dir, 'f.cpp')]);
    expect(c.code, c.output).toBe(0);
    const parse = (t: string) => (/nan/.test(t) ? NaN : t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t));
    const out = (await run(join(dir, 'f'), [])).output.trim().split('\n').map(parse);
    expect(out).toHaveLength(expected.length);
    out.forEach((v, i) => {
      const e = expected[i]!;
      if (Number.isNaN(e) || !Number.isFinite(e))
        expect(Object.is(v, e) || (Number.isNaN(v) && Number.isNaN(e)), `case ${i}: ${v} vs ${e}`).toBe(true);
      else expect(v, `case ${i}`).toBeCloseTo(e, 12);
    });
  });
});

describe('identifiers', () => {
  test('SDFG names that are C++20 keywords get a suffix (the code is compiled as C++20)', async () => {
    const { cppIdent } = await import('../../../electron/engine/codegen/names.js');
    for (const k of ['requires', 'concept', 'co_await', 'co_yield', 'co_return', 'char8_t', 'consteval', 'constinit', 'new', 'double'])
      expect(cppIdent(k)).toBe(`${k}_`);
    expect(cppIdent('requirement')).toBe('requirement');
  });
});
