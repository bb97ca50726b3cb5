import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CPP_SYMBOLIC_HELPERS,
  evaluate,
  parsePython,
  parseSym,
  toCpp,
  MAX_EXPRESSION_DEPTH,
  type Expr,
  type Value,
} from '../../../electron/engine/symbolic/index.js';

const INT_SYMBOLS: Record<string, bigint> = {
  N: 1000n,
  M: 1000n,
  K: 5n,
  C_in: 3n,
  C_out: 4n,
  a: 3n,
  b: -7n,
  c: 11n,
  t: 5000n,
  _c: -5n,
  bK: 80n,
  i: 4n,
  n: 6n,
  m: -10n,
};
const FLOAT_SYMBOLS: Record<string, number> = { x: 2.5 };

// [grammar, text]: symbolic fields (legacy and typed) and Python code strings.
const CASES: Array<['legacy' | 'typed' | 'python', string]> = [
  ['legacy', '262144*ceiling(M/512)*ceiling(N/512)'],
  ['legacy', '2*int_floor(N - 1, 2)'],
  ['legacy', 'Mod(_c, 2)'],
  ['legacy', 'Max(1, Min(999, t)) - 1'],
  ['legacy', 'C_in*C_out*K**2'],
  ['legacy', '-1 + N'],
  ['legacy', 'N*(M + 1)'],
  ['legacy', 'N*(N + 1)/2'],
  ['legacy', '(c/2)*2'],
  ['legacy', 'Mod(bK/32, 2)*32'],
  ['legacy', 'Mod(bK/32 + 1, 2)*32'],
  ['legacy', 'int_ceil(-7, 2)'],
  ['legacy', 'int_floor(b, 3)'],
  ['legacy', 'int_ceil(b, 3)'],
  ['legacy', 'Mod(b, 3)'],
  ['legacy', 'Mod(b, -3)'],
  ['legacy', 'Abs(b)'],
  ['legacy', 'Max(a, b, c)'],
  ['legacy', 'Min(a, b, c)'],
  ['legacy', '2**40 + N'],
  ['legacy', 'N**3'],
  ['legacy', '2**-1*4'],
  ['legacy', 'ceiling(N/3) + floor(b/4)'],
  ['legacy', 'ceiling((N + 1)/4 + b/3)'],
  ['legacy', 'int(b/2)'],
  ['legacy', 'int32(2**31 + 5)'],
  ['legacy', 'Eq(a, 3)'],
  ['legacy', 'Ne(a, 3)'],
  ['legacy', 'Piecewise((1, N < 0), (2, True))'],
  ['legacy', '1024*int_floor(K - 33, 32) + 1055'],
  ['legacy', '-b'],
  ['legacy', '-(-b)'],
  ['legacy', 'a - (b - c)'],
  ['typed', 'symbol($n, dtype=dace.int64)*2 + __int_floor($m, 3)'],
  ['typed', '-1 + $N + 1i64'],
  ['typed', 'SymExpr(Min($N, 31 + $a), 31 + $a)'],
  ['python', 'b // 3'],
  ['python', 'b % 3'],
  ['python', '-b // -4'],
  ['python', 'b ** 2 % 5'],
  ['python', 'i < N and not (b > 0)'],
  ['python', '0 <= a < N'],
  ['python', 'a if b < 0 else c'],
  ['python', 'bitwise_and(N, 255)'],
  ['python', 'bitwise_shift(a, 3) + bitwise_shift(64, -2)'],
  ['python', 'bitwise_test(10, 1)'],
  ['python', 'bitwise_set(8, 1) + bitwise_clear(10, 1)'],
  ['python', 'a << 3 | 1'],
  ['python', '~a & 15'],
  ['python', 'a ^ c'],
  ['python', 'math.exp(a) + 1.5'],
  ['python', 'dace.float64(N) / 3'],
  ['python', 'x / 2'],
  ['python', 'int(7.9) + int(-7.9)'],
  ['python', 'float(N) / 4'],
  ['python', 'round(2.5) + round(3.5)'],
  ['python', 'math.pi * 2'],
  ['python', 'min(x, 1.0) + max(a, 2)'],
  ['python', 'abs(-x) + math.sqrt(16.0)'],
  ['python', 'x ** 2'],
  ['python', '(x + 1e-3) * 2'],
  ['python', '1 / 4 * x'],
];

function parseCase(grammar: 'legacy' | 'typed' | 'python', src: string): Expr {
  if (grammar === 'python') {
    const e = parsePython(src);
    // Code strings read float symbols by name; give `x` its dtype so evaluate and C++ agree on the type.
    return JSON.parse(
      JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? { __big: v.toString() } : v)),
      (_k, v: unknown) => {
        if (v && typeof v === 'object' && '__big' in v) return BigInt((v as { __big: string }).__big);
        if (v && typeof v === 'object' && (v as Expr).k === 'sym' && (v as { name: string }).name === 'x')
          return { ...v, dtype: 'float64' };
        return v;
      },
    ) as Expr;
  }
  return parseSym(src, grammar);
}

function expected(v: Value): string {
  if (v.k === 'bool') return v.v ? '1' : '0';
  if (v.k === 'rat') {
    if (v.d !== 1n) throw new Error(`case has a non-integer exact value ${v.n}/${v.d}`);
    return v.n.toString();
  }
  return `float:${v.v}`;
}

const workDir = mkdtempSync(join(tmpdir(), 'tlab-symbolic-cpp-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('toCpp', () => {
  it('emits helpers and exact fractions', () => {
    expect(toCpp(parseSym('262144*ceiling(M/512)*ceiling(N/512)', 'legacy'))).toBe(
      '262144 * tlab_int_ceil(M, 512) * tlab_int_ceil(N, 512)',
    );
    expect(toCpp(parseSym('Mod(_c, 2)', 'legacy'), { symbol: (s) => `sym_${s}` })).toBe('tlab_py_mod(sym__c, 2)');
    expect(toCpp(parseSym('N*(N + 1)/2', 'legacy'))).toBe('tlab_div(N * (N + 1), 2)');
    expect(toCpp(parseSym('2**40', 'legacy'))).toBe('tlab_ipow(2, 40)');
    expect(toCpp(parseSym('3000000000 + N', 'legacy'))).toBe('3000000000LL + N');
    expect(toCpp(parsePython('a - -b'))).toBe('a - -b');
    expect(toCpp(parsePython('- -b'))).toBe('- -b');
    expect(toCpp(parsePython('3 / 2 + a'), { pythonDivision: true })).toBe('tlab_truediv(3, 2) + a');
    // Code may read float-valued names, so Python code is never rewritten into exact integer fractions.
    expect(toCpp(parsePython('math.floor(x) + int(a / 2) + Mod(a, 2)'), { pythonDivision: true })).toBe(
      'std::floor(x) + static_cast<long long>(tlab_truediv(a, 2)) + tlab_py_mod(a, 2)',
    );
    expect(toCpp(parsePython('math.floor(x) + int(a / 2)'))).toBe('x + static_cast<long long>((a) / (2))');
    expect(toCpp(parsePython('3 / 2 + a'))).toBe('tlab_div(2 * a + 3, 2)');
    expect(toCpp(parsePython('A[i, j] > 0'), { subscript: (base, idx) => `${base}[${idx.join(' * 8 + ')}]` })).toBe('A[i * 8 + j] > 0');
    // Python indexes with one tuple, parenthesised or not (MLIR-DaCe's indirect loads: `A[(i, j)]`).
    expect(toCpp(parsePython('A[(i, j)] > 0'), { subscript: (base, idx) => `${base}[${idx.join(' * 8 + ')}]` })).toBe('A[i * 8 + j] > 0');
    // The container name reaches `subscript` as is: containers are not symbols.
    expect(toCpp(parsePython('A[i] + A'), { symbol: (s) => `sym_${s}`, subscript: (base, idx) => `${base}_ptr[${idx.join('')}]` })).toBe(
      'A_ptr[sym_i] + sym_A',
    );
  });

  it('refuses what C++ cannot express', () => {
    expect(() => toCpp(parsePython('A[i] > 0'))).toThrow(/subscript/);
    expect(() => toCpp(parseSym('None', 'typed'))).toThrow(/None/);
    expect(() => toCpp(parseSym('$?', 'typed'))).toThrow(/undefined symbol/);
    expect(() => toCpp(parseSym('frob(1)', 'legacy'))).toThrow(/frob/);
    expect(() => toCpp(parseSym('2**70', 'legacy'))).not.toThrow();
    expect(() => toCpp(parseSym(String(2n ** 70n), 'legacy'))).toThrow(/64 bits/);
  });

  it('emits long sums without nesting parentheses', () => {
    const src = Array.from({ length: MAX_EXPRESSION_DEPTH }, (_, i) => `s${i}`).join(' + ');
    expect(toCpp(parseSym(src, 'legacy'))).toBe(src);
  });

  it(`agrees with evaluate when compiled with g++ (${CASES.length} expressions)`, () => {
    const env = (name: string): bigint | number | undefined => INT_SYMBOLS[name] ?? FLOAT_SYMBOLS[name];
    const lines: string[] = [];
    const wanted: string[] = [];
    CASES.forEach(([grammar, src], index) => {
      const e = parseCase(grammar, src);
      wanted.push(expected(evaluate(e, env)));
      lines.push(`  tlab_print(${index}, ${toCpp(e, { symbol: (s) => `sym_${s}` })});`);
    });
    const program = [
      CPP_SYMBOLIC_HELPERS,
      '#include <cstdio>',
      'template <class T> static void tlab_print(int id, T v) {',
      '  if constexpr (std::is_same_v<T, bool>) std::printf("%d %d\\n", id, v ? 1 : 0);',
      '  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) std::printf("%d %lld\\n", id, static_cast<long long>(v));',
      '  else if constexpr (std::is_integral_v<T>) std::printf("%d %llu\\n", id, static_cast<unsigned long long>(v));',
      '  else std::printf("%d float:%.17g\\n", id, static_cast<double>(v));',
      '}',
      'int main() {',
      ...Object.entries(INT_SYMBOLS).map(([name, v]) => `  const long long sym_${name} = ${v}LL;`),
      ...Object.entries(FLOAT_SYMBOLS).map(([name, v]) => `  const double sym_${name} = ${v};`),
      ...lines,
      '  return 0;',
      '}',
    ].join('\n');
    const source = join(workDir, 'exprs.cpp');
    const binary = join(workDir, 'exprs');
    writeFileSync(source, program);
    execFileSync('g++', ['-std=c++17', '-O1', '-Wall', '-Wextra', '-Werror', '-Wno-unused-variable', '-o', binary, source], {
      stdio: 'pipe',
    });
    const output = execFileSync(binary, { encoding: 'utf8' }).trim().split('\n');
    expect(output).toHaveLength(CASES.length);
    output.forEach((line, index) => {
      const [id, got] = line.split(' ');
      expect(Number(id)).toBe(index);
      const want = wanted[index]!;
      const label = `${CASES[index]![1]} → ${toCpp(parseCase(...CASES[index]!))}`;
      if (want.startsWith('float:')) {
        expect(got!.startsWith('float:') ? Number(got!.slice(6)) : Number(got), label).toBeCloseTo(Number(want.slice(6)), 12);
      } else {
        expect(got, label).toBe(want);
      }
    });
  });
});
